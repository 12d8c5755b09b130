/**
 * The built-in viewer page: answers the external viewer links
 * (`?id=` and `?compareMode=true&id=&referenceId=`, at `/viewer` and `/viewer/`) and the landing
 * cards' demo links. Full window, outside the app shell. Signed-in users only (a 'Login Required'
 * state otherwise), except the landing page's demo: a scene that ships with
 * the portal, shown to anyone through its own read-only backend (api/demo-scene.ts). Single view:
 * one viewport. Compare mode: the model and its reference model side by side with linked cameras,
 * or stacked with a swipe slider. Every state has one h1, a page title (the model's name,
 * 'Compare …', 'Viewer' while loading) and its content in landmarks (the header's chrome, the
 * main stage).
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { LoadingState } from '../../../components/ui/spinner.js';
import { paths } from '../../../config/paths.js';
import { usePageTitle } from '../../../hooks/use-page-title.js';
import { BackendProvider, useBackend } from '../../../lib/backend-context.js';
import { useSession } from '../../../lib/session.js';
import { DEMO_SCENE, createDemoBackend } from '../api/demo-scene.js';
import type { ViewerModel } from '../api/viewer-models.js';
import type { ViewerEngine } from '../lib/engine.js';
import { unionBounds, type Bounds } from '../lib/framing.js';
import { findingFromQuery, parseViewerQuery, upAxisFromQuery, withUpAxis, type ViewerRequest } from '../lib/query.js';
import type { UpAxis } from '../lib/up-axis.js';
import { useCompareFindings } from '../hooks/use-compare-findings.js';
import { ChangesPanel, useChangesTool } from './changes-panel.js';
import { CompareFindingsPanel } from './compare-findings-panel.js';
import { FindingsSide, useFindingsInspection } from './findings-side.js';
import { MeasureTool, useMeasureTool } from './measure-tool.js';
import { ModelViewport } from './model-viewport.js';
import { combineTools } from '../lib/viewport-tools.js';
import '../viewer.css';

/**
 * The viewer page for the current URL: the demo scene for anyone; otherwise a spinner while the
 * session loads, 'Login Required' when signed out (or without a role), else the view the query
 * asks for.
 */
export function ViewerPage() {
  const session = useSession();
  const { search } = useLocation();
  const request = parseViewerQuery(search);
  if (request.mode === 'demo') return <DemoView kind={request.kind} upAxis={upAxisFromQuery(search)} />;
  if (session.status === 'loading') return <ViewerLoading label="Loading..." />;
  if (session.status === 'error' || session.data === null || session.data.role === null) {
    return (
      <ViewerGate title="Login Required" text="Please sign in to view 3D models.">
        <Link className="button button-primary" to={paths.login.getHref()}>
          Sign In
        </Link>
      </ViewerGate>
    );
  }
  return <ViewerForQuery request={request} upAxis={upAxisFromQuery(search)} />;
}

/**
 * The landing page's demo: the demo scene's capture (`splat`), or the capture beside its
 * reference (`compare`), read from the scene's own backend, never from the catalog.
 */
function DemoView({ kind, upAxis }: { kind: 'splat' | 'compare'; upAxis: UpAxis | null }) {
  const app = useBackend();
  const demo = useMemo(() => createDemoBackend(app, import.meta.env.BASE_URL), [app]);
  return (
    <BackendProvider backend={demo}>
      {kind === 'compare' ? (
        <CompareView id={DEMO_SCENE.capture} referenceId={DEMO_SCENE.reference} />
      ) : (
        <SingleView id={DEMO_SCENE.capture} upAxis={upAxis} />
      )}
    </BackendProvider>
  );
}

/** A page of the viewer with a message instead of a model (its title is the page's h1 and title). */
function ViewerGate({ title, text, children }: { title: string; text: string; children?: ReactNode }) {
  usePageTitle(title);
  return (
    <main className="viewer-gate">
      <div className="state state-empty">
        <h1 className="state-title">{title}</h1>
        <p className="state-text">{text}</p>
        {children}
      </div>
    </main>
  );
}

/** The viewer while the session is looked up. */
function ViewerLoading({ label }: { label: string }) {
  usePageTitle('Viewer');
  return (
    <main className="viewer-gate">
      <h1 className="visually-hidden">3D Viewer</h1>
      <LoadingState label={label} />
    </main>
  );
}

/** The model or the comparison a catalog viewer link asks for. */
function ViewerForQuery({ request, upAxis }: { request: Exclude<ViewerRequest, { mode: 'demo' }>; upAxis: UpAxis | null }) {
  if (request.mode === 'invalid') {
    return <ViewerGate title="Nothing to show" text={request.reason} />;
  }
  if (request.mode === 'compare')
    return <CompareView key={`${request.id}|${request.referenceId}`} id={request.id} referenceId={request.referenceId} />;
  return <SingleView key={request.id} id={request.id} upAxis={upAxis} />;
}

