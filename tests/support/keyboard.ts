// Keyboard-only browser tests (WCAG 2.1 AA: everything can be done with the keyboard alone): what
// has focus, Tab until a control is reached, and a record of every mouse event the pages see (a
// keyboard walk must have none).
import type { BrowserContext, Page } from 'playwright-core';

/** Most Tab presses {@link tabTo} makes before it says the control cannot be reached. */
export const MAX_TABS = 120;

/** What a test knows about the focused element (`tag` 'body' when nothing has focus). */
export interface Focused {
  tag: string;
  role: string | null;
  /** aria-label, else aria-labelledby's text, else its label's text (a field's `.field-label`), else its own text; collapsed. */
  name: string;
  type: string | null;
  href: string | null;
  testid: string | null;
  pressed: string | null;
  expanded: string | null;
  invalid: string | null;
  /** The text of the nearest card, row, list item or test-id'd element around it (to tell same-named controls apart). */
  context: string;
  /** The aria-label of the nearest labelled ancestor ('' when none). */
  region: string;
  /** Inside a modal dialog (role dialog or alertdialog with aria-modal). */
  inDialog: boolean;
}

/** Describes `document.activeElement` of `page`. */
export function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const text = (node: Element | null | undefined) => (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (!el || el === document.body) {
      return {
        tag: 'body',
        role: null,
        name: '',
        type: null,
        href: null,
        testid: null,
        pressed: null,
        expanded: null,
        invalid: null,
        context: '',
        region: '',
        inDialog: false,
      };
    }
    const labelledBy = el.getAttribute('aria-labelledby');
    const labels = (el as HTMLInputElement).labels;
    const fieldLabel = labels && labels.length > 0 ? (labels[0]!.querySelector('.field-label') ?? labels[0]) : null;
    const name =
      el.getAttribute('aria-label') ??
      (labelledBy
        ? labelledBy
            .split(/\s+/)
            .map((id) => text(document.getElementById(id)))
            .join(' ')
        : null) ??
      (fieldLabel ? text(fieldLabel) : text(el));
    return {
      tag: el.tagName.toLowerCase(),
      role: el.getAttribute('role'),
      name: name.replace(/\s+/g, ' ').trim(),
      type: el.getAttribute('type'),
      href: el.getAttribute('href'),
      testid: el.getAttribute('data-testid'),
      pressed: el.getAttribute('aria-pressed'),
      expanded: el.getAttribute('aria-expanded'),
      invalid: el.getAttribute('aria-invalid'),
      context: text(el.closest('article, [role="row"], tr, li, [data-testid]')).slice(0, 300),
      region: el.closest('[aria-label]')?.getAttribute('aria-label') ?? '',
      inDialog: el.closest('[role="dialog"][aria-modal="true"], [role="alertdialog"][aria-modal="true"]') !== null,
    };
  });
}

/**
 * Presses Tab (Shift+Tab with `back`) until `match` holds for the focused element.
 * @param what the control, for the error message
 * @returns the focused element once it matches
 * @throws Error listing what Tab visited when it is not reached in `max` presses (default {@link MAX_TABS})
 */
export async function tabTo(
  page: Page,
  what: string,
  match: (f: Focused) => boolean,
  { back = false, max = MAX_TABS }: { back?: boolean; max?: number } = {},
): Promise<Focused> {
  const visited: string[] = [];
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const now = await focused(page);
    if (match(now)) return now;
    visited.push(`${now.tag}${now.role ? `[${now.role}]` : ''} '${now.name.slice(0, 40)}'`);
  }
  throw new Error(
    `${what} was not reached with ${max} presses of ${back ? 'Shift+Tab' : 'Tab'}; visited: ${visited.slice(0, 60).join(' → ')}`,
  );
}

/**
 * Records every mouse event the context's pages see, kept across page loads in sessionStorage
 * (read it with {@link mouseEventsSeen}). Enter and Space on a button or link dispatch a `click`
 * with `detail` 0 and no pointer event: that one is not counted.
 */
export async function watchMouse(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    for (const type of ['mousedown', 'mouseup', 'pointerdown', 'click', 'dblclick', 'contextmenu']) {
      window.addEventListener(
        type,
        (event) => {
          if ((event as MouseEvent).detail === 0 && type === 'click') return;
          const seen = JSON.parse(sessionStorage.getItem('mouseUsed') ?? '[]') as string[];
          sessionStorage.setItem('mouseUsed', JSON.stringify([...seen, type]));
        },
        true,
      );
    }
  });
}

/** The mouse events `page` has seen since {@link watchMouse} (empty for a keyboard-only walk). */
export function mouseEventsSeen(page: Page): Promise<string[]> {
  return page.evaluate(() => JSON.parse(sessionStorage.getItem('mouseUsed') ?? '[]') as string[]);
}
