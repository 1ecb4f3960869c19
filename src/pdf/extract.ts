/**
 * pdf.js page → neutral `PageInput`: text runs with boxes, ruling segments, rectangles and image
 * boxes, all in points in the upright view of the page (top-left origin). This is the only module of
 * the layout path that knows pdf.js.
 */
import type { ImageBox, PageInput, Rect, Segment, TextItem } from '../layout/types.js';
import type { PdfObjects } from './pdf-objects.js';
import { linkAreas, readAnnotations } from './links.js';
import { apply, clippedBox, mul, type Matrix } from './matrix.js';
import { OPS as OP } from './ops.js';
import { textFromOperators, type FontFacts } from './operator-text.js';
import type { PdfOperatorList, PdfPage, PdfTextItem } from './pdfjs-types.js';
import { pdfjsNormalizeUnicode } from './pdfjs.js';
import { symbolGlyphText } from './symbol-glyphs.js';

// Operator codes of pdf.js's path encoding (DrawOPS); stable across pdf.js 4–6.
const DRAW = { moveTo: 0, lineTo: 1, curveTo: 2, quadraticCurveTo: 3, closePath: 4 } as const;

// (The page's type is imported from here by the text worker and tests.)
export type { PdfPage } from './pdfjs-types.js';

const BOLD_NAME =
  /(bold|black|heavy|semibold|demi|extrabold|ultrabold|CMBX|CMB\d|-Bd|Bd$|,B\b|-Medi(?:Ital)?$|Semibd|Sb$)/i;
const ITALIC_NAME = /(italic|oblique|slanted|CMTI|CMSL|CMMI|-It|It$|Ital|,I\b)/i;

interface FontInfo {
  name: string;
  bold: boolean;
  italic: boolean;
  monospace: boolean;
}

/** pdf.js's font object for a font id of the page, or null while (or when) it is not resolved. */
function fontObject(page: PdfPage, id: string): unknown {
  try {
    if (page.commonObjs.has && !page.commonObjs.has(id)) return null;
    return page.commonObjs.get(id) ?? null;
  } catch {
    return null;
  }
}

function fontInfo(page: PdfPage, id: string, family: string | undefined, cache: Map<string, FontInfo>): FontInfo {
  let info = cache.get(id);
  if (info) return info;
  let name = '';
  let flagsBold = false;
  let flagsItalic = false;
  let mono = family === 'monospace';
  // A font not resolved keeps its name unknown.
  const f = fontObject(page, id) as {
    name?: string;
    bold?: boolean;
    italic?: boolean;
    black?: boolean;
    isMonospace?: boolean;
  } | null;
  if (f) {
    name = String(f.name ?? '');
    flagsBold = !!(f.bold || f.black);
    flagsItalic = !!f.italic;
    mono ||= !!f.isMonospace;
  }
  const base = name.replace(/^[A-Z]{6}\+/, '');
  info = {
    name: base,
    bold: flagsBold || BOLD_NAME.test(base),
    italic: flagsItalic || ITALIC_NAME.test(base),
    monospace: mono,
  };
  cache.set(id, info);
  return info;
}

/** TeX's math extension fonts: Computer Modern, Latin Modern, txfonts, pxfonts, Euler, STIX size variants. */
const EXTENSION_FONT = /(?:^|[+_-])(?:cmex|lmmathextension|lmex|txex|pxex|euex|stixsize)/i;

/** Direction of a vector quantised to 0, 90, 180, 270 degrees (y down). */
function quadrant(dx: number, dy: number): number {
  const a = (Math.atan2(dy, dx) * 180) / Math.PI;
  const q = Math.round(a / 90) * 90;
  return ((q % 360) + 360) % 360;
}

/** How far, in degrees, a direction is from the nearest of 0, 90, 180 and 270. */
function offAxis(dx: number, dy: number): number {
  const a = ((((Math.atan2(dy, dx) * 180) / Math.PI) % 90) + 90) % 90;
  return Math.min(a, 90 - a);
}

