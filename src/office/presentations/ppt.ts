/**
 * Legacy PowerPoint 97-2003 (.ppt) from the binary "PowerPoint Document" stream ([MS-PPT]). No
 * maintained npm package reads slide text from .ppt, so this walks the records itself, with the
 * project's small OLE2 reader for the compound file (`cfb` when that cannot read it):
 *
 * - The current edit (Current User stream → UserEditAtom chain → PersistDirectoryAtoms) maps persist
 *   ids to record offsets, so incrementally saved files show their latest state.
 * - Slides come in the order of the slide list (SlideListWithText, instance 0). Text of a slide is in
 *   its placeholders' TextCharsAtom/TextBytesAtom records there, and in the text boxes of the slide's
 *   own drawing (OutlineTextRefAtom points back into the list).
 * - Shapes are placed by their client anchors and read top-to-bottom, left-to-right, title first.
 * - Paragraph indent levels and bullet flags come from StyleTextPropAtom (bulleted paragraphs become
 *   nested lists), bold, italic, superscript and subscript from its character runs, automatic
 *   numbering from the PowerPoint 2000 extension (StyleTextProp9Atom), and tables from groups
 *   flagged as tables. Hyperlinks: an InteractiveInfo with its TxInteractiveInfoAtom range after the
 *   text, its target in the document's ExObjList.
 * - Speaker notes (the notes page's body text) follow the slide's content under `### Notes`.
 *
 * When the persist directory is damaged, the reader falls back to the text atoms of the slide list
 * in stream order and says so in a warning.
 */
import { ParseError } from '../../errors.js';
import { cfbStream, readCfb, type CfbContainer } from '../../containers/compound.js';
import { OleFile } from '../../containers/ole.js';
import type { DocModel, DocPage, Inline, Node, TableCell } from '../../model/document.js';
import type { ReaderContext } from '../../readers/reader.js';
import { paragraphsToNodes, slidePage, trimInlines, type PlacedItem } from './common.js';
import { RT, UTF16, TITLE_TYPES, NOTES_TYPE, type Box, type Transform, type Rec, Stream } from './ppt/records.js';
import {
  type TextRun,
  type Hyperlinks,
  pp9Numbering,
  runParagraphs,
  collectRuns,
  type SlideEntry,
  hyperlinkTargets,
  slideList,
} from './ppt/text-runs.js';

class PptReader {
  readonly warnings: string[] = [];
  private persist = new Map<number, number>();
  private hyperlinks: Hyperlinks = new Map();

  constructor(
    private readonly s: Stream,
    private readonly currentUser: Uint8Array | undefined,
    private readonly ctx: ReaderContext,
  ) {}

  private loadPersist(): number | null {
    if (!this.currentUser || this.currentUser.length < 20) return null;
    const cu = new DataView(this.currentUser.buffer, this.currentUser.byteOffset, this.currentUser.byteLength);
    let offset = cu.getUint32(16, true);
    let docRef: number | null = null;
    const seen = new Set<number>();
    while (offset > 0 && !seen.has(offset) && seen.size < 10000) {
      seen.add(offset);
      const edit = this.s.header(offset);
      if (!edit || edit.type !== RT.UserEditAtom) break;
      docRef ??= this.s.u32(edit.start + 16);
      const dirAt = this.s.u32(edit.start + 12);
      const dir = this.s.header(dirAt);
      if (dir && dir.type === RT.PersistDirectoryAtom) {
        let p = dir.start;
        while (p + 4 <= dir.end) {
          const word = this.s.u32(p);
          const first = word & 0xfffff;
          const n = word >>> 20;
          p += 4;
          for (let k = 0; k < n && p + 4 <= dir.end; k++, p += 4) {
            // Newer edits come first in the chain: keep the first offset seen for an id.
            if (!this.persist.has(first + k)) this.persist.set(first + k, this.s.u32(p));
          }
        }
      }
      offset = this.s.u32(edit.start + 8);
    }
    return docRef;
  }

