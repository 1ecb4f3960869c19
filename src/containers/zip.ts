/**
 * A ZIP reader for untrusted packages (OOXML, OpenDocument, EPUB). It reads the central directory,
 * refuses absurd entry counts and sizes before inflating anything, and inflates in chunks so that an
 * entry whose stream is larger than it declares is stopped at the limit instead of filling memory.
 */
import { inflateRawSync } from 'node:zlib';
import { fflate } from './fflate.js';
import { ParseError } from '../errors.js';

export interface ZipLimits {
  /** Entries in the central directory. */
  maxEntries: number;
  /** Uncompressed bytes of one entry. */
  maxEntryBytes: number;
  /** Uncompressed bytes read from the whole package during one parse. */
  maxTotalBytes: number;
  /** Uncompressed/compressed ratio allowed for entries over 1 MiB. */
  maxRatio: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 20000,
  maxEntryBytes: 256 * 1024 * 1024,
  maxTotalBytes: 1024 * 1024 * 1024,
  maxRatio: 200,
};

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  encrypted: boolean;
}

/** Entries up to this size are inflated in one call; larger ones in chunks. */
const SINGLE_SHOT_BYTES = 64 * 1024 * 1024;

const EOCD = 0x06054b50;
const EOCD64_LOCATOR = 0x07064b50;
const EOCD64 = 0x06064b50;
const CEN = 0x02014b50;
const LOC = 0x04034b50;

function malformed(message: string): ParseError {
  return new ParseError('MALFORMED', `The ZIP package is damaged: ${message}.`);
}

function limit(message: string): ParseError {
  return new ParseError('RESOURCE_LIMIT', `The ZIP package exceeds a safety limit: ${message}.`);
}

export class ZipPackage {
  readonly entries: ReadonlyMap<string, ZipEntry>;
  private readonly lowerNames: Map<string, string>;
  private readonly view: DataView;
  private inflated = 0;

