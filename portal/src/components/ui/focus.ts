/**
 * What Tab reaches, and keeping it inside a dialog (WCAG 2.1.2 and 2.4.3), on the
 * `tabbable` library: it knows which elements the browser's Tab order includes (disabled, inert,
 * hidden, `tabindex`, radio groups, `<details>`…), which a selector list does not. Used by the
 * modal dialogs, the phone drawer, the map popups and the model list's row walk.
 */
import type { KeyboardEvent } from 'react';
import { tabbable, type CheckOptions } from 'tabbable';

/**
 * jsdom lays nothing out, so tabbable's default visibility check (client rects) would call every
 * element hidden there; the component tests run in jsdom, browsers use the full check.
 */
const CHECK: CheckOptions = {
  displayCheck: typeof navigator !== 'undefined' && navigator.userAgent.includes('jsdom') ? 'none' : 'full',
};

/**
 * The elements inside `root` that Tab reaches, in Tab order.
 * @param root the container (null: none)
 * @returns the tabbable elements; empty when there are none or `root` is null
 */
export function tabbableIn(root: Element | null | undefined): HTMLElement[] {
  return root ? (tabbable(root, CHECK) as HTMLElement[]) : [];
}

/**
 * For a container's `onKeyDown`: Tab on its last tabbable element goes to the first one, Shift+Tab
 * on the first (or on the container itself) to the last, and a Tab from outside it comes back in.
 * Other keys are left alone. With nothing tabbable inside, Tab does nothing.
 * @param event the keydown on the container (`currentTarget` is the container)
 */
export function keepTabInside(event: KeyboardEvent<HTMLElement>): void {
  if (event.key !== 'Tab') return;
  const container = event.currentTarget;
  const items = tabbableIn(container);
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) {
    event.preventDefault();
    return;
  }
  const active = document.activeElement;
  const outside = !container.contains(active);
  if (event.shiftKey && (active === first || active === container || outside)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || outside)) {
    event.preventDefault();
    first.focus();
  }
}