export interface ExtractOptions {
  /** Skip vector paths and images (cheaper, no ruled tables or figures). */
  textOnly?: boolean;
  /** Text runs from pdf.js's text content even where the operator list carries them. */
  textContent?: boolean;
  /** The document's objects read directly, to tell pages that cannot link to an address (see links.ts). */
  objects?: PdfObjects | null;
}

export async function extractPage(page: PdfPage, pageNumber: number, opts: ExtractOptions = {}): Promise<PageInput> {
  const viewport = page.getViewport({ scale: 1 });
  const vt = viewport.transform as Matrix;
  let ops: PdfOperatorList | null = null;
  // Read alongside the operator list; a page whose annotations cannot be read has no links.
  const annotations = readAnnotations(page, opts.objects);
  // Annotations (form widgets and their appearance streams) are left out: their text is not page text.
  // The operator list also makes pdf.js resolve the fonts (names, bold/italic flags) read below.
  if (!opts.textOnly) ops = await page.getOperatorList({ annotationMode: 0 });
  // The text runs from the operator list where it carries them all (src/pdf/operator-text.ts), from
  // pdf.js's text content otherwise: one reading of the content stream instead of two.
  const content =
    (ops && !opts.textContent
      ? textFromOperators(ops, (id) => fontObject(page, id) as FontFacts | null, page.view ?? [], pdfjsNormalizeUnicode)
      : null) ?? (await page.getTextContent({ disableNormalization: false }));

  const fonts = new Map<string, FontInfo>();
  interface Raw {
    item: PdfTextItem;
    q: number;
    chars: number;
  }
  const raws: Raw[] = [];
  const qChars = new Map<number, number>();
  for (const it of content.items) {
    if (!('str' in it)) continue;
    const item = it as PdfTextItem;
    if (!item.str || !item.str.trim()) continue;
    const t = item.transform as Matrix;
    const m = mul(vt, t);
    const q = quadrant(m[0], m[1]);
    // Text set on a slant (a "DRAFT" or "COPY" watermark across the page, a stamp) is no line of the
    // page's text: laid out with it, it would come as a stray heading among the paragraphs.
    if (offAxis(m[0], m[1]) > 20) continue;
    const chars = item.str.length;
    qChars.set(q, (qChars.get(q) ?? 0) + chars);
    raws.push({ item, q, chars });
  }
  // Text drawn sideways on an unrotated page (a landscape table printed on a portrait page): turn the
  // page so that most of its text reads left to right.
  let dominant = 0;
  let best = -1;
  for (const [q, n] of qChars)
    if (n > best) {
      best = n;
      dominant = q;
    }
  let width = viewport.width;
  let height = viewport.height;
  // Extra rotation (clockwise on screen) turning direction `dominant` into 0.
  let extra: Matrix = [1, 0, 0, 1, 0, 0];
  if (dominant === 90) {
    extra = [0, -1, 1, 0, 0, width];
    [width, height] = [height, width];
  } else if (dominant === 180) extra = [-1, 0, 0, -1, width, height];
  else if (dominant === 270) {
    extra = [0, 1, -1, 0, height, 0];
    [width, height] = [height, width];
  }
  const toView = mul(extra, vt);

  const lines: Segment[] = [];
  const rects: Rect[] = [];
  const images: ImageBox[] = [];
  const dots: ImageBox[] = [];
  const paints = ops ? collectGraphics(ops, toView, width, height, lines, rects, images, dots) : undefined;
  const links = linkAreas(await annotations, toView, width, height);
  // Where each character of a run lies matters only where a link or a drawn line may mark part of it.
  const wantEdges = links.length > 0 || lines.some((s) => Math.abs(s.y1 - s.y0) <= 0.5);

  const items: TextItem[] = [];
  const turned: TextItem[] = [];
  for (const { item, q } of raws) {
    // Runs at a right angle to the page's text are kept apart (heads turned over narrow columns);
    // upside-down runs are left out.
    const angle = (q - dominant + 360) % 360;
    if (angle === 180) continue;
    const m = mul(toView, item.transform as Matrix);
    const style = content.styles[item.fontName];
    const font = fontInfo(page, item.fontName, style?.fontFamily, fonts);
    const size = Math.hypot(m[2], m[3]) || Math.hypot(m[0], m[1]) || 1;
    const ascent = style?.ascent && style.ascent > 0.3 && style.ascent < 1.2 ? style.ascent : 0.8;
    const descent = style?.descent && style.descent < 0 && style.descent > -0.6 ? -style.descent : 0.2;
    // Item width is in text space scaled by the item transform's x scale; express it in view units.
    const tx = Math.hypot(item.transform[0]!, item.transform[1]!) || 1;
    const w = (item.width / tx) * Math.hypot(m[0], m[1]);
    const x0 = m[4];
    const baseline = m[5];
    if (!Number.isFinite(x0) || !Number.isFinite(baseline) || !Number.isFinite(w)) continue;
    const text = symbolGlyphText(item.str, font.name);
    const common = {
      text,
      fontSize: Math.round(size * 10) / 10,
      fontName: font.name,
      bold: font.bold,
      italic: font.italic,
      ...(font.monospace ? { monospace: true } : {}),
    };
    if (angle !== 0) {
      turned.push({ ...common, ...turnedBox(m, w, ascent, descent), dir: 'ltr', angle: angle as 90 | 270 });
      continue;
    }
    // TeX's math extension fonts (tall brackets, big operators) hang their glyphs from the origin:
    // their box lies under the baseline, over the formula's line, not a line above it.
    const hanging = EXTENSION_FONT.test(font.name);
    const glyphs = wantEdges && item.width > 0 ? item.glyphEdges?.() : null;
    const edges =
      glyphs && glyphs.length === text.length + 1 && text.length === item.str.length
        ? glyphs.map((e) => x0 + (e / item.width) * w)
        : null;
    items.push({
      ...common,
      x0: Math.min(x0, x0 + w),
      x1: Math.max(x0, x0 + w),
      y0: hanging ? baseline - 0.05 * size : baseline - ascent * size,
      y1: hanging ? baseline + 1.15 * size : baseline + descent * size,
      dir: item.dir === 'rtl' ? 'rtl' : 'ltr',
      baseline,
      ...(edges ? { edges } : {}),
    });
  }

  return {
    pageNumber,
    width,
    height,
    rotation: ((page.rotate ?? 0) + dominant) % 360,
    items,
    ...(turned.length ? { turned } : {}),
    lines,
    rects,
    images,
    // (Hundreds of them are a chart's markers, not bullets.)
    ...(dots.length && dots.length <= MAX_DOTS ? { dots } : {}),
    source: 'native_text',
    ...(links.length ? { links } : {}),
    ...(paints !== undefined ? { paints } : {}),
  };
}