  private record(persistId: number, type: number): Rec | null {
    const at = this.persist.get(persistId);
    if (at === undefined) return null;
    const r = this.s.header(at);
    return r && r.type === type ? r : null;
  }

  /** The document container: through the persist directory, else the last one in the stream. */
  private document(): Rec | null {
    const ref = this.loadPersist();
    if (ref !== null) {
      const doc = this.record(ref, RT.Document);
      if (doc) return doc;
    }
    let p = 0;
    let last: Rec | null = null;
    while (p + 8 <= this.s.bytes.length) {
      const h = this.s.header(p);
      if (!h || h.end <= p) break;
      if (h.type === RT.Document) last = h;
      p = h.end;
    }
    if (last)
      this.warnings.push(
        'The PowerPoint edit history could not be followed; the last document record in the file was used.',
      );
    return last;
  }

  read(): DocModel {
    const doc = this.document();
    if (!doc) throw new ParseError('MALFORMED', 'The PowerPoint file has no document record: it cannot be read.');
    const docAtom = this.s.children(doc).find((r) => r.type === RT.DocumentAtom);
    const extent = docAtom ? { width: this.s.i32(docAtom.start), height: this.s.i32(docAtom.start + 4) } : null;
    const size = extent && extent.width > 0 && extent.height > 0 ? extent : null;
    const pageSize = size ? { width: Math.round(size.width / 8), height: Math.round(size.height / 8) } : null;

    this.hyperlinks = hyperlinkTargets(this.s, doc);
    const slides = slideList(this.s, doc, 0, this.hyperlinks);
    const notesById = new Map(slideList(this.s, doc, 2, this.hyperlinks).map((e) => [e.slideId, e]));
    const pages: DocPage[] = [];
    slides.forEach((entry, i) => {
      if (this.ctx.signal.aborted) throw this.ctx.signal.reason;
      const slide = this.record(entry.persistId, RT.Slide);
      const items: PlacedItem[] = [];
      let notes: Node[] = [];
      const usedRuns = new Set<number>();
      let seq = 0;
      if (slide) {
        this.shapes(
          slide,
          entry.runs,
          usedRuns,
          items,
          () => seq++,
          (t) => t !== NOTES_TYPE,
        );
        const slideAtom = this.s.children(slide).find((r) => r.type === RT.SlideAtom);
        const notesId = slideAtom ? this.s.u32(slideAtom.start + 16) : 0;
        const listed = notesId ? notesById.get(notesId) : undefined;
        if (listed) notes = this.notes(listed.persistId, listed);
      }
      // Placeholder text the drawing did not reference (or no drawing at all): in list order.
      entry.runs.forEach((run, k) => {
        if (usedRuns.has(k)) return;
        const nodes = paragraphsToNodes(runParagraphs(run));
        if (nodes.length)
          items.push({ box: null, title: TITLE_TYPES.has(run.type), nodes: this.titleNodes(run, nodes), seq: seq++ });
      });
      pages.push(slidePage(i + 1, items, notes, size, pageSize));
    });
    return { contentType: this.ctx.contentType, pages, metadata: { numPages: pages.length }, warnings: this.warnings };
  }

  private titleNodes(run: TextRun, nodes: Node[]): Node[] {
    if (!TITLE_TYPES.has(run.type)) return nodes;
    const content: Inline[] = [];
    for (const n of nodes) {
      if (n.kind !== 'paragraph') continue;
      if (content.length) content.push({ type: 'text', text: ' ' });
      content.push(...n.content);
    }
    return [{ kind: 'paragraph', content }];
  }

