/** [MS-PPT] records: the record types read, and a stream walker over their headers. */

export const RT = {
  Document: 0x03e8,
  DocumentAtom: 0x03e9,
  Slide: 0x03ee,
  SlideAtom: 0x03ef,
  Notes: 0x03f0,
  SlidePersistAtom: 0x03f3,
  OutlineTextRefAtom: 0x0f9e,
  TextHeaderAtom: 0x0f9f,
  TextCharsAtom: 0x0fa0,
  StyleTextPropAtom: 0x0fa1,
  TextBytesAtom: 0x0fa8,
  SlideListWithText: 0x0ff0,
  UserEditAtom: 0x0ff5,
  PersistDirectoryAtom: 0x1772,
  SpgrContainer: 0xf003,
  SpContainer: 0xf004,
  FSPGR: 0xf009,
  FOPT: 0xf00b,
  TertiaryFOPT: 0xf122,
  ClientAnchor: 0xf010,
  ChildAnchor: 0xf00f,
  ClientTextbox: 0xf00d,
  ClientData: 0xf011,
  BinaryTagData: 0x138b,
  StyleTextProp9Atom: 0x0fac,
  ExObjList: 0x0409,
  ExHyperlink: 0x0fd7,
  ExHyperlinkAtom: 0x0fd3,
  CString: 0x0fba,
  InteractiveInfo: 0x0ff2,
  InteractiveInfoAtom: 0x0ff3,
  TxInteractiveInfoAtom: 0x0fdf,
} as const;

/** InteractiveInfoAtom.action of a hyperlink ([MS-PPT] 2.13.15). */
export const ACTION_HYPERLINK = 4;

// Decoders are stateless between whole-buffer calls; creating one per text atom costs more than the decoding.
export const UTF16 = new TextDecoder('utf-16le');
export const LATIN1 = new TextDecoder('latin1');

export const TITLE_TYPES = new Set([0, 6]);
export const BODY_TYPES = new Set([1, 5, 7, 8]);
export const NOTES_TYPE = 2;

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
export type Transform = (b: Box) => Box;

export interface Rec {
  type: number;
  instance: number;
  container: boolean;
  /** Offset of the record's data. */
  start: number;
  end: number;
}

export class Stream {
  readonly view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  header(at: number): Rec | null {
    if (at < 0 || at + 8 > this.bytes.length) return null;
    const verInst = this.view.getUint16(at, true);
    const type = this.view.getUint16(at + 2, true);
    const len = this.view.getUint32(at + 4, true);
    const start = at + 8;
    const end = Math.min(this.bytes.length, start + len);
    return { type, instance: verInst >> 4, container: (verInst & 0xf) === 0xf, start, end };
  }

  children(rec: Rec): Rec[] {
    const out: Rec[] = [];
    let p = rec.start;
    while (p + 8 <= rec.end) {
      const h = this.header(p);
      if (!h) break;
      out.push(h);
      if (h.end <= p) break;
      p = h.end;
    }
    return out;
  }

  u32(at: number): number {
    return at + 4 <= this.bytes.length ? this.view.getUint32(at, true) : 0;
  }

  i32(at: number): number {
    return at + 4 <= this.bytes.length ? this.view.getInt32(at, true) : 0;
  }

  i16(at: number): number {
    return at + 2 <= this.bytes.length ? this.view.getInt16(at, true) : 0;
  }

  u16(at: number): number {
    return at + 2 <= this.bytes.length ? this.view.getUint16(at, true) : 0;
  }
}
