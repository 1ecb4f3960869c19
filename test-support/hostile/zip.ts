/**
 * Hostile ZIP packages (OOXML, OpenDocument, EPUB): a small ZIP writer that can lie about sizes,
 * bombs built without holding their inflated bytes, XML attacks, missing parts and mutations of real
 * packages.
 */
import { crc32, deflateRawSync } from 'node:zlib';
import { unzipSync } from 'fflate';
import {
  concat,
  deflateBomb,
  enc,
  flipBits,
  intIn,
  randomBytes,
  rng,
  smashBytes,
  subSeed,
  type Variant,
} from './util.js';

export interface ZipItem {
  name: string;
  /** Stored as-is when `raw` is given (already deflated, with its `size`/`crc`), else deflated here. */
  data?: Uint8Array;
  raw?: { data: Uint8Array; size: number; crc: number };
  store?: boolean;
  /** Sizes written in the headers instead of the true ones. */
  lieSize?: number;
  flags?: number;
}

/** Writes a ZIP archive (no ZIP64). */
export function buildZip(items: ZipItem[], opts: { comment?: string } = {}): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const it of items) {
    const name = enc(it.name);
    let data: Uint8Array;
    let size: number;
    let crc: number;
    let method: number;
    if (it.raw) {
      data = it.raw.data;
      size = it.raw.size;
      crc = it.raw.crc;
      method = 8;
    } else {
      const plain = it.data ?? new Uint8Array(0);
      size = plain.length;
      crc = crc32(plain);
      method = it.store ? 0 : 8;
      data = it.store ? plain : deflateRawSync(plain);
    }
    const declared = it.lieSize ?? size;
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0);
    lh.writeUInt16LE(20, 4);
    lh.writeUInt16LE(it.flags ?? 0, 6);
    lh.writeUInt16LE(method, 8);
    lh.writeUInt32LE(crc >>> 0, 14);
    lh.writeUInt32LE(Math.min(data.length, 0xffffffff), 18);
    lh.writeUInt32LE(Math.min(declared, 0xffffffff), 22);
    lh.writeUInt16LE(name.length, 26);
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0);
    ch.writeUInt16LE(20, 4);
    ch.writeUInt16LE(20, 6);
    ch.writeUInt16LE(it.flags ?? 0, 8);
    ch.writeUInt16LE(method, 10);
    ch.writeUInt32LE(crc >>> 0, 16);
    ch.writeUInt32LE(Math.min(data.length, 0xffffffff), 20);
    ch.writeUInt32LE(Math.min(declared, 0xffffffff), 24);
    ch.writeUInt16LE(name.length, 28);
    ch.writeUInt32LE(offset, 42);
    locals.push(lh, name, data);
    centrals.push(ch, name);
    offset += 30 + name.length + data.length;
  }
  const cd = concat(centrals);
  const comment = enc(opts.comment ?? '');
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(items.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(items.length, 0xffff), 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(comment.length, 20);
  return concat([...locals, cd, end, comment]);
}

const CT_DOCX =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const RELS_DOCX =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';
const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const docXml = (body: string, doctype = ''): string =>
  `<?xml version="1.0" encoding="UTF-8"?>${doctype}<w:document ${W}><w:body>${body}</w:body></w:document>`;
const para = (t: string): string => `<w:p><w:r><w:t>${t}</w:t></w:r></w:p>`;

function docx(
  document: string | Uint8Array,
  extra: ZipItem[] = [],
  opts: { contentTypes?: string; rels?: string } = {},
): Uint8Array {
  return buildZip([
    { name: '[Content_Types].xml', data: enc(opts.contentTypes ?? CT_DOCX) },
    { name: '_rels/.rels', data: enc(opts.rels ?? RELS_DOCX) },
    { name: 'word/document.xml', data: typeof document === 'string' ? enc(document) : document },
    ...extra,
  ]);
}

const CT_XLSX =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>';
const RELS_XLSX =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>';
const WB =
  '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>';