  /** A shape's anchor: client anchors are in slide units, child anchors in the group's space. */
  private anchorOf(kids: Rec[], tf: Transform): Box | null {
    const a = kids.find((k) => k.type === RT.ClientAnchor);
    if (a) {
      const s = this.s;
      return a.end - a.start >= 16
        ? {
            y: s.i32(a.start),
            x: s.i32(a.start + 4),
            w: s.i32(a.start + 8) - s.i32(a.start + 4),
            h: s.i32(a.start + 12) - s.i32(a.start),
          }
        : {
            y: s.i16(a.start),
            x: s.i16(a.start + 2),
            w: s.i16(a.start + 4) - s.i16(a.start + 2),
            h: s.i16(a.start + 6) - s.i16(a.start),
          };
    }
    const c = kids.find((k) => k.type === RT.ChildAnchor);
    if (c) {
      const l = this.s.i32(c.start);
      const t = this.s.i32(c.start + 4);
      return tf({ x: l, y: t, w: this.s.i32(c.start + 8) - l, h: this.s.i32(c.start + 12) - t });
    }
    return null;
  }

  /**
   * Walks the OfficeArt shapes of a slide (or notes) drawing. Shapes in groups are placed through
   * the group's coordinate space (OfficeArtFSPGR) onto the group's own anchor. `accept` filters
   * text by its TextHeaderAtom type.
   */
  private shapes(
    container: Rec,
    listRuns: TextRun[],
    used: Set<number>,
    items: PlacedItem[],
    nextSeq: () => number,
    accept: (type: number) => boolean,
    tf: Transform = (b) => b,
    depth = 0,
  ): void {
    if (depth > 64) return;
    for (const r of this.s.children(container)) {
      if (!r.container) continue;
      if (r.type === RT.SpgrContainer) {
        const kids = this.s.children(r);
        const head = kids[0];
        let inner = tf;
        if (head && head.type === RT.SpContainer) {
          const headKids = this.s.children(head);
          const box = this.anchorOf(headKids, tf);
          const fspgr = headKids.find((k) => k.type === RT.FSPGR);
          if (box && fspgr) {
            const l = this.s.i32(fspgr.start);
            const t = this.s.i32(fspgr.start + 4);
            const w = this.s.i32(fspgr.start + 8) - l;
            const h = this.s.i32(fspgr.start + 12) - t;
            const sx = w > 0 ? box.w / w : 1;
            const sy = h > 0 ? box.h / h : 1;
            inner = (b) => ({ x: box.x + (b.x - l) * sx, y: box.y + (b.y - t) * sy, w: b.w * sx, h: b.h * sy });
          }
        }
        const rest = { ...r, start: head ? head.end : r.start };
        if (head && head.type === RT.SpContainer && this.isTableGroup(this.s.children(head))) {
          const table = this.tableFromGroup(rest, listRuns, used, inner);
          if (table) {
            items.push({ ...table, seq: nextSeq() });
            continue;
          }
        }
        this.shapes(rest, listRuns, used, items, nextSeq, accept, inner, depth + 1);
        continue;
      }
      if (r.type === RT.SpContainer) {
        const kids = this.s.children(r);
        const box = this.anchorOf(kids, tf);
        const tb = kids.find((k) => k.type === RT.ClientTextbox);
        const picture = tb ? null : this.pictureAlt(kids);
        if (picture)
          items.push({
            box,
            nodes: [{ kind: 'figure', alt: picture.alt, src: `${picture.name}.jpg` }],
            seq: nextSeq(),
          });
        if (tb) {
          const inner = this.s.children(tb);
          const runs: TextRun[] = [];
          const ref = inner.find((k) => k.type === RT.OutlineTextRefAtom);
          if (ref) {
            const idx = this.s.u32(ref.start);
            const run = listRuns[idx];
            if (run) {
              used.add(idx);
              runs.push(run);
            }
          } else collectRuns(this.s, inner, runs, this.hyperlinks);
          const numbering = pp9Numbering(
            this.s,
            kids.find((k) => k.type === RT.ClientData),
          );
          for (const run of runs) {
            if (!accept(run.type)) continue;
            const nodes = paragraphsToNodes(runParagraphs(run, numbering));
            if (nodes.length)
              items.push({ box, title: TITLE_TYPES.has(run.type), nodes: this.titleNodes(run, nodes), seq: nextSeq() });
          }
        }
        continue;
      }
      this.shapes(r, listRuns, used, items, nextSeq, accept, tf, depth + 1);
    }
  }

