/**
 * A pre-check of an OLE2 compound file's directory before `cfb` reads it. `cfb` turns the directory's
 * sibling/child links into paths by following parent links until the root; links that form a cycle
 * (damaged or hostile files) make that walk endless, blocking the process. This reads the directory
 * the way `cfb` does (FAT chain from the header, 128-byte entries) and replays its parent computation
 * with step limits, so such files are refused as MALFORMED instead.
 */

const FREE_OR_END = 0xfffffffa; // sector numbers at or above this are markers (end of chain, free, FAT, DIFAT)

/** Returns why the directory would make `cfb` loop, or undefined when it is safe (or for `cfb` to judge). */
export function ole2DirectoryProblem(bytes: Uint8Array): string | undefined {
  if (bytes.length < 512) return undefined;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const shift = dv.getUint16(0x1e, true);
  if (shift !== 9 && shift !== 12) return undefined;
  const ssz = 1 << shift;
  const sectorCount = Math.floor((bytes.length - ssz) / ssz) + 1;
  const sectorAt = (n: number): number | undefined => {
    const off = (n + 1) * ssz;
    return n < FREE_OR_END && off < bytes.length ? off : undefined;
  };

  // FAT sector numbers: 109 in the header, the rest along the DIFAT chain.
  const fatSectors: number[] = [];
  for (let i = 0; i < 109; i++) {
    const s = dv.getUint32(0x4c + i * 4, true);
    if (s >= FREE_OR_END) break;
    fatSectors.push(s);
  }
  let difat = dv.getUint32(0x44, true);
  const seenDifat = new Set<number>();
  const perSector = ssz / 4;
  while (difat < FREE_OR_END && !seenDifat.has(difat) && seenDifat.size <= sectorCount) {
    seenDifat.add(difat);
    const off = sectorAt(difat);
    if (off === undefined) break;
    for (let i = 0; i < perSector - 1 && off + i * 4 + 4 <= bytes.length; i++) {
      const s = dv.getUint32(off + i * 4, true);
      if (s < FREE_OR_END) fatSectors.push(s);
    }
    difat = off + ssz <= bytes.length ? dv.getUint32(off + ssz - 4, true) : FREE_OR_END;
  }
  const next = (n: number): number => {
    const fs = fatSectors[Math.floor(n / perSector)];
    if (fs === undefined) return FREE_OR_END;
    const off = sectorAt(fs);
    const at = off === undefined ? undefined : off + (n % perSector) * 4;
    return at === undefined || at + 4 > bytes.length ? FREE_OR_END : dv.getUint32(at, true);
  };

  // The directory: its sector chain, without revisiting a sector.
  const links: { L: number; R: number; C: number; type: number }[] = [];
  const seen = new Set<number>();
  for (let s = dv.getUint32(0x30, true); s < FREE_OR_END && !seen.has(s) && seen.size <= sectorCount; s = next(s)) {
    seen.add(s);
    const off = sectorAt(s);
    if (off === undefined) break;
    for (let e = off; e + 128 <= Math.min(off + ssz, bytes.length); e += 128) {
      links.push({
        L: dv.getInt32(e + 68, true),
        R: dv.getInt32(e + 72, true),
        C: dv.getInt32(e + 76, true),
        type: dv.getUint8(e + 66),
      });
    }
  }
  return replayParents(links);
}

/** `cfb`'s build_full_paths parent computation, with limits where it would run forever. */
function replayParents(FI: { L: number; R: number; C: number; type: number }[]): string | undefined {
  const pl = FI.length;
  const dad: number[] = [];
  const q: number[] = [];
  for (let i = 0; i < pl; i++) {
    dad[i] = i;
    q[i] = i;
  }
  const maxQueue = pl * 64 + 1024;
  let i = 0;
  let L = 0;
  let R = 0;
  for (let j = 0; j < q.length; j++) {
    if (q.length > maxQueue) return 'the directory tree links loop';
    i = q[j]!;
    const f = FI[i];
    if (!f) continue;
    ({ L, R } = f);
    const C = f.C;
    if (dad[i] === i) {
      if (L !== -1 && dad[L] !== L) dad[i] = dad[L]!;
      if (R !== -1 && dad[R] !== R) dad[i] = dad[R]!;
    }
    if (C !== -1) dad[C] = i;
    if (L !== -1 && i !== dad[i]) {
      dad[L] = dad[i]!;
      if (q.lastIndexOf(L) < j) q.push(L);
    }
    if (R !== -1 && i !== dad[i]) {
      dad[R] = dad[i]!;
      if (q.lastIndexOf(R) < j) q.push(R);
    }
  }
  for (i = 1; i < pl; i++) {
    if (dad[i] === i) {
      if (R !== -1 && dad[R] !== R) dad[i] = dad[R]!;
      else if (L !== -1 && dad[L] !== L) dad[i] = dad[L]!;
    }
  }
  for (i = 1; i < pl; i++) {
    if (FI[i]!.type === 0) continue;
    let j: number | undefined = i;
    let steps = 0;
    if (j !== dad[j]) {
      do {
        j = dad[j!];
        if (++steps > pl + 1) return 'the directory tree links form a cycle';
      } while (j !== 0 && j !== undefined && dad[j] !== -1 && j !== dad[j]);
    }
    dad[i] = -1;
  }
  return undefined;
}
