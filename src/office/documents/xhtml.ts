/**
 * XHTML (EPUB chapters) → document model nodes, read with the office XML parser instead of a full
 * HTML DOM: EPUB content documents are well-formed XML, and reading them directly is several times
 * faster than the general HTML path while giving the same constructs (headings, paragraphs, nested
 * lists, tables with spans, quotes, code, rules, emphasis, links, images, line breaks).
 * HTML named entities (&nbsp; &mdash; ...), allowed by the EPUB 2 DTD, are decoded here.
 */
import { decodeHTML } from 'entities';
import type { Inline, ListItem, Node, TableCell, TextInline } from '../../model/document.js';
import type { XmlElement, XmlNode } from '../package/xml.js';
import { blocksToCellInlines, boundTable, cell, compactSpans, isBlank, trimInlines } from './common.js';

export interface XhtmlContext {
  /** Address of an image as the markdown should show it. */
  image(src: string): string;
  /** Link target as the markdown should show it, or undefined to keep only the text. */
  link(href: string): string | undefined;
  /** Emphasis that the chapter's style sheets give a class (calibre and others style spans by class). */
  classMarks?(className: string): ClassStyle | undefined;
  /** Note labels already used in the document (chapters often number their notes from 1 again). */
  usedNoteLabels?: Set<string>;
}

export type Marks = Omit<TextInline, 'type' | 'text'>;

/** What a class of the style sheets does to inline text: emphasis, or hiding it (display: none). */
export type ClassStyle = Marks & { hidden?: boolean };

const SKIP = new Set([
  'head',
  'script',
  'style',
  'template',
  'noscript',
  'title',
  'meta',
  'link',
  'object',
  'embed',
  'iframe',
  'audio',
  'video',
  'canvas',
  'button',
  'input',
  'select',
  'textarea',
  'form',
]);
const BLOCK = new Set([
  'aside',
  'p',
  'div',
  'section',
  'article',
  'main',
  'aside',
  'header',
  'footer',
  'nav',
  'body',
  'html',
  'figure',
  'figcaption',
  'center',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'table',
  'blockquote',
  'pre',
  'hr',
  'dl',
  'dt',
  'dd',
  'address',
  'hgroup',
  'details',
  'summary',
  'fieldset',
  'legend',
  'caption',
  'tr',
  'td',
  'th',
  'thead',
  'tbody',
  'tfoot',
]);

function local(name: string): string {
  const i = name.indexOf(':');
  return (i < 0 ? name : name.slice(i + 1)).toLowerCase();
}

function text(node: XmlNode): string {
  return typeof node === 'string' ? node : node.children.map(text).join('');
}

function decode(s: string): string {
  return s.indexOf('&') >= 0 ? decodeHTML(s) : s;
}

const NOTE_TYPES = /\b(footnote|endnote|rearnote|note)\b/;

function epubType(el: XmlElement): string {
  return el.attrs['epub:type'] ?? el.attrs['type'] ?? '';
}

class Converter {
  /** EPUB 3 notes: id of the note → the label its reference shows. */
  readonly noteLabels = new Map<string, string>();

  constructor(private readonly ctx: XhtmlContext) {}

  /** Ids of note references and of the elements around them: where a note's back-link points. */
  private readonly refIds = new Set<string>();
  /** Reading a note's own content. */
  private inNote = false;

  /** Finds `<a epub:type="noteref" href="#id">label</a>` so that notes and references share labels. */
  scanNoteRefs(el: XmlElement): void {
    for (const c of el.children) {
      if (typeof c === 'string') continue;
      if (local(c.name) === 'a' && /\bnoteref\b/.test(epubType(c))) {
        if (c.attrs['id']) this.refIds.add(c.attrs['id']);
        if (el.attrs['id']) this.refIds.add(el.attrs['id']);
        const id = (c.attrs['href'] ?? '').split('#')[1];
        let label = text(c).replace(/[\s\[\]^]+/g, '') || id;
        if (id && label && !this.noteLabels.has(id)) {
          const used = this.ctx.usedNoteLabels;
          if (used) {
            const base = label;
            for (let k = 2; used.has(label); k++) label = `${base}-${k}`;
            used.add(label);
          }
          this.noteLabels.set(id, label);
        }
      } else this.scanNoteRefs(c);
    }
  }

  blocks(el: XmlElement, out: Node[]): void {
    let pending: Inline[] = [];
    const flush = (): void => {
      const content = trimInlines(pending);
      if (!isBlank(content)) out.push({ kind: 'paragraph', content });
      pending = [];
    };
    for (const c of el.children) {
      if (typeof c === 'string') {
        this.inline(c, {}, pending);
        continue;
      }
      const name = local(c.name);
      if (SKIP.has(name)) continue;
      if (!BLOCK.has(name)) {
        this.inline(c, {}, pending);
        continue;
      }
      flush();
      this.block(c, name, out);
    }
    flush();
  }

