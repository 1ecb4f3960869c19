/**
 * Link annotations → the page's link areas: where a reader clicks to go to a web or mail address,
 * in the upright view of the page (points, top-left origin) like its text. The annotations are read
 * from the page dictionary where the file allows, from pdf.js otherwise. Shared by the text pass
 * (src/pdf/extract.ts) and the OCR pass, whose recognised words are in the same view of the page.
 */
import { attempt, PdfName, PdfRef, type PdfObjects, type PdfValue } from './pdf-objects.js';
import type { Box, LinkArea } from '../layout/types.js';
import { apply, clippedBox, type Matrix } from './matrix.js';

/** What the annotation reader needs of a pdf.js page. */
export interface AnnotatedPage {
  /** The page dictionary's reference. */
  ref?: { num: number; gen: number } | null;
  getAnnotations?(p?: Record<string, unknown>): Promise<unknown[]>;
}

/**
 * The page's annotations (links to an address among them), or none when they cannot be read (a
 * damaged /Annots entry). pdf.js works out the text under every link it hands over by reading the
 * page's text a second time (a third more time on a paper full of citation links), so where the
 * document's objects can be read directly (`objects`), the page's links are read from them and pdf.js
 * is asked only where they cannot be.
 */
export async function readAnnotations(page: AnnotatedPage, objects?: PdfObjects | null): Promise<unknown[]> {
  try {
    const direct = objects && page.ref ? linkAnnotations(objects, page.ref) : null;
    if (direct) return direct;
    const list = await page.getAnnotations?.();
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/** Actions pdf.js may find an address in besides a URI: a remote document or launched file, a script opening a page. */
const OTHER_ADDRESS_ACTIONS = new Set(['GoToR', 'Launch', 'JavaScript']);

/** Annotations read directly on one page; past this the page is left to pdf.js. */
const MAX_DIRECT = 5000;

/** Annotation flags of an annotation not shown: Invisible, Hidden, NoView. */
const NOT_SHOWN = 1 | 2 | 32;

/**
 * The page's links to an address, read from its dictionary directly, in the shape pdf.js gives them
 * (`subtype`, `url`, `rect`, `quadPoints`; links not shown are left out): none for a page whose
 * annotations are all something else (internal links: contents pages, citations, footnote marks). Null wherever
 * pdf.js must read them: an encrypted document (only pdf.js decrypts its strings), an action other
 * than a URI that may name an address, an address that is not plain absolute text, a dictionary this
 * reader cannot reach.
 */
export function linkAnnotations(objects: PdfObjects, ref: { num: number; gen: number }): unknown[] | null {
  const file = fileFacts(objects);
  if (file.encrypted) return null;
  if (!file.mayNameAddresses) return [];
  return attempt((): unknown[] | null => {
    const page = objects.dict(new PdfRef(ref.num, ref.gen));
    if (!page) return null;
    const annots = objects.resolve(page.get('Annots'));
    if (annots === undefined || annots === null) return [];
    if (!Array.isArray(annots) || annots.length > MAX_DIRECT) return null;
    const out: unknown[] = [];
    for (const a of annots) {
      const annot = objects.dict(a);
      if (!annot) return null;
      const subtype = annot.get('Subtype');
      if (!(subtype instanceof PdfName)) return null;
      if (subtype.name !== 'Link' || annot.get('A') === undefined) continue;
      const action = objects.dict(annot.get('A'));
      const kind = action?.get('S');
      if (!action || !(kind instanceof PdfName) || OTHER_ADDRESS_ACTIONS.has(kind.name)) return null;
      if (kind.name !== 'URI') continue;
      const uri = objects.resolve(action.get('URI'));
      // A name or nothing is no address (pdf.js reads a name as a relative one).
      if (typeof uri !== 'string') continue;
      const url = absoluteUrl(uri);
      if (!url) return null;
      const flags = objects.resolve(annot.get('F'));
      if (typeof flags === 'number' && flags & NOT_SHOWN) continue;
      out.push({
        subtype: 'Link',
        url,
        rect: numbersOf(objects, annot.get('Rect')),
        quadPoints: numbersOf(objects, annot.get('QuadPoints')),
      });
    }
    return out;
  });
}

/** Numbers of an array entry, references resolved; undefined when it is not one. */
function numbersOf(objects: PdfObjects, v: PdfValue | undefined): number[] | undefined {
  const arr = objects.resolve(v);
  if (!Array.isArray(arr)) return undefined;
  return arr.map((x) => objects.resolve(x)).map((x) => (typeof x === 'number' ? x : NaN));
}

/**
 * A URI entry as pdf.js makes it a link's `url`: "www." and two dots get http://, the bytes are read
 * as UTF-8 where they are, and it must then parse as an absolute URL. Null for anything this cannot
 * read as pdf.js would: escapes (the reader leaves a literal string's backslashes in), UTF-16, a
 * relative address (pdf.js may resolve it against the document's base).
 */
function absoluteUrl(uri: string): string | null {
  if (uri.includes('\\') || uri.startsWith('\u00FE\u00FF')) return null;
  let url = uri;
  if (url.startsWith('www.') && (url.match(/\./g)?.length ?? 0) >= 2) url = `http://${url}`;
  try {
    url = decodeURIComponent(escape(url));
  } catch {
    /* not UTF-8: kept as it is, as pdf.js keeps it */
  }
  try {
    return new URL(url).href;
  } catch {
    return null;
  }
}

interface FileFacts {
  /** The trailer names an /Encrypt dictionary. */
  encrypted: boolean;
  /**
   * Some object may hold an action that names an address: the file has object streams (whose
   * contents only show inflated) or names such an action in plain text. A file with neither has no
   * link to an address on any page, and its objects need not be indexed at all.
   */
  mayNameAddresses: boolean;
}

const facts = new WeakMap<PdfObjects, FileFacts>();

/** What a look through the file's bytes tells of all its pages (looked for once a document). */
function fileFacts(objects: PdfObjects): FileFacts {
  let f = facts.get(objects);
  if (!f) {
    const b = objects.bytes;
    const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
    f = {
      encrypted: buf.indexOf('/Encrypt') >= 0,
      mayNameAddresses: ['/ObjStm', '/URI', ...[...OTHER_ADDRESS_ACTIONS].map((a) => `/${a}`)].some(
        (name) => buf.indexOf(name) >= 0,
      ),
    };
    facts.set(objects, f);
  }
  return f;
}

/**
 * Link areas read past this many on one page are left out: a generated index or a map can carry
 * thousands of links, and the layout compares every text run with the areas near it.
 */
export const MAX_LINK_AREAS = 2000;

/** Addresses a link may send a reader to from the text: never scripts, data or local files. */
const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:', 'ftp:']);

/** The web or mail address a link annotation goes to, or null (internal destinations, scripts, files). */
export function linkUrl(annotation: unknown): string | null {
  const a = annotation as { subtype?: unknown; url?: unknown; annotationFlags?: unknown } | null;
  if (!a || a.subtype !== 'Link' || typeof a.url !== 'string') return null;
  if (typeof a.annotationFlags === 'number' && a.annotationFlags & NOT_SHOWN) return null;
  // pdf.js gives `url` only for a URI action it could make absolute (`unsafeUrl` is the raw entry).
  let parsed: URL;
  try {
    parsed = new URL(a.url);
  } catch {
    return null;
  }
  if (!LINK_PROTOCOLS.has(parsed.protocol)) return null;
  return a.url;
}

/**
 * The areas of the page's URL links in the upright view: one box per quadrilateral where the
 * annotation has them (a link over the end of one line and the start of the next), its rectangle
 * otherwise. An area as large as a quarter of the page is a click anywhere, not a link of some words.
 */
export function linkAreas(annotations: readonly unknown[], toView: Matrix, pw: number, ph: number): LinkArea[] {
  const out: LinkArea[] = [];
  for (const a of annotations) {
    if (out.length >= MAX_LINK_AREAS) break;
    let url: string | null;
    try {
      url = linkUrl(a);
    } catch {
      url = null;
    }
    if (!url) continue;
    const { rect, quadPoints } = a as { rect?: unknown; quadPoints?: unknown };
    const quads = numbers(quadPoints);
    const boxes: Array<Array<[number, number]>> = [];
    if (quads && quads.length >= 8 && quads.length % 8 === 0) {
      for (let q = 0; q + 8 <= quads.length; q += 8) {
        boxes.push([0, 2, 4, 6].map((k) => apply(toView, quads[q + k]!, quads[q + k + 1]!)));
      }
    } else {
      const r = numbers(rect);
      if (!r || r.length !== 4) continue;
      boxes.push([
        apply(toView, r[0]!, r[1]!),
        apply(toView, r[2]!, r[3]!),
        apply(toView, r[0]!, r[3]!),
        apply(toView, r[2]!, r[1]!),
      ]);
    }
    for (const pts of boxes) {
      const box = clippedBox(pts, pw, ph);
      if (!box || (box.x1 - box.x0) * (box.y1 - box.y0) > (pw * ph) / 4) continue;
      out.push({ ...box, url });
      if (out.length >= MAX_LINK_AREAS) break;
    }
  }
  return out;
}

/** The first `max` entries of an array of finite numbers (plain or typed), or null. */
function numbers(v: unknown, max = 8 * 64): number[] | null {
  if (!Array.isArray(v) && !ArrayBuffer.isView(v)) return null;
  const list = v as ArrayLike<unknown>;
  const out: number[] = [];
  for (let i = 0; i < Math.min(list.length ?? 0, max); i++) out.push(Number(list[i]));
  return out.every(Number.isFinite) ? out : null;
}