/**
 * The upright-view box of a run set at a right angle to the page's text, from its transform in the
 * view (`m`), its advance `w` and its font's ascent and descent: the run reaches `w` along its
 * baseline from the origin, and from its descent below the baseline to its ascent above it.
 */
function turnedBox(
  m: Matrix,
  w: number,
  ascent: number,
  descent: number,
): { x0: number; y0: number; x1: number; y1: number } {
  const len = Math.hypot(m[0], m[1]) || 1;
  const along = [m[0] / len, m[1] / len];
  // Text space's y axis (up from the baseline) in the view is (m[2], m[3]), scaled by the font size.
  const xs: number[] = [],
    ys: number[] = [];
  for (const a of [0, w])
    for (const h of [-descent, ascent]) {
      xs.push(m[4] + along[0]! * a + m[2] * h);
      ys.push(m[5] + along[1]! * a + m[3] * h);
    }
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

/** Collects rulings, rectangles and image boxes; returns how many marks other than text the page paints. */
/**
 * Operators that set state without painting or moving anything. Producers set colours, a graphics
 * state, marked content or a clip between an image's placement and its `Do` (Chromium writes
 * `q cm rg RG gs ... BDC Do EMC Q`): a dropped image's placement is still recognised across them.
 */
const PAINTS_NOTHING: ReadonlySet<number> = new Set([
  OP.dependency,
  OP.setLineWidth,
  OP.setLineCap,
  OP.setLineJoin,
  OP.setMiterLimit,
  OP.setDash,
  OP.setRenderingIntent,
  OP.setFlatness,
  OP.setGState,
  OP.setStrokeColorSpace,
  OP.setFillColorSpace,
  OP.setStrokeColor,
  OP.setStrokeColorN,
  OP.setFillColor,
  OP.setFillColorN,
  OP.setStrokeGray,
  OP.setFillGray,
  OP.setStrokeRGBColor,
  OP.setFillRGBColor,
  OP.setStrokeCMYKColor,
  OP.setFillCMYKColor,
  OP.markPoint,
  OP.markPointProps,
  OP.beginMarkedContent,
  OP.beginMarkedContentProps,
  OP.endMarkedContent,
  OP.clip,
  OP.eoClip,
]);

function collectGraphics(
  ops: PdfOperatorList,
  base: Matrix,
  pw: number,
  ph: number,
  lines: Segment[],
  rects: Rect[],
  images: ImageBox[],
  dots: ImageBox[],
): number {
  let ctm: Matrix = base;
  let paints = 0;
  let lineWidth = 1;
  const stack: Array<{ ctm: Matrix; lineWidth: number }> = [];
  const MAX = 20000; // hostile pages can carry millions of path operations; past this, ruling is noise
  let shapes = 0;
  const { fnArray, argsArray } = ops;
  // An image too large to decode is dropped from the operator list, leaving `save, transform,
  // restore` with nothing painted in between (state may be set there: PAINTS_NOTHING): the
  // transform places the image's unit square.
  let placed: Matrix | null = null;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[] | null;
    if (fn === OP.restore && placed) {
      const pts = [apply(placed, 0, 0), apply(placed, 1, 0), apply(placed, 0, 1), apply(placed, 1, 1)];
      const box = clippedBox(pts, pw, ph);
      if (box && box.x1 - box.x0 >= 8 && box.y1 - box.y0 >= 8) {
        images.push(box);
        paints++;
      }
    }
    // (A clipping path painted with `n` paints nothing either.)
    if (fn === undefined || !(PAINTS_NOTHING.has(fn) || (fn === OP.constructPath && Number(args?.[0]) === OP.endPath)))
      placed = null;
    switch (fn) {
      case OP.save:
        stack.push({ ctm, lineWidth });
        if (stack.length > 1000) stack.shift();
        break;
      case OP.restore: {
        const s = stack.pop();
        if (s) {
          ctm = s.ctm;
          lineWidth = s.lineWidth;
        }
        break;
      }
      case OP.transform:
        if (args && args.length >= 6) {
          const m = args.slice(0, 6).map(Number) as Matrix;
          ctm = mul(ctm, m);
          // Image placements scale the unit square to the image's size; pure moves are not images.
          if (Math.hypot(ctm[0], ctm[1]) >= 8 && Math.hypot(ctm[2], ctm[3]) >= 8) placed = ctm;
        }
        break;
      case OP.setLineWidth:
        lineWidth = Number(args?.[0]) || 0;
        break;
      case OP.paintFormXObjectBegin: {
        stack.push({ ctm, lineWidth });
        const m = args?.[0] as number[] | null;
        if (m && m.length >= 6) ctm = mul(ctm, Array.from(m).slice(0, 6) as Matrix);
        break;
      }
      case OP.paintFormXObjectEnd: {
        const s = stack.pop();
        if (s) {
          ctm = s.ctm;
          lineWidth = s.lineWidth;
        }
        break;
      }
      case OP.paintImageXObject:
      case OP.paintInlineImageXObject:
      case OP.paintImageMaskXObject:
      case OP.paintImageXObjectRepeat:
      case OP.paintImageMaskXObjectRepeat:
      case OP.paintInlineImageXObjectGroup:
      case OP.paintImageMaskXObjectGroup:
      case OP.paintSolidColorImageMask: {
        paints++;
        const pts = [apply(ctm, 0, 0), apply(ctm, 1, 0), apply(ctm, 0, 1), apply(ctm, 1, 1)];
        const box = clippedBox(pts, pw, ph);
        if (box && box.x1 - box.x0 > 2 && box.y1 - box.y0 > 2) images.push(box);
        break;
      }
      case OP.shadingFill:
      case OP.rawFillPath:
        paints++;
        break;
      case OP.constructPath: {
        if (!args) break;
        const paint = Number(args[0]);
        if (paint !== OP.endPath) paints++;
        if (shapes > MAX) break;
        const data = args[1] as ArrayLike<number>[] | ArrayLike<number> | null;
        const path: ArrayLike<number> | null =
          data && typeof (data as ArrayLike<number>[])[0] === 'object'
            ? ((data as ArrayLike<number>[])[0] ?? null)
            : (data as ArrayLike<number> | null);
        if (!path) break;
        const stroke =
          paint === OP.stroke ||
          paint === OP.closeStroke ||
          paint === OP.fillStroke ||
          paint === OP.eoFillStroke ||
          paint === OP.closeFillStroke ||
          paint === OP.closeEOFillStroke;
        const fill =
          paint === OP.fill ||
          paint === OP.eoFill ||
          paint === OP.fillStroke ||
          paint === OP.eoFillStroke ||
          paint === OP.closeFillStroke ||
          paint === OP.closeEOFillStroke;
        if (!stroke && !fill) break;
        shapes += addPath(path, ctm, stroke, fill, lineWidth, pw, ph, lines, rects, dots);
        break;
      }
      default:
    }
  }
  return paints;
}

