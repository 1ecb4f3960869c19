/**
 * Format detection: content first (magic numbers, package manifests), the file name's extension and
 * the declared content type only as hints for what content cannot tell (CSV, HTML without markup
 * at its start).
 */
import { ParseError } from '../errors.js';
import { cfbRootNames, readCfb } from '../containers/compound.js';
import { fflate } from '../containers/fflate.js';
import { OleFile } from '../containers/ole.js';
import { ole2DirectoryProblem } from '../containers/ole2-directory.js';
import { utf16WithoutBom } from './utf16.js';

export const FILE_KINDS = [
  'pdf',
  'docx',
  'docm',
  'doc',
  'odt',
  'ods',
  'odp',
  'rtf',
  'xlsx',
  'xlsm',
  'xlsb',
  'xls',
  'pptx',
  'pptm',
  'ppt',
  'epub',
  'csv',
  'html',
] as const;
export type FileKind = (typeof FILE_KINDS)[number];

export const SUPPORTED_EXTENSIONS = [
  '.html',
  '.htm',
  '.xhtml',
  '.pdf',
  '.docx',
  '.doc',
  '.docm',
  '.odt',
  '.ods',
  '.odp',
  '.rtf',
  '.xlsx',
  '.xls',
  '.xlsm',
  '.xlsb',
  '.pptx',
  '.ppt',
  '.pptm',
  '.epub',
  '.csv',
] as const;

export const CONTENT_TYPES: Record<FileKind, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  docm: 'application/vnd.ms-word.document.macroEnabled.12',
  doc: 'application/msword',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  rtf: 'application/rtf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xlsm: 'application/vnd.ms-excel.sheet.macroEnabled.12',
  xlsb: 'application/vnd.ms-excel.sheet.binary.macroEnabled.12',
  xls: 'application/vnd.ms-excel',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  pptm: 'application/vnd.ms-powerpoint.presentation.macroEnabled.12',
  ppt: 'application/vnd.ms-powerpoint',
  epub: 'application/epub+zip',
  csv: 'text/csv',
  html: 'text/html',
};

const EXTENSION_KIND: Record<string, FileKind> = {
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.doc': 'doc',
  '.docm': 'docm',
  '.odt': 'odt',
  '.ods': 'ods',
  '.odp': 'odp',
  '.rtf': 'rtf',
  '.xlsx': 'xlsx',
  '.xls': 'xls',
  '.xlsm': 'xlsm',
  '.xlsb': 'xlsb',
  '.pptx': 'pptx',
  '.ppt': 'ppt',
  '.pptm': 'pptm',
  '.epub': 'epub',
  '.csv': 'csv',
};

const MIME_KIND: Record<string, FileKind> = Object.fromEntries([
  ...Object.entries(CONTENT_TYPES).map(([k, v]) => [v, k as FileKind]),
  ['application/xhtml+xml', 'html'],
  ['application/csv', 'csv'],
  ['text/comma-separated-values', 'csv'],
  ['text/rtf', 'rtf'],
]);

export interface DetectHints {
  filename?: string | undefined;
  contentType?: string | undefined;
}

export interface Detection {
  kind: FileKind;
  contentType: string;
}

function extensionOf(filename: string | undefined): string | undefined {
  if (!filename) return undefined;
  const m = /(\.[A-Za-z0-9]+)$/.exec(filename.trim());
  return m?.[1]?.toLowerCase();
}

function hintedKind(hints: DetectHints): FileKind | undefined {
  const ext = extensionOf(hints.filename);
  if (ext && EXTENSION_KIND[ext]) return EXTENSION_KIND[ext];
  const mime = hints.contentType?.split(';')[0]?.trim().toLowerCase();
  return mime ? MIME_KIND[mime] : undefined;
}

function unsupported(why: string): ParseError {
  return new ParseError('UNSUPPORTED_FILE_TYPE', `${why} Supported file types: ${SUPPORTED_EXTENSIONS.join(', ')}.`);
}

