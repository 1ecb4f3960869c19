/**
 * A fast reader for SpreadsheetML (.xlsx, .xlsm) that produces the same sheet shape the SheetJS path
 * does (a dense array of displayed cell texts plus merges), several times faster on typical files:
 * it scans the sheet XML for cells instead of building a full workbook object, and stops reading a
 * sheet at the cell cap. Number formats are applied with SheetJS's formatter (SSF), so numbers and
 * dates read exactly as on the SheetJS path. Anything it does not understand makes it throw; the
 * caller then falls back to SheetJS.
 */
import * as XLSX from '@e965/xlsx';
import { ParseError } from '../../errors.js';
import { ZipPackage } from '../../containers/zip.js';
import { readRels, type Relationship } from '../package/relationships.js';

export interface FastCell {
  t: 's';
  v: string;
  w: string;
  l?: { Target: string };
}

export interface FastSheet {
  name: string;
  hidden: boolean;
  /** Rows of cells, as SheetJS's dense mode lays them out. */
  data: (FastCell[] | undefined)[];
  merges: { s: { r: number; c: number }; e: { r: number; c: number } }[];
  /** True when reading stopped at the row or cell cap. */
  cut: boolean;
}

export interface FastWorkbook {
  sheets: FastSheet[];
  title?: string;
  author?: string;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(s: string): string {
  if (s.includes('&')) {
    s = s.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g, (m, e: string) => {
      if (e[0] === '#') {
        const n = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : '';
      }
      return ENTITIES[e] ?? m;
    });
  }
  return unescapeOoxml(s);
}

const ATTR_RE = new Map<string, RegExp>();