const WB_RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>';
const sheetXml = (rows: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`;

function xlsx(sheet: string | Uint8Array | ZipItem['raw'], extra: ZipItem[] = []): Uint8Array {
  const s: ZipItem =
    sheet instanceof Uint8Array || typeof sheet === 'string'
      ? { name: 'xl/worksheets/sheet1.xml', data: typeof sheet === 'string' ? enc(sheet) : sheet }
      : { name: 'xl/worksheets/sheet1.xml', raw: sheet! };
  return buildZip([
    { name: '[Content_Types].xml', data: enc(CT_XLSX) },
    { name: '_rels/.rels', data: enc(RELS_XLSX) },
    { name: 'xl/workbook.xml', data: enc(WB) },
    { name: 'xl/_rels/workbook.xml.rels', data: enc(WB_RELS) },
    s,
    ...extra,
  ]);
}

function odt(content: string | ZipItem['raw'], mimetype = 'application/vnd.oasis.opendocument.text'): Uint8Array {
  const c: ZipItem =
    typeof content === 'string' ? { name: 'content.xml', data: enc(content) } : { name: 'content.xml', raw: content! };
  return buildZip([
    { name: 'mimetype', data: enc(mimetype), store: true },
    {
      name: 'META-INF/manifest.xml',
      data: enc(
        '<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
      ),
    },
    c,
  ]);
}
const ODT_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';
const odtContent = (body: string, doctype = ''): string =>
  `<?xml version="1.0" encoding="UTF-8"?>${doctype}<office:document-content ${ODT_NS}><office:body><office:text>${body}</office:text></office:body></office:document-content>`;

function epub(chapter: string | ZipItem['raw'], opf?: string): Uint8Array {
  const c: ZipItem =
    typeof chapter === 'string'
      ? { name: 'OEBPS/ch1.xhtml', data: enc(chapter) }
      : { name: 'OEBPS/ch1.xhtml', raw: chapter! };
  return buildZip([
    { name: 'mimetype', data: enc('application/epub+zip'), store: true },
    {
      name: 'META-INF/container.xml',
      data: enc(
        '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
      ),
    },
    {
      name: 'OEBPS/content.opf',
      data: enc(
        opf ??
          '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title></metadata><manifest><item id="c1" href="ch1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/></spine></package>',
      ),
    },
    c,
  ]);
}
const xhtml = (body: string, doctype = ''): string =>
  `<?xml version="1.0" encoding="UTF-8"?>${doctype}<html xmlns="http://www.w3.org/1999/xhtml"><head><title>c</title></head><body>${body}</body></html>`;

const LAUGHS =
  '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;"><!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;"><!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;"><!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;"><!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;"><!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">]>';
/** External entities that must never be resolved: their content would leak into the markdown. */
const XXE = '<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY % p SYSTEM "file:///etc/hostname"> %p;]>';
/** Text that appears in /etc/passwd on every Linux machine: finding it in output means an entity was resolved. */
export const XXE_MARKER = 'root:x:0:0';

function bombItem(prefix: string, unit: string, repeats: number, suffix: string): ZipItem['raw'] {
  return deflateBomb(enc(prefix), enc(unit), repeats, enc(suffix));
}

export function syntheticZips(): Variant[] {
  const v = (name: string, ext: string, recipe: string, make: () => Uint8Array): Variant => ({
    id: `zip/synthetic/${name}`,
    family: 'zip',
    filename: `${name}.${ext}`,
    recipe,
    make,
  });
  // 64 KiB of paragraphs, repeated: about 1 GiB of document XML from ~1 MB of ZIP.
  const paraUnit = para('a'.repeat(100)).repeat(500);
  return [
    v('docx-baseline', 'docx', 'a valid minimal docx (control)', () => docx(docXml(para('Hostile input survives')))),
    v('docx-bomb-1GB', 'docx', 'word/document.xml inflating to ~1 GiB of paragraphs (true sizes declared)', () =>
      buildZip([
        { name: '[Content_Types].xml', data: enc(CT_DOCX) },
        { name: '_rels/.rels', data: enc(RELS_DOCX) },
        {
          name: 'word/document.xml',
          raw: bombItem(
            `<?xml version="1.0"?><w:document ${W}><w:body>`,
            paraUnit,
            Math.ceil((1 << 30) / paraUnit.length),
            '</w:body></w:document>',
          ),
        },
      ]),
    ),
    v(
      'docx-bomb-lying-size',
      'docx',
      'word/document.xml inflating to ~600 MiB while its headers declare 1000 bytes',
      () =>
        buildZip([
          { name: '[Content_Types].xml', data: enc(CT_DOCX) },
          { name: '_rels/.rels', data: enc(RELS_DOCX) },
          {
            name: 'word/document.xml',
            raw: bombItem(
              `<?xml version="1.0"?><w:document ${W}><w:body>`,
              paraUnit,
              Math.ceil((600 << 20) / paraUnit.length),
              '</w:body></w:document>',
            ),
            lieSize: 1000,
          },
        ]),
    ),
    v(
      'docx-bomb-100MB-under-limits',
      'docx',
      'word/document.xml of 100 MiB of small paragraphs (under entry limits, heavy for the XML reader)',
      () =>
        buildZip([
          { name: '[Content_Types].xml', data: enc(CT_DOCX) },
          { name: '_rels/.rels', data: enc(RELS_DOCX) },
          {
            name: 'word/document.xml',
            raw: bombItem(
              `<?xml version="1.0"?><w:document ${W}><w:body>`,
              para('ab').repeat(2000),
              Math.ceil((100 << 20) / (para('ab').length * 2000)),
              '</w:body></w:document>',
            ),
          },
        ]),
    ),
    v(
      'content-types-bomb',
      'docx',
      '[Content_Types].xml inflating to 3 GiB (declared 3 GiB, detection reads the manifest)',
      () =>
        buildZip([
          {
            name: '[Content_Types].xml',
            raw: bombItem('<?xml version="1.0"?><Types>', ' '.repeat(1 << 20), 3000, '</Types>'),
          },
          { name: 'word/document.xml', data: enc(docXml(para('x'))) },
        ]),
    ),
    v('content-types-bomb-lying', 'docx', '[Content_Types].xml inflating to 2 GiB while declaring 100 bytes', () =>
      buildZip([
        {
          name: '[Content_Types].xml',
          raw: bombItem('<?xml version="1.0"?><Types>', ' '.repeat(1 << 20), 2048, '</Types>'),
          lieSize: 100,
        },
        { name: 'word/document.xml', data: enc(docXml(para('x'))) },
      ]),
    ),
    v('mimetype-bomb-lying', 'odt', 'mimetype entry inflating to 1 GiB while declaring 20 bytes', () =>
      buildZip([
        {
          name: 'mimetype',
          raw: bombItem('application/vnd.oasis.opendocument.text', ' '.repeat(1 << 20), 1024, ''),
          lieSize: 20,
        },
        { name: 'content.xml', data: enc(odtContent('<text:p>x</text:p>')) },
      ]),
    ),
    v('many-entries-100k', 'docx', 'a docx with 100000 extra empty entries', () =>
      docx(
        docXml(para('x')),
        Array.from({ length: 100000 }, (_, i) => ({ name: `junk/${i}.xml`, data: new Uint8Array(0), store: true })),
      ),
    ),
    v('many-entries-65535', 'docx', 'a docx with 65530 extra one-byte entries (just under the 16-bit count)', () =>
      docx(
        docXml(para('x')),
        Array.from({ length: 65530 }, (_, i) => ({ name: `j${i}`, data: Uint8Array.of(65), store: true })),
      ),
    ),
    v(
      'nested-zip-bomb',
      'docx',
      'a docx embedding a ZIP of ten 100 MiB entries as word/embeddings/oleObject1.bin',
      () => {
        const inner = buildZip(
          Array.from({ length: 10 }, (_, i) => ({ name: `b${i}`, raw: bombItem('', ' '.repeat(1 << 20), 100, '') })),
        );
        return docx(docXml(para('x')), [
          { name: 'word/embeddings/oleObject1.bin', data: inner, store: true },
          { name: 'word/embeddings/inner.docx', data: inner, store: true },
        ]);
      },
    ),
    v('docx-billion-laughs', 'docx', 'document.xml with the billion-laughs internal entity expansion', () =>
      docx(docXml(para('&lol9;'), LAUGHS)),
    ),
    v('docx-xxe', 'docx', 'document.xml with an external entity to /etc/passwd used in text', () =>
      docx(docXml(para('&xxe;'), XXE)),
    ),
    v('docx-deep-nesting', 'docx', 'document.xml with 200000 nested w:sdt/w:sdtContent elements', () =>
      docx(
        docXml(`${'<w:sdt><w:sdtContent>'.repeat(200000)}${para('deep')}${'</w:sdtContent></w:sdt>'.repeat(200000)}`),
      ),
    ),
    v('docx-deep-tables', 'docx', 'document.xml with tables nested 5000 deep', () =>
      docx(docXml(`${'<w:tbl><w:tr><w:tc>'.repeat(5000)}${para('deep')}${'</w:tc></w:tr></w:tbl>'.repeat(5000)}`)),
    ),
    v('docx-unclosed', 'docx', 'document.xml cut in the middle of a tag', () =>
      docx(`<?xml version="1.0"?><w:document ${W}><w:body><w:p><w:r><w:t>half`),
    ),
    v('docx-not-xml', 'docx', 'document.xml is random bytes', () => docx(randomBytes(rng(43), 5000))),
    v('docx-utf16-lie', 'docx', 'document.xml declares UTF-16 but is UTF-8', () =>
      docx(docXml(para('x')).replace('UTF-8', 'UTF-16')),
    ),
    v('docx-huge-attr', 'docx', 'a 20 MB attribute value and 100000 attributes on one element', () =>
      docx(
        docXml(
          `<w:p w:x="${'a'.repeat(20 << 20)}" ${Array.from({ length: 100000 }, (_, i) => `w:a${i}="1"`).join(' ')}><w:r><w:t>x</w:t></w:r></w:p>`,
        ),
      ),
    ),
    v('docx-missing-document', 'docx', 'content types and rels point at word/document.xml, which is absent', () =>
      buildZip([
        { name: '[Content_Types].xml', data: enc(CT_DOCX) },
        { name: '_rels/.rels', data: enc(RELS_DOCX) },
        { name: 'word/styles.xml', data: enc('<x/>') },
      ]),
    ),
    v('docx-no-rels', 'docx', 'no _rels/.rels', () =>
      buildZip([
        { name: '[Content_Types].xml', data: enc(CT_DOCX) },
        { name: 'word/document.xml', data: enc(docXml(para('x'))) },
      ]),
    ),
    v('docx-rels-cycle', 'docx', 'relationships pointing at themselves and outside the package', () =>
      docx(docXml(para('x')), [
        {
          name: 'word/_rels/document.xml.rels',
          data: enc(
            '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="../../../../etc/passwd"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="_rels/document.xml.rels"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="document.xml"/><Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="file:///etc/passwd" TargetMode="External"/></Relationships>',
          ),
        },
      ]),
    ),
    v('docx-wrong-main-type', 'docx', 'a docx whose content types call word/document.xml a presentation', () =>
      docx(docXml(para('x')), [], {
        contentTypes: CT_DOCX.replace('wordprocessingml.document.main+xml', 'presentationml.presentation.main+xml'),
      }),
    ),
    v('pptx-declared-empty', 'pptx', 'content types declare a presentation; no presentation parts at all', () =>
      buildZip([
        {
          name: '[Content_Types].xml',
          data: enc(
            CT_DOCX.replace('/word/document.xml', '/ppt/presentation.xml').replace(
              'wordprocessingml.document.main+xml',
              'presentationml.presentation.main+xml',
            ),
          ),
        },
      ]),
    ),
    v('xlsx-declared-empty', 'xlsx', 'content types declare a workbook; no workbook parts', () =>
      buildZip([{ name: '[Content_Types].xml', data: enc(CT_XLSX) }]),
    ),
    v('docx-encrypted-entry', 'docx', 'document.xml flagged as encrypted (general purpose bit 0)', () =>
      buildZip([
        { name: '[Content_Types].xml', data: enc(CT_DOCX) },
        { name: '_rels/.rels', data: enc(RELS_DOCX) },
        { name: 'word/document.xml', data: randomBytes(rng(47), 3000), store: true, flags: 1 },
      ]),
    ),
    v('xlsx-baseline', 'xlsx', 'a valid minimal xlsx (control)', () =>
      xlsx(sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>ok</t></is></c></row>')),
    ),
    v('xlsx-huge-dimension', 'xlsx', 'cells at XFD1048576 and A1 (a sparse sheet spanning the whole grid)', () =>
      xlsx(
        `<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:XFD1048576"/><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c></row><row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>z</t></is></c></row></sheetData><mergeCells count="1"><mergeCell ref="A1:XFD1048576"/></mergeCells></worksheet>`,
      ),
    ),
    v('xlsx-bad-refs', 'xlsx', 'cell references like ZZZZZZ99999999999 and -1', () =>
      xlsx(
        sheetXml(
          '<row r="99999999999"><c r="ZZZZZZ99999999999"><v>1</v></c><c r="-1"><v>2</v></c><c r=""><v>3</v></c></row>',
        ),
      ),
    ),
    v('xlsx-shared-strings-oob', 'xlsx', 'a shared-string index far past the table, and no sharedStrings part', () =>
      xlsx(sheetXml('<row r="1"><c r="A1" t="s"><v>999999999</v></c><c r="B1" t="s"><v>-5</v></c></row>')),
    ),
    v('xlsx-sheet-bomb', 'xlsx', 'sheet1.xml inflating to ~800 MiB of rows (true sizes)', () =>
      xlsx(
        bombItem(
          '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
          '<row><c t="inlineStr"><is><t>aaaaaaaa</t></is></c></row>'.repeat(1000),
          14000,
          '</sheetData></worksheet>',
        ),
      ),
    ),
    v('xlsx-billion-laughs', 'xlsx', 'sheet1.xml with billion-laughs entities', () =>
      xlsx(
        `<?xml version="1.0"?>${LAUGHS}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&lol9;</t></is></c></row></sheetData></worksheet>`,
      ),
    ),
    v('xlsx-xxe', 'xlsx', 'sheet1.xml with an external entity to /etc/passwd', () =>
      xlsx(
        `<?xml version="1.0"?>${XXE}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&xxe;</t></is></c></row></sheetData></worksheet>`,
      ),
    ),
    v('odt-baseline', 'odt', 'a valid minimal odt (control)', () =>
      odt(odtContent('<text:p>Hostile input survives</text:p>')),
    ),
    v('odt-billion-laughs', 'odt', 'content.xml with billion-laughs entities', () =>
      odt(odtContent('<text:p>&lol9;</text:p>', LAUGHS)),
    ),
    v('odt-xxe', 'odt', 'content.xml with an external entity to /etc/passwd', () =>
      odt(odtContent('<text:p>&xxe;</text:p>', XXE)),
    ),
    v('odt-deep', 'odt', 'content.xml with 300000 nested text:span', () =>
      odt(odtContent(`<text:p>${'<text:span>'.repeat(300000)}x${'</text:span>'.repeat(300000)}</text:p>`)),
    ),
    v('odt-deep-lists', 'odt', 'content.xml with lists nested 20000 deep', () =>
      odt(
        odtContent(
          `${'<text:list><text:list-item>'.repeat(20000)}<text:p>x</text:p>${'</text:list-item></text:list>'.repeat(20000)}`,
        ),
      ),
    ),
    v('odt-bomb', 'odt', 'content.xml inflating to ~1 GiB', () =>
      odt(
        bombItem(
          odtContent('').replace('</office:text></office:body></office:document-content>', ''),
          '<text:p>aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa</text:p>'.repeat(1000),
          18000,
          '</office:text></office:body></office:document-content>',
        ),
      ),
    ),
    v('ods-no-content', 'ods', 'an ods package (mimetype) without content.xml', () =>
      buildZip([{ name: 'mimetype', data: enc('application/vnd.oasis.opendocument.spreadsheet'), store: true }]),
    ),
    v('odp-garbage-content', 'odp', 'an odp package whose content.xml is random bytes', () =>
      buildZip([
        { name: 'mimetype', data: enc('application/vnd.oasis.opendocument.presentation'), store: true },
        { name: 'content.xml', data: randomBytes(rng(53), 4000) },
      ]),
    ),
    v('epub-baseline', 'epub', 'a valid minimal epub (control)', () => epub(xhtml('<p>Hostile input survives</p>'))),
    v('epub-billion-laughs', 'epub', 'chapter XHTML with billion-laughs entities', () =>
      epub(xhtml('<p>&lol9;</p>', LAUGHS)),
    ),
    v('epub-xxe', 'epub', 'chapter XHTML with an external entity to /etc/passwd', () =>
      epub(xhtml('<p>&xxe;</p>', XXE)),
    ),
    v('epub-deep', 'epub', 'chapter XHTML with 500000 nested divs', () =>
      epub(xhtml(`${'<div>'.repeat(500000)}x${'</div>'.repeat(500000)}`)),
    ),
    v('epub-bomb', 'epub', 'chapter XHTML inflating to ~1 GiB', () =>
      epub(
        bombItem(
          xhtml('').replace('</body></html>', ''),
          '<p>aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa</p>'.repeat(1000),
          24000,
          '</body></html>',
        ),
      ),
    ),
    v(
      'epub-spine-loop',
      'epub',
      'spine listing the same chapter 100000 times and a manifest pointing outside the package',
      () =>
        epub(
          xhtml('<p>x</p>'),
          `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata/><manifest><item id="c1" href="ch1.xhtml" media-type="application/xhtml+xml"/><item id="c2" href="../../../../etc/passwd" media-type="application/xhtml+xml"/><item id="c3" href="content.opf" media-type="application/xhtml+xml"/></manifest><spine>${'<itemref idref="c1"/>'.repeat(100000)}<itemref idref="c2"/><itemref idref="c3"/><itemref idref="nope"/></spine></package>`,
        ),
    ),
    v('epub-no-opf', 'epub', 'container.xml pointing at a missing OPF', () =>
      buildZip([
        { name: 'mimetype', data: enc('application/epub+zip'), store: true },
        {
          name: 'META-INF/container.xml',
          data: enc('<container><rootfiles><rootfile full-path="nope.opf"/></rootfiles></container>'),
        },
      ]),
    ),
    v('zip-empty', 'docx', 'an empty ZIP archive (end record only) named .docx', () => buildZip([])),
    v('zip-eocd-only-garbage', 'docx', 'a local header signature followed by random bytes', () =>
      concat([Uint8Array.of(0x50, 0x4b, 0x03, 0x04), randomBytes(rng(59), 10000)]),
    ),
    v('zip-cd-offset-wrong', 'docx', 'a valid docx whose end record points the central directory past the end', () => {
      const z = docx(docXml(para('x')));
      const out = z.slice();
      new DataView(out.buffer).setUint32(out.length - 6, 0xfffffff0, true);
      return out;
    }),
    v('zip-comment-max', 'docx', 'a docx with a 65535-byte comment holding fake end records', () =>
      buildZip(
        [
          { name: '[Content_Types].xml', data: enc(CT_DOCX) },
          { name: '_rels/.rels', data: enc(RELS_DOCX) },
          { name: 'word/document.xml', data: enc(docXml(para('x'))) },
        ],
        { comment: 'PK\u0005\u0006'.repeat(16383) + 'abc' },
      ),
    ),
  ];
}