function startsWith(bytes: Uint8Array, sig: readonly number[], at = 0): boolean {
  if (bytes.length < at + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (bytes[at + i] !== sig[i]) return false;
  return true;
}

const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const ZIP_EMPTY = [0x50, 0x4b, 0x05, 0x06];

/** Decodes the start of a file as text for markup sniffing, honouring UTF-16 byte-order marks. */
export function sniffText(bytes: Uint8Array, max = 4096): string {
  const head = bytes.subarray(0, max);
  if (startsWith(head, [0xff, 0xfe])) return new TextDecoder('utf-16le').decode(head.subarray(2));
  if (startsWith(head, [0xfe, 0xff])) return new TextDecoder('utf-16be').decode(head.subarray(2));
  const utf16 = utf16WithoutBom(head);
  if (utf16) return new TextDecoder(utf16).decode(head);
  return new TextDecoder('utf-8').decode(startsWith(head, [0xef, 0xbb, 0xbf]) ? head.subarray(3) : head);
}

function looksLikeHtml(text: string): boolean {
  const t = text
    .replace(/^\s+/, '')
    .replace(/^<!--[\s\S]*?-->\s*/g, '')
    .slice(0, 2048)
    .toLowerCase();
  if (/^<!doctype\s+html/.test(t) || /^<html[\s>]/.test(t)) return true;
  if (/^<\?xml[^>]*>\s*(<!doctype\s+html|<html[\s>])/.test(t)) return true;
  return /<(html|head|body)[\s>]/.test(t) || /^<(div|p|table|h[1-6]|meta|title|section|article)[\s>]/.test(t);
}

function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 4096);
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff]) || utf16WithoutBom(bytes)) return false;
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b === 0) return true;
    if (b < 9 || (b > 13 && b < 32)) control++;
  }
  return control > n * 0.05;
}

function detectOle2(bytes: Uint8Array): FileKind | 'encrypted-ooxml' {
  let names: string[];
  // Checked first: `cfb` loops forever on a directory whose links form a cycle.
  const problem = ole2DirectoryProblem(bytes);
  if (problem)
    throw new ParseError(
      'MALFORMED',
      `The file is an OLE2 compound document whose directory cannot be read: ${problem}.`,
    );
  try {
    // Only streams at the root decide the type: an Excel file may embed a Word document below it.
    // The small OLE reader lists them without reading every stream; cfb is the fallback.
    names = new OleFile(bytes).streamNames();
  } catch {
    try {
      names = cfbRootNames(readCfb(bytes));
    } catch (err) {
      throw new ParseError(
        'MALFORMED',
        `The file is an OLE2 compound document whose directory cannot be read: ${(err as Error).message}`,
        { cause: err },
      );
    }
  }
  const has = (n: string): boolean => names.some((x) => x.toLowerCase() === n.toLowerCase());
  if (has('EncryptedPackage') || has('EncryptionInfo')) return 'encrypted-ooxml';
  if (has('WordDocument')) return 'doc';
  if (has('PowerPoint Document')) return 'ppt';
  if (has('Workbook') || has('Book')) return 'xls';
  throw unsupported('The file is an OLE2 compound document but not a Word, Excel or PowerPoint file.');
}

function readSmallEntries(
  bytes: Uint8Array,
  wanted: (name: string) => boolean,
): { names: string[]; files: Record<string, Uint8Array> } {
  const names: string[] = [];
  const files = fflate().unzipSync(bytes, {
    filter: (f) => {
      names.push(f.name);
      // Manifests are small; a huge one is not a document we know, and must not be inflated.
      return wanted(f.name) && f.originalSize < 4 * 1024 * 1024;
    },
  });
  return { names, files };
}

