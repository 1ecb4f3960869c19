/**
 * Which reader handles which detected kind. Readers are loaded on first use so that a service that
 * only ever sees HTML never loads pdf.js or the Office stack.
 */
import type { FileKind } from '../detect/detect.js';
import type { Reader } from './reader.js';

type Loader = () => Promise<Reader>;

const documents: Loader = async () => (await import('../office/documents/reader.js')).read;
const workbooks: Loader = async () => (await import('../office/workbooks/reader.js')).read;
const presentations: Loader = async () => (await import('../office/presentations/reader.js')).read;

const LOADERS: Record<FileKind, Loader> = {
  pdf: async () => (await import('../pdf/reader.js')).read,
  html: async () => (await import('../html/reader.js')).read,
  csv: async () => (await import('../csv/reader.js')).read,
  docx: documents,
  docm: documents,
  doc: documents,
  odt: documents,
  rtf: documents,
  epub: documents,
  xlsx: workbooks,
  xlsm: workbooks,
  xlsb: workbooks,
  xls: workbooks,
  ods: workbooks,
  pptx: presentations,
  pptm: presentations,
  ppt: presentations,
  odp: presentations,
};

export function readerFor(kind: FileKind): Promise<Reader> {
  return LOADERS[kind]();
}
