import { describe, expect, it } from 'vitest';
import { defaultUpAxis, parseUpAxis, rememberedUpAxis, rememberUpAxis, upAxisStorageKey } from './up-axis.js';

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

describe('up axis', () => {
  it('defaults to y-down (the 3DGS fix) for a model with a splat, y-up for a GLB only', () => {
    expect(defaultUpAxis(true)).toBe('y-down');
    expect(defaultUpAxis(false)).toBe('y-up');
  });

  it('reads only the two known values', () => {
    expect(parseUpAxis('y-down')).toBe('y-down');
    expect(parseUpAxis('y-up')).toBe('y-up');
    expect(parseUpAxis('Y-UP')).toBeNull();
    expect(parseUpAxis(null)).toBeNull();
  });

  it('remembers the choice per publicId', () => {
    const storage = memoryStorage();
    expect(rememberedUpAxis('A', storage)).toBeNull();
    rememberUpAxis('A', 'y-up', storage);
    expect(storage.items.get(upAxisStorageKey('A'))).toBe('y-up');
    expect(rememberedUpAxis('A', storage)).toBe('y-up');
    expect(rememberedUpAxis('B', storage)).toBeNull();
  });

  it('survives storage that throws (private mode, full quota)', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
    };
    expect(rememberedUpAxis('A', broken)).toBeNull();
    expect(() => rememberUpAxis('A', 'y-down', broken)).not.toThrow();
  });
});
