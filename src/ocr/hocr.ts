/**
 * Reads tesseract's hOCR output into the block → paragraph → line → word tree docmill keeps. hOCR is
 * written by tesseract itself in one pass and carries everything docmill reads (boxes, word
 * confidences, each line's baseline, row height, ascenders and descenders); the JSON block tree of
 * tesseract.js also carries every symbol and its alternatives, which cost about 30 ms of CPU a page
 * to build, parse and pass between threads (bench/README.md, "OCR").
 */

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface HocrWord {
  text: string;
  bbox: Box;
  /** 0..100, as tesseract gives it. */
  confidence: number;
}

export interface HocrLine {
  bbox: Box;
  confidence: number;
  rowAttributes: { rowHeight: number; ascenders: number; descenders: number };
  baseline: Box | null;
  words: HocrWord[];
}

export interface HocrParagraph {
  bbox: Box;
  confidence: number;
  lines: HocrLine[];
}

export interface HocrBlock {
  bbox: Box;
  confidence: number;
  paragraphs: HocrParagraph[];
}

/** Classes tesseract gives text lines (captions, headers and floating text are lines too). */
const LINE_CLASSES = new Set(['ocr_line', 'ocr_caption', 'ocr_header', 'ocr_textfloat']);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescape(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g, (m, e: string) => {
    if (e.startsWith('#x')) return String.fromCodePoint(Number.parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(Number.parseInt(e.slice(1), 10));
    return ENTITIES[e] ?? m;
  });
}

function prop(title: string, name: string): number[] | null {
  const m = new RegExp(`(?:^|;)\\s*${name}\\s+([^;]*)`).exec(title);
  if (!m) return null;
  const v = m[1]!.trim().split(/\s+/).map(Number);
  return v.every((x) => Number.isFinite(x)) ? v : null;
}

function bboxOf(title: string): Box | null {
  const b = prop(title, 'bbox');
  return b && b.length === 4 ? { x0: b[0]!, y0: b[1]!, x1: b[2]!, y1: b[3]! } : null;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** The text blocks of one hOCR page; elements without a box or without text are left out. */
export function parseHocr(hocr: string): HocrBlock[] {
  const blocks: HocrBlock[] = [];
  let block: HocrBlock | null = null;
  let para: HocrParagraph | null = null;
  let line: HocrLine | null = null;
  let word: HocrWord | null = null;
  // Open elements, so a closing tag knows what it closes.
  const stack: string[] = [];
  const tag = /<(\/?)(\w+)([^>]*)>|([^<]+)/g;
  for (let m = tag.exec(hocr); m; m = tag.exec(hocr)) {
    if (m[4] !== undefined) {
      if (word) word.text += m[4];
      continue;
    }
    const closing = m[1] === '/';
    const attrs = m[3] ?? '';
    if (closing) {
      const cls = stack.pop();
      if (cls === 'ocrx_word' && word && line) {
        word.text = unescape(word.text).trim();
        if (word.text) line.words.push(word);
        word = null;
      } else if (cls && LINE_CLASSES.has(cls) && line && para) {
        if (line.words.length) {
          line.confidence = mean(line.words.map((w) => w.confidence));
          para.lines.push(line);
        }
        line = null;
      } else if (cls === 'ocr_par' && para && block) {
        if (para.lines.length) {
          para.confidence = mean(para.lines.map((l) => l.confidence));
          block.paragraphs.push(para);
        }
        para = null;
      } else if (cls === 'ocr_carea' && block) {
        if (block.paragraphs.length) {
          block.confidence = mean(block.paragraphs.map((p) => p.confidence));
          blocks.push(block);
        }
        block = null;
      }
      continue;
    }
    if (attrs.endsWith('/')) continue;
    const cls = /class=['"]([^'"]+)['"]/.exec(attrs)?.[1] ?? '';
    stack.push(cls);
    const title = /title=(['"])(.*?)\1/.exec(attrs)?.[2] ?? '';
    const bbox = bboxOf(title);
    if (cls === 'ocr_carea' && bbox) block = { bbox, confidence: 0, paragraphs: [] };
    else if (cls === 'ocr_par' && bbox && block) para = { bbox, confidence: 0, lines: [] };
    else if (LINE_CLASSES.has(cls) && bbox && para) {
      const rowHeight = prop(title, 'x_size')?.[0] ?? bbox.y1 - bbox.y0;
      // hOCR's baseline: slope and offset from the box's bottom-left corner.
      const bl = prop(title, 'baseline');
      const baseline =
        bl && bl.length === 2
          ? { x0: bbox.x0, y0: bbox.y1 + bl[1]!, x1: bbox.x1, y1: bbox.y1 + bl[1]! + bl[0]! * (bbox.x1 - bbox.x0) }
          : null;
      line = {
        bbox,
        confidence: 0,
        rowAttributes: {
          rowHeight,
          ascenders: prop(title, 'x_ascenders')?.[0] ?? 0,
          descenders: prop(title, 'x_descenders')?.[0] ?? 0,
        },
        baseline,
        words: [],
      };
    } else if (cls === 'ocrx_word' && bbox && line)
      word = { text: '', bbox, confidence: prop(title, 'x_wconf')?.[0] ?? 0 };
  }
  return blocks;
}

/**
 * The boxes of the separators tesseract found on the page (`ocr_separator`): the rules its line
 * finder took out of the image before reading it. Lines of small type can be among them
 * (src/ocr/type-scale.ts).
 */
export function parseSeparators(hocr: string): Box[] {
  const out: Box[] = [];
  for (const m of hocr.matchAll(/<\w+[^>]*class=['"]ocr_separator['"][^>]*>/g)) {
    const title = /title=(['"])(.*?)\1/.exec(m[0])?.[2] ?? '';
    const bbox = bboxOf(title);
    if (bbox) out.push(bbox);
  }
  return out;
}
