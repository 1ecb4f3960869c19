/**
 * Page geometry in the frame the page is displayed in. The layout works on the page turned so that most
 * of its text reads left to right (src/pdf/extract.ts): a page whose /Rotate turns upright text sideways,
 * or one printed with a landscape table across a portrait sheet, is laid out in that turned frame. What a
 * caller draws boxes over is the page as displayed (pdf.js's viewport at scale 1, /Rotate applied), so the
 * reported width, height and every box are turned back into it here, after the layout is done.
 */
import type { BBox, DocPage } from '../model/document.js';

/** Clockwise quarter turns (degrees) from the displayed page to the frame the layout worked in. */
export type LayoutTurn = 0 | 90 | 180 | 270;

/**
 * The turn extract.ts applied on top of the viewport: the page's total rotation to its text-upright
 * frame less the page's own /Rotate.
 */
export function layoutTurn(rotation: number, pageRotate: number): LayoutTurn {
  const turn = (((rotation - pageRotate) % 360) + 360) % 360;
  return turn === 90 || turn === 180 || turn === 270 ? turn : 0;
}

/** A normalised box of the turned frame, in the displayed frame (the inverse of extract.ts's `extra`). */
export function boxInDisplayedFrame(b: BBox, turn: LayoutTurn): BBox {
  const [x0, y0, x1, y1] = b;
  switch (turn) {
    case 90:
      return [1 - y1, x0, 1 - y0, x1];
    case 270:
      return [y0, 1 - x1, y1, 1 - x0];
    case 180:
      return [1 - x1, 1 - y1, 1 - x0, 1 - y0];
    default:
      return b;
  }
}

/** The page with its size and block boxes in the displayed frame. */
export function pageInDisplayedFrame(page: DocPage, turn: LayoutTurn): DocPage {
  if (turn === 0) return page;
  const sideways = turn === 90 || turn === 270;
  return {
    ...page,
    width: sideways ? page.height : page.width,
    height: sideways ? page.width : page.height,
    blocks: page.blocks.map((b) => (b.bbox ? { ...b, bbox: boxInDisplayedFrame(b.bbox, turn) } : b)),
  };
}
