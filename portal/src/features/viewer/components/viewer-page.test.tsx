/**
 * The viewer page's states in jsdom, on the in-memory backend and with a stand-in for the WebGL engine
 * (jsdom has no WebGL; the real rendering is tested in tests/e2e/viewer.test.ts).
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useLocation } from 'react-router-dom';
import { changeMapInputFile } from '@shared/change-map-document.js';
import { encodeChangeValues } from '@shared/change-map/values-file.js';
import type { ChangeMapData, Model, Project } from '@shared/types.js';
import { createTestBackend, MemoryApp, type TestBackend } from '../../../components/testing/memory-app.js';
import { paths } from '../../../config/paths.js';
import { ViewerPage } from './viewer-page.js';

/** What the stand-in engine was asked to do. */
interface FakeEngine {
  flips: Array<[string, boolean]>;
  visible: Array<[string, boolean]>;
  fits: number;
  disposed: boolean;
  splatGroup: { name: string };
  cameras: Array<{ part: string; count: number; withPhoto: number } | null>;
  camerasVisible: boolean[];
  selected: Array<number | null>;
  views: Array<[number, boolean]>;
  /** Navigation steps asked of the camera rig (its keys and perform()). */
  actions: Array<{ kind: string; direction?: string }>;
  /** The tool canvas clicks go to. */
  activeTool: { click?: (x: number, y: number) => void } | null;
  /** What the camera poses' pick answers. */
  pickAnswer: number | null;
  /** Colours set on the splat ('Changes'); null: its own colours again. */
  colourings: Array<Uint8Array | null>;
  flights: Array<[{ x: number; y: number; z: number }, boolean]>;
}
const engines = vi.hoisted(() => [] as FakeEngine[]);

vi.mock('../lib/engine.js', async () => {
  // The rig's keys are the real key map (view-keys.ts), so the canvas's keys are tested through it.
  const { viewActionForKey } = await import('../lib/view-keys.js');
  type Point = { x: number; y: number; z: number };
  class ViewerEngine {
    renderedFrames = 0;
    onFrame: (() => void) | null = null;
    splatGroup = { name: 'splat frame' };
    meshGroup = { name: 'mesh frame' };
    flips: Array<[string, boolean]> = [];
    visible: Array<[string, boolean]> = [];
    fits = 0;
    disposed = false;
    cameras: Array<{ part: string; count: number; withPhoto: number } | null> = [];
    camerasVisible: boolean[] = [];
    selected: Array<number | null> = [];
    views: Array<[number, boolean]> = [];
    actions: Array<{ kind: string; direction?: string }> = [];
    activeTool: { click?: (x: number, y: number) => void } | null = null;
    pickAnswer: number | null = null;
    lodActive = false;
    // Picking and markers: a pick answers `pointAnswer`, reported like the engine does.
    modelFrame: string | null = null;
    markerLists: unknown[][] = [];
    flights: Array<[Point, boolean]> = [];
    pointAnswer: { point: Point; part: 'splat' | 'mesh' } | null = null;
    // 'Changes': a splat of four Gaussians of opacity 200; the colours it was given.
    colourings: Array<Uint8Array | null> = [];
    splatAlphas() {
      return new Uint8Array(4).fill(200);
    }
    setSplatColours(rgba: Uint8Array | null) {
      this.colourings.push(rgba ? Uint8Array.from(rgba) : null);
      return true;
    }
    constructor() {
      engines.push(this);
    }
    requestRender() {}
    resize() {}
    async whenSplatsShown() {}
    async loadSplat(bytes: Uint8Array) {
      if (bytes[0] === 0) throw new Error('Unsupported PLY format: ascii');
      return 3600;
    }
    async loadGlb() {
      return 1908;
    }
    setVisible(part: string, on: boolean) {
      this.visible.push([part, on]);
    }
    setFlipped(part: string, flipped: boolean) {
      this.flips.push([part, flipped]);
    }
    framingBounds() {
      return { min: [0, 0, 0], max: [1, 1, 1] };
    }
    setModelFrame(part: string) {
      this.modelFrame = part;
    }
    readonly rig = {
      onChange: null as (() => void) | null,
      flying: false,
      state: () => '0,0,0|0,0,0',
      fit: () => {
        this.fits += 1;
      },
      fitTo: () => {
        this.fits += 1;
      },
      perform: (action: { kind: string; direction?: string }) => {
        this.actions.push(action);
      },
      handleKey: (event: KeyboardEvent) => {
        const action = viewActionForKey(event);
        if (action) this.actions.push(action);
        return action !== null;
      },
      flyToPoint: (point: Point, animate = true) => {
        this.flights.push([point, animate]);
      },
      follow: () => {},
    };
    readonly picker = {
      onPicked: null as ((pick: unknown) => void) | null,
      pick: () => this.pointAnswer,
      pickAndReport: () => {
        this.picker.onPicked?.(this.pointAnswer);
        return this.pointAnswer;
      },
      pickCentre: () => this.picker.pickAndReport(),
      click: () => void this.picker.pickAndReport(),
      modelUp: () => ({ x: 0, y: this.modelFrame === 'splat' ? -1 : 1, z: 0 }),
    };
    readonly markers = {
      set: (markers: unknown[]) => {
        this.markerLists.push(markers);
      },
    };
    readonly cameraPoses = {
      onPicked: null as ((index: number) => void) | null,
      set: (list: Array<{ entry: { id: number }; hasPhoto: boolean }> | null, part = 'splat') => {
        this.cameras.push(list ? { part, count: list.length, withPhoto: list.filter((c) => c.hasPhoto).length } : null);
        // the third camera's pose cannot be drawn
        return (list ?? []).map((_c, i) => i !== 2);
      },
      setVisible: (on: boolean) => {
        this.camerasVisible.push(on);
      },
      pick: () => this.pickAnswer,
      click: () => {
        if (this.pickAnswer !== null) this.cameraPoses.onPicked?.(this.pickAnswer);
      },
      select: (index: number | null) => {
        this.selected.push(index);
      },
      viewFrom: (index: number, animate: boolean) => {
        this.views.push([index, animate]);
        return true;
      },
      fitAll: () => {
        this.fits += 1;
      },
    };
    dispose() {
      this.disposed = true;
    }
  }
  return { ViewerEngine, VIEWPORT_BACKGROUND: 0x1b1f24 };
});

