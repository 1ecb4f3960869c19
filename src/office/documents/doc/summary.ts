/** Document properties from the OLE SummaryInformation property set. */
import iconv from 'iconv-lite';

/** Title, subject, author, keywords and comments from the OLE SummaryInformation property set. */
export function summaryInformation(bytes: Uint8Array | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!bytes || bytes.length < 48) return out;
  try {
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const section = v.getUint32(44, true);
    const count = v.getUint32(section + 4, true);
    const names: Record<number, string> = { 2: 'title', 3: 'subject', 4: 'author', 5: 'keywords', 6: 'description' };
    let codepage = 1252;
    const entries: [number, number][] = [];
    for (let k = 0; k < Math.min(count, 256); k++) {
      const id = v.getUint32(section + 8 + k * 8, true);
      const off = section + v.getUint32(section + 12 + k * 8, true);
      if (id === 1 && v.getUint16(off, true) === 2) codepage = v.getUint16(off + 4, true);
      else if (names[id]) entries.push([id, off]);
    }
    for (const [id, off] of entries) {
      const type = v.getUint16(off, true);
      const len = v.getUint32(off + 4, true);
      if (len === 0 || off + 8 + len > bytes.length) continue;
      let text: string;
      if (type === 0x1e) {
        const raw = Buffer.from(bytes.subarray(off + 8, off + 8 + len));
        const cp = codepage === 65001 ? 'utf8' : codepage === 1200 ? 'utf16le' : `cp${codepage}`;
        text = iconv.encodingExists(cp) ? iconv.decode(raw, cp) : raw.toString('latin1');
      } else if (type === 0x1f) {
        text = new TextDecoder('utf-16le').decode(bytes.subarray(off + 8, off + 8 + len * 2));
      } else continue;
      text = text.replace(/\u0000+$/g, '').trim();
      if (text) out[names[id]!] = text;
    }
  } catch {
    // A damaged property set only costs the metadata.
  }
  return out;
}
