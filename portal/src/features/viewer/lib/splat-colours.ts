/**
 * Colours a loaded splat's Gaussians from outside (the viewer's 'Changes' mode) and gives them
 * back: Spark's `SplatMesh.splatRgba` overrides the RGBA of every Gaussian with an `RgbaArray`
 * texture while it is set, without touching the splat's own data, so clearing it restores the
 * original colours (spherical harmonics included). Spark ignores the override while a splat is
 * drawn through its level-of-detail tree, so a splat with one is not coloured.
 */
import { RgbaArray, type SplatMesh } from '@sparkjsdev/spark';
import { hasLod } from './loaders.js';

/**
 * Each Gaussian's own opacity, in file order, as the alpha of an RGBA override (0–255).
 * @param splat the loaded splat
 * @returns one byte a Gaussian
 */
export function splatAlphas(splat: SplatMesh): Uint8Array {
  const alphas: number[] = [];
  splat.forEachSplat((index, _center, _scales, _quaternion, opacity) => {
    alphas[index] = Math.max(0, Math.min(255, Math.round(opacity * 255)));
  });
  return Uint8Array.from(alphas, (a) => a ?? 0);
}

/**
 * Shows `rgba` (4 bytes a Gaussian, file order) instead of the splat's own colours, or its own
 * colours again for null. The array is copied into the override's texture; call again with new
 * values to change them.
 * @param splat the loaded splat
 * @param rgba the colours, or null to restore the splat's own
 * @returns false when the splat cannot be coloured (drawn through its level-of-detail tree), or
 *   when `rgba` does not hold exactly one colour per Gaussian; true otherwise
 */
export function setSplatColours(splat: SplatMesh, rgba: Uint8Array | null): boolean {
  if (rgba === null) {
    if (splat.splatRgba) {
      splat.splatRgba.dispose();
      splat.splatRgba = null;
      splat.updateGenerator();
    }
    return true;
  }
  const count = splat.packedSplats?.numSplats ?? splat.extSplats?.numSplats ?? 0;
  if (hasLod(splat) || rgba.length !== count * 4) return false;
  const override = splat.splatRgba ?? new RgbaArray();
  override.ensureCapacity(count).set(rgba);
  override.count = count;
  override.needsUpdate = true;
  if (splat.splatRgba !== override) {
    splat.splatRgba = override;
    splat.updateGenerator();
  }
  // A new version makes Spark generate the Gaussians again with the new colours.
  splat.needsUpdate = true;
  return true;
}
