/**
 * Word 97-2003 formatting: the piece table's pieces, paragraph and character properties read from
 * FKP pages (PAPX, CHPX) and the SPRMs that set them.
 */
import { ParseError } from '../../../errors.js';

export interface Piece {
  cpStart: number;
  cpEnd: number;
  fc: number;
  compressed: boolean;
}

export interface ParaProps {
  istd: number;
  inTable: boolean;
  ttp: boolean;
  itap: number;
  innerCell: boolean;
  innerTtp: boolean;
  outline: number;
  ilfo: number;
  ilvl: number;
  /** A drop cap: its text belongs to the start of the next paragraph. */
  dropCap?: boolean;
  /** Row end marks: cell edges and merge flags of the row (sprmTDefTable). */
  bounds?: number[];
  vmerge?: ('none' | 'start' | 'cont')[];
  hmerged?: boolean[];
}

export interface CharProps {
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  iss?: number;
  hidden?: boolean;
  deleted?: boolean;
  special?: boolean;
  /** Offset of the picture (PICF) in the Data stream. */
  pic?: number;
  /** Fonts (indexes into the font table) of ASCII text and of other text (sprmCRgFtc0/2). */
  ftcAscii?: number;
  ftcOther?: number;
  /** An inserted symbol (sprmCSymbol): its font and character, shown in place of the special character. */
  symFtc?: number;
  symChar?: number;
}

export interface Run<T> {
  fcStart: number;
  fcEnd: number;
  props: T;
}

export const UTF16 = new TextDecoder('utf-16le');

export function malformed(msg: string): ParseError {
  return new ParseError('MALFORMED', `The Word 97–2003 document is damaged: ${msg}.`);
}

/** Size of a sprm's operand, or -1 for a variable one whose size byte follows. */
export function operandSize(sprm: number): number {
  switch (sprm >> 13) {
    case 0:
    case 1:
      return 1;
    case 2:
    case 4:
    case 5:
      return 2;
    case 3:
      return 4;
    case 7:
      return 3;
    default:
      return -1;
  }
}

/** Iterates the sprms of a grpprl: callback(sprm, operandOffset, operandSize). */
export function eachSprm(
  buf: Uint8Array,
  start: number,
  end: number,
  fn: (sprm: number, at: number, size: number) => void,
): void {
  let p = start;
  while (p + 2 <= end) {
    const sprm = buf[p]! | (buf[p + 1]! << 8);
    p += 2;
    let size = operandSize(sprm);
    if (size < 0) {
      if (sprm === 0xd608 || sprm === 0xd606) {
        // sprmTDefTable / sprmTDefTable10: a two-byte size that counts itself.
        if (p + 2 > end) break;
        size = (buf[p]! | (buf[p + 1]! << 8)) - 1;
        p += 2;
      } else if (sprm === 0xc615) {
        // sprmPChgTabs: a size byte, 255 meaning "compute from content".
        size = buf[p] ?? 0;
        p += 1;
        if (size === 255) {
          const del = buf[p] ?? 0;
          const add = buf[p + 1 + del * 4] ?? 0;
          size = 1 + del * 4 + 1 + add * 3;
        }
      } else {
        size = buf[p] ?? 0;
        p += 1;
      }
    }
    if (p + size > end) break;
    fn(sprm, p, size);
    p += size;
  }
}

export function readFkpRuns<T>(
  wordDoc: Uint8Array,
  table: Uint8Array,
  fc: number,
  lcb: number,
  parse: (page: Uint8Array, i: number, crun: number) => T,
): Run<T>[] {
  const runs: Run<T>[] = [];
  if (lcb < 8 || fc + lcb > table.length) return runs;
  const tv = new DataView(table.buffer, table.byteOffset, table.byteLength);
  const n = (lcb - 4) / 8;
  for (let k = 0; k < n; k++) {
    const pn = tv.getUint32(fc + (n + 1) * 4 + k * 4, true) & 0x3fffff;
    const off = pn * 512;
    if (off + 512 > wordDoc.length) continue;
    const page = wordDoc.subarray(off, off + 512);
    const pv = new DataView(page.buffer, page.byteOffset, 512);
    const crun = page[511]!;
    for (let i = 0; i < crun; i++) {
      const fcStart = pv.getUint32(i * 4, true);
      const fcEnd = pv.getUint32((i + 1) * 4, true);
      runs.push({ fcStart, fcEnd, props: parse(page, i, crun) });
    }
  }
  runs.sort((a, b) => a.fcStart - b.fcStart);
  return runs;
}

export function findRun<T>(runs: Run<T>[], fc: number): Run<T> | undefined {
  let lo = 0;
  let hi = runs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = runs[mid]!;
    if (fc < r.fcStart) hi = mid - 1;
    else if (fc >= r.fcEnd) lo = mid + 1;
    else return r;
  }
  return undefined;
}

export const DEFAULT_PARA: ParaProps = {
  istd: 0,
  inTable: false,
  ttp: false,
  itap: 0,
  innerCell: false,
  innerTtp: false,
  outline: 9,
  ilfo: 0,
  ilvl: 0,
};

