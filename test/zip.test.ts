import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ZipPackage } from '../src/containers/zip.js';
import { errorCodeOfSync } from '../test-support/errors.js';

/** Offsets of central directory records, to forge headers the way hostile files do. */
function centralRecords(zip: Uint8Array): number[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const out: number[] = [];
  for (let i = 0; i + 4 <= zip.length; i++) if (view.getUint32(i, true) === 0x02014b50) out.push(i);
  return out;
}

describe('ZipPackage', () => {
  it('reads stored and deflated entries, names case-insensitively', () => {
    const zip = zipSync({
      'word/document.xml': strToU8('<w:document/>'),
      'raw.bin': [strToU8('stored'), { level: 0 }],
    });
    const pkg = ZipPackage.open(zip);
    expect(pkg.names().sort()).toEqual(['raw.bin', 'word/document.xml']);
    expect(pkg.text('Word/Document.xml')).toBe('<w:document/>');
    expect(pkg.text('/raw.bin')).toBe('stored');
    expect(pkg.read('missing.xml')).toBeUndefined();
  });

  it('refuses a compression bomb before inflating it', () => {
    const zip = zipSync({ 'bomb.xml': new Uint8Array(50 * 1024 * 1024) });
    expect(zip.length).toBeLessThan(200 * 1024);
    expect(errorCodeOfSync(() => ZipPackage.open(zip))).toBe('RESOURCE_LIMIT');
  });

  it('refuses absurd entry counts and totals', () => {
    const files: Record<string, Uint8Array> = {};
    for (let i = 0; i < 50; i++) files[`f${i}.xml`] = strToU8('x');
    expect(errorCodeOfSync(() => ZipPackage.open(zipSync(files), { maxEntries: 10 }))).toBe('RESOURCE_LIMIT');
    expect(
      errorCodeOfSync(() =>
        ZipPackage.open(zipSync({ a: new Uint8Array(4096), b: new Uint8Array(4096) }), { maxTotalBytes: 6000 }),
      ),
    ).toBe('RESOURCE_LIMIT');
  });

  it('stops an entry that inflates past the size it declares', () => {
    const zip = zipSync({ 'liar.xml': new Uint8Array(2 * 1024 * 1024).fill(65) });
    const view = new DataView(zip.buffer);
    // Declare 1 KiB uncompressed in the central directory; the stream really holds 2 MiB.
    view.setUint32(centralRecords(zip)[0]! + 24, 1024, true);
    const pkg = ZipPackage.open(zip);
    expect(errorCodeOfSync(() => pkg.read('liar.xml'))).toBe('RESOURCE_LIMIT');
  });

  it('reports encrypted entries and damaged archives with their codes', () => {
    const zip = zipSync({ 'secret.xml': strToU8('<x/>') });
    const view = new DataView(zip.buffer);
    view.setUint16(centralRecords(zip)[0]! + 8, 1, true);
    expect(errorCodeOfSync(() => ZipPackage.open(zip).read('secret.xml'))).toBe('ENCRYPTED');
    expect(errorCodeOfSync(() => ZipPackage.open(strToU8('PK\u0003\u0004 not really a zip')))).toBe('MALFORMED');
    const truncated = zipSync({ 'a.xml': strToU8('<a>hello</a>'.repeat(100)) });
    expect(errorCodeOfSync(() => ZipPackage.open(truncated.subarray(0, truncated.length - 30)))).toBe('MALFORMED');
  });
});