export const ZIP_SOURCES = [
  'mammoth/tables.docx',
  'mammoth/footnotes.docx',
  'markitdown/test.docx',
  'markitdown/test.xlsx',
  'markitdown/test.pptx',
  'markitdown/test.epub',
  'officeparser/test.odt',
  'officeparser/test.ods',
  'officeparser/test.odp',
  'unstructured/fake-power-point.pptx',
  'unstructured/stanley-cups.xlsx',
];

/** Mutations of one real ZIP-based document. */
export function mutatedZips(source: string, load: () => Uint8Array, seed: number, count: number): Variant[] {
  const base = source.replace(/[^A-Za-z0-9]+/g, '_');
  const ext = source.slice(source.lastIndexOf('.') + 1);
  const v = (name: string, recipe: string, make: (src: Uint8Array) => Uint8Array): Variant => ({
    id: `zip/mutated/${base}/${name}`,
    family: 'zip',
    filename: `${base}-${name}.${ext}`,
    recipe: `${source}: ${recipe}`,
    make: () => make(load()),
  });
  /** Rebuilds the package with each entry transformed (undefined drops it). */
  const rebuild = (
    b: Uint8Array,
    f: (name: string, data: Uint8Array, r: () => number) => Uint8Array | undefined,
    key: string,
  ): Uint8Array => {
    const files = unzipSync(b);
    const r = rng(subSeed(seed, source + key));
    const items: ZipItem[] = [];
    for (const [name, data] of Object.entries(files)) {
      const d = f(name, data, r);
      if (d) items.push({ name, data: d, store: name === 'mimetype' });
    }
    return buildZip(items);
  };
  const isMain = (n: string): boolean =>
    /^(word\/document|xl\/workbook|ppt\/presentation|content)\.xml$|\.opf$/.test(n);
  const out: Variant[] = [
    v('drop-main-part', 'the main part (document/workbook/presentation/content.xml/OPF) removed', (b) =>
      rebuild(b, (n, d) => (isMain(n) ? undefined : d), 'd'),
    ),
    v('drop-rels', 'every .rels part removed', (b) => rebuild(b, (n, d) => (n.endsWith('.rels') ? undefined : d), 'r')),
    v('xml-truncated', 'every XML part cut at a random point', (b) =>
      rebuild(
        b,
        (n, d, r) => (/\.(xml|rels|opf|xhtml|html)$/.test(n) ? d.subarray(0, Math.floor(d.length * r())) : d),
        't',
      ),
    ),
    v('xml-smashed', 'every XML part with 20 random bytes smashed', (b) =>
      rebuild(b, (n, d, r) => (/\.(xml|rels|opf|xhtml)$/.test(n) ? smashBytes(d, r, 20) : d), 's'),
    ),
    v('media-garbage', 'every non-XML part replaced by random bytes', (b) =>
      rebuild(
        b,
        (n, d, r) =>
          /\.(xml|rels|opf|xhtml)$/.test(n) || n === 'mimetype' ? d : randomBytes(r, Math.min(d.length, 50000)),
        'm',
      ),
    ),
    v(
      'xml-doctype-laughs',
      'a billion-laughs DOCTYPE inserted after the XML declaration of the main part, its root text replaced by &lol9;',
      (b) =>
        rebuild(
          b,
          (n, d) => {
            if (!isMain(n)) return d;
            const s = new TextDecoder().decode(d);
            const at = s.startsWith('<?xml') ? s.indexOf('?>') + 2 : 0;
            return enc(s.slice(0, at) + LAUGHS + s.slice(at).replace(/>([^<]{3,})</, '>&lol9;<'));
          },
          'l',
        ),
    ),
  ];
  for (let i = 0; i < count; i++) {
    const r = rng(subSeed(seed, `${source}#${i}`));
    const kind = i % 3;
    if (kind === 0) {
      const frac = r();
      out.push(
        v(`truncate-${i}`, `truncated at ${(frac * 100).toFixed(2)}%`, (b) =>
          b.subarray(0, Math.floor(b.length * frac)),
        ),
      );
    } else if (kind === 1) {
      const flips = intIn(r, 1, 32);
      out.push(
        v(`bitflip-${i}`, `${flips} random bit flips (seed ${seed}, index ${i})`, (b) =>
          flipBits(b, rng(subSeed(seed, `${source}@${i}`)), flips),
        ),
      );
    } else {
      out.push(
        v(
          `cd-smash-${i}`,
          `random bytes smashed in the central directory and end record (seed ${seed}, index ${i})`,
          (b) => {
            const rr = rng(subSeed(seed, `${source}@${i}`));
            const cdStart = new DataView(b.buffer, b.byteOffset).getUint32(b.length - 6, true);
            return smashBytes(b, rr, intIn(rr, 1, 12), Math.min(cdStart, b.length - 22), b.length);
          },
        ),
      );
    }
  }
  return out;
}