function attr(tag: string, name: string): string | undefined {
  let re = ATTR_RE.get(name);
  if (!re) ATTR_RE.set(name, (re = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`)));
  const m = re.exec(tag);
  return m ? decode(m[1] ?? m[2] ?? '') : undefined;
}

/** Texts of `<t>` elements, leaving out phonetic runs (`<rPh>`). */
function runText(xml: string): string {
  // Most strings are one plain `<t>` element: taken without a regular expression.
  const plain = plainElementText(xml, 't');
  if (plain !== undefined) return decode(plain);
  const body = xml.includes('rPh') ? xml.replace(/<(\w+:)?rPh\b[\s\S]*?<\/(\w+:)?rPh>/g, '') : xml;
  let out = '';
  for (const m of body.matchAll(/<(?:\w+:)?t(?:\s[^>]*)?>([\s\S]*?)<\/(?:\w+:)?t>/g)) out += m[1];
  return decode(out);
}

/**
 * The text of `xml` when it is exactly one unprefixed `<name>` (or `<name xml:space="preserve">`)
 * element holding only text; undefined for anything else (the caller then uses the general path).
 */
function plainElementText(xml: string, name: string): string | undefined {
  const n = xml.length;
  const nl = name.length;
  if (n < 2 * nl + 5 || xml.charCodeAt(0) !== 60 /* < */ || !xml.startsWith(name, 1)) return undefined;
  let open: number;
  const after = xml.charCodeAt(nl + 1);
  if (after === 62 /* > */) open = nl + 2;
  else if (after === 32 && xml.startsWith(' xml:space="preserve">', nl + 1)) open = nl + 23;
  else return undefined;
  const close = n - nl - 3;
  if (
    close < open ||
    xml.charCodeAt(close) !== 60 ||
    xml.charCodeAt(close + 1) !== 47 ||
    !xml.startsWith(name, close + 2) ||
    xml.charCodeAt(n - 1) !== 62
  )
    return undefined;
  const inner = xml.slice(open, close);
  return inner.includes('<') ? undefined : inner;
}

/** The `r`, `t` and `s` attributes of a cell's start tag, read in one pass. */
interface CellAttrs {
  r: string | undefined;
  t: string | undefined;
  s: string | undefined;
}

const WS = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;

/**
 * Reads `name="value"` pairs of `attrs` (the text after the element name); false when the text is
 * not plain well-formed attributes, and the caller then reads them with `attr`.
 */
function cellAttrs(attrs: string, out: CellAttrs): boolean {
  out.r = out.t = out.s = undefined;
  const n = attrs.length;
  let i = 0;
  for (;;) {
    const ws = i;
    while (i < n && WS(attrs.charCodeAt(i))) i++;
    if (i >= n) return true;
    if (i === ws) return false;
    const nameStart = i;
    while (i < n) {
      const c = attrs.charCodeAt(i);
      if (c === 61 /* = */ || WS(c)) break;
      i++;
    }
    const nameEnd = i;
    while (i < n && WS(attrs.charCodeAt(i))) i++;
    if (attrs.charCodeAt(i) !== 61) return false;
    i++;
    while (i < n && WS(attrs.charCodeAt(i))) i++;
    const q = attrs.charCodeAt(i);
    if (q !== 34 && q !== 39) return false;
    const end = attrs.indexOf(q === 34 ? '"' : "'", i + 1);
    if (end < 0) return false;
    if (nameEnd - nameStart === 1) {
      const c = attrs.charCodeAt(nameStart);
      // The first occurrence wins, as with `attr`.
      if (c === 114 /* r */) out.r ??= decode(attrs.slice(i + 1, end));
      else if (c === 116 /* t */) out.t ??= decode(attrs.slice(i + 1, end));
      else if (c === 115 /* s */) out.s ??= decode(attrs.slice(i + 1, end));
    }
    i = end + 1;
  }
}

/** `B12` (or `$B$12`) to 0-based row and column; null when it is not a cell reference. */
function refToRC(ref: string): { r: number; c: number } | null {
  let i = 0;
  const n = ref.length;
  if (ref.charCodeAt(i) === 36) i++;
  let c = 0;
  let letters = 0;
  for (; i < n; i++) {
    const ch = ref.charCodeAt(i);
    if (ch < 65 || ch > 90) break;
    c = c * 26 + (ch - 64);
    letters++;
  }
  if (letters === 0 || letters > 3) return null;
  if (ref.charCodeAt(i) === 36) i++;
  let r = 0;
  let digits = 0;
  for (; i < n; i++) {
    const ch = ref.charCodeAt(i);
    if (ch < 48 || ch > 57) return null;
    r = r * 10 + (ch - 48);
    digits++;
  }
  return digits ? { r: r - 1, c: c - 1 } : null;
}

/** OOXML escapes characters XML cannot carry as _xHHHH_. */
function unescapeOoxml(s: string): string {
  return s.includes('_x')
    ? s.replace(/_x([0-9A-Fa-f]{4})_/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    : s;
}

/**
 * A part's relationships, read the way this reader reads every part: whatever markup damage (no
 * limit but the package's), every Relationship element wherever it is, attribute values decoded as
 * cell text is (a bad character reference reads as nothing, _xHHHH_ escapes), targets as written.
 */
function rels(part: string, text: (p: string) => string | undefined): Map<string, Relationship> {
  return readRels(part, {
    text,
    xml: { onBadTag: 'tolerate', invalidCharRefs: 'drop', maxDepth: Infinity, maxElements: Infinity },
    unreadable: 'none',
    select: 'Relationship-elements',
    attrNames: 'exact',
    missingTarget: 'skip',
    target: { percent: 'as-written', normalizeRoot: false },
    value: unescapeOoxml,
  });
}

/**
 * Built-in number formats whose code depends on the locale, so that ECMA-376 Part 1 §18.8.30 leaves
 * them out of its table for all languages and SSF's table lacks them: currency (5-8) and accounting
 * (41-44), as Excel defines them for en-US. Files that use them need not spell them out.
 */
const LOCALE_BUILTIN_FORMATS: Readonly<Record<number, string>> = {
  5: '$#,##0_);($#,##0)',
  6: '$#,##0_);[Red]($#,##0)',
  7: '$#,##0.00_);($#,##0.00)',
  8: '$#,##0.00_);[Red]($#,##0.00)',
  41: '_(* #,##0_);_(* (#,##0);_(* "-"_);_(@_)',
  42: '_($* #,##0_);_($* (#,##0);_($* "-"_);_(@_)',
  43: '_(* #,##0.00_);_(* (#,##0.00);_(* "-"??_);_(@_)',
  44: '_($* #,##0.00_);_($* (#,##0.00);_($* "-"??_);_(@_)',
};

/**
 * The built-in number formats: SSF's table as it comes (taken before anything loads into it: SheetJS
 * loads the formats of every workbook it reads into that shared table), with the short date formats
 * 14 and 22 as current Excel shows them in en-US (a four-digit year; SSF's table still has the
 * two-digit form of old Excel) and the locale-dependent ones.
 */
export const BUILTIN_FORMATS: Readonly<Record<number, string>> = {
  ...(XLSX.SSF.get_table() as Record<number, string>),
  14: 'm/d/yyyy',
  22: 'm/d/yyyy h:mm',
  ...LOCALE_BUILTIN_FORMATS,
};

/** The code of a built-in number format; ids without one fall back to sensible codes. */
function builtinFormat(id: number): string {
  const known = BUILTIN_FORMATS[id];
  if (known !== undefined) return known;
  if ((id >= 27 && id <= 31) || id === 36 || (id >= 50 && id <= 58)) return 'm/d/yy';
  if (id >= 32 && id <= 35) return 'h:mm:ss';
  return 'General';
}

/**
 * A number as the General format shows it. Integers up to 15 digits (the precision Excel keeps)
 * are written out in full: IDs, account numbers and barcodes of 12 digits or more would otherwise
 * read as `1.23457E+11`, the form Excel falls back to in a narrow column, and a markdown table has
 * no column width. Other numbers follow SSF's General rules (scientific for huge and tiny values).
 */
export function formatGeneral(num: number): string {
  if (Number.isInteger(num) && Math.abs(num) < 1e15) return String(num);
  return XLSX.SSF.format('General', num) as string;
}

/**
 * A number in a format code as Excel shows it. SheetJS's formatter rounds halves towards +∞, so a
 * negative half comes out one step short (-1.45 in "0.0" as "-1.4", -0.0345 in "0.0%" as "-3.4%";
 * Excel rounds halves away from zero: "-1.5", "-3.5%"). Where the format shows the negative number
 * with a minus sign in front (one section), it is formatted from its absolute value.
 */
export function formatNumber(fmt: string, num: number, date1904 = false): string {
  const shown = ssfFormat(fmt, num, date1904);
  if (num >= 0 || !shown.startsWith('-') || hasSections(fmt) || isDateFormat(fmt)) return shown;
  return `-${ssfFormat(fmt, -num, date1904)}`;
}

/** A mixed fraction with a "0" integer part ("0 ?/?", as LibreOffice writes one), which SheetJS cannot read. */
const ZERO_MIXED_FRACTION = /^0( +(?:\?+|#+)\/(?:\?+|\d+))$/;

function ssfFormat(fmt: string, num: number, date1904: boolean): string {
  try {
    return XLSX.SSF.format(fmt, num, { date1904 }) as string;
  } catch (err) {
    // "#" shows the same mixed fraction but drops a zero integer part, which "0" shows.
    const m = ZERO_MIXED_FRACTION.exec(fmt);
    if (!m) throw err;
    const shown = (XLSX.SSF.format(`#${m[1]}`, num, { date1904 }) as string).trim();
    return Math.abs(num) < 1 && num !== 0 ? `${num < 0 ? '-' : ''}0 ${shown.replace(/^-/, '')}` : shown;
  }
}

/** Whether a format code has more than one section (a ';' outside quotes and escapes). */
function hasSections(fmt: string): boolean {
  return fmt.includes(';') && fmt.replace(/"[^"]*"|\\./g, '').includes(';');
}

const DAY_MS = 86_400_000;

/**
 * An ISO 8601 date, date-time or time (the text of a `t="d"` cell) as a spreadsheet serial number in
 * the workbook's date system; undefined when it is not one or falls before the epoch. Any zone
 * offset is ignored: a spreadsheet date has no zone.
 */
function isoToSerial(iso: string, date1904: boolean): number | undefined {
  const m =
    /^(?:(\d{4})-(\d{2})-(\d{2}))?(?:(?:^|[T ])(\d{2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/.exec(
      iso.trim(),
    );
  if (!m || (m[1] === undefined && m[4] === undefined)) return undefined;
  const time = m[4] !== undefined ? (Number(m[4]) * 3600 + Number(m[5]) * 60 + Number(m[6] ?? 0)) / 86400 : 0;
  if (m[1] === undefined) return time;
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  const utc = Date.UTC(Number(m[1]), month - 1, day);
  let days: number;
  if (date1904) days = (utc - Date.UTC(1904, 0, 1)) / DAY_MS;
  else {
    days = (utc - Date.UTC(1899, 11, 30)) / DAY_MS;
    // Serial 60 is the 29 February 1900 that never was: the days before it count one less.
    if (days < 61) days -= 1;
  }
  return days < (date1904 ? 0 : 1) ? undefined : days + time;
}

/** The text of a `t="d"` cell where no date format applies: the ISO text, without a midnight time. */
function isoText(iso: string): string {
  return iso
    .trim()
    .replace(/T00:00(?::00(?:\.0+)?)?(?:Z)?$/, '')
    .replace('T', ' ');
}

export interface FastLimits {
  maxRows: number;
  maxCells: number;
  hasEntityDeclaration: (data: Uint8Array) => boolean;
}

export function readXlsxFast(bytes: Uint8Array, limits: FastLimits): FastWorkbook {
  const zip = ZipPackage.open(bytes);
  const decoder = new TextDecoder('utf-8');
  const text = (part: string): string | undefined => {
    const data = zip.read(part);
    if (!data) return undefined;
    if (limits.hasEntityDeclaration(data)) {
      throw new ParseError(
        'RESOURCE_LIMIT',
        `The workbook part ${part} declares XML entities; entity expansion is refused as a safety limit.`,
      );
    }
    return decoder.decode(data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf ? data.subarray(3) : data);
  };

  const rootRels = rels('', (p) => text(p.replace(/^\//, '')));
  const wbPart = [...rootRels.values()].find((r) => r.type.endsWith('/officeDocument'))?.target ?? 'xl/workbook.xml';
  const wbXml = text(wbPart);
  if (!wbXml) throw new Error('no workbook part');
  const wbRels = rels(wbPart, text);
  const date1904 = /<(?:\w+:)?workbookPr\b[^>]*\bdate1904\s*=\s*"(1|true)"/.test(wbXml);

  // Shared strings.
  const strings: string[] = [];
  const ssRel = [...wbRels.values()].find((r) => r.type.endsWith('/sharedStrings'));
  const ssXml = ssRel ? text(ssRel.target) : undefined;
  if (ssXml) {
    if (/:si\/?>/.test(ssXml)) {
      // Prefixed SpreadsheetML (`<x:si>`).
      for (const m of ssXml.matchAll(/<(?:\w+:)?si>([\s\S]*?)<\/(?:\w+:)?si>|<(?:\w+:)?si\/>/g))
        strings.push(m[1] ? runText(m[1]) : '');
    } else {
      for (let p = ssXml.indexOf('<si'); p >= 0; p = ssXml.indexOf('<si', p)) {
        const c = ssXml.charCodeAt(p + 3);
        if (c === 62 /* > */) {
          const end = ssXml.indexOf('</si>', p + 4);
          if (end < 0) break;
          strings.push(end > p + 4 ? runText(ssXml.slice(p + 4, end)) : '');
          p = end + 5;
        } else if (c === 47 /* / */ && ssXml.charCodeAt(p + 4) === 62) {
          strings.push('');
          p += 5;
        } else p += 3;
      }
    }
  }

  // Number formats of cell styles, read when the first number needs one.
  const stRel = [...wbRels.values()].find((r) => r.type.endsWith('/styles'));
  const stXml = stRel ? text(stRel.target) : undefined;
  let formats: string[] | undefined;
  const getFormats = (): string[] => {
    if (formats) return formats;
    formats = [];
    if (stXml) {
      const custom = new Map<number, string>();
      for (const m of stXml.matchAll(/<(?:\w+:)?numFmt\b[^>]*>/g)) {
        const id = Number(attr(m[0], 'numFmtId'));
        const code = attr(m[0], 'formatCode');
        if (Number.isFinite(id) && code !== undefined) custom.set(id, code);
      }
      const xfs = /<(?:\w+:)?cellXfs\b[^>]*>([\s\S]*?)<\/(?:\w+:)?cellXfs>/.exec(stXml)?.[1] ?? '';
      for (const m of xfs.matchAll(/<(?:\w+:)?xf\b[^>]*>/g)) {
        const id = Number(attr(m[0], 'numFmtId') ?? 0);
        formats.push(custom.get(id) ?? builtinFormat(id));
      }
    }
    return formats;
  };

  const sheets: FastSheet[] = [];
  let cellBudget = limits.maxCells;
  for (const m of wbXml.matchAll(/<(?:\w+:)?sheet\b[^>]*>/g)) {
    const name = attr(m[0], 'name') ?? `Sheet${sheets.length + 1}`;
    const state = attr(m[0], 'state');
    const rid = /\s[\w]+:id\s*=\s*"([^"]*)"/.exec(m[0])?.[1];
    const rel = rid ? wbRels.get(rid) : undefined;
    const hidden = state === 'hidden' || state === 'veryHidden';
    if (!rel || rel.external || hidden || !rel.type.endsWith('/worksheet')) {
      // Chart sheets and dialog sheets hold no cells; hidden sheets are only reported.
      if (hidden || (rel && rel.type.endsWith('/worksheet')))
        sheets.push({ name, hidden, data: [], merges: [], cut: false });
      else sheets.push({ name, hidden: false, data: [], merges: [], cut: false });
      continue;
    }
    const xml = text(rel.target);
    if (xml === undefined) throw new Error(`missing sheet part ${rel.target}`);
    const sheet = readSheet(xml, name, strings, getFormats, date1904, limits.maxRows, cellBudget);
    cellBudget -= sheet.cells;
    // Hyperlinks: cell references to external targets.
    const hl = sheet.tail.includes('hyperlinks')
      ? /<(?:\w+:)?hyperlinks>([\s\S]*?)<\/(?:\w+:)?hyperlinks>/.exec(sheet.tail)?.[1]
      : undefined;
    if (hl) {
      const sheetRels = rels(rel.target, text);
      for (const h of hl.matchAll(/<(?:\w+:)?hyperlink\b[^>]*>/g)) {
        const ref = refToRC(attr(h[0], 'ref')?.split(':')[0] ?? '');
        const id = /\s[\w]+:id\s*=\s*"([^"]*)"/.exec(h[0])?.[1];
        const target = id ? sheetRels.get(id) : undefined;
        const cell = ref ? sheet.sheet.data[ref.r]?.[ref.c] : undefined;
        if (cell && target?.external) cell.l = { Target: target.target };
      }
    }
    sheets.push(sheet.sheet);
  }
  if (!sheets.length) throw new Error('no sheets');

  const out: FastWorkbook = { sheets };
  const core = [...rootRels.values()].find((r) => r.type.endsWith('/core-properties'));
  const coreXml = core ? text(core.target) : undefined;
  if (coreXml) {
    const title = /<(?:\w+:)?title>([\s\S]*?)<\//.exec(coreXml)?.[1];
    const creator = /<(?:\w+:)?creator>([\s\S]*?)<\//.exec(coreXml)?.[1];
    if (title) out.title = decode(title);
    if (creator) out.author = decode(creator);
  }
  return out;
}

/** Whether `fmt` shows a date or time (memoised: SSF parses the code each time). */
const DATE_FORMATS = new Map<string, boolean>();
function isDateFormat(fmt: string): boolean {
  const known = DATE_FORMATS.get(fmt);
  if (known !== undefined) return known;
  let d = false;
  try {
    d = XLSX.SSF.is_date(fmt) === true;
  } catch {
    // An unparsable code shows no date.
  }
  if (DATE_FORMATS.size >= 1000) DATE_FORMATS.clear();
  DATE_FORMATS.set(fmt, d);
  return d;
}

/** Formatted numbers by format code, shared across parses (formatting is pure); bounded. */
const FORMATTED = new Map<string, Map<number, string>>();
const FORMATTED_1904 = new Map<string, Map<number, string>>();

const WORD = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;

/** End of the run of word characters from `i`. */
function wordEnd(xml: string, i: number): number {
  while (i < xml.length && WORD(xml.charCodeAt(i))) i++;
  return i;
}

/** Start and end of the first `</c>` (any prefix) from `from`; null when there is none. */
function cellClose(xml: string, from: number): [number, number] | null {
  for (let k = xml.indexOf('</', from); k >= 0; k = xml.indexOf('</', k + 2)) {
    let i = wordEnd(xml, k + 2);
    if (xml.charCodeAt(i) === 58 /* : */ && i > k + 2) i = wordEnd(xml, i + 1) === i + 2 ? i + 1 : -1;
    else i = k + 2;
    if (i > 0 && xml.charCodeAt(i) === 99 /* c */ && xml.charCodeAt(i + 1) === 62 /* > */) return [k, i + 2];
  }
  return null;
}

/** The `r` attribute of a start tag, taken directly when it comes first (as Excel writes it). */
function refAttr(attrs: string, a: CellAttrs): string | undefined {
  if (attrs.startsWith(' r="')) {
    const end = attrs.indexOf('"', 4);
    if (end > 0) return decode(attrs.slice(4, end));
  }
  return cellAttrs(attrs, a) ? a.r : attr(attrs, 'r');
}

const DIRECT = { r: 0, c: 0 };

/**
 * Reads a leading ` r="B12"` at `i` straight from the sheet text into DIRECT (no strings made);
 * false for anything else, which the general path then reads.
 */
function directRef(xml: string, i: number): boolean {
  if (
    xml.charCodeAt(i) !== 32 ||
    xml.charCodeAt(i + 1) !== 114 ||
    xml.charCodeAt(i + 2) !== 61 ||
    xml.charCodeAt(i + 3) !== 34
  )
    return false;
  let j = i + 4;
  let c = 0;
  let ch = xml.charCodeAt(j);
  while (ch >= 65 && ch <= 90) {
    c = c * 26 + (ch - 64);
    ch = xml.charCodeAt(++j);
  }
  const letters = j - i - 4;
  if (letters === 0 || letters > 3) return false;
  let r = 0;
  const digitsAt = j;
  while (ch >= 48 && ch <= 57) {
    r = r * 10 + (ch - 48);
    ch = xml.charCodeAt(++j);
  }
  if (j === digitsAt || ch !== 34) return false;
  DIRECT.r = r - 1;
  DIRECT.c = c - 1;
  return true;
}

const ATTRS: CellAttrs = { r: undefined, t: undefined, s: undefined };

/**
 * Reads the cells of one sheet's `<sheetData>`: an indexOf scan from tag to tag (cell bodies are
 * skipped whole), attributes read in one pass, and the common `<v>…</v>` body taken without a regular
 * expression.
 */
function readSheet(
  xml: string,
  name: string,
  strings: string[],
  formats: () => string[],
  date1904: boolean,
  maxRows: number,
  budget: number,
): { sheet: FastSheet; cells: number; tail: string } {
  const data: (FastCell[] | undefined)[] = [];
  const start = xml.search(/<(?:\w+:)?sheetData\b/);
  let cells = 0;
  let cut = false;
  let row = -1;
  let col = -1;
  const formatCache = date1904 ? FORMATTED_1904 : FORMATTED;
  const a = ATTRS;
  let pos = start + 1;
  if (start >= 0) {
    for (;;) {
      const lt = xml.indexOf('<', pos);
      if (lt < 0) break;
      pos = lt + 1;
      if (xml.charCodeAt(pos) === 47 /* / */) {
        // `</sheetData>` ends the scan; other end tags are passed over.
        let i = wordEnd(xml, pos + 1);
        if (xml.charCodeAt(i) === 58) i = wordEnd(xml, i + 1);
        if (
          xml.charCodeAt(i) === 62 &&
          i - 9 >= pos + 1 &&
          xml.startsWith('sheetData', i - 9) &&
          (i - 9 === pos + 1 || xml.charCodeAt(i - 10) === 58)
        )
          break;
        continue;
      }
      // The element's local name (after an optional prefix).
      let nameStart = pos;
      let nameEnd = wordEnd(xml, pos);
      if (xml.charCodeAt(nameEnd) === 58 && nameEnd > pos) {
        nameStart = nameEnd + 1;
        nameEnd = wordEnd(xml, nameStart);
      }
      const len = nameEnd - nameStart;
      const isCell = len === 1 && xml.charCodeAt(nameStart) === 99; /* c */
      if (!isCell && !(len === 3 && xml.startsWith('row', nameStart))) continue;
      const gt = xml.indexOf('>', nameEnd);
      if (gt < 0) break;
      const selfClosing = xml.charCodeAt(gt - 1) === 47 && gt - 1 >= nameEnd;
      const attrs = xml.slice(nameEnd, selfClosing ? gt - 1 : gt);
      pos = gt + 1;
      if (!isCell) {
        const r = refAttr(attrs, a);
        row = r ? Number(r) - 1 : row + 1;
        col = -1;
        if (row >= maxRows) {
          cut = true;
          break;
        }
        continue;
      }
      // A cell: its reference, type, style and content.
      let body = '';
      if (!selfClosing) {
        const close = cellClose(xml, pos);
        if (!close) throw new Error('unterminated cell');
        body = xml.slice(pos, close[0]);
        pos = close[1];
      }
      // An empty cell only moves the position: its reference is all that is read.
      const plainAttrs = body ? cellAttrs(attrs, a) : false;
      const rc = directRef(xml, nameEnd)
        ? DIRECT
        : refToRC((body ? (plainAttrs ? a.r : attr(attrs, 'r')) : refAttr(attrs, a)) ?? '');
      if (rc) {
        if (row < 0) row = rc.r;
        col = rc.c;
        if (rc.r !== row) row = rc.r;
      } else col++;
      if (row < 0) row = 0;
      if (!body) continue;
      const t = (plainAttrs ? a.t : attr(attrs, 't')) ?? 'n';
      let v = plainElementText(body, 'v');
      if (v === undefined) v = /<(?:\w+:)?v(?:\s[^>]*)?>([\s\S]*?)<\/(?:\w+:)?v>/.exec(body)?.[1];
      let w: string | undefined;
      if (t === 's') w = v === undefined ? undefined : strings[Number(v)];
      else if (t === 'inlineStr') w = runText(/<(?:\w+:)?is>([\s\S]*?)<\/(?:\w+:)?is>/.exec(body)?.[1] ?? '');
      else if (t === 'str' || t === 'e') w = v === undefined ? undefined : decode(v);
      else if (t === 'b') w = v === undefined ? undefined : v.trim() === '1' || v.trim() === 'true' ? 'TRUE' : 'FALSE';
      else if (v !== undefined) {
        // A date cell holds ISO text; it shows in its number format as the serial date it stands for.
        const iso = t === 'd' ? decode(v) : undefined;
        const fmt = formats()[Number((plainAttrs ? a.s : attr(attrs, 's')) ?? 0)] ?? 'General';
        const num = iso === undefined ? Number(v) : isDateFormat(fmt) ? isoToSerial(iso, date1904) : undefined;
        if (num === undefined || !Number.isFinite(num)) w = iso === undefined ? decode(v) : isoText(iso);
        else {
          let cache = formatCache.get(fmt);
          if (!cache) {
            if (formatCache.size >= 1000) formatCache.clear();
            formatCache.set(fmt, (cache = new Map()));
          }
          w = cache.get(num);
          if (w === undefined) {
            try {
              w = /^general$/i.test(fmt) ? formatGeneral(num) : formatNumber(fmt, num, date1904);
            } catch {
              w = formatGeneral(num);
            }
            if (cache.size < 10000) cache.set(num, w);
          }
        }
      }
      if (w === undefined || w === '') continue;
      (data[row] ??= [])[col] = { t: 's', v: w, w };
      if (++cells >= budget) {
        cut = true;
        break;
      }
    }
  }
  // Merges (and hyperlinks) follow the cells: searched from where the cell scan stopped.
  const tail = xml.slice(start >= 0 ? pos : 0);
  const merges: FastSheet['merges'] = [];
  if (tail.includes('mergeCell')) {
    for (const m of tail.matchAll(/<(?:\w+:)?mergeCell\b[^>]*>/g)) {
      const [a, b] = (attr(m[0], 'ref') ?? '').split(':');
      const s = refToRC(a ?? '');
      const e = refToRC(b ?? a ?? '');
      if (s && e) merges.push({ s, e });
    }
  }
  return { sheet: { name, hidden: false, data, merges, cut }, cells, tail };
}
