/**
 * OpenDocument spreadsheets (.ods) from content.xml. ODF stores each cell's displayed text in its
 * `text:p` elements, so numbers and dates come out as the sheet shows them with no format engine;
 * a cell written without one shows its value attribute (`office:value`, `date-value`, ...).
 * Repeated rows and columns (`number-rows-repeated`, `number-columns-repeated`, which writers use for
 * the empty rest of a sheet) are expanded only when they hold text, and reading stops at the row and
 * cell caps. Tables whose style sets `table:display="false"` are hidden sheets. A cell whose text is one
 * link (text:a) links to its address, as a spreadsheet hyperlink does.
 */
import { ParseError } from '../../errors.js';
import { ZipPackage } from '../../containers/zip.js';
import { attr, child, elements, WELL_FORMED_PARTS, type XmlElement } from '../package/local-names.js';
import { parseXmlRoot } from '../package/xml.js';
import { odfCellValue } from '../odf/cell-value.js';
import { LOCAL_NAMES } from '../odf/names.js';
import { bodyOf, ODF_PARTS, wellFormedPart } from '../odf/package.js';
import { styleDeclarations } from '../odf/styles.js';
import { cellSpans, countAttr, isOutsideLink, isRowGroup, readInlines } from '../odf/text.js';
import type { FastCell, FastSheet, FastWorkbook } from './xlsx.js';

function cellText(cell: XmlElement): string {
  const parts: string[] = [];
  for (const el of elements(cell)) {
    if (el.local === 'p' || el.local === 'h') parts.push(inlineText(el));
    else if (el.local === 'list') parts.push(...listTexts(el));
  }
  return parts.join('\n');
}

/**
 * The address a cell links to: its one text:a with an outside address (web, mail, FTP) when the
 * link's text is all the cell shows, as a spreadsheet hyperlink covers its cell.
 */
function cellLink(cell: XmlElement, text: string): string | undefined {
  const links: XmlElement[] = [];
  const walk = (el: XmlElement): void => {
    for (const c of elements(el)) {
      if (c.local === 'a') links.push(c);
      else walk(c);
    }
  };
  walk(cell);
  const a = links.length === 1 ? links[0]! : undefined;
  const href = a ? attr(a, 'href') : undefined;
  if (!href || !isOutsideLink(href) || inlineText(a!).trim() !== text.trim()) return undefined;
  return href;
}

function listTexts(list: XmlElement): string[] {
  const out: string[] = [];
  for (const item of elements(list))
    for (const el of elements(item)) {
      if (el.local === 'p' || el.local === 'h') out.push(inlineText(el));
      else if (el.local === 'list') out.push(...listTexts(el));
    }
  return out;
}

/** Comments and notes are not the cell's text. */
const LEFT_OUT = ['office:annotation', 'text:note'];

/** A paragraph's text as a cell shows it: tabs and line breaks as characters. */
function inlineText(el: XmlElement): string {
  let s = '';
  readInlines(el, LOCAL_NAMES, {
    text: (t) => (s += t),
    spaces: (run) => (s += run),
    tab: () => (s += '\t'),
    lineBreak: () => (s += '\n'),
    leftOut: LEFT_OUT,
  });
  return s;
}

export function readOds(bytes: Uint8Array, limits: { maxRows: number; maxCells: number }): FastWorkbook {
  const zip = ZipPackage.open(bytes);
  const root = wellFormedPart(zip, ODF_PARTS.content, 'content.xml of the spreadsheet');
  if (root === undefined) throw new ParseError('MALFORMED', 'The OpenDocument spreadsheet has no content.xml.');
  const hiddenStyles = new Set<string>();
  for (const s of styleDeclarations(child(root, 'automatic-styles'), LOCAL_NAMES)) {
    if (s.kind !== 'style' || s.family !== 'table') continue;
    if (attr(child(s.el, 'table-properties'), 'display') === 'false') hiddenStyles.add(s.name ?? '');
  }
  const body = bodyOf(root, 'spreadsheet');
  if (!body) throw new ParseError('MALFORMED', 'The OpenDocument file has no spreadsheet body.');
  const sheets: FastSheet[] = [];
  let budget = limits.maxCells;
  for (const table of elements(body)) {
    if (table.local !== 'table') continue;
    const name = attr(table, 'name') ?? `Sheet${sheets.length + 1}`;
    const hidden = hiddenStyles.has(attr(table, 'style-name') ?? '');
    const sheet: FastSheet = { name, hidden, data: [], merges: [], cut: false };
    sheets.push(sheet);
    if (hidden) continue;
    let r = 0;
    const rows = (el: XmlElement): boolean => {
      for (const row of elements(el)) {
        if (isRowGroup(row, LOCAL_NAMES)) {
          if (!rows(row)) return false;
          continue;
        }
        if (row.local !== 'table-row') continue;
        const repeat = Math.max(1, countAttr(attr(row, 'number-rows-repeated')));
        const cells: { c: number; text: string; cs: number; rs: number; link: string | undefined }[] = [];
        let c = 0;
        for (const cell of elements(row)) {
          if (cell.local !== 'table-cell' && cell.local !== 'covered-table-cell') continue;
          const crep = Math.max(1, countAttr(attr(cell, 'number-columns-repeated')));
          let text = cell.local === 'table-cell' ? cellText(cell) : '';
          // A cell without a text paragraph shows its value.
          if (cell.local === 'table-cell' && !text.trim()) text = odfCellValue(cell);
          if (text.trim()) {
            const { cs, rs } = cellSpans(cell, LOCAL_NAMES);
            const link = cell.local === 'table-cell' ? cellLink(cell, text) : undefined;
            for (let k = 0; k < Math.min(crep, 16384); k++) cells.push({ c: c + k, text, cs, rs, link });
          }
          c += crep;
        }
        if (!cells.length) {
          r += repeat;
          continue;
        }
        for (let k = 0; k < repeat; k++, r++) {
          if (r >= limits.maxRows || budget <= 0) {
            sheet.cut = true;
            return false;
          }
          const out: FastCell[] = [];
          for (const cell of cells) {
            out[cell.c] = cell.link
              ? { t: 's', v: cell.text, w: cell.text, l: { Target: cell.link } }
              : { t: 's', v: cell.text, w: cell.text };
            if (k === 0 && (cell.cs > 1 || cell.rs > 1))
              sheet.merges.push({ s: { r, c: cell.c }, e: { r: r + cell.rs - 1, c: cell.c + cell.cs - 1 } });
          }
          sheet.data[r] = out;
          budget -= cells.length;
        }
      }
      return true;
    };
    rows(table);
  }
  if (!sheets.length) throw new ParseError('MALFORMED', 'The OpenDocument spreadsheet has no tables.');
  const meta = zip.text(ODF_PARTS.meta);
  const out: FastWorkbook = { sheets };
  if (meta) {
    try {
      const m = child(parseXmlRoot(meta, { ...WELL_FORMED_PARTS, part: 'meta.xml' }), 'meta');
      const title = m ? elements(m).find((e) => e.local === 'title') : undefined;
      const creator = m ? elements(m).find((e) => e.local === 'initial-creator' || e.local === 'creator') : undefined;
      if (title) out.title = inlineText(title);
      if (creator) out.author = inlineText(creator);
    } catch (err) {
      if (err instanceof ParseError && err.code === 'RESOURCE_LIMIT') throw err;
    }
  }
  return out;
}