/** Puts an element in and out of fullscreen (the Fullscreen API; a refused request is ignored). */
function useFullscreen(): [RefObject<HTMLDivElement | null>, boolean, () => void] {
  const ref = useRef<HTMLDivElement>(null);
  const [on, setOn] = useState(false);
  useEffect(() => {
    const update = () => setOn(document.fullscreenElement !== null && document.fullscreenElement === ref.current);
    document.addEventListener('fullscreenchange', update);
    return () => document.removeEventListener('fullscreenchange', update);
  }, []);
  const toggle = useCallback(() => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void ref.current?.requestFullscreen?.().catch(() => undefined);
  }, []);
  return [ref, on, toggle];
}

function ViewerHeader({
  title,
  fullscreen,
  onFullscreen,
  children,
}: {
  title: string;
  fullscreen: boolean;
  onFullscreen: () => void;
  children?: ReactNode;
}) {
  return (
    <header className="viewer-header">
      <Link className="viewer-back" to={paths.catalog.getHref()}>
        ← Catalog
      </Link>
      <h1 className="viewer-title">{title}</h1>
      <div className="viewer-actions">
        {children}
        <button type="button" aria-pressed={fullscreen} onClick={onFullscreen}>
          Fullscreen
        </button>
      </div>
    </header>
  );
}

/** The model a viewport found: undefined while it looks, null when there is none. */
type Found = ViewerModel | null | undefined;

function SingleView({ id, upAxis }: { id: string; upAxis: UpAxis | null }) {
  const [ref, fullscreen, toggleFullscreen] = useFullscreen();
  const [found, setFound] = useState<Found>(undefined);
  usePageTitle(found ? found.model.name : found === null ? 'Model Not Found' : 'Viewer');
  const navigate = useNavigate();
  const { search } = useLocation();
  // The choice goes into the URL too, so a shared link shows the model the same way up.
  const onUpAxisChange = (up: UpAxis) => navigate({ search: withUpAxis(search, up) }, { replace: true });
  // Findings and the photos of a picked point: a side column, pick mode while it is open.
  const inspection = useFindingsInspection(found?.model ?? null, findingFromQuery(search));
  // The measure tool: while open it takes the picks; 'Save as finding' hands a measurement to the findings panel.
  const measureTool = useMeasureTool(found?.model ?? null, (points, measure, up) => inspection.saveMeasurement({ points, measure, up }));
  // Changes: the capture coloured by its change map against the project's reference (shown only when it has one);
  // a change region's 'Create finding' opens the findings form.
  const changes = useChangesTool(found?.model ?? null, inspection.createFinding);
  return (
    <div ref={ref} className="viewer-page">
      <ViewerHeader title={found ? found.model.name : `3D Viewer — ${id}`} fullscreen={fullscreen} onFullscreen={toggleFullscreen}>
        {found ? (
          <button
            type="button"
            aria-pressed={measureTool.open}
            onClick={measureTool.toggle}
            title="Pick points, measure distances and heights"
          >
            Measure
          </button>
        ) : null}
        {found && changes.available ? (
          <button
            type="button"
            aria-pressed={changes.open}
            onClick={changes.toggle}
            title="Colour the capture by its change against the project's reference model"
          >
            Changes
          </button>
        ) : null}
        {found ? (
          <button
            type="button"
            aria-pressed={inspection.open}
            onClick={inspection.toggle}
            title="Findings, and the photos that see a picked point"
          >
            Findings
          </button>
        ) : null}
      </ViewerHeader>
      <main className={`viewer-stage viewer-single${inspection.side ? ' viewer-with-side' : ''}`}>
        <ModelViewport
          publicId={id}
          upAxis={upAxis}
          onUpAxisChange={onUpAxisChange}
          onModel={setFound}
          onReady={changes.onReady}
          flyTo={inspection.viewport.flyTo}
          {...combineTools([changes.viewport, inspection.viewport, measureTool.viewport])}
        />
        {changes.panel ? <ChangesPanel {...changes.panel} /> : null}
        {measureTool.tool ? <MeasureTool {...measureTool.tool} /> : null}
        {inspection.side ? <FindingsSide {...inspection.side} /> : null}
      </main>
    </div>
  );
}

function CompareView({ id, referenceId }: { id: string; referenceId: string }) {
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
  const inspection = useCompareFindings({
    open: findingsOpen,
    model: foundModel?.model ?? null,
    reference: foundReference?.model ?? null,
    onAlignStart: () => setLayout('side-by-side'),
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

  // Linking again (or entering the swipe view): the reference model takes the model's view.
  useEffect(() => {
    const { model, reference } = engines.current;
    if (linkedNow && model && reference) reference.rig.follow(model.rig);
  }, [linkedNow]);

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
      <div className="compare-body">
        <main
          className={`viewer-stage viewer-compare viewer-${layout}`}
          data-testid="compare-stage"
          style={{ ['--split' as string]: `${split}%` }}
        >
          <ModelViewport
            publicId={id}
            onEngine={attach('model')}
            onReady={onReady('model')}
            onModel={setFoundModel}
            className="compare-model"
            variant={variant}
            {...inspection.model}
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
        {inspection.panel ? <CompareFindingsPanel {...inspection.panel} /> : null}
      </div>
    </div>
  );
}
