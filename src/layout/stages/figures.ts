/** Figures: the page's images, overlapping ones merged, icons, backgrounds and scans left out. */
import type { Line } from '../lines.js';
import { FIGURE_MAX_AREA, FIGURE_MAX_TEXT_COVER, FIGURE_MIN_AREA, FIGURE_MIN_SIDE } from '../thresholds.js';
import type { Box, ImageBox } from '../types.js';
import { grow } from './elements.js';

export function mergeImages(images: ImageBox[], W: number, H: number, textLines: Line[]): Box[] {
  const area = W * H;
  const boxes: Box[] = [];
  for (const im of images) {
    const a = (im.x1 - im.x0) * (im.y1 - im.y0);
    if (a < area * FIGURE_MIN_AREA || im.x1 - im.x0 < FIGURE_MIN_SIDE || im.y1 - im.y0 < FIGURE_MIN_SIDE) continue;
    if (a > area * FIGURE_MAX_AREA) continue; // page background or scan: not a figure
    const b = { ...im };
    for (let k = boxes.length - 1; k >= 0; k--) {
      const o = boxes[k]!;
      if (o.x0 <= b.x1 + 2 && b.x0 <= o.x1 + 2 && o.y0 <= b.y1 + 2 && b.y0 <= o.y1 + 2) {
        grow(b, o);
        boxes.splice(k, 1);
      }
    }
    boxes.push(b);
  }
  // An image under lots of text is a background panel, not a figure.
  return boxes.filter((b) => {
    const a = (b.x1 - b.x0) * (b.y1 - b.y0);
    let textArea = 0;
    for (const l of textLines) {
      const ox = Math.min(b.x1, l.x1) - Math.max(b.x0, l.x0),
        oy = Math.min(b.y1, l.y1) - Math.max(b.y0, l.y0);
      if (ox > 0 && oy > 0) textArea += ox * oy;
    }
    return textArea < a * FIGURE_MAX_TEXT_COVER;
  });
}
