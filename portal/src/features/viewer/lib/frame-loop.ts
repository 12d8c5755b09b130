/**
 * On-demand rendering for one canvas: a frame is drawn when asked for (the camera, the scene or
 * the size changed; Spark asks when it has generated, sorted or refined splats) and while the
 * owner says it is busy (a camera flight); then the loop sleeps, so an idle viewer costs nothing.
 * No frame is drawn just in case: in software WebGL every frame of a large splat costs the GPU
 * process a second or more, and the browser does not hold back animation frames for it, so
 * frames drawn without a change pile up and delay the one that shows something new.
 */

/** The requestAnimationFrame loop of one engine. Call {@link dispose} at the end. */
export class FrameLoop {
  /** Frames drawn so far. */
  drawn = 0;
  private frameRequest = 0;
  private waiters: { test: () => boolean; resolve: () => void }[] = [];
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

  /** Asks for a frame (asks made before it is drawn share it). */
  request(): void {
    this.schedule();
  }

  /**
   * Resolves after the first frame drawn from now on for which `test()` holds, after `timeoutMs`
   * at most, or when the loop stops. Asks for one frame; later ones come when something else asks
   * (a renderer that finishes work of its own asks for a frame).
   * @param test read after each drawn frame
   * @param timeoutMs the longest wait, ms
   */
  whenDrawn(test: () => boolean, timeoutMs: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = {
        test,
        resolve: () => {
          clearTimeout(timer);
          this.waiters = this.waiters.filter((w) => w !== waiter);
          resolve();
        },
      };
      const timer = setTimeout(waiter.resolve, timeoutMs);
      this.waiters.push(waiter);
      this.request();
    });
  }

  private schedule(): void {
    if (this.frameRequest === 0 && !this.stopped) this.frameRequest = requestAnimationFrame(this.frame);
  }

  private readonly frame = (): void => {
    this.frameRequest = 0;
    if (this.stopped) return;
    this.draw();
    this.drawn += 1;
    this.afterDraw();
    for (const waiter of this.waiters.filter((w) => w.test())) waiter.resolve();
    if (this.busy()) this.schedule();
  };

  /** Stops the loop for good; whoever waits in {@link whenDrawn} is let go. */
  dispose(): void {
    this.stopped = true;
    for (const waiter of [...this.waiters]) waiter.resolve();
    if (this.frameRequest !== 0) cancelAnimationFrame(this.frameRequest);
  }
}