  private block(c: XmlElement, name: string, out: Node[]): void {
    const id = c.attrs['id'];
    if (id && this.noteLabels.has(id) && NOTE_TYPES.test(epubType(c))) {
      const children: Node[] = [];
      const outer = this.inNote;
      this.inNote = true;
      this.blocks(c, children);
      this.inNote = outer;
      out.push({
        kind: 'note',
        label: this.noteLabels.get(id)!,
        children: children.length ? children : [{ kind: 'paragraph', content: [] }],
      });
      return;
    }
    switch (name) {
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6': {
        const content = this.inlines(c);
        if (!isBlank(content))
          out.push({
            kind: 'heading',
            level: Number(name[1]) as 1,
            content: content.map((i) => (i.type === 'text' && i.bold ? { ...i, bold: false } : i)),
          });
        return;
      }
      case 'p':
      case 'dt':
      case 'dd':
      case 'figcaption':
      case 'address':
      case 'summary':
      case 'legend':
      case 'caption': {
        // A paragraph may (wrongly, but often) hold blocks: read it as a container then.
        if (c.children.some((k) => typeof k !== 'string' && BLOCK.has(local(k.name)))) {
          this.blocks(c, out);
          return;
        }
        const content = this.inlines(c, name === 'dt' ? { bold: true } : {});
        if (!isBlank(content)) out.push({ kind: 'paragraph', content });
        return;
      }
      case 'ul':
      case 'ol':
        this.list(c, name === 'ol', out);
        return;
      case 'table':
        this.table(c, out);
        return;
      case 'blockquote': {
        const children: Node[] = [];
        this.blocks(c, children);
        if (children.length) out.push({ kind: 'quote', children });
        return;
      }
      case 'pre': {
        const t = decode(text(c)).replace(/^\n/, '');
        if (t.trim()) out.push({ kind: 'code', text: t });
        return;
      }
      case 'hr':
        out.push({ kind: 'rule' });
        return;
      default:
        this.blocks(c, out);
    }
  }

  private list(el: XmlElement, ordered: boolean, out: Node[]): void {
    const items: ListItem[] = [];
    for (const li of el.children) {
      if (typeof li === 'string') continue;
      const n = local(li.name);
      if (n === 'ul' || n === 'ol') {
        // A list directly inside a list belongs to the previous item.
        const nested: Node[] = [];
        this.list(li, n === 'ol', nested);
        if (items.length) (items[items.length - 1]!.children ??= []).push(...nested);
        else out.push(...nested);
        continue;
      }
      if (n !== 'li') continue;
      const nodes: Node[] = [];
      this.blocks(li, nodes);
      const first = nodes[0];
      const item: ListItem = {
        content: first && (first.kind === 'paragraph' || first.kind === 'heading') ? first.content : [],
      };
      const rest = item.content.length ? nodes.slice(1) : nodes;
      if (rest.length) item.children = rest;
      if (item.content.length || rest.length) items.push(item);
    }
    if (!items.length) return;
    const list: Node = { kind: 'list', ordered, items };
    const start = Number(el.attrs['start']);
    if (ordered && Number.isInteger(start) && start !== 1) list.start = start;
    out.push(list);
  }

  private table(el: XmlElement, out: Node[]): void {
    const rows: TableCell[][] = [];
    const collect = (e: XmlElement): void => {
      for (const c of e.children) {
        if (typeof c === 'string') continue;
        const n = local(c.name);
        if (n === 'tr') {
          const row: TableCell[] = [];
          for (const td of c.children) {
            if (typeof td === 'string') continue;
            const tn = local(td.name);
            if (tn !== 'td' && tn !== 'th') continue;
            const nodes: Node[] = [];
            this.blocks(td, nodes);
            row.push(
              cell(blocksToCellInlines(nodes), Number(td.attrs['colspan']) || 1, Number(td.attrs['rowspan']) || 1),
            );
          }
          if (row.length) rows.push(row);
        } else if (n === 'thead' || n === 'tbody' || n === 'tfoot') collect(c);
      }
    };
    collect(el);
    if (rows.length === 0) return;
    if (rows.length === 1 && rows[0]!.length === 1) {
      if (!isBlank(rows[0]![0]!.content)) out.push({ kind: 'paragraph', content: rows[0]![0]!.content });
      return;
    }
    compactSpans(rows);
    out.push({ kind: 'table', rows: boundTable(rows) });
  }

  private isBackLink(a: XmlElement): boolean {
    if (/\bbacklink\b/.test(epubType(a)) || a.attrs['role'] === 'doc-backlink') return true;
    const target = (a.attrs['href'] ?? '').split('#')[1];
    return target !== undefined && this.refIds.has(target);
  }

  private inlines(el: XmlElement, marks: Marks = {}): Inline[] {
    const out: Inline[] = [];
    for (const c of el.children) this.inline(c, marks, out);
    return trimInlines(out);
  }

  private inline(node: XmlNode, marks: Marks, out: Inline[]): void {
    if (typeof node === 'string') {
      let t = decode(node).replace(/[ \t\r\n\f]+/g, ' ');
      const prev = out[out.length - 1];
      if (t.startsWith(' ') && (!prev || prev.type === 'break' || (prev.type === 'text' && prev.text.endsWith(' '))))
        t = t.slice(1);
      if (t) out.push({ type: 'text', text: t, ...marks });
      return;
    }
    const name = local(node.name);
    if (SKIP.has(name)) return;
    const cls = this.ctx.classMarks && !BLOCK.has(name) ? node.attrs['class'] : undefined;
    if (cls) {
      for (const c of cls.split(/\s+/)) {
        const m = c ? this.ctx.classMarks!(c) : undefined;
        if (!m) continue;
        const { hidden, ...emphasis } = m;
        if (hidden) return;
        marks = { ...marks, ...emphasis };
      }
    }
    switch (name) {
      case 'br':
        out.push({ type: 'break' });
        return;
      case 'img': {
        const src = node.attrs['src'] ?? '';
        out.push({ type: 'image', alt: (node.attrs['alt'] ?? '').trim(), src: this.ctx.image(src) });
        return;
      }
      case 'image': {
        const src = node.attrs['xlink:href'] ?? node.attrs['href'] ?? '';
        if (src) out.push({ type: 'image', alt: '', src: this.ctx.image(src) });
        return;
      }
      case 'em':
      case 'i':
      case 'cite':
      case 'var':
      case 'dfn':
        for (const c of node.children) this.inline(c, { ...marks, italic: true }, out);
        return;
      case 'strong':
      case 'b':
        for (const c of node.children) this.inline(c, { ...marks, bold: true }, out);
        return;
      case 's':
      case 'strike':
      case 'del':
        for (const c of node.children) this.inline(c, { ...marks, strike: true }, out);
        return;
      case 'sup':
        for (const c of node.children) this.inline(c, { ...marks, superscript: true }, out);
        return;
      case 'sub':
        for (const c of node.children) this.inline(c, { ...marks, subscript: true }, out);
        return;
      case 'code':
      case 'kbd':
      case 'samp':
      case 'tt':
        for (const c of node.children) this.inline(c, { ...marks, code: true }, out);
        return;
      case 'a': {
        const href = node.attrs['href'];
        // A note's link back to its reference ("1" or "↩" written by the note) is navigation.
        if (this.inNote && this.isBackLink(node)) return;
        const noteId = /\bnoteref\b/.test(epubType(node)) ? (href ?? '').split('#')[1] : undefined;
        if (noteId && this.noteLabels.has(noteId)) {
          out.push({ type: 'noteRef', label: this.noteLabels.get(noteId)! });
          return;
        }
        const target = href ? this.ctx.link(href) : undefined;
        for (const c of node.children) this.inline(c, target ? { ...marks, href: target } : marks, out);
        return;
      }
      default:
        // Blocks met inside inline content are read as inline (their text stays, in order).
        for (const c of node.children) this.inline(c, marks, out);
        if (BLOCK.has(name) && out.length && out[out.length - 1]!.type !== 'break')
          out.push({ type: 'text', text: ' ', ...marks });
    }
  }
}

/** Converts an XHTML document (its `body`) into model nodes. */
export function xhtmlToNodes(root: XmlElement, ctx: XhtmlContext): Node[] {
  const find = (e: XmlElement): XmlElement | undefined => {
    for (const c of e.children) {
      if (typeof c === 'string') continue;
      if (local(c.name) === 'body') return c;
      const f = find(c);
      if (f) return f;
    }
    return undefined;
  };
  const body = find(root) ?? root;
  const out: Node[] = [];
  const conv = new Converter(ctx);
  conv.scanNoteRefs(body);
  conv.blocks(body, out);
  // Notes go after the chapter's text, where GFM puts them anyway.
  return [...out.filter((n) => n.kind !== 'note'), ...out.filter((n) => n.kind === 'note')];
}