export function parsePapx(page: Uint8Array, i: number, crun: number, data?: Uint8Array): ParaProps {
  const bOffset = page[(crun + 1) * 4 + i * 13]! * 2;
  const props: ParaProps = { ...DEFAULT_PARA };
  if (bOffset === 0 || bOffset >= 511) return props;
  let cb = page[bOffset]!;
  let start = bOffset + 1;
  let len: number;
  if (cb === 0) {
    cb = page[bOffset + 1]!;
    start = bOffset + 2;
    len = cb * 2;
  } else len = cb * 2 - 1;
  const end = Math.min(511, start + len);
  if (start + 2 > end) return props;
  props.istd = page[start]! | (page[start + 1]! << 8);
  applyPapSprms(page, start + 2, end, props, data);
  return props;
}

export function applyPapSprms(
  page: Uint8Array,
  start: number,
  end: number,
  props: ParaProps,
  data: Uint8Array | undefined,
  depth = 0,
): void {
  eachSprm(page, start, end, (sprm, at, size) => {
    const b = page[at]!;
    switch (sprm) {
      case 0x6646: {
        // sprmPHugePapx: properties too large for the FKP page live in the Data stream.
        if (!data || depth > 0) break;
        const off = (page[at]! | (page[at + 1]! << 8) | (page[at + 2]! << 16)) + page[at + 3]! * 0x1000000;
        if (off + 2 > data.length) break;
        const cb = data[off]! | (data[off + 1]! << 8);
        applyPapSprms(data, off + 2, Math.min(data.length, off + 2 + cb), props, data, depth + 1);
        break;
      }
      case 0x2416:
        props.inTable = b !== 0;
        break;
      case 0x2417:
        props.ttp = b !== 0;
        break;
      case 0x6649:
        props.itap = size >= 4 ? page[at]! | (page[at + 1]! << 8) : b;
        if (props.itap > 0) props.inTable = true;
        break;
      case 0x244b:
        props.innerCell = b !== 0;
        break;
      case 0x244c:
        props.innerTtp = b !== 0;
        break;
      case 0x2640:
        props.outline = b;
        break;
      case 0x460b:
        props.ilfo = page[at]! | (page[at + 1]! << 8);
        break;
      case 0x260a:
        props.ilvl = b;
        break;
      case 0x442c:
        props.dropCap = (b & 0x07) !== 0;
        break;
      case 0xd608: {
        const itc = page[at]!;
        const dv = new DataView(page.buffer, page.byteOffset, page.byteLength);
        if (at + 1 + (itc + 1) * 2 > at + size) break;
        props.bounds = [];
        for (let k = 0; k <= itc; k++) props.bounds.push(dv.getInt16(at + 1 + k * 2, true));
        props.vmerge = [];
        props.hmerged = [];
        const tcAt = at + 1 + (itc + 1) * 2;
        for (let k = 0; k < itc; k++) {
          const o = tcAt + k * 20;
          const grf = o + 2 <= at + size ? dv.getUint16(o, true) : 0;
          props.hmerged.push((grf & 0x0002) !== 0);
          props.vmerge.push(grf & 0x0020 ? (grf & 0x0040 ? 'start' : 'cont') : 'none');
        }
        break;
      }
      default:
        break;
    }
  });
}

export function parseChpx(
  page: Uint8Array,
  i: number,
  crun: number,
  charStyles?: () => Map<number, CharProps>,
): CharProps {
  const off = page[(crun + 1) * 4 + i]! * 2;
  const props: CharProps = {};
  if (off === 0) return props;
  const cb = page[off]!;
  applyChpSprms(page, off + 1, Math.min(511, off + 1 + cb), props, charStyles);
  return props;
}

export function applyChpSprms(
  page: Uint8Array,
  start: number,
  end: number,
  props: CharProps,
  charStyles?: () => Map<number, CharProps>,
): void {
  eachSprm(page, start, end, (sprm, at) => {
    const b = page[at]!;
    const flag = b === 1 || b === 0x81;
    switch (sprm) {
      case 0x4a30: {
        // sprmCIstd: a character style; its emphasis applies unless the run says otherwise.
        const style = charStyles?.().get(page[at]! | (page[at + 1]! << 8));
        if (style) {
          if (style.bold !== undefined && props.bold === undefined) props.bold = style.bold;
          if (style.italic !== undefined && props.italic === undefined) props.italic = style.italic;
          if (style.strike !== undefined && props.strike === undefined) props.strike = style.strike;
        }
        break;
      }
      case 0x0835:
        props.bold = flag;
        break;
      case 0x0836:
        props.italic = flag;
        break;
      case 0x0837:
      case 0x2a53:
        props.strike = flag;
        break;
      case 0x2a48:
        props.iss = b;
        break;
      case 0x083c:
        props.hidden = flag;
        break;
      case 0x0800:
        props.deleted = flag;
        break;
      case 0x0855:
        props.special = b !== 0;
        break;
      case 0x6a03:
        props.pic = page[at]! | (page[at + 1]! << 8) | (page[at + 2]! << 16) | (page[at + 3]! * 0x1000000);
        break;
      case 0x4a4f:
        props.ftcAscii = page[at]! | (page[at + 1]! << 8);
        break;
      case 0x4a51:
        props.ftcOther = page[at]! | (page[at + 1]! << 8);
        break;
      case 0x6a09:
        props.symFtc = page[at]! | (page[at + 1]! << 8);
        props.symChar = page[at + 2]! | (page[at + 3]! << 8);
        break;
      default:
        break;
    }
  });
}