/** Drawn marks of a page past which they are a chart's markers (none is kept). */
const MAX_DOTS = 400;

/**
 * A small filled mark about as wide as high, 1.5 to 8 pt: how browsers and report writers draw a
 * list's bullets (a disc, a square) instead of setting a glyph.
 */
function dotOf(box: ImageBox): boolean {
  const w = box.x1 - box.x0,
    h = box.y1 - box.y0;
  return w >= 1.5 && h >= 1.5 && w <= 8 && h <= 8 && w <= h * 1.5 && h <= w * 1.5;
}

/** Splits a path into sub-paths; keeps axis-aligned segments and rectangles, and small filled marks (`dots`). Returns shapes added. */
function addPath(
  path: ArrayLike<number>,
  ctm: Matrix,
  stroke: boolean,
  fill: boolean,
  lineWidth: number,
  pw: number,
  ph: number,
  lines: Segment[],
  rects: Rect[],
  dots: ImageBox[],
): number {
  const subpaths: Array<Array<[number, number]>> = [];
  let cur: Array<[number, number]> = [];
  let curved = false;
  let added = 0;
  for (let i = 0; i < path.length && i < 40000;) {
    const op = path[i++];
    if (op === DRAW.moveTo) {
      if (cur.length) subpaths.push(cur);
      cur = [apply(ctm, path[i]!, path[i + 1]!)];
      i += 2;
    } else if (op === DRAW.lineTo) {
      cur.push(apply(ctm, path[i]!, path[i + 1]!));
      i += 2;
    } else if (op === DRAW.curveTo) {
      curved = true;
      cur.push(apply(ctm, path[i + 4]!, path[i + 5]!));
      i += 6;
    } else if (op === DRAW.quadraticCurveTo) {
      curved = true;
      cur.push(apply(ctm, path[i + 2]!, path[i + 3]!));
      i += 4;
    } else if (op === DRAW.closePath) {
      if (cur.length) {
        cur.push(cur[0]!);
        subpaths.push(cur);
        cur = [];
      }
    } else break;
  }
  if (cur.length) subpaths.push(cur);
  if (curved) {
    // Rounded boxes and glyph-like shapes are no rulings; a small filled disc may be a bullet.
    if (fill && dots.length <= MAX_DOTS) {
      // (The corners of the points' extent: no copy of every point of a glyph-like path.)
      let x0 = Infinity,
        y0 = Infinity,
        x1 = -Infinity,
        y1 = -Infinity;
      for (const sp of subpaths)
        for (const [x, y] of sp) {
          x0 = Math.min(x0, x);
          y0 = Math.min(y0, y);
          x1 = Math.max(x1, x);
          y1 = Math.max(y1, y);
        }
      const box = clippedBox(
        [
          [x0, y0],
          [x1, y1],
        ],
        pw,
        ph,
      );
      if (box && dotOf(box)) dots.push(box);
    }
    return 0;
  }
  const scale = Math.sqrt(Math.abs(ctm[0] * ctm[3] - ctm[1] * ctm[2])) || 1;
  const lw = Math.max(0.1, lineWidth * scale);
  for (const sp of subpaths) {
    if (sp.length < 2) continue;
    const box = clippedBox(sp, pw, ph, true);
    if (!box) continue;
    const w = box.x1 - box.x0;
    const h = box.y1 - box.y0;
    const axisAligned = sp.every(
      (p, k) => k === 0 || Math.abs(p[0] - sp[k - 1]![0]) < 0.5 || Math.abs(p[1] - sp[k - 1]![1]) < 0.5,
    );
    if (!axisAligned) continue;
    const isRect = sp.length >= 4 && sp.length <= 6;
    if (fill && isRect && (w < 3 || h < 3)) {
      // A thin filled rectangle is how many producers draw a rule.
      if (w >= h)
        lines.push({ x0: box.x0, x1: box.x1, y0: (box.y0 + box.y1) / 2, y1: (box.y0 + box.y1) / 2, width: h });
      else lines.push({ x0: (box.x0 + box.x1) / 2, x1: (box.x0 + box.x1) / 2, y0: box.y0, y1: box.y1, width: w });
      added++;
      continue;
    }
    if (isRect && w >= 3 && h >= 3) {
      rects.push({ ...box, filled: fill, stroked: stroke });
      if (fill && !stroke && dots.length <= MAX_DOTS && dotOf(box)) dots.push(box);
      added++;
      if (stroke) {
        lines.push(
          { x0: box.x0, x1: box.x1, y0: box.y0, y1: box.y0, width: lw },
          { x0: box.x0, x1: box.x1, y0: box.y1, y1: box.y1, width: lw },
        );
        lines.push(
          { x0: box.x0, x1: box.x0, y0: box.y0, y1: box.y1, width: lw },
          { x0: box.x1, x1: box.x1, y0: box.y0, y1: box.y1, width: lw },
        );
      }
      continue;
    }
    if (!stroke) continue;
    for (let k = 1; k < sp.length; k++) {
      const [ax, ay] = sp[k - 1]!;
      const [bx, by] = sp[k]!;
      if (Math.abs(ay - by) < 0.5 && Math.abs(ax - bx) >= 2)
        lines.push({ x0: Math.min(ax, bx), x1: Math.max(ax, bx), y0: ay, y1: ay, width: lw });
      else if (Math.abs(ax - bx) < 0.5 && Math.abs(ay - by) >= 2)
        lines.push({ x0: ax, x1: ax, y0: Math.min(ay, by), y1: Math.max(ay, by), width: lw });
      else continue;
      added++;
    }
  }
  return added;
}
