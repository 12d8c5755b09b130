/**
 * On-demand rendering for one canvas: a frame is drawn when asked for (the camera, the scene or
 * the size changed; Spark has a new splat order), continuously while files load and for about a
 * second after, and while the owner says it is busy (a camera flight); then the loop sleeps, so
 * an idle viewer costs nothing.
 */

/** How long frames keep coming after a load, in ms (Spark sorts the new splats on later frames). */
const FRAMES_AFTER_LOAD_MS = 1000;
/** Frames drawn after a load at least, however slow each frame is (software WebGL: seconds each). */
const MIN_FRAMES_AFTER_LOAD = 3;

/** The requestAnimationFrame loop of one engine. Call {@link dispose} at the end. */
export class FrameLoop {
  /** Frames drawn so far. */
  drawn = 0;
  private frameRequest = 0;
  private renderUntil = 0;
  private framesOwed = 0;
  private waiters: { frame: number; resolve: () => void }[] = [];
  private loads = 0;
  private stopped = false;

  /**
   * @param draw draws one frame
   * @param afterDraw called after each frame is drawn and counted
   * @param busy true while frames must keep coming whatever else says (e.g. a camera flight)
   */
  constructor(
    private readonly draw: () => void,
    private readonly afterDraw: () => void,
    private readonly busy: () => boolean,
  ) {}

  /**
   * Asks for a frame, and keeps frames coming for `ms` more milliseconds.
   * @param ms how long to keep drawing after this call (0: one frame)
   */
  request(ms = 0): void {
    if (this.stopped) return;
    this.renderUntil = Math.max(this.renderUntil, performance.now() + ms);
    this.framesOwed = Math.max(this.framesOwed, 1);
    this.schedule();
  }

  /**
   * Resolves once `frames` more frames have been drawn (asking for them), or when the loop stops.
   * @param frames how many frames to wait for, 1 or more
   */
  afterFrames(frames: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.push({ frame: this.drawn + frames, resolve });
      this.framesOwed = Math.max(this.framesOwed, frames);
      this.schedule();
    });
  }

  /** A download started: frames keep coming until {@link endLoading}. */
  beginLoading(): void {
    this.loads += 1;
    this.request();
  }

  /** A download (and its parse) finished, successfully or not: frames continue about a second, 3 at least. */
  endLoading(): void {
    this.loads = Math.max(0, this.loads - 1);
    this.framesOwed = Math.max(this.framesOwed, MIN_FRAMES_AFTER_LOAD);
    this.request(FRAMES_AFTER_LOAD_MS);
  }

  private schedule(): void {
    if (this.frameRequest === 0 && !this.stopped) this.frameRequest = requestAnimationFrame(this.frame);
  }

  private readonly frame = (): void => {
    this.frameRequest = 0;
    if (this.stopped) return;
    this.framesOwed = Math.max(0, this.framesOwed - 1);
    this.draw();
    this.drawn += 1;
    this.afterDraw();
    if (this.waiters.length > 0) {
      const due = this.waiters.filter((w) => w.frame <= this.drawn);
      this.waiters = this.waiters.filter((w) => w.frame > this.drawn);
      for (const waiter of due) waiter.resolve();
    }
    if (this.loads > 0 || this.framesOwed > 0 || this.busy() || performance.now() < this.renderUntil) this.schedule();
  };

  /** Stops the loop for good; whoever waits in {@link afterFrames} is let go. */
  dispose(): void {
    this.stopped = true;
    for (const waiter of this.waiters.splice(0)) waiter.resolve();
    if (this.frameRequest !== 0) cancelAnimationFrame(this.frameRequest);
  }
}
