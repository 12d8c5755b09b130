/** Whether the browser can draw a WebGL map (without it the key-less map is the plain grid). */

let cached: boolean | null = null;

/**
 * True when a canvas gives a WebGL 2 or WebGL 1 context (asked once; the test context is released).
 * False in jsdom and in browsers with WebGL turned off.
 */
export function hasWebGL(): boolean {
  if (cached !== null) return cached;
  cached = false;
  if (typeof document === 'undefined' || typeof WebGLRenderingContext === 'undefined') return cached;
  try {
    const canvas = document.createElement('canvas');
    const gl = (canvas.getContext('webgl2') ?? canvas.getContext('webgl')) as WebGLRenderingContext | null;
    cached = gl !== null;
    gl?.getExtension('WEBGL_lose_context')?.loseContext();
  } catch {
    cached = false;
  }
  return cached;
}