const project: Project = {
  id: 'p1',
  name: 'North Ridge Telecom Tower',
  structure_id: 'TWR-001',
  description: '',
  slug: 'twr',
  reference_model_id: 'm1',
};
const hybrid: Model = {
  id: 'm1',
  uuid: 'm1',
  publicId: 'TWR-1',
  name: 'North Ridge Tower, May 2024 survey',
  projectId: 'p1',
  metadata: { captureDate: '2024-05-14' },
  files: { splatPath: 'models/m1/model.ply', splatSize: 100, glbPath: 'models/m1/model.glb', glbSize: 2048 },
};
const splatOnly: Model = {
  id: 'm2',
  uuid: 'm2',
  publicId: 'TWR-2',
  name: 'Tower 2025',
  projectId: 'p1',
  metadata: { captureDate: '2025-06-02' },
  files: { splatPath: 'models/m2/model.splat' },
};
const glbOnly: Model = {
  id: 'm3',
  uuid: 'm3',
  publicId: 'BRG-1',
  name: 'Bridge',
  projectId: 'p1',
  files: { glbPath: 'models/m3/model.glb', glbSize: 4 },
};
const noFiles: Model = { id: 'm4', uuid: 'm4', publicId: 'EMPTY-1', name: 'Empty', projectId: 'p1', files: {} };
const hidden: Model = {
  id: 'm5',
  uuid: 'm5',
  publicId: 'DRAFT-1',
  name: 'Draft',
  projectId: 'p1',
  visible: false,
  files: { splatPath: 'models/m5/model.ply' },
};
const withCameras: Model = {
  id: 'm7',
  uuid: 'm7',
  publicId: 'CAM-1',
  name: 'Tower with photos',
  projectId: 'p1',
  files: {
    splatPath: 'models/m7/model.ply',
    cameraMetadata: 'models/m7/camera-metadata.json',
    images: ['models/m7/images/frame_1.png', 'models/m7/images/frame_3.png'],
  },
};
const identity = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];
const cameraJson = JSON.stringify(
  ['frame_1.jpg', 'frame_2.jpg', 'frame_3'].map((img_name, id) => ({
    id,
    img_name,
    position: [id, 0, -5],
    rotation: identity,
    width: 640,
    height: 480,
    fx: 500,
    fy: 500,
  })),
);
const badSplat: Model = {
  id: 'm6',
  uuid: 'm6',
  publicId: 'BAD-1',
  name: 'Bad',
  projectId: 'p1',
  files: { splatPath: 'models/m6/model.ply' },
};
const models = [hybrid, splatOnly, glbOnly, noFiles, hidden, badSplat, withCameras];

/** Downloads answered by `respond(url)`; by default 100 bytes of 1 (0 for the bad splat). */
let respond: (url: string) => Response;
function bytesResponse(url: string): Response {
  if (url.endsWith('camera-metadata.json')) return new Response(cameraJson);
  return new Response(new Uint8Array(100).fill(url.includes('/m6/') ? 0 : 1), { headers: { 'content-length': '100' } });
}

beforeEach(() => {
  engines.length = 0;
  respond = bytesResponse;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => respond(url)),
  );
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
  window.localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

function renderViewer(test: TestBackend, url: string) {
  return render(
    <MemoryApp backend={test.backend} path={url} pattern={paths.viewer.path}>
      <ViewerPage />
      <LocationProbe />
    </MemoryApp>,
  );
}

const viewports = () => screen.getAllByTestId('viewport');

/**
 * A user's backend where TWR-2 has a change map against the project's reference TWR-1: four
 * Gaussians, level of detection 0.05, moved by +1 in x by the registration; downloads answer its
 * values file.
 */
