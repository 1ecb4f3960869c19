/**
 * Pieces of OpenDocument text and tables that odt, ods and odp read alike: a run of spaces
 * (`text:s`), the font flags of `style:text-properties`, the groups that hold table rows, a cell's
 * spans, and which link targets lead outside the document.
 */
import type { XmlElement } from '../package/xml.js';
import type { OdfNames } from './names.js';

/** The most spaces one `text:s` yields: a hostile `text:c="1000000000"` must not become a gigabyte of text. */
export const MAX_SPACE_RUN = 100;

/** The spaces a `text:s` stands for (`text:c` of them, one when absent or not a number). */
export function spaceRun(el: XmlElement, names: OdfNames): string {
  return ' '.repeat(Math.min(countAttr(names.attr(el, 'text:c')), MAX_SPACE_RUN));
}

/** An ODF count attribute (repeats, spans): its number, 1 when absent, empty, zero or not a number. */
export function countAttr(value: string | undefined): number {
  return Number(value ?? 1) || 1;
}

/** A table cell's column and row spans. */
export function cellSpans(cell: XmlElement, names: OdfNames): { cs: number; rs: number } {
  return {
    cs: countAttr(names.attr(cell, 'table:number-columns-spanned')),
    rs: countAttr(names.attr(cell, 'table:number-rows-spanned')),
  };
}

/** Elements that group table rows (header rows, row groups): their rows belong to the table. */
const ROW_GROUPS = ['table:table-header-rows', 'table:table-rows', 'table:table-row-group'];

export function isRowGroup(el: XmlElement, names: OdfNames): boolean {
  return ROW_GROUPS.some((g) => names.is(el, g));
}

/** A link target that leads out of the document (web, mail, FTP), as opposed to one inside it or a script. */
export function isOutsideLink(href: string): boolean {
  return /^(https?|mailto|ftp):/i.test(href);
}

export interface FontFlags {
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
}

/**
 * Bold, italic and strike-through as a `style:text-properties` element sets them: each is present
 * only when its attribute is (false when set off, so that a style can turn off its parent's).
 */
export function fontFlags(props: XmlElement, names: OdfNames): FontFlags {
  const flags: FontFlags = {};
  const weight = names.attr(props, 'fo:font-weight');
  if (weight) flags.bold = weight === 'bold' || Number(weight) >= 600;
  const style = names.attr(props, 'fo:font-style');
  if (style) flags.italic = style === 'italic' || style === 'oblique';
  const through = names.attr(props, 'style:text-line-through-style');
  if (through) flags.strike = through !== 'none';
  return flags;
}

/** What a reader makes of each piece of a paragraph's inline content. */
export interface InlineReading {
  /** Character data, as written (each reader treats its white space its own way). */
  text(s: string): void;
  /** A `text:s`: its run of spaces. */
  spaces(run: string): void;
  /** A `text:tab`. */
  tab(): void;
  /** A `text:line-break`. */
  lineBreak(): void;
  /** Elements left out with their content (qualified ODF names): notes a reader places elsewhere, bookmarks, fields. */
  leftOut: readonly string[];
  /** An element the reader reads itself (styled spans, links, notes): returns true when it did. */
  element?(el: XmlElement): boolean;
}

/**
 * Reads the inline content of a paragraph (`text:p`, `text:h`) or span in order. Any other element
 * (a span the reader does not take itself, a field) shows its text, read the same way.
 */
export function readInlines(el: XmlElement, names: OdfNames, reading: InlineReading): void {
  for (const c of el.children) {
    if (typeof c === 'string') reading.text(c);
    else if (names.is(c, 'text:s')) reading.spaces(spaceRun(c, names));
    else if (names.is(c, 'text:tab')) reading.tab();
    else if (names.is(c, 'text:line-break')) reading.lineBreak();
    else if (reading.leftOut.some((name) => names.is(c, name))) continue;
    else if (!reading.element?.(c)) readInlines(c, names, reading);
  }
}
