/**
 * jsdom has no layout: for component tests of virtualised lists, elements report the
 * height their inline style gives them (what a virtualised list sets on its box), and the window
 * the given height, so that the rows a browser would show near the top render.
 */
export function emulateLayout(viewportHeight: number): void {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this === document.documentElement ? viewportHeight : parseFloat(this.style.height) || 0;
    },
  });
}

/** Back to jsdom's own `clientHeight` (0 everywhere). */
export function restoreLayout(): void {
  Reflect.deleteProperty(HTMLElement.prototype, 'clientHeight');
}