  /**
   * A picture shape's description (alt text, shape option wzDescription) and name (wzName), read from
   * the complex part of its option tables; null when the shape is no picture or has no description.
   */
  private pictureAlt(kids: Rec[]): { alt: string; name: string } | null {
    let isPicture = false;
    let alt = '';
    let name = '';
    for (const k of kids) {
      if (k.type !== RT.FOPT && k.type !== RT.TertiaryFOPT) continue;
      const n = k.instance;
      let complex = k.start + n * 6;
      for (let i = 0; i < n && k.start + i * 6 + 6 <= k.end; i++) {
        const opid = this.s.u16(k.start + i * 6);
        const op = this.s.u32(k.start + i * 6 + 2);
        const pid = opid & 0x3fff;
        if (pid === 0x0104) isPicture = true; // pib: the picture's blip
        if (opid & 0x8000) {
          if (complex + op > k.end) break;
          if (pid === 0x0381 || pid === 0x0380) {
            const text = UTF16.decode(this.s.bytes.subarray(complex, complex + (op & ~1)))
              .replace(/\0+$/, '')
              .trim();
            if (pid === 0x0381) alt = text;
            else name = text;
          }
          complex += op;
        }
      }
    }
    if (!isPicture || !alt) return null;
    return { alt, name: name.replace(/[^\p{L}\p{N}_]/gu, '') || 'image' };
  }

  /** A group whose shape options carry tableProperties (0x039F): PowerPoint's way to store a table. */
  private isTableGroup(headKids: Rec[]): boolean {
    for (const k of headKids) {
      if (k.type !== RT.FOPT && k.type !== RT.TertiaryFOPT) continue;
      for (let i = 0; i < k.instance && k.start + i * 6 + 6 <= k.end; i++) {
        const pid = this.s.u16(k.start + i * 6) & 0x3fff;
        if (pid === 0x039f && this.s.u32(k.start + i * 6 + 2) !== 0) return true;
      }
    }
    return false;
  }