function withChangeMap(): TestBackend {
  const map: ChangeMapData = {
    referenceModelId: 'm1',
    modelId: 'm2',
    projectId: 'p1',
    valuesPath: 'models/m2/changes/m1.bin',
    // computed from another file of the capture (1 byte), by the maths of this version
    inputs: {
      modelFile: changeMapInputFile({ files: { splatPath: 'models/m2/model.splat', splatSize: 1 } }),
      referenceFile: changeMapInputFile(hybrid),
      alignment: null,
    },
    registration: { matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1], rmsError: 0.01, iterations: 5, pairs: 4 },
    levelOfDetection: 0.05,
    pointCount: 4,
    referencePointCount: 4,
    histogram: { min: -0.5, max: 0.5, counts: [1, 2, 1] },
    regions: [
      { id: 1, side: 'capture', centroid: [3, 2, 1], min: [2, 1, 0], max: [4, 3, 2], count: 1, meanDistance: 0.5, maxDistance: 0.5 },
      { id: 2, side: 'reference', centroid: [0, 0, 0], min: [0, 0, 0], max: [0, 0, 0], count: 1, meanDistance: -0.5, maxDistance: -0.5 },
    ],
    computed_by: 'cli',
  };
  const values = encodeChangeValues({
    levelOfDetection: 0.05,
    distances: Float32Array.from([0.01, 0.2, -0.5, NaN]),
    regionOf: Int32Array.from([0, 1, 2, 0]),
  });
  const test = createTestBackend('user', { projects: [project], models, files: { [map.valuesPath]: { data: values } } });
  test.store.writeDocument('changeMaps', 'm1__m2', { ...map });
  respond = (url) => (url.endsWith('/changes/m1.bin') ? new Response(values) : bytesResponse(url));
  return test;
}

