/**
 * Hostile OLE2 compound files (.doc, .xls, .ppt): loops in the FAT and the directory tree, absurd
 * header counts and sizes, truncation and bit flips of real files.
 */
import { concat, flipBits, intIn, randomBytes, rng, subSeed, type Variant } from './util.js';

const SIG = Uint8Array.of(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1);

interface Layout {
  sectorSize: number;
  dirStart: number;
  fat0: number;
}

function layout(b: Uint8Array): Layout {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return {
    sectorSize: 1 << dv.getUint16(0x1e, true),
    dirStart: dv.getUint32(0x30, true),
    fat0: dv.getUint32(0x4c, true),
  };
}

const sectorOffset = (l: Layout, n: number): number => (n + 1) * l.sectorSize;

/** Applies `f` to a copy of `b` through a DataView, ignoring writes that fall outside the file. */
function patch(b: Uint8Array, f: (dv: DataView, l: Layout) => void): Uint8Array {
  const out = b.slice();
  const dv = new DataView(out.buffer);
  const safe = new Proxy(dv, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        try {
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        } catch {
          return undefined;
        }
      };
    },
  });
  f(safe, layout(b));
  return out;
}

export const OLE_SOURCES = [
  'unstructured/simple.doc',
  'unstructured/fake.doc',
  'markitdown/test.xls',
  'unstructured/tests-example.xls',
  'unstructured/fake-power-point.ppt',
];