function detectZip(bytes: Uint8Array): FileKind {
  let names: string[];
  let files: Record<string, Uint8Array>;
  try {
    ({ names, files } = readSmallEntries(bytes, (n) => n === '[Content_Types].xml' || n === 'mimetype'));
  } catch (err) {
    throw new ParseError('MALFORMED', `The file is a ZIP package that cannot be read: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const mimetype = files['mimetype'] ? new TextDecoder().decode(files['mimetype']).trim() : undefined;
  if (mimetype) {
    if (mimetype === 'application/epub+zip') return 'epub';
    if (mimetype.startsWith('application/vnd.oasis.opendocument.text')) return 'odt';
    if (mimetype.startsWith('application/vnd.oasis.opendocument.spreadsheet')) return 'ods';
    if (mimetype.startsWith('application/vnd.oasis.opendocument.presentation')) return 'odp';
  }
  const types = files['[Content_Types].xml'] ? new TextDecoder().decode(files['[Content_Types].xml']) : '';
  const main =
    /ContentType="([^"]+)"[^>]*PartName="\/(?:word|xl|ppt)\/[^"]+"|PartName="\/(?:word|xl|ppt)\/[^"]+"[^>]*ContentType="([^"]+)"/g;
  const mains: string[] = [];
  for (const m of types.matchAll(main)) mains.push((m[1] ?? m[2] ?? '').toLowerCase());
  const anyMain = (re: RegExp): boolean => mains.some((t) => re.test(t));
  if (anyMain(/wordprocessingml\.(document|template)\.main\+xml/)) return 'docx';
  if (anyMain(/ms-word\.(document|template)\.macroenabled/)) return 'docm';
  if (anyMain(/ms-excel\.sheet\.binary\.macroenabled/)) return 'xlsb';
  if (anyMain(/spreadsheetml\.(sheet|template)\.main\+xml/)) return 'xlsx';
  if (anyMain(/ms-excel\.(sheet|template)\.macroenabled/)) return 'xlsm';
  if (anyMain(/presentationml\.(presentation|slideshow|template)\.main\+xml/)) return 'pptx';
  if (anyMain(/ms-powerpoint\.(presentation|slideshow|template)\.macroenabled/)) return 'pptm';
  // Packages with an unusual manifest (Strict OOXML writers, hand-made files): fall back to the part names.
  const has = (n: string): boolean => names.includes(n);
  if (has('word/document.xml')) return 'docx';
  if (has('xl/workbook.bin')) return 'xlsb';
  if (has('xl/workbook.xml')) return 'xlsx';
  if (has('ppt/presentation.xml')) return 'pptx';
  if (has('META-INF/container.xml') && names.some((n) => n.endsWith('.opf'))) return 'epub';
  if (has('content.xml') && has('META-INF/manifest.xml')) {
    throw unsupported('The file is an OpenDocument package of a kind that is not supported.');
  }
  throw unsupported('The file is a ZIP archive but not an Office, OpenDocument or EPUB document.');
}

/**
 * Tells which reader a file needs. Throws UNSUPPORTED_FILE_TYPE (listing the supported extensions)
 * for empty files and content of no supported kind, ENCRYPTED for password-protected OOXML.
 */
export function detectFormat(bytes: Uint8Array, hints: DetectHints = {}): Detection {
  const result = (kind: FileKind): Detection => ({ kind, contentType: CONTENT_TYPES[kind] });
  if (bytes.length === 0) throw unsupported('The file is empty.');

  // PDF writers may put junk before the header; readers accept it within the first kilobyte.
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  if (head.includes('%PDF-')) return result('pdf');
  if (startsWith(bytes, OLE2)) {
    const kind = detectOle2(bytes);
    if (kind === 'encrypted-ooxml')
      throw new ParseError(
        'ENCRYPTED',
        'The document is password protected (encrypted Office package); it cannot be opened without its password.',
      );
    return result(kind);
  }
  if (startsWith(bytes, ZIP) || startsWith(bytes, ZIP_EMPTY)) return result(detectZip(bytes));
  if (head.replace(/^\s+/, '').startsWith('{\\rtf')) return result('rtf');

  const hinted = hintedKind(hints);
  if (looksBinary(bytes)) {
    throw unsupported(
      hinted
        ? `The file is named or typed as ${hinted} but its content is not.`
        : 'The file content is not of a supported type.',
    );
  }
  const text = sniffText(bytes);
  if (hinted === 'csv') return result('csv');
  if (looksLikeHtml(text) || hinted === 'html') return result('html');
  throw unsupported(
    hinted
      ? `The file is named or typed as ${hinted} but its content is not.`
      : 'The file content is not of a supported type (text files are read as CSV only when named .csv or sent as text/csv).',
  );
}