  /** Rebuilds a table from its cell shapes: rows and columns from their edges, spans from their extent. */
  private tableFromGroup(
    group: Rec,
    listRuns: TextRun[],
    used: Set<number>,
    tf: Transform,
  ): Omit<PlacedItem, 'seq'> | null {
    const cells: { box: Box; content: Inline[] }[] = [];
    for (const r of this.s.children(group)) {
      if (r.type !== RT.SpContainer) continue;
      const kids = this.s.children(r);
      const box = this.anchorOf(kids, tf);
      if (!box || box.w <= 0 || box.h <= 0) continue; // border lines
      const content: Inline[] = [];
      const tb = kids.find((k) => k.type === RT.ClientTextbox);
      if (tb) {
        const inner = this.s.children(tb);
        const runs: TextRun[] = [];
        const ref = inner.find((k) => k.type === RT.OutlineTextRefAtom);
        if (ref) {
          const run = listRuns[this.s.u32(ref.start)];
          if (run) {
            used.add(this.s.u32(ref.start));
            runs.push(run);
          }
        } else collectRuns(this.s, inner, runs, this.hyperlinks);
        for (const run of runs) {
          for (const p of runParagraphs(run)) {
            const c = trimInlines(p.content);
            if (!c.length) continue;
            if (content.length) content.push({ type: 'break' });
            content.push(...c);
          }
        }
      }
      cells.push({ box, content });
    }
    if (cells.length < 2) return null;
    const edges = (vals: number[]): number[] => {
      const sorted = [...vals].sort((a, b) => a - b);
      const out: number[] = [];
      for (const v of sorted) if (!out.length || v - out[out.length - 1]! > 2) out.push(v);
      return out;
    };
    const xs = edges(cells.map((c) => c.box.x));
    const ys = edges(cells.map((c) => c.box.y));
    const index = (edgesList: number[], v: number): number => {
      let best = 0;
      for (let i = 0; i < edgesList.length; i++)
        if (Math.abs(edgesList[i]! - v) < Math.abs(edgesList[best]! - v)) best = i;
      return best;
    };
    const span = (edgesList: number[], from: number, end: number): number => {
      let n = 0;
      for (const e of edgesList) if (e >= from - 2 && e < end - 2) n++;
      return Math.max(1, n);
    };
    const rows: TableCell[][] = ys.map(() => []);
    const placed = cells
      .map((c) => ({ ...c, r: index(ys, c.box.y), col: index(xs, c.box.x) }))
      .sort((a, b) => a.r - b.r || a.col - b.col);
    for (const c of placed) {
      const cell: TableCell = { content: c.content };
      const cs = span(xs, c.box.x, c.box.x + c.box.w);
      const rs = span(ys, c.box.y, c.box.y + c.box.h);
      if (cs > 1) cell.colSpan = cs;
      if (rs > 1) cell.rowSpan = rs;
      rows[c.r]!.push(cell);
    }
    const x0 = Math.min(...cells.map((c) => c.box.x));
    const y0 = Math.min(...cells.map((c) => c.box.y));
    const x1 = Math.max(...cells.map((c) => c.box.x + c.box.w));
    const y1 = Math.max(...cells.map((c) => c.box.y + c.box.h));
    return { box: { x: x0, y: y0, w: x1 - x0, h: y1 - y0 }, nodes: [{ kind: 'table', rows }] };
  }

  private notes(persistId: number, listed: SlideEntry): Node[] {
    const container = this.record(persistId, RT.Notes);
    const items: PlacedItem[] = [];
    let seq = 0;
    // The notes page also holds the slide image and header/footer placeholders: keep notes text only.
    if (container)
      this.shapes(
        container,
        listed.runs,
        new Set(),
        items,
        () => seq++,
        (t) => t === NOTES_TYPE,
      );
    if (!items.length) {
      for (const run of listed.runs)
        if (run.type === NOTES_TYPE)
          items.push({ box: null, nodes: paragraphsToNodes(runParagraphs(run)), seq: seq++ });
    }
    return items.flatMap((i) => i.nodes);
  }
}

export function readPpt(ctx: ReaderContext): DocModel {
  let find: (name: string) => Uint8Array | undefined;
  try {
    // The small reader takes only the streams asked for (the pictures, most of a typical file, are
    // never copied); `cfb` reads what it cannot.
    const ole = new OleFile(ctx.bytes);
    const streams = new Map<string, Uint8Array | undefined>();
    for (const name of ['PowerPoint Document', 'Current User', 'EncryptedSummary']) streams.set(name, ole.stream(name));
    find = (name) => streams.get(name);
  } catch {
    find = cfbStreams(ctx.bytes);
  }
  const main = find('PowerPoint Document');
  if (!main) throw new ParseError('MALFORMED', 'The PowerPoint file has no "PowerPoint Document" stream.');
  if (find('EncryptedSummary')) {
    throw new ParseError(
      'ENCRYPTED',
      'The presentation is password protected; it cannot be read without its password.',
    );
  }
  return new PptReader(new Stream(main), find('Current User'), ctx).read();
}

function cfbStreams(bytes: Uint8Array): (name: string) => Uint8Array | undefined {
  let container: CfbContainer;
  try {
    container = readCfb(bytes);
  } catch (err) {
    throw new ParseError(
      'MALFORMED',
      `The PowerPoint file's compound document cannot be read: ${(err as Error).message}`,
      { cause: err },
    );
  }
  return (name) => cfbStream(container, name);
}
