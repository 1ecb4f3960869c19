/**
 * Floating drawings of a legacy Word document ([MS-DOC] 2.9.253 PlcfSpa, [MS-ODRAW]): which drawn
 * object each anchor character (0x08) of the main text stands for, and for a picture the bytes of
 * its blip. The main text's drawing (OfficeArtDgContainer) gives each shape's id and options; a
 * picture's pib option indexes the blip store (OfficeArtBStoreContainer), whose entries hold their
 * blip or point at it in the WordDocument stream.
 */

/** A drawn object anchored in the main text: a picture with its blip, or anything else (text box, shape). */
export type FloatingShape = { kind: 'picture'; blip: Uint8Array } | { kind: 'other' };

interface Record {
  type: number;
  instance: number;
  start: number;
  end: number;
}

const RT = {
  DggContainer: 0xf000,
  BStoreContainer: 0xf001,
  DgContainer: 0xf002,
  SpgrContainer: 0xf003,
  SpContainer: 0xf004,
  FBSE: 0xf007,
  FSP: 0xf00a,
  FOPT: 0xf00b,
} as const;

/** Shape options: the blip of a picture, the text of a text box. */
const PID_PIB = 0x0104;
const PID_LTXID = 0x0080;
/** Size of the fixed part of an FBSE record. */
const FBSE_FIXED = 36;

function records(buf: Uint8Array, start: number, end: number): Record[] {
  const out: Record[] = [];
  const v = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let p = start;
  while (p + 8 <= end && out.length < 100_000) {
    const verInst = v.getUint16(p, true);
    const type = v.getUint16(p + 2, true);
    const len = v.getUint32(p + 4, true);
    const recEnd = Math.min(end, p + 8 + len);
    out.push({ type, instance: verInst >> 4, start: p + 8, end: recEnd });
    p = recEnd;
  }
  return out;
}

/** Shape ids with their options (pid → value) of every shape in a drawing, groups included. */
function shapes(buf: Uint8Array, container: Record, out: Map<number, Map<number, number>>, depth = 0): void {
  if (depth > 32) return;
  const v = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  for (const r of records(buf, container.start, container.end)) {
    if (r.type === RT.SpgrContainer) {
      shapes(buf, r, out, depth + 1);
      continue;
    }
    if (r.type !== RT.SpContainer) continue;
    let spid = -1;
    const options = new Map<number, number>();
    for (const k of records(buf, r.start, r.end)) {
      if (k.type === RT.FSP && k.end - k.start >= 4) spid = v.getUint32(k.start, true);
      else if (k.type === RT.FOPT) {
        for (let i = 0; i < k.instance && k.start + i * 6 + 6 <= k.end; i++) {
          options.set(v.getUint16(k.start + i * 6, true) & 0x3fff, v.getUint32(k.start + i * 6 + 2, true));
        }
      } else if (k.type === RT.SpgrContainer) shapes(buf, k, out, depth + 1);
    }
    if (spid >= 0) out.set(spid, options);
  }
}

/** The blip of each entry of the blip store, in order (undefined where it cannot be found). */
function blipStore(table: Uint8Array, dgg: Record, wordDoc: Uint8Array): (Uint8Array | undefined)[] {
  const store = records(table, dgg.start, dgg.end).find((r) => r.type === RT.BStoreContainer);
  if (!store) return [];
  const v = new DataView(table.buffer, table.byteOffset, table.byteLength);
  const wv = new DataView(wordDoc.buffer, wordDoc.byteOffset, wordDoc.byteLength);
  return records(table, store.start, store.end).map((fbse) => {
    if (fbse.type !== RT.FBSE || fbse.end - fbse.start < FBSE_FIXED) return undefined;
    const size = v.getUint32(fbse.start + 20, true);
    const foDelay = v.getUint32(fbse.start + 28, true);
    const cbName = table[fbse.start + 33]!;
    const embedded = fbse.start + FBSE_FIXED + cbName;
    // The blip record follows in the FBSE, or lies in the WordDocument stream at foDelay.
    if (fbse.end - embedded >= 8) return table.subarray(embedded, fbse.end);
    if (foDelay === 0xffffffff || foDelay + 8 > wordDoc.length) return undefined;
    const len = wv.getUint32(foDelay + 4, true);
    return wordDoc.subarray(foDelay, Math.min(wordDoc.length, foDelay + 8 + Math.min(len, size || len)));
  });
}

/**
 * The drawn objects anchored in the main text, by the CP of their anchor character. `spa` is the
 * PlcfSpaMom (CPs, then 26-byte SPAs whose first field is the shape id), `dgg` the OfficeArtContent
 * (the drawing group, then each drawing with the byte saying whose it is: 0 the main text's).
 */
export function floatingShapes(
  table: Uint8Array,
  wordDoc: Uint8Array,
  spa: [number, number],
  dgg: [number, number],
): Map<number, FloatingShape> {
  const out = new Map<number, FloatingShape>();
  const [fcSpa, lcbSpa] = spa;
  const [fcDgg, lcbDgg] = dgg;
  if (lcbSpa < 4 + 26 || fcSpa + lcbSpa > table.length || lcbDgg < 8 || fcDgg + lcbDgg > table.length) return out;
  const v = new DataView(table.buffer, table.byteOffset, table.byteLength);
  const top = records(table, fcDgg, fcDgg + lcbDgg);
  const dggRec = top[0]?.type === RT.DggContainer ? top[0] : undefined;
  if (!dggRec) return out;
  const blips = blipStore(table, dggRec, wordDoc);
  // After the drawing group: for each drawing, one byte (dgglbl) then its OfficeArtDgContainer.
  const options = new Map<number, Map<number, number>>();
  let p = dggRec.end;
  while (p + 9 <= fcDgg + lcbDgg) {
    const dgglbl = table[p]!;
    const [dg] = records(table, p + 1, Math.min(fcDgg + lcbDgg, p + 9 + v.getUint32(p + 5, true)));
    if (!dg || dg.type !== RT.DgContainer) break;
    if (dgglbl === 0) shapes(table, dg, options);
    p = dg.end;
  }
  const n = Math.floor((lcbSpa - 4) / (4 + 26));
  for (let k = 0; k < n; k++) {
    const cp = v.getUint32(fcSpa + k * 4, true);
    const spid = v.getUint32(fcSpa + (n + 1) * 4 + k * 26, true);
    const opts = options.get(spid);
    const pib = opts?.get(PID_PIB);
    const blip = pib !== undefined && !opts!.has(PID_LTXID) ? blips[pib - 1] : undefined;
    out.set(cp, blip ? { kind: 'picture', blip } : { kind: 'other' });
  }
  return out;
}
