import { describe, expect, it } from 'vitest';
import { viewActionForKey } from './view-keys.js';

describe('viewActionForKey (the 3D view by keyboard)', () => {
  it('arrows orbit, Shift+arrows pan', () => {
    expect(viewActionForKey({ key: 'ArrowLeft' })).toEqual({ kind: 'orbit', direction: 'left' });
    expect(viewActionForKey({ key: 'ArrowRight' })).toEqual({ kind: 'orbit', direction: 'right' });
    expect(viewActionForKey({ key: 'ArrowUp' })).toEqual({ kind: 'orbit', direction: 'up' });
    expect(viewActionForKey({ key: 'ArrowDown' })).toEqual({ kind: 'orbit', direction: 'down' });
    expect(viewActionForKey({ key: 'ArrowLeft', shiftKey: true })).toEqual({ kind: 'pan', direction: 'left' });
    expect(viewActionForKey({ key: 'ArrowDown', shiftKey: true })).toEqual({ kind: 'pan', direction: 'down' });
  });

  it('+, = and Page Up zoom in; −, _ and Page Down zoom out (with or without Shift)', () => {
    for (const key of ['+', '=', 'PageUp']) expect(viewActionForKey({ key })).toEqual({ kind: 'zoom', direction: 'in' });
    expect(viewActionForKey({ key: '+', shiftKey: true })).toEqual({ kind: 'zoom', direction: 'in' });
    for (const key of ['-', '_', 'PageDown']) expect(viewActionForKey({ key })).toEqual({ kind: 'zoom', direction: 'out' });
  });

  it('F fits, R and Home reset', () => {
    expect(viewActionForKey({ key: 'f' })).toEqual({ kind: 'fit' });
    expect(viewActionForKey({ key: 'F', shiftKey: true })).toEqual({ kind: 'fit' });
    for (const key of ['r', 'R', 'Home']) expect(viewActionForKey({ key })).toEqual({ kind: 'reset' });
  });

  it('leaves every other key and every Ctrl/Cmd/Alt combination to the browser', () => {
    for (const key of ['Tab', 'Enter', ' ', 'Escape', 'End', 'a', 'x']) expect(viewActionForKey({ key })).toBeNull();
    expect(viewActionForKey({ key: 'ArrowLeft', ctrlKey: true })).toBeNull();
    expect(viewActionForKey({ key: 'r', metaKey: true })).toBeNull();
    expect(viewActionForKey({ key: '+', altKey: true })).toBeNull();
  });
});
