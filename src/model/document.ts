/**
 * The document model every reader produces and the one markdown serializer consumes.
 * Readers describe structure (headings, lists, tables, inline marks, geometry); they never
 * write markdown syntax themselves, except through the shared HTML-to-markdown path (`markdown` nodes).
 */
import type { BlockType, DocumentMetadata, PageStatus } from '../types.js';

export interface TextInline {
  type: 'text';
  text: string;
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  underline?: boolean;
  code?: boolean;
  superscript?: boolean;
  subscript?: boolean;
  /** Hyperlink target; absolute where the reader could resolve it. */
  href?: string;
}

export interface ImageInline {
  type: 'image';
  alt: string;
  /** URL, data URL or placeholder; empty when the reader has no address for the image. */
  src?: string;
}

export interface BreakInline {
  type: 'break';
}

export interface MathInline {
  type: 'math';
  latex: string;
}

/** Reference to a footnote, endnote or comment; the note itself is a `note` block (GFM `[^label]`). */
export interface NoteRefInline {
  type: 'noteRef';
  label: string;
}

export type Inline = TextInline | ImageInline | BreakInline | MathInline | NoteRefInline;

export interface HeadingNode {
  kind: 'heading';
  level: 1 | 2 | 3 | 4 | 5 | 6;
  content: Inline[];
}

export interface ParagraphNode {
  kind: 'paragraph';
  content: Inline[];
}

export interface ListItem {
  content: Inline[];
  /** Nested blocks of the item (sub-lists, further paragraphs). */
  children?: Node[];
  checked?: boolean;
}

export interface ListNode {
  kind: 'list';
  ordered: boolean;
  /** Number of the first item of an ordered list. */
  start?: number;
  items: ListItem[];
}

export interface TableCell {
  content: Inline[];
  colSpan?: number;
  rowSpan?: number;
}

export interface TableNode {
  kind: 'table';
  /** Rows of cells as the source lays them out; spans are expanded by the serializer. */
  rows: TableCell[][];
}

export interface FigureNode {
  kind: 'figure';
  alt: string;
  src?: string;
}

export interface CodeNode {
  kind: 'code';
  text: string;
  language?: string;
}

export interface FormulaNode {
  kind: 'formula';
  latex: string;
}

export interface QuoteNode {
  kind: 'quote';
  children: Node[];
}

export interface RuleNode {
  kind: 'rule';
}

/** Markdown produced by the shared HTML-to-markdown path; inserted verbatim. */
export interface MarkdownNode {
  kind: 'markdown';
  markdown: string;
}

/** Body of a footnote, endnote or comment, referenced by `noteRef` inlines (GFM `[^label]: ...`). */
export interface NoteNode {
  kind: 'note';
  label: string;
  children: Node[];
}

export type Node =
  | NoteNode
  | HeadingNode
  | ParagraphNode
  | ListNode
  | TableNode
  | FigureNode
  | CodeNode
  | FormulaNode
  | QuoteNode
  | RuleNode
  | MarkdownNode;

export type BBox = [number, number, number, number];

export interface DocBlock {
  node: Node;
  /** Layout type; derived from the node when absent (heading → section_header, ...). */
  type?: BlockType;
  /** Raw label of the analysis that produced the block. */
  label?: string | null;
  /** Normalised 0..1 box on the page. */
  bbox?: BBox | null;
  source?: string | null;
  confidence?: { layout: number | null; ocr: number | null };
  /**
   * Running headers, footers and page numbers: reported as blocks, left out of the markdown
   * when `onlyMainContent` is true.
   */
  furniture?: boolean;
  /**
   * A paragraph that goes on from the last paragraph of the page before (a sentence broken by the
   * page break): the document's markdown joins the two, each page's markdown keeps its own part.
   */
  continues?: boolean;
  /** The first half of such a paragraph: the one a `continues` block of the next page goes on from. */
  runsOn?: boolean;
}

export interface DocPage {
  /** 1-based physical page, slide or sheet number. */
  pageNumber: number;
  width: number | null;
  height: number | null;
  status: PageStatus;
  /** Why the page is partial or failed. */
  error?: string;
  blocks: DocBlock[];
}

export interface DocModel {
  /** MIME type of the input. */
  contentType: string;
  pages: DocPage[];
  metadata: Partial<DocumentMetadata>;
  /** Problems that did not stop the parse; surfaced in `warning`. */
  warnings: string[];
  /** HTML-shaped inputs: the cleaned HTML (the `html` format) and the exact input (`rawHtml`). */
  html?: string;
  rawHtml?: string;
  /** Links and images found by the reader, absolute, in document order. */
  links?: string[];
  images?: string[];
}

/** The text of inlines, marks and non-text inlines left out. */
export function inlinesText(inlines: readonly Inline[]): string {
  return inlines.map((i) => (i.type === 'text' ? i.text : '')).join('');
}

/** Convenience for readers: plain text as an inline list. */
export function text(text: string, marks?: Omit<TextInline, 'type' | 'text'>): TextInline {
  return { type: 'text', text, ...marks };
}