export function mutatedOle(source: string, load: () => Uint8Array, seed: number, count: number): Variant[] {
  const base = source.replace(/[^A-Za-z0-9]+/g, '_');
  const ext = source.slice(source.lastIndexOf('.') + 1);
  const v = (name: string, recipe: string, make: (src: Uint8Array) => Uint8Array): Variant => ({
    id: `ole2/mutated/${base}/${name}`,
    family: 'ole2',
    filename: `${base}-${name}.${ext}`,
    recipe: `${source}: ${recipe}`,
    make: () => make(load()),
  });
  const dirEntry = (l: Layout, i: number): number => sectorOffset(l, l.dirStart) + i * 128;
  const out: Variant[] = [
    v('fat-dir-self-loop', 'the FAT entry of the first directory sector points at itself', (b) =>
      patch(b, (dv, l) => dv.setUint32(sectorOffset(l, l.fat0) + l.dirStart * 4, l.dirStart, true)),
    ),
    v('fat-all-self', 'every entry of the first FAT sector points at its own sector', (b) =>
      patch(b, (dv, l) => {
        for (let i = 0; i < l.sectorSize / 4; i++) dv.setUint32(sectorOffset(l, l.fat0) + i * 4, i, true);
      }),
    ),
    v('fat-two-cycle', 'every FAT entry of the first FAT sector points at its neighbour, pairwise (2-cycles)', (b) =>
      patch(b, (dv, l) => {
        for (let i = 0; i < l.sectorSize / 4; i++) dv.setUint32(sectorOffset(l, l.fat0) + i * 4, i ^ 1, true);
      }),
    ),
    v('dir-root-child-self', 'the root directory entry is its own child', (b) =>
      patch(b, (dv, l) => dv.setUint32(dirEntry(l, 0) + 76, 0, true)),
    ),
    v('dir-sibling-cycle', "directory entries 1 and 2 are each other's left and right siblings", (b) =>
      patch(b, (dv, l) => {
        dv.setUint32(dirEntry(l, 1) + 68, 2, true);
        dv.setUint32(dirEntry(l, 1) + 72, 2, true);
        dv.setUint32(dirEntry(l, 2) + 68, 1, true);
        dv.setUint32(dirEntry(l, 2) + 72, 1, true);
      }),
    ),
    v('dir-ids-out-of-range', 'every directory child/sibling id set to 0x7ffffff0', (b) =>
      patch(b, (dv, l) => {
        for (let i = 0; i < l.sectorSize / 128; i++)
          for (const o of [68, 72, 76]) dv.setUint32(dirEntry(l, i) + o, 0x7ffffff0, true);
      }),
    ),
    v('stream-size-huge', "every directory entry's stream size set to 0xFFFFFFF0 (and high word set)", (b) =>
      patch(b, (dv, l) => {
        for (let i = 1; i < l.sectorSize / 128; i++) {
          dv.setUint32(dirEntry(l, i) + 120, 0xfffffff0, true);
          dv.setUint32(dirEntry(l, i) + 124, 0x7fffffff, true);
        }
      }),
    ),
    v('fat-count-huge', 'header: number of FAT sectors 0x7FFFFFFF', (b) =>
      patch(b, (dv) => dv.setUint32(0x2c, 0x7fffffff, true)),
    ),
    v('difat-loop', 'header: 1000 DIFAT sectors starting at sector 0, whose chain pointer points at itself', (b) =>
      patch(b, (dv, l) => {
        dv.setUint32(0x44, 0, true);
        dv.setUint32(0x48, 1000, true);
        dv.setUint32(sectorOffset(l, 0) + l.sectorSize - 4, 0, true);
      }),
    ),
    v('minifat-loop', 'header: mini FAT starts at the directory sector, 100000 sectors long', (b) =>
      patch(b, (dv, l) => {
        dv.setUint32(0x3c, l.dirStart, true);
        dv.setUint32(0x40, 100000, true);
      }),
    ),
    v('sector-shift-huge', 'header: sector shift 30 (1 GiB sectors)', (b) =>
      patch(b, (dv) => dv.setUint16(0x1e, 30, true)),
    ),
    v('sector-shift-zero', 'header: sector shift 0', (b) => patch(b, (dv) => dv.setUint16(0x1e, 0, true))),
    v('dir-start-past-end', 'header: directory start sector 0x7FFFFFF0', (b) =>
      patch(b, (dv) => dv.setUint32(0x30, 0x7ffffff0, true)),
    ),
    v('mini-cutoff-zero', 'header: mini stream cutoff 0 and mini sector shift 20', (b) =>
      patch(b, (dv) => {
        dv.setUint32(0x38, 0, true);
        dv.setUint16(0x20, 20, true);
      }),
    ),
    v('header-only', 'only the first 512 bytes (the header)', (b) => b.subarray(0, 512)),
  ];
  for (let i = 0; i < count; i++) {
    const r = rng(subSeed(seed, `${source}#${i}`));
    if (i % 2 === 0) {
      const frac = r();
      out.push(
        v(`truncate-${i}`, `truncated at ${(frac * 100).toFixed(2)}%`, (b) =>
          b.subarray(0, Math.max(8, Math.floor(b.length * frac))),
        ),
      );
    } else {
      const flips = intIn(r, 1, 48);
      const headerOnly = r() < 0.5;
      out.push(
        v(
          `bitflip-${i}`,
          `${flips} random bit flips ${headerOnly ? 'in the header, FAT and directory area (first 8 KiB)' : 'anywhere'} (seed ${seed}, index ${i})`,
          (b) =>
            flipBits(
              b,
              rng(subSeed(seed, `${source}@${i}`)),
              flips,
              8,
              headerOnly ? Math.min(8192, b.length) : b.length,
            ),
        ),
      );
    }
  }
  return out;
}

export function syntheticOle(): Variant[] {
  const v = (name: string, ext: string, recipe: string, make: () => Uint8Array): Variant => ({
    id: `ole2/synthetic/${name}`,
    family: 'ole2',
    filename: `${name}.${ext}`,
    recipe,
    make,
  });
  return [
    v('signature-only', 'doc', 'the 8-byte OLE2 signature alone', () => SIG.slice()),
    v('signature-random', 'xls', 'the OLE2 signature followed by 64 KiB of random bytes', () =>
      concat([SIG, randomBytes(rng(61), 65536)]),
    ),
    v('signature-zeros', 'ppt', 'the OLE2 signature followed by 1 MiB of zeros', () =>
      concat([SIG, new Uint8Array(1 << 20)]),
    ),
  ];
}