describe('/viewer', () => {
  it("shows a spinner while the session loads, then 'Login Required' with a sign-in link when signed out", async () => {
    renderViewer(createTestBackend(null), '/viewer?id=TWR-1');
    expect(screen.getByText('Loading...')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Login Required' })).toBeTruthy();
    expect(screen.getByText('Please sign in to view 3D models.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/login');
    expect(screen.queryByTestId('viewport')).toBeNull();
  });

  it('answers /viewer/ with a trailing slash too', async () => {
    renderViewer(createTestBackend('user', { projects: [project], models }), '/viewer/?id=TWR-2');
    await waitFor(() => expect(viewports()[0]!.dataset.state).toBe('ready'));
  });

  it("says 'Model Not Found' for an unknown publicId and for a hidden model (user); an admin sees the hidden one", async () => {
    renderViewer(createTestBackend('user', { projects: [project], models }), '/viewer?id=NOPE-9');
    expect(await screen.findByRole('heading', { name: 'Model Not Found' })).toBeTruthy();
    expect(screen.getByText('No model with public ID NOPE-9.')).toBeTruthy();
    expect(viewports()[0]!.dataset.state).toBe('error');
    cleanup();
    renderViewer(createTestBackend('user', { projects: [project], models }), '/viewer?id=DRAFT-1');
    expect(await screen.findByText('No model with public ID DRAFT-1.')).toBeTruthy();
    cleanup();
    renderViewer(createTestBackend('admin', { projects: [project], models }), '/viewer?id=DRAFT-1');
    await waitFor(() => expect(viewports()[0]!.dataset.state).toBe('ready'));
  });

  it('says so when a model has no 3D file', async () => {
    renderViewer(createTestBackend('user', { projects: [project], models }), '/viewer?id=EMPTY-1');
    expect(await screen.findByText('This model has no 3D file.')).toBeTruthy();
    expect(viewports()[0]!.dataset.state).toBe('error');
  });

  it('shows a progress bar per file with bytes and percentage, then the info panel', async () => {
    let release: () => void = () => undefined;
    respond = (url) => {
      if (!url.endsWith('.ply')) return bytesResponse(url);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(50).fill(1));
          release = () => {
            controller.enqueue(new Uint8Array(50).fill(1));
            controller.close();
          };
        },
      });
      return new Response(body, { headers: { 'content-length': '100' } });
    };
    renderViewer(createTestBackend('user', { projects: [project], models }), '/viewer?id=TWR-1');
    expect(await screen.findByText('50 Bytes of 100 Bytes (50%)')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Downloading model.ply' }).getAttribute('value')).toBe('50');
    expect(viewports()[0]!.dataset.state).toBe('loading');
    await act(async () => release());
    await waitFor(() => expect(viewports()[0]!.dataset.state).toBe('ready'));
    const info = screen.getByRole('complementary', { name: 'Model information: TWR-1' });
    expect(within(info).getByRole('heading', { name: 'North Ridge Tower, May 2024 survey' })).toBeTruthy();
    for (const text of ['North Ridge Telecom Tower', 'May 14, 2024', '3,600', '1,908', 'model.ply, 100 Bytes', 'model.glb, 100 Bytes'])
      expect(within(info).getByText(text)).toBeTruthy();
    expect(engines[0]!.fits).toBeGreaterThan(0);
  });

  it('names the file and the reason when a download link fails or a file is unreadable', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const test = createTestBackend('user', { projects: [project], models });
    test.failingLinks.add('models/m3/model.glb');
    renderViewer(test, '/viewer?id=BRG-1');
    // The alert region is in the page before the message arrives: wait for the message in it.
    const alert = await screen.findByRole('alert');
    expect(await within(alert).findByText('Could not load model.glb: no link for models/m3/model.glb')).toBeTruthy();
    expect(viewports()[0]!.dataset.state).toBe('error');
    cleanup();
    renderViewer(createTestBackend('user', { projects: [project], models }), '/viewer?id=BAD-1');
    expect(await screen.findByText('Could not load model.ply: not a readable splat file (Unsupported PLY format: ascii)')).toBeTruthy();
    cleanup();
    respond = (url) => (url.endsWith('.glb') ? new Response('gone', { status: 404 }) : bytesResponse(url));
    renderViewer(createTestBackend('user', { projects: [project], models }), '/viewer?id=TWR-1');
    // A hybrid whose GLB is missing still shows its splat, with the error beside it.
    await waitFor(() => expect(viewports()[0]!.dataset.state).toBe('ready'));
    expect(screen.getByRole('alert').textContent).toBe('Could not load model.glb: the file is missing (HTTP 404)');
  });

  it("defaults 'Flip up axis' on for a splat (kept in the URL when switched) and off for a GLB", async () => {
    renderViewer(createTestBackend('user', { projects: [project], models }), '/viewer/?id=TWR-2');
    const flip = await screen.findByRole('button', { name: 'Flip up axis' });
    expect(flip.getAttribute('aria-pressed')).toBe('true');
    expect(engines[0]!.flips).toEqual([['splat', true]]);
    fireEvent.click(flip);
    expect(flip.getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByTestId('location').textContent).toBe('/viewer/?id=TWR-2&up=y-up');
    expect(engines[0]!.flips.at(-1)).toEqual(['splat', false]);
    expect(window.localStorage.getItem('catalog.viewer.up.TWR-2')).toBe('y-up');
    cleanup();
    renderViewer(createTestBackend('user', { projects: [project], models }), '/viewer?id=BRG-1');
    expect((await screen.findByRole('button', { name: 'Flip up axis' })).getAttribute('aria-pressed')).toBe('false');
    expect(engines.at(-1)!.flips).toEqual([['mesh', false]]);
    expect(screen.queryByRole('button', { name: 'Splat' })).toBeNull();
  });

  it('toggles the splat and the mesh of a hybrid', async () => {
    renderViewer(createTestBackend('user', { projects: [project], models }), '/viewer?id=TWR-1');
    const splat = await screen.findByRole('button', { name: 'Splat' });
    expect(splat.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(splat);
    expect(splat.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(screen.getByRole('button', { name: 'Mesh' }));
    expect(engines[0]!.visible).toEqual([
      ['splat', false],
      ['mesh', false],
    ]);
    for (const name of ['Fit to model', 'Reset view', 'Fullscreen', 'Info']) expect(screen.getByRole('button', { name })).toBeTruthy();
  });

  it('compare mode: two labelled viewports; a missing reference model says so in its own viewport', async () => {
    renderViewer(createTestBackend('user', { projects: [project], models }), '/viewer/?compareMode=true&id=TWR-2&referenceId=TWR-1');
    await waitFor(() => expect(viewports().map((v) => v.dataset.state)).toEqual(['ready', 'ready']));
    expect(viewports().map((v) => v.querySelector('.viewport-label')?.textContent)).toEqual(['TWR-2Jun 2, 2025', 'TWR-1May 14, 2024']);
    expect(screen.getByRole('button', { name: 'Link cameras' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Swipe' }));
    expect(screen.getByRole('slider', { name: /Swipe between/ })).toBeTruthy();
    cleanup();
    renderViewer(createTestBackend('user', { projects: [project], models }), '/viewer?compareMode=true&id=TWR-2&referenceId=DRAFT-1');
    await waitFor(() => expect(viewports().map((v) => v.dataset.state)).toEqual(['ready', 'error']));
    expect(within(viewports()[1]!).getByText('Unable to load reference model information.')).toBeTruthy();
  });

  it('camera poses: frustums in the splat frame, a list, clicking one selects it and shows its photo or says there is none', async () => {
    // Reduced motion on (flights land at once); a desktop width (the phone query does not match).
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('reduce'),
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    renderViewer(createTestBackend('user', { projects: [project], models }), '/viewer?id=CAM-1');
    const panel = await screen.findByRole('complementary', { name: 'Cameras of CAM-1' });
    const engine = engines[0]!;
    // the frustums are handed over by an effect, which may run after the panel shows
    await waitFor(() => expect(engine.cameras).toEqual([{ part: 'splat', count: 3, withPhoto: 2 }]));
    expect(engine.camerasVisible.at(-1)).toBe(true);
    expect(within(panel).getByText('3 cameras, 2 with a photo. Click a frustum or pick one below.')).toBeTruthy();
    expect(
      within(panel)
        .getAllByRole('button', { pressed: false })
        .map((b) => b.textContent),
    ).toEqual(['frame_1.jpg', 'frame_2.jpg (no photo)', 'frame_3']);

    // A click on the canvas that hits a frustum selects that camera and flies (here: jumps, reduced motion) to it.
    engine.pickAnswer = 0;
    act(() => engine.activeTool!.click!(100, 80));
    expect(engine.selected.at(-1)).toBe(0);
    expect(engine.views.at(-1)).toEqual([0, false]);
    expect(within(panel).getByRole('heading', { name: 'frame_1.jpg — camera 1 of 3' })).toBeTruthy();
    const photo = (await within(panel).findByTestId('camera-photo')) as HTMLImageElement;
    expect(photo.getAttribute('src')).toBe('http://files.test/models/m7/images/frame_1.png');
    expect(photo.getAttribute('alt')).toBe('Photo frame_1.png taken from camera frame_1.jpg');
    // A click that misses changes nothing.
    engine.pickAnswer = null;
    act(() => engine.activeTool!.click!(5, 5));
    expect(engine.selected.at(-1)).toBe(0);

    fireEvent.click(within(panel).getByRole('button', { name: 'Next camera' }));
    expect(within(panel).getByTestId('camera-no-photo').textContent).toBe(
      "No photo for this camera: frame_2.jpg is not among the model's images.",
    );
    fireEvent.click(within(panel).getByRole('button', { name: /frame_3/ }));
    expect(within(panel).getByText("This camera's pose could not be read, so it is not drawn.")).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'View from camera' })).toHaveProperty('disabled', true);
    fireEvent.keyDown(panel, { key: 'Escape' });
    expect(engine.selected.at(-1)).toBeNull();
    expect(within(panel).queryByTestId('camera-selected')).toBeNull();

    // The toolbar's toggle hides the frustums and the panel; clicks on the canvas then pick nothing.
    fireEvent.click(screen.getByRole('button', { name: 'Cameras' }));
    expect(engine.camerasVisible.at(-1)).toBe(false);
    expect(engine.activeTool).toBeNull();
    expect(screen.queryByRole('complementary', { name: 'Cameras of CAM-1' })).toBeNull();
  });

  it('camera poses: a malformed camera-metadata file is named, and the model still shows', async () => {
    respond = (url) => (url.endsWith('camera-metadata.json') ? new Response('[{"id": "x"}]') : bytesResponse(url));
    renderViewer(createTestBackend('user', { projects: [project], models }), '/viewer?id=CAM-1');
    await waitFor(() => expect(viewports()[0]!.dataset.state).toBe('ready'));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toMatch(/^Could not load the camera metadata: JSON format error: Camera 1: /),
    );
    expect(screen.getByRole('button', { name: 'Cameras' })).toHaveProperty('disabled', true);
  });

  it('the 3D view by keyboard: a named application; its keys and the toolbar buttons move the view', async () => {
    renderViewer(createTestBackend('user', { projects: [project], models }), '/viewer?id=TWR-1');
    await waitFor(() => expect(viewports()[0]!.dataset.state).toBe('ready'));
    const view = screen.getByRole('application', { name: '3D view of North Ridge Tower, May 2024 survey (TWR-1)' });
    expect(view.tagName).toBe('CANVAS');
    expect(view.tabIndex).toBe(0);
    const engine = engines[0]!;
    const press = (key: string, extra: Record<string, boolean> = {}) => fireEvent.keyDown(view, { key, ...extra });
    expect(press('ArrowLeft')).toBe(false); // handled: default prevented
    press('ArrowUp', { shiftKey: true });
    press('PageUp');
    press('-');
    press('Home');
    press('f');
    expect(press('Tab')).toBe(true); // not handled: the browser moves focus
    expect(press('ArrowLeft', { ctrlKey: true })).toBe(true);
    expect(engine.actions).toEqual([
      { kind: 'orbit', direction: 'left' },
      { kind: 'pan', direction: 'up' },
      { kind: 'zoom', direction: 'in' },
      { kind: 'zoom', direction: 'out' },
      { kind: 'reset' },
      { kind: 'fit' },
    ]);
    engine.actions.length = 0;
    const toolbar = screen.getByRole('group', { name: 'View controls for TWR-1' });
    for (const name of ['Zoom in', 'Zoom out', 'Reset view', 'Fit to model'])
      fireEvent.click(within(toolbar).getByRole('button', { name }));
    expect(engine.actions).toEqual([
      { kind: 'zoom', direction: 'in' },
      { kind: 'zoom', direction: 'out' },
      { kind: 'reset' },
      { kind: 'fit' },
    ]);
  });

  it("the 3D view's description: the model's name, type and counts, and the keys", async () => {
    const description = (canvas: HTMLElement) =>
      canvas
        .getAttribute('aria-describedby')!
        .split(' ')
        .map((id) => document.getElementById(id)!.textContent)
        .join(' ');
    const keys =
      'Arrow keys orbit, Shift+arrow keys pan, + and − (or Page Up and Page Down) zoom, F fits the model, R or Home resets the view.';
    const cases = [
      [
        'TWR-1',
        'North Ridge Tower, May 2024 survey (TWR-1), a hybrid model (Gaussian splat and GLB mesh) of 3,600 splats and 1,908 triangles.',
      ],
      ['TWR-2', 'Tower 2025 (TWR-2), a Gaussian splat of 3,600 splats.'],
      ['BRG-1', 'Bridge (BRG-1), a GLB mesh of 1,908 triangles.'],
    ] as const;
    for (const [id, summary] of cases) {
      renderViewer(createTestBackend('user', { projects: [project], models }), `/viewer?id=${id}`);
      await waitFor(() => expect(viewports()[0]!.dataset.state).toBe('ready'));
      expect(description(screen.getByRole('application'))).toBe(`${summary} ${keys}`);
      expect(screen.getByTestId('viewport-status').textContent).toBe(`Shown: ${summary}`);
      cleanup();
    }
  });

  it('live regions are in the page before their text arrives', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let release: () => void = () => undefined;
    respond = (url) =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            release = () => {
              controller.enqueue(new Uint8Array(100).fill(url.includes('/m6/') ? 0 : 1));
              controller.close();
            };
          },
        }),
        { headers: { 'content-length': '100' } },
      );
    renderViewer(createTestBackend('user', { projects: [project], models }), '/viewer?id=BAD-1');
    const viewport = await screen.findByTestId('viewport');
    const status = within(viewport).getByRole('status');
    const alert = within(viewport).getByRole('alert');
    expect(alert.textContent).toBe('');
    await waitFor(() => expect(status.textContent).toBe('Loading Bad…'));
    await act(async () => release());
    await waitFor(() =>
      expect(alert.textContent).toMatch(/^The model could not be shownCould not load model\.ply: not a readable splat file/),
    );
    // The same elements, not new ones.
    expect(within(viewport).getByRole('alert')).toBe(alert);
    expect(within(viewport).getByRole('status')).toBe(status);
  });

  it('page titles and one h1: the model name, Compare …, Viewer while loading, Login Required', async () => {
    renderViewer(createTestBackend('user', { projects: [project], models }), '/viewer?id=TWR-2');
    await waitFor(() => expect(document.title).toBe('Viewer · Tower Models Catalog'));
    await waitFor(() => expect(document.title).toBe('Tower 2025 · Tower Models Catalog'));
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['Tower 2025']);
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('main').contains(viewports()[0]!)).toBe(true);
    cleanup();
    renderViewer(createTestBackend('user', { projects: [project], models }), '/viewer?compareMode=true&id=TWR-2&referenceId=TWR-1');
    await waitFor(() => expect(document.title).toBe('Compare Tower 2025 with North Ridge Tower, May 2024 survey · Tower Models Catalog'));
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual([
      'Compare — Tower 2025 with reference North Ridge Tower, May 2024 survey',
    ]);
    cleanup();
    renderViewer(createTestBackend('user', { projects: [project], models }), '/viewer?id=NOPE-9');
    await waitFor(() => expect(document.title).toBe('Model Not Found · Tower Models Catalog'));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('3D Viewer — NOPE-9');
    cleanup();
    renderViewer(createTestBackend(null), '/viewer?id=TWR-1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Login Required' })).toBeTruthy();
    // the title is set by an effect after the heading renders
    await waitFor(() => expect(document.title).toBe('Login Required · Tower Models Catalog'));
    expect(screen.getByRole('main').textContent).toContain('Please sign in to view 3D models.');
  });

  it('camera photo by keyboard: closing it gives focus back to the camera in the list', async () => {
    renderViewer(createTestBackend('user', { projects: [project], models }), '/viewer?id=CAM-1');
    const panel = await screen.findByRole('complementary', { name: 'Cameras of CAM-1' });
    const entry = within(panel).getByRole('button', { name: 'frame_1.jpg' });
    entry.focus();
    fireEvent.click(entry);
    expect(within(panel).getByTestId('camera-status').textContent).toBe('Camera frame_1.jpg, 1 of 3: photo frame_1.png.');
    await within(panel).findByTestId('camera-photo');
    const close = within(panel).getByRole('button', { name: 'Close photo' });
    close.focus();
    fireEvent.click(close);
    expect(within(panel).queryByTestId('camera-selected')).toBeNull();
    expect(document.activeElement).toBe(entry);
    expect(within(panel).getByTestId('camera-status').textContent).toBe('');
    // Escape from the photo's controls: the same.
    fireEvent.click(entry);
    within(panel).getByRole('button', { name: 'Next camera' }).focus();
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(within(panel).queryByTestId('camera-selected')).toBeNull();
    expect(document.activeElement).toBe(entry);
    // A photo whose link fails is told in the panel's alert region, there from the start.
    const alert = within(panel).getByRole('alert');
    expect(alert.textContent).toBe('');
  });

  it("'Changes': only for a capture with a change map; colours by distance with a threshold, regions fly the camera, off restores", async () => {
    const test = withChangeMap();

    // The reference itself has no change map: no button.
    const view = renderViewer(test, '/viewer?id=TWR-1');
    await waitFor(() => expect(viewports()[0]!.dataset.state).toBe('ready'));
    expect(screen.queryByRole('button', { name: 'Changes' })).toBeNull();
    view.unmount();

    renderViewer(test, '/viewer?id=TWR-2');
    const toggle = await screen.findByRole('button', { name: 'Changes' });
    await waitFor(() => expect(viewports()[0]!.dataset.state).toBe('ready'));
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    const panel = screen.getByRole('region', { name: 'Changes' });
    await waitFor(() => expect(within(panel).getByRole('status').textContent).toBe('The capture is coloured by change.'));
    const engine = engines.at(-1)!;
    // Grey within the threshold, red, blue, dark grey (not measured); each keeps its opacity.
    const colours = engine.colourings.at(-1)!;
    expect(Array.from(colours.slice(0, 4))).toEqual([150, 150, 150, 200]);
    expect(colours[4]! - Math.max(colours[5]!, colours[6]!)).toBeGreaterThan(100);
    expect(Array.from(colours.slice(8, 12))).toEqual([30, 90, 235, 200]);
    expect(Array.from(colours.slice(12, 16))).toEqual([80, 80, 80, 200]);
    // The map was computed from another file of the capture: out of date.
    expect(within(panel).getByText(/Out of date: The capture's file changed/)).toBeTruthy();
    // No scale: model units, in the legend's text too.
    expect(within(panel).getByTestId('changes-legend').textContent).toMatch(/grey: within ±0.05 model units \(unchanged\)/);
    expect(within(panel).getByText(/This model has no scale/)).toBeTruthy();
    // The threshold starts at the level of detection; raised over 0.2, the red Gaussian turns grey, the blue one (−0.5) stays.
    const slider = within(panel).getByRole('slider', { name: /Threshold/ }) as HTMLInputElement;
    expect(Number(slider.value)).toBeCloseTo(0.05);
    expect(slider.getAttribute('aria-valuetext')).toBe('0.05 model units');
    fireEvent.change(slider, { target: { value: '0.3' } });
    await waitFor(() => expect(Array.from(engine.colourings.at(-1)!.slice(4, 8))).toEqual([150, 150, 150, 200]));
    expect(Array.from(engine.colourings.at(-1)!.slice(8, 12))).toEqual([30, 90, 235, 200]);
    // The regions: side, count, distances; a region's button flies to its centre in the capture's frame (registration undone).
    const regions = within(panel).getAllByTestId('change-region');
    expect(regions.map((r) => r.textContent)).toEqual([
      expect.stringMatching(/^1\. Added or moved: 1 Gaussians, mean \+0.5 model units,\s+max \+0.5 model units/),
      expect.stringMatching(/^2\. Removed: 1 Gaussians, mean −0.5 model units,\s+max −0.5 model units/),
    ]);
    fireEvent.click(within(regions[0]!).getByRole('button', { name: 'Fly to region 1' }));
    expect(engine.flights.at(-1)![0]).toEqual({ x: 2, y: 2, z: 1 });
    // Off: the capture's own colours.
    fireEvent.click(toggle);
    expect(engine.colourings.at(-1)).toBeNull();
    expect(screen.queryByRole('region', { name: 'Changes' })).toBeNull();
  });

  it("'Changes' in compare mode: only against the reference the map was made against; colours the capture, regions fly it, 'Create finding' on it", async () => {
    const test = withChangeMap();
    // TWR-2 compared with another capture of the project (not the map's reference): no button.
    const view = renderViewer(test, '/viewer?compareMode=true&id=TWR-2&referenceId=CAM-1');
    await waitFor(() => expect(viewports().map((v) => v.dataset.state)).toEqual(['ready', 'ready']));
    await screen.findByRole('button', { name: 'Findings' });
    expect(screen.queryByRole('button', { name: 'Changes' })).toBeNull();
    view.unmount();
    // A map stored for that very pair (CAM-1 was once the project's reference, say) is the one compare uses there.
    const { id: _id, ...map } = (await test.backend.catalog.get('changeMaps', 'm1__m2'))!;
    test.store.writeDocument('changeMaps', 'm7__m2', { ...map, referenceModelId: 'm7' });
    const withOld = renderViewer(test, '/viewer?compareMode=true&id=TWR-2&referenceId=CAM-1');
    expect((await screen.findByRole('button', { name: 'Changes' })).getAttribute('aria-pressed')).toBe('false');
    withOld.unmount();

    renderViewer(test, '/viewer?compareMode=true&id=TWR-2&referenceId=TWR-1');
    const toggle = await screen.findByRole('button', { name: 'Changes' });
    await waitFor(() => expect(viewports().map((v) => v.dataset.state)).toEqual(['ready', 'ready']));
    expect(toggle.getAttribute('title')).toBe('Colour the capture by its change against the reference model it is compared with');
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    // The panel in the column beside the stage; the capture's engine (the one coloured) is the compared model's.
    const side = screen.getByTestId('compare-side');
    const panel = within(side).getByRole('region', { name: 'Changes' });
    await waitFor(() => expect(within(panel).getByRole('status').textContent).toBe('The capture is coloured by change.'));
    const [capture, reference] = engines.slice(-2).sort((a, b) => b.colourings.length - a.colourings.length) as [FakeEngine, FakeEngine];
    expect(reference.colourings).toEqual([]);
    expect(Array.from(capture.colourings.at(-1)!.slice(8, 12))).toEqual([30, 90, 235, 200]);
    expect(panel.getAttribute('data-changed-gaussians')).toBe('2');
    const regions = within(panel).getAllByTestId('change-region');
    expect(regions).toHaveLength(2);
    fireEvent.click(within(regions[0]!).getByRole('button', { name: 'Fly to region 1' }));
    expect(capture.flights.at(-1)![0]).toEqual({ x: 2, y: 2, z: 1 });
    expect(reference.flights).toEqual([]);

    // 'Create finding': the Findings panel opens beside it with the form for a finding on the capture, prefilled.
    const findings = screen.getByRole('button', { name: 'Findings' });
    expect(findings.getAttribute('aria-pressed')).toBe('false');
    const create = within(regions[0]!).getByRole('button', { name: 'Create finding from change region 1' });
    create.focus();
    fireEvent.click(create);
    expect(findings.getAttribute('aria-pressed')).toBe('true');
    const findingsPanel = await within(side).findByTestId('compare-findings');
    const form = await within(findingsPanel).findByTestId('finding-form');
    const title = within(form).getByRole('textbox', { name: 'Title' }) as HTMLInputElement;
    expect(title.value).toBe('Change region 1: added or moved');
    expect(document.activeElement).toBe(title);
    expect(within(form).getByTestId('finding-change-region').textContent).toBe(
      'Change region 1 against North Ridge Tower, May 2024 survey: max +0.5 model units',
    );
    // Both panels stay open, the Changes panel first.
    expect(
      within(side)
        .getAllByRole('region')
        .map((r) => r.getAttribute('data-testid')),
    ).toEqual(['changes-panel', 'compare-findings']);
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    // Saved: the form closes with a message, and the finding is listed on the capture.
    await waitFor(() => expect(within(findingsPanel).queryByTestId('finding-form')).toBeNull());
    expect(within(findingsPanel).getByText('Finding F-1 added.')).toBeTruthy();
    const own = within(findingsPanel).getByRole('list', { name: 'Findings of Tower 2025' });
    await waitFor(() => expect(within(own).getAllByRole('listitem')).toHaveLength(1));
    expect(within(own).getByRole('listitem').textContent).toContain('Change region 1: added or moved');
    const stored = await test.backend.catalog.query('annotations', { where: [['modelId', '==', 'm2']] });
    expect(stored.map((a) => [a.title, a.points, a.changeRegion])).toEqual([
      ['Change region 1: added or moved', [{ x: 2, y: 2, z: 1 }], { referenceModelId: 'm1', regionId: 1, maxDistance: 0.5 }],
    ]);
    // Back where it was: the region's button.
    expect(document.activeElement).toBe(create);

    // Off: the capture's own colours, the Findings panel stays.
    fireEvent.click(toggle);
    expect(capture.colourings.at(-1)).toBeNull();
    expect(screen.queryByRole('region', { name: 'Changes' })).toBeNull();
    expect(within(screen.getByTestId('compare-side')).getByTestId('compare-findings')).toBeTruthy();
  });

  it("'Changes' says why a map is out of date: computed by an earlier version, or the capture's camera metadata changed since", async () => {
    const test = withChangeMap();
    const { id: _id, ...map } = (await test.backend.catalog.get('changeMaps', 'm1__m2'))!;
    const outOfDate = async (): Promise<string> => {
      const view = renderViewer(test, '/viewer?id=TWR-2');
      fireEvent.click(await screen.findByRole('button', { name: 'Changes' }));
      const note = await within(screen.getByRole('region', { name: 'Changes' })).findByTestId('changes-out-of-date');
      const text = note.textContent ?? '';
      view.unmount();
      return text;
    };
    // stamped as maps were before the camera metadata and the version were recorded (the same files)
    const oldStamps = {
      modelFile: 'models/m2/model.splat (? bytes, uploaded ?)',
      referenceFile: 'models/m1/model.ply (100 bytes, uploaded ?)',
    };
    test.store.writeDocument('changeMaps', 'm1__m2', { ...map, inputs: { ...map.inputs, ...oldStamps } });
    expect(await outOfDate()).toBe(
      'Out of date: This change map was computed by an earlier version of the catalog. Compute the change map again to bring it up to date.',
    );
    // computed now from both models as they are, then camera metadata added to the capture
    const current = { modelFile: changeMapInputFile(splatOnly), referenceFile: changeMapInputFile(hybrid) };
    test.store.writeDocument('changeMaps', 'm1__m2', { ...map, inputs: { ...map.inputs, ...current } });
    const cameras = { cameraMetadata: 'models/m2/camera-metadata.json', cameraMetadataUploadedAt: '2026-03-01T12:00:00.000Z' };
    test.store.writeDocument('models', 'm2', { ...splatOnly, files: { ...splatOnly.files, ...cameras } });
    expect(await outOfDate()).toBe(
      "Out of date: The capture's camera metadata changed since this change map was computed. Compute the change map again to bring it up to date.",
    );
  });

  it('disposes the engine on unmount', async () => {
    const view = renderViewer(createTestBackend('user', { projects: [project], models }), '/viewer?id=TWR-2');
    await waitFor(() => expect(viewports()[0]!.dataset.state).toBe('ready'));
    view.unmount();
    expect(engines.length).toBeGreaterThan(0);
    expect(engines.every((e) => e.disposed)).toBe(true);
  });
});
