/**
 * The change map's registration in the 'Changes' panel: the line that states it (its RMS error,
 * iterations and the alignment ICP started from; distances in metres with the capture's scale,
 * else model units), and for admins the two alignment actions it offers. 'Accept as alignment'
 * makes the registration the pair's alignment (an 'icp' alignment, `acceptRegistration`), which
 * keeps the change map up to date (it was measured through that very transform). 'Reset
 * alignment', while the pair's alignment is such an 'icp' one, puts back the manual alignment it
 * replaced, or removes it when it replaced none (`resetAlignment`); the panel says which before
 * the click and asks to confirm, as other admin actions that undo work do. Users read the line
 * only (admins write alignments).
 */
import { formatCount } from '@shared/format.js';
import { errorMessage } from '@shared/errors.js';
import { isAcceptedRegistration } from '@shared/change-map-document.js';
import type { AuthUser } from '@shared/ports/identity.js';
import type { AlignmentPrevious } from '@shared/types.js';
import { alignmentBeforeRegistration } from '@shared/workflows/alignments.js';
import { LiveBanner } from '../../../components/ui/banner.js';
import { useAction } from '../../../hooks/use-action.js';
import { useSession } from '../../../lib/session.js';
import { useAlignmentWrites } from '../api/alignments.js';
import { accountFindingRights } from '../api/annotations.js';
import type { CaptureChangeMap } from '../api/change-maps.js';
import { formatChangeDistance } from '../lib/change-colours.js';
import './change-registration.css';

export interface ChangeRegistrationProps {
  changeMap: CaptureChangeMap;
  /** The capture's scale (`metadata.unitsPerMetre`), or null: model units. */
  unitsPerMetre: number | null;
  /** Asks a yes/no question before a reset (window.confirm in the app). */
  confirm?: (question: string) => boolean;
}

const askUser = (question: string): boolean => window.confirm(question);

/** The registration line, with the admin's accept and reset once the pair's alignment is known. */
export function ChangeRegistration({ changeMap, unitsPerMetre, confirm = askUser }: ChangeRegistrationProps) {
  const session = useSession();
  const signedIn = session.status === 'success' ? session.data : null;
  const admin = signedIn !== null && accountFindingRights(signedIn.user, signedIn.role).align;
  const { map, alignment } = changeMap;
  const { rmsError, iterations } = map.registration;
  const started = map.inputs.alignment?.method ?? 'no stored alignment';
  const accepted = isAcceptedRegistration(map, alignment);
  return (
    <div className="change-registration" data-testid="change-registration">
      <p className="change-registration-text" data-testid="change-registration-text">
        Registration: RMS {formatChangeDistance(rmsError, unitsPerMetre)} after {formatCount(iterations, 'iteration')} (from {started}).
        {accepted ? " Accepted as the pair's alignment." : ''}
      </p>
      {admin && signedIn && alignment !== undefined ? (
        <RegistrationActions changeMap={changeMap} unitsPerMetre={unitsPerMetre} confirm={confirm} user={signedIn.user} />
      ) : null}
    </div>
  );
}

/** An alignment a reset restores, in words. */
function restoredAlignment(previous: AlignmentPrevious, unitsPerMetre: number | null): string {
  return previous.method === '3-point'
    ? `the 3-point alignment it replaced (RMS ${formatChangeDistance(previous.rmsError, unitsPerMetre)})`
    : 'the same-frame alignment it replaced';
}

/** The admin's 'Accept as alignment' and 'Reset alignment', each with what it will do. */
function RegistrationActions({
  changeMap,
  unitsPerMetre,
  confirm,
  user,
}: Required<Omit<ChangeRegistrationProps, 'changeMap'>> & { changeMap: CaptureChangeMap; user: AuthUser }) {
  const { map, filesChanged } = changeMap;
  const alignment = changeMap.alignment ?? null;
  const writes = useAlignmentWrites(map.referenceModelId, map.modelId, user);
  const act = useAction(async (what: () => Promise<string>) => what(), {
    success: (text) => text,
    failure: (error) => errorMessage(error),
  });
  const d = (value: number) => formatChangeDistance(value, unitsPerMetre);
  const accepted = isAcceptedRegistration(map, alignment);
  // undefined: the alignment is not an accepted registration (nothing to reset); null: a reset removes it.
  const restores = alignment ? alignmentBeforeRegistration(alignment) : undefined;

  const accept = () => {
    if (act.busy) return;
    void act.run(async () => {
      const saved = await writes.acceptRegistration();
      return `Registration accepted as the pair's alignment (RMS ${d(saved.rmsError)}).`;
    });
  };
  const reset = () => {
    if (act.busy || restores === undefined) return;
    const question =
      restores === null
        ? 'Reset the alignment? It is removed: the captures will no longer be aligned.'
        : `Reset the alignment to ${restoredAlignment(restores, unitsPerMetre)}?`;
    if (!confirm(question)) return;
    void act.run(async () => {
      const restored = await writes.resetAlignment();
      return restored === null
        ? 'Alignment removed: the captures are no longer aligned.'
        : `Alignment reset to the ${restored.method} alignment.`;
    });
  };

  const acceptNote = filesChanged
    ? `The registration cannot be accepted: ${filesChanged}. Compute the change map again first.`
    : alignment === null
      ? "Accepting makes it the pair's alignment (there is none now); a reset removes it again."
      : alignment.method === 'icp'
        ? "Accepting replaces the registration accepted earlier as the pair's alignment."
        : `Accepting replaces the pair's ${alignment.method} alignment; a reset restores it.`;
  const resetNote =
    restores === undefined
      ? null
      : restores === null
        ? 'Reset alignment removes it: the captures will not be aligned, as before it was accepted.'
        : `Reset alignment restores ${restoredAlignment(restores, unitsPerMetre)}.`;

  return (
    <div className="change-registration-actions" data-testid="change-registration-actions">
      {accepted ? null : (
        <>
          <p className="change-registration-note">{acceptNote}</p>
          {filesChanged ? null : (
            <button type="button" aria-disabled={act.busy || undefined} onClick={accept}>
              Accept as alignment
            </button>
          )}
        </>
      )}
      {resetNote === null ? null : (
        <>
          <p className="change-registration-note" data-testid="change-registration-reset-note">
            {resetNote}
          </p>
          <button type="button" aria-disabled={act.busy || undefined} onClick={reset}>
            Reset alignment
          </button>
        </>
      )}
      <LiveBanner banner={act.message} />
    </div>
  );
}
