/**
 * Colours of the demo data: sRGB triples in [0, 1], as the structures' palettes give them.
 */

/** An sRGB colour, each channel in [0, 1]. */
export type RGB = [number, number, number];

/**
 * Clamps a channel (or any value) into [0, 1].
 * @param v the value
 * @returns `v` limited to [0, 1]
 */
export const clamp01 = (v: number): number => Math.min(1, Math.max(0, v));

/**
 * The linear value of an sRGB channel (the sRGB transfer curve), because glTF's
 * `baseColorFactor` is linear while the palettes are written in sRGB.
 * @param c an sRGB channel in [0, 1]
 * @returns the linear channel in [0, 1]
 */
export const srgbToLinear = (c: number): number => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
