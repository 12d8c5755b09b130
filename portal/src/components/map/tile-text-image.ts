/**
 * The images of the tile map's symbol layers: text needs glyph files, which would come from the
 * network, so cluster counts (white on transparent) and point labels (dark on a white pill, cut
 * short with an ellipsis) are drawn on a 2D canvas when MapLibre first asks for them.
 */
import { LABEL_MAX_CHARS } from './marker-labels.js';

/** The device pixel ratio the images are drawn at: the screen's, rounded, from 1 to 3. */
export function textImageRatio(): number {
  return Math.max(1, Math.min(3, Math.round(globalThis.devicePixelRatio || 1)));
}

/**
 * Draws `text` on a 2D canvas at {@link textImageRatio} (cluster counts: white on transparent;
 * labels: dark on a white pill); null where the browser gives no 2D context.
 */
export function textImage(text: string, kind: 'count' | 'label'): ImageData | null {
  const ratio = textImageRatio();
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  const font = `${kind === 'count' ? 700 : 600} ${12 * ratio}px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;
  ctx.font = font;
  const shown = text.length > LABEL_MAX_CHARS ? `${text.slice(0, LABEL_MAX_CHARS - 1)}…` : text;
  const textWidth = Math.ceil(ctx.measureText(shown).width);
  const padX = kind === 'label' ? 5 * ratio : 0;
  canvas.width = Math.max(1, textWidth + 2 * padX);
  canvas.height = 18 * ratio;
  ctx.font = font;
  ctx.textBaseline = 'middle';
  if (kind === 'label') {
    ctx.fillStyle = 'rgba(255, 255, 255, 0.85)';
    ctx.beginPath();
    ctx.roundRect(0, 0, canvas.width, canvas.height, 4 * ratio);
    ctx.fill();
    ctx.fillStyle = '#334155';
  } else {
    ctx.fillStyle = '#ffffff';
  }
  ctx.fillText(shown, padX, canvas.height / 2 + ratio);
  return ctx.getImageData(0, 0, canvas.width, canvas.height);
}
