/**
 * The viewer's compare mode (`?compareMode=true&id=&referenceId=`): the compared capture and its
 * reference model side by side with linked cameras, or stacked with a swipe slider. Its header has
 * 'Swipe', 'Link cameras', 'Changes' (when the capture has a change map against the reference model
 * shown: the capture's viewport coloured by it, as in the single view) and 'Findings' (findings
 * across the pair). The open panels stand in a column beside the stage, the Changes panel above
 * the Findings panel, each scrolling on its own; on phones the column lies under the stage (and
 * scrolls as a whole). A change region's 'Fly to' moves the capture's camera (the reference
 * follows while linked); its 'Create finding' opens the Findings panel with the form for a finding
 * on the capture.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { usePageTitle } from '../../../hooks/use-page-title.js';
import type { ViewerEngine } from '../lib/engine.js';
import { unionBounds, type Bounds } from '../lib/framing.js';
import { combineTools } from '../lib/viewport-tools.js';
import { useCompareFindings } from '../hooks/use-compare-findings.js';
import { ChangesPanel, ChangesToggle } from './changes-panel.js';
import { useChangesTool } from '../hooks/use-changes-tool.js';
import { CompareFindingsPanel } from './compare-findings-panel.js';
import { ModelViewport } from './model-viewport.js';
import { useFullscreen, ViewerHeader, type Found } from './viewer-chrome.js';
import './compare-view.css';

/** The compare view of the capture `id` with the reference model `referenceId` (publicIds). */
export function CompareView({ id, referenceId }: { id: string; referenceId: string }) {
  const [ref, fullscreen, toggleFullscreen] = useFullscreen();
  const [linked, setLinked] = useState(true);
  const [layout, setLayout] = useState<'side-by-side' | 'swipe'>('side-by-side');
  const [split, setSplit] = useState(50);
  const [foundModel, setFoundModel] = useState<Found>(undefined);
  const [foundReference, setFoundReference] = useState<Found>(undefined);
  const modelName = foundModel?.model.name ?? id;
  const referenceName = foundReference?.model.name ?? referenceId;
  usePageTitle(foundModel === undefined && foundReference === undefined ? 'Viewer' : `Compare ${modelName} with ${referenceName}`);
  const engines = useRef<{ model: ViewerEngine | null; reference: ViewerEngine | null }>({ model: null, reference: null });
  // The swipe view always links the cameras.
  const linkedNow = linked || layout === 'swipe';
  const variant = layout === 'swipe' ? 'swipe' : 'compare';
  const linkedRef = useRef(linkedNow);
  linkedRef.current = linkedNow;
  // Findings across captures: the 'Findings' panel beside the stage, markers and 3-point picking in the viewports.
  const [findingsOpen, setFindingsOpen] = useState(false);
  const openFindings = useCallback(() => setFindingsOpen(true), []);
  const inspection = useCompareFindings({
    open: findingsOpen,
    model: foundModel?.model ?? null,
    reference: foundReference?.model ?? null,
    onAlignStart: () => setLayout('side-by-side'),
    onOpen: openFindings,
  });
  // Changes: the capture coloured by its change map against the reference model shown (the toggle
  // only when there is one); a region's 'Create finding' opens the findings form on the capture.
  const changes = useChangesTool(foundModel?.model ?? null, {
    onCreateFinding: inspection.createFinding,
    reference: foundReference?.model ?? null,
  });

  const attach = useCallback(
    (side: 'model' | 'reference') => (engine: ViewerEngine | null) => {
      engines.current[side] = engine;
      if (!engine) return;
      engine.rig.onChange = () => {
        const other = engines.current[side === 'model' ? 'reference' : 'model'];
        if (linkedRef.current && other) other.rig.follow(engine.rig);
      };
    },
    [],
  );

  // Both loaded: frame the model and let the reference follow (each framed itself on load; the
  // later one would win at random).
  const ready = useRef({ model: false, reference: false });
  const onReady = useCallback(
    (side: 'model' | 'reference') => () => {
      ready.current[side] = true;
      const { model, reference } = engines.current;
      if (ready.current.model && ready.current.reference && model && reference && linkedRef.current) {
        // Frame both models, so neither is cropped in the shared view.
        model.rig.fitTo(unionBounds([model.framingBounds(), reference.framingBounds()].filter((b): b is Bounds => b !== null)), true);
        reference.rig.follow(model.rig);
      }
    },
    [],
  );
  const { onReady: changesReady } = changes;
  const onModelReady = useCallback(() => {
    onReady('model')();
    changesReady();
  }, [onReady, changesReady]);

  // Linking again (or entering the swipe view): the reference model takes the model's view.
  useEffect(() => {
    const { model, reference } = engines.current;
    if (linkedNow && model && reference) reference.rig.follow(model.rig);
  }, [linkedNow]);

  // The capture's viewport: the changes' colours and flights, the findings' markers and picks, and the camera link.
  const modelTools = combineTools([changes.viewport, { ...inspection.model, onEngine: attach('model') }]);
  const side = changes.panel !== null || inspection.panel !== null;
  return (
    <div ref={ref} className="viewer-page">
      <ViewerHeader
        title={`Compare — ${modelName} with reference ${referenceName}`}
        fullscreen={fullscreen}
        onFullscreen={toggleFullscreen}
      >
        <button type="button" aria-pressed={layout === 'swipe'} onClick={() => setLayout(layout === 'swipe' ? 'side-by-side' : 'swipe')}>
          Swipe
        </button>
        <button
          type="button"
          aria-pressed={linkedNow}
          disabled={layout === 'swipe'}
          onClick={() => setLinked(!linked)}
          title={layout === 'swipe' ? 'The swipe view always links the cameras' : undefined}
        >
          Link cameras
        </button>
        {foundModel && foundReference && changes.available ? <ChangesToggle tool={changes} /> : null}
        {foundModel && foundReference ? (
          <button
            type="button"
            aria-pressed={findingsOpen}
            onClick={() => setFindingsOpen(!findingsOpen)}
            title="Findings of both captures, carried over between them"
          >
            Findings
          </button>
        ) : null}
      </ViewerHeader>
      <div className={`compare-body${side ? ' compare-with-side' : ''}`}>
        <main
          className={`viewer-stage viewer-compare viewer-${layout}`}
          data-testid="compare-stage"
          style={{ ['--split' as string]: `${split}%` }}
        >
          <ModelViewport
            publicId={id}
            onReady={onModelReady}
            onModel={setFoundModel}
            className="compare-model"
            variant={variant}
            {...modelTools}
            flyTo={inspection.model.flyTo}
          />
          {/* In the swipe view the reference model lies on top, clipped to the right of the slider. */}
          <ModelViewport
            publicId={referenceId}
            isReference
            onEngine={attach('reference')}
            onReady={onReady('reference')}
            onModel={setFoundReference}
            className="compare-reference"
            variant={variant}
            {...inspection.reference}
          />
          {layout === 'swipe' ? (
            <>
              <div className="swipe-divider" aria-hidden="true" />
              <input
                className="swipe-slider"
                type="range"
                min={0}
                max={100}
                value={split}
                aria-label="Swipe between the model (left) and the reference model (right)"
                aria-valuetext={`${split}% model, ${100 - split}% reference model`}
                onChange={(event) => setSplit(Number(event.target.value))}
              />
            </>
          ) : null}
        </main>
        {side ? (
          <div className="compare-side" data-testid="compare-side">
            {changes.panel ? <ChangesPanel {...changes.panel} layout="side" /> : null}
            {inspection.panel ? <CompareFindingsPanel {...inspection.panel} /> : null}
          </div>
        ) : null}
      </div>
    </div>
  );
}
