/**
 * A small reader for OLE2 compound files (shared by format detection and the legacy
 * Office readers) that reads only the root-level streams asked for, without copying every stream of
 * the file first (the `cfb` package does, which dominates the cost of small documents). Chains are
 * bounded by the sector count, so a damaged or looping file fails (throws) instead of hanging;
 * callers fall back to `cfb` then.
 */

const FREE = 0xffffffff;
const END = 0xfffffffe;

export class OleFile {
  private readonly view: DataView;
  private readonly sectorSize: number;
  private readonly miniSectorSize: number;
  private readonly miniCutoff: number;
  private readonly fat: Uint32Array;
  private readonly sectors: number;
  private miniFat: Uint32Array | undefined;
  private miniStream: Uint8Array | undefined;
  private readonly entries = new Map<string, { start: number; size: number }>();
  private readonly root: { start: number; size: number };
  private readonly firstMiniFat: number;

  constructor(private readonly bytes: Uint8Array) {
    if (bytes.length < 512) throw new Error('file shorter than an OLE2 header');
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const v = this.view;
    if (v.getUint32(0, true) !== 0xe011cfd0 || v.getUint32(4, true) !== 0xe11ab1a1) throw new Error('not an OLE2 file');
    const shift = v.getUint16(0x1e, true);
    if (shift !== 9 && shift !== 12) throw new Error(`unsupported sector size 2^${shift}`);
    this.sectorSize = 1 << shift;
    this.miniSectorSize = 1 << v.getUint16(0x20, true);
    this.miniCutoff = v.getUint32(0x38, true) || 4096;
    this.sectors = Math.floor((bytes.length - this.sectorSize) / this.sectorSize) + 1;
    const fatCount = v.getUint32(0x2c, true);
    if (fatCount > this.sectors) throw new Error('FAT larger than the file');
    // FAT sector numbers: 109 in the header, the rest in the DIFAT chain.
    const fatSectors: number[] = [];
    for (let k = 0; k < 109 && fatSectors.length < fatCount; k++) fatSectors.push(v.getUint32(0x4c + k * 4, true));
    let difat = v.getUint32(0x44, true);
    const perDifat = this.sectorSize / 4 - 1;
    for (let guard = 0; fatSectors.length < fatCount && difat !== END && difat !== FREE; guard++) {
      if (guard > this.sectors) throw new Error('DIFAT chain loops');
      const at = this.offsetOf(difat);
      for (let k = 0; k < perDifat && fatSectors.length < fatCount; k++) fatSectors.push(v.getUint32(at + k * 4, true));
      difat = v.getUint32(at + perDifat * 4, true);
    }
    const perSector = this.sectorSize / 4;
    this.fat = new Uint32Array(fatSectors.length * perSector);
    fatSectors.forEach((sec, i) => {
      const at = this.offsetOf(sec);
      for (let k = 0; k < perSector; k++) this.fat[i * perSector + k] = v.getUint32(at + k * 4, true);
    });
    this.firstMiniFat = v.getUint32(0x3c, true);
    // Directory: the root entry, then the root's children (a red-black tree over left/right siblings).
    const dir = this.chain(v.getUint32(0x30, true), Number.MAX_SAFE_INTEGER);
    const entry = (i: number): number => {
      const at = i * 128;
      if (at + 128 > dir.length) throw new Error('directory entry outside the directory');
      return at;
    };
    const dv = new DataView(dir.buffer, dir.byteOffset, dir.byteLength);
    const rootAt = entry(0);
    this.root = { start: dv.getUint32(rootAt + 0x74, true), size: dv.getUint32(rootAt + 0x78, true) };
    const stack = [dv.getUint32(rootAt + 0x4c, true)];
    const seen = new Set<number>();
    while (stack.length) {
      const i = stack.pop()!;
      if (i === FREE || i === 0xffffffff || seen.has(i) || seen.size > 100000) continue;
      seen.add(i);
      const at = entry(i);
      const nameLen = Math.min(64, dv.getUint16(at + 0x40, true));
      const name = new TextDecoder('utf-16le').decode(dir.subarray(at, at + Math.max(0, nameLen - 2)));
      const type = dir[at + 0x42];
      if (type === 2)
        this.entries.set(name, { start: dv.getUint32(at + 0x74, true), size: dv.getUint32(at + 0x78, true) });
      stack.push(dv.getUint32(at + 0x44, true), dv.getUint32(at + 0x48, true));
    }
  }

  private offsetOf(sector: number): number {
    const at = (sector + 1) * this.sectorSize;
    if (sector >= this.sectors || at + this.sectorSize > this.bytes.length + this.sectorSize)
      throw new Error(`sector ${sector} outside the file`);
    return at;
  }

  /** Follows a FAT chain from `start`, reading at most `size` bytes. */
  private chain(start: number, size: number): Uint8Array {
    const parts: Uint8Array[] = [];
    let total = 0;
    let sec = start;
    for (let guard = 0; sec !== END && sec !== FREE && total < size; guard++) {
      if (guard > this.sectors || sec >= this.fat.length) throw new Error('sector chain broken or looping');
      const at = this.offsetOf(sec);
      const part = this.bytes.subarray(at, Math.min(at + this.sectorSize, this.bytes.length));
      parts.push(part);
      total += part.length;
      sec = this.fat[sec]!;
    }
    const out = parts.length === 1 ? parts[0]! : concat(parts, total);
    return size < out.length ? out.subarray(0, size) : out;
  }

  private miniChain(start: number, size: number): Uint8Array {
    if (!this.miniStream) {
      this.miniStream = this.chain(this.root.start, this.root.size);
      const mf = this.chain(this.firstMiniFat, Number.MAX_SAFE_INTEGER);
      this.miniFat = new Uint32Array(Math.floor(mf.length / 4));
      const v = new DataView(mf.buffer, mf.byteOffset, mf.byteLength);
      for (let k = 0; k < this.miniFat.length; k++) this.miniFat[k] = v.getUint32(k * 4, true);
    }
    const out = new Uint8Array(size);
    let o = 0;
    let sec = start;
    for (let guard = 0; o < size && sec !== END && sec !== FREE; guard++) {
      if (guard > this.miniFat!.length) throw new Error('mini sector chain loops');
      const at = sec * this.miniSectorSize;
      const n = Math.min(this.miniSectorSize, size - o);
      if (at + n > this.miniStream.length) throw new Error('mini sector outside the mini stream');
      out.set(this.miniStream.subarray(at, at + n), o);
      o += n;
      sec = this.miniFat![sec] ?? END;
    }
    return o === size ? out : out.subarray(0, o);
  }

  /** Names of the root-level streams. */
  streamNames(): string[] {
    return [...this.entries.keys()];
  }

  /** A root-level stream by name, or undefined when the file has none. */
  stream(name: string): Uint8Array | undefined {
    const e = this.entries.get(name);
    if (!e) return undefined;
    return e.size < this.miniCutoff ? this.miniChain(e.start, e.size) : this.chain(e.start, e.size);
  }
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
