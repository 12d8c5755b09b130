/**
 * The viewer's keyboard map (WCAG 2.1.1 Keyboard): which key moves the view how, as a pure
 * function so that the mapping is tested without WebGL. The camera rig performs the actions
 * (camera-rig.ts: `CameraRig.handleKey` and `perform`); the viewport's canvas listens for the keys
 * and the toolbar has buttons for the zoom and reset actions.
 */

/** A direction of an orbit or a pan step. */
export type ViewDirection = 'left' | 'right' | 'up' | 'down';

/** One step of keyboard (or button) navigation. */
export type ViewAction =
  | { kind: 'orbit'; direction: ViewDirection }
  | { kind: 'pan'; direction: ViewDirection }
  | { kind: 'zoom'; direction: 'in' | 'out' }
  | { kind: 'fit' }
  | { kind: 'reset' };

/** The keys in words, for the visible hint and the canvas's accessible description. */
export const VIEW_KEYS_HINT =
  'Arrow keys orbit, Shift+arrow keys pan, + and − (or Page Up and Page Down) zoom, F fits the model, R or Home resets the view.';

const ARROWS: Record<string, ViewDirection> = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down' };

/**
 * The action of a key press on the focused 3D view.
 * @param event the KeyboardEvent's `key` and modifier flags
 * @returns the action, or null for a key the view does not use (then the browser keeps it: Tab,
 *   Ctrl/Cmd/Alt shortcuts, Escape…)
 */
export function viewActionForKey(event: {
  key: string;
  shiftKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}): ViewAction | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  const direction = ARROWS[event.key];
  if (direction) return { kind: event.shiftKey ? 'pan' : 'orbit', direction };
  switch (event.key) {
    case '+':
    case '=':
    case 'PageUp':
      return { kind: 'zoom', direction: 'in' };
    case '-':
    case '_':
    case 'PageDown':
      return { kind: 'zoom', direction: 'out' };
    case 'f':
    case 'F':
      return { kind: 'fit' };
    case 'r':
    case 'R':
    case 'Home':
      return { kind: 'reset' };
    default:
      return null;
  }
}
