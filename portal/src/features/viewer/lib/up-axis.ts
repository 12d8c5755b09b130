/**
 * The up axis of a model's 3D file. 3DGS training output (and so most splats) is y-down: the
 * viewer turns it 180° about x ('Flip up axis' pressed) unless told otherwise. A GLB is y-up by
 * the glTF specification and is shown as stored. A user's choice is remembered per model
 * (publicId) in localStorage, and in the single view also in the URL (`up=y-down|y-up`).
 */

/** `y-down`: the file is y-down, the viewer flips it; `y-up`: shown as stored. */
export type UpAxis = 'y-down' | 'y-up';

/** Reads an `up` value; anything else is null. */
export function parseUpAxis(value: string | null | undefined): UpAxis | null {
  return value === 'y-down' || value === 'y-up' ? value : null;
}

/**
 * The up axis a model starts with when nobody chose one: y-down (flipped) when it has a splat,
 * y-up for a GLB-only model.
 */
export function defaultUpAxis(hasSplat: boolean): UpAxis {
  return hasSplat ? 'y-down' : 'y-up';
}

/** The localStorage key of a model's up-axis choice. */
export function upAxisStorageKey(publicId: string): string {
  return `catalog.viewer.up.${publicId}`;
}

/**
 * The remembered up-axis choice of a model.
 * @param storage defaults to `window.localStorage`; unavailable storage (private mode, tests) reads as null
 */
export function rememberedUpAxis(publicId: string, storage: Pick<Storage, 'getItem'> | null = safeLocalStorage()): UpAxis | null {
  try {
    return parseUpAxis(storage?.getItem(upAxisStorageKey(publicId)));
  } catch {
    return null;
  }
}

/**
 * Remembers a model's up-axis choice (silently does nothing when storage is unavailable or full).
 * @param storage defaults to `window.localStorage`
 */
export function rememberUpAxis(publicId: string, up: UpAxis, storage: Pick<Storage, 'setItem'> | null = safeLocalStorage()): void {
  try {
    storage?.setItem(upAxisStorageKey(publicId), up);
  } catch {
    // the choice lasts for this page only
  }
}

function safeLocalStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}
