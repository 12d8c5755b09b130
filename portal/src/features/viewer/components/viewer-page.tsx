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
import { useMemo, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { LoadingState } from '../../../components/ui/spinner.js';
import { paths } from '../../../config/paths.js';
import { usePageTitle } from '../../../hooks/use-page-title.js';
import { BackendProvider, useBackend } from '../../../lib/backend-context.js';
import { useSession } from '../../../lib/session.js';
import { DEMO_SCENE, createDemoBackend } from '../api/demo-scene.js';
import { findingFromQuery, parseViewerQuery, upAxisFromQuery, withUpAxis, type ViewerRequest } from '../lib/query.js';
import type { UpAxis } from '../lib/up-axis.js';
import { ChangesPanel, ChangesToggle } from './changes-panel.js';
import { useChangesTool } from '../hooks/use-changes-tool.js';
import { CompareView } from './compare-view.js';
import { FindingsSide, useFindingsInspection } from './findings-side.js';
import { MeasureTool, useMeasureTool } from './measure-tool.js';
import { ModelViewport } from './model-viewport.js';
import { useFullscreen, ViewerHeader, type Found } from './viewer-chrome.js';
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
  const changes = useChangesTool(found?.model ?? null, { onCreateFinding: inspection.createFinding });
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
        {found && changes.available ? <ChangesToggle tool={changes} /> : null}
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