  private constructor(
    private readonly bytes: Uint8Array,
    entries: Map<string, ZipEntry>,
    private readonly limits: ZipLimits,
  ) {
    this.entries = entries;
    this.lowerNames = new Map([...entries.keys()].map((n) => [n.toLowerCase(), n]));
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Parses the central directory; throws MALFORMED or RESOURCE_LIMIT. */
  static open(bytes: Uint8Array, limits: Partial<ZipLimits> = {}): ZipPackage {
    try {
      return ZipPackage.parse(bytes, limits);
    } catch (err) {
      // Damaged length fields point outside the file: a DataView read then throws RangeError.
      if (err instanceof RangeError) throw malformed(`a record points outside the file (${err.message})`);
      throw err;
    }
  }

  private static parse(bytes: Uint8Array, limits: Partial<ZipLimits>): ZipPackage {
    const l = { ...DEFAULT_ZIP_LIMITS, ...limits };
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const u32 = (o: number): number => view.getUint32(o, true);
    const u16 = (o: number): number => view.getUint16(o, true);

    let eocd = -1;
    for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
      if (u32(i) === EOCD) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw malformed('no end of central directory record');
    let count = u16(eocd + 10);
    let cdSize = u32(eocd + 12);
    let cdOffset = u32(eocd + 16);
    if ((count === 0xffff || cdOffset === 0xffffffff) && eocd >= 20 && u32(eocd - 20) === EOCD64_LOCATOR) {
      const at = Number(view.getBigUint64(eocd - 12, true));
      if (at + 56 > bytes.length || u32(at) !== EOCD64) throw malformed('bad ZIP64 end record');
      count = Number(view.getBigUint64(at + 32, true));
      cdSize = Number(view.getBigUint64(at + 40, true));
      cdOffset = Number(view.getBigUint64(at + 48, true));
    }
    if (count > l.maxEntries) throw limit(`${count} entries (at most ${l.maxEntries})`);
    if (cdOffset + cdSize > bytes.length) throw malformed('central directory outside the file');

    const entries = new Map<string, ZipEntry>();
    let declaredTotal = 0;
    let p = cdOffset;
    const decoder = new TextDecoder('utf-8');
    for (let i = 0; i < count; i++) {
      if (p + 46 > bytes.length || u32(p) !== CEN) throw malformed(`central directory entry ${i} is broken`);
      const flags = u16(p + 8);
      const method = u16(p + 10);
      let compressedSize = u32(p + 20);
      let size = u32(p + 24);
      const nameLen = u16(p + 28);
      const extraLen = u16(p + 30);
      const commentLen = u16(p + 32);
      let localOffset = u32(p + 42);
      const name = decoder.decode(bytes.subarray(p + 46, p + 46 + nameLen));
      // ZIP64 sizes and offsets live in extra field 0x0001, in this order, only for the saturated ones.
      let e = p + 46 + nameLen;
      const end = e + extraLen;
      while (e + 4 <= end) {
        const id = u16(e);
        const len = u16(e + 2);
        if (id === 0x0001) {
          let q = e + 4;
          if (size === 0xffffffff) {
            size = Number(view.getBigUint64(q, true));
            q += 8;
          }
          if (compressedSize === 0xffffffff) {
            compressedSize = Number(view.getBigUint64(q, true));
            q += 8;
          }
          if (localOffset === 0xffffffff) localOffset = Number(view.getBigUint64(q, true));
        }
        e += 4 + len;
      }
      p = end + commentLen;
      if (name.endsWith('/')) continue;
      if (size > l.maxEntryBytes) throw limit(`entry "${name}" expands to ${size} bytes (at most ${l.maxEntryBytes})`);
      if (size > 1024 * 1024 && compressedSize > 0 && size / compressedSize > l.maxRatio) {
        throw limit(
          `entry "${name}" has a compression ratio of ${Math.round(size / compressedSize)}:1 (at most ${l.maxRatio}:1)`,
        );
      }
      declaredTotal += size;
      if (declaredTotal > l.maxTotalBytes) throw limit(`entries expand to more than ${l.maxTotalBytes} bytes`);
      entries.set(name, { name, method, compressedSize, size, localOffset, encrypted: (flags & 1) === 1 });
    }
    return new ZipPackage(bytes, entries, l);
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  /** Finds an entry by exact name, then case-insensitively (OOXML part names ignore case). */
  entry(name: string): ZipEntry | undefined {
    const n = name.replace(/^\//, '');
    return this.entries.get(n) ?? this.entries.get(this.lowerNames.get(n.toLowerCase()) ?? '');
  }

  has(name: string): boolean {
    return this.entry(name) !== undefined;
  }

  /** Inflates one entry; undefined when it does not exist. */
  read(name: string): Uint8Array | undefined {
    const entry = this.entry(name);
    if (!entry) return undefined;
    if (entry.encrypted) throw new ParseError('ENCRYPTED', `The package entry "${entry.name}" is encrypted.`);
    const at = entry.localOffset;
    if (at + 30 > this.bytes.length || this.view.getUint32(at, true) !== LOC)
      throw malformed(`local header of "${entry.name}" is missing`);
    const start = at + 30 + this.view.getUint16(at + 26, true) + this.view.getUint16(at + 28, true);
    const data = this.bytes.subarray(start, start + entry.compressedSize);
    if (data.length < entry.compressedSize) throw malformed(`entry "${entry.name}" is truncated`);
    const budget = Math.min(this.limits.maxEntryBytes, this.limits.maxTotalBytes - this.inflated);
    if (entry.method === 0) {
      if (data.length > budget) throw limit(`reading "${entry.name}" would pass the total size limit`);
      this.inflated += data.length;
      return data;
    }
    if (entry.method !== 8)
      throw new ParseError(
        'MALFORMED',
        `The package entry "${entry.name}" uses an unsupported compression method (${entry.method}).`,
      );
    if (entry.size > 0 && entry.size + 1 <= budget && entry.size <= SINGLE_SHOT_BYTES) {
      // Most parts are small: inflate in one call into a buffer one byte larger than declared, so
      // memory stays bounded and a stream that goes past its declared size is still caught.
      // Node's native inflate (zlib) is several times faster than fflate; maxOutputLength keeps the bound.
      let out: Uint8Array;
      try {
        out = inflateRawSync(data, { maxOutputLength: entry.size + 1 });
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
          throw limit(`entry "${entry.name}" inflates past its declared size or the package's size limit`);
        throw malformed(`entry "${entry.name}" cannot be inflated (${(err as Error).message})`);
      }
      if (out.length > entry.size)
        throw limit(`entry "${entry.name}" inflates past its declared size or the package's size limit`);
      this.inflated += out.length;
      return out;
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    let overflow = false;
    const inflater = new (fflate().Inflate)((chunk) => {
      total += chunk.length;
      if (total > budget || total > Math.max(entry.size, 1) * 1.01 + 1024) overflow = true;
      else chunks.push(chunk);
    });
    const STEP = 64 * 1024;
    try {
      for (let o = 0; o < data.length && !overflow; o += STEP) {
        inflater.push(data.subarray(o, Math.min(data.length, o + STEP)), o + STEP >= data.length);
      }
    } catch (err) {
      throw malformed(`entry "${entry.name}" cannot be inflated (${(err as Error).message})`);
    }
    if (overflow) throw limit(`entry "${entry.name}" inflates past its declared size or the package's size limit`);
    this.inflated += total;
    if (chunks.length === 1) return chunks[0]!;
    const out = new Uint8Array(total);
    let o = 0;
    for (const c of chunks) {
      out.set(c, o);
      o += c.length;
    }
    return out;
  }

  /** Reads an entry as UTF-8 text (a byte-order mark is dropped); undefined when it does not exist. */
  text(name: string): string | undefined {
    const bytes = this.read(name);
    if (!bytes) return undefined;
    const hasBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    return new TextDecoder('utf-8').decode(hasBom ? bytes.subarray(3) : bytes);
  }
}
