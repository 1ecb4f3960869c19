/**
 * Hostile PDFs: hand-written synthetic files (each names one attack) and mutations of real PDFs.
 */
import { deflateSync } from 'node:zlib';
import {
  asLatin1,
  concat,
  deflateBomb,
  enc,
  flipBits,
  indexOf,
  intIn,
  lastIndexOf,
  latin1,
  randomBytes,
  rng,
  smashBytes,
  subSeed,
  zlibWrap,
  type Variant,
} from './util.js';

type Obj = string | Uint8Array;

/**
 * Writes a PDF from object bodies (object n is `objs[n-1]`) with a correct xref table, so that each
 * synthetic file is broken only where it means to be.
 */
export function buildPdf(
  objs: Obj[],
  opts: { root?: number; trailer?: string; header?: string; xref?: boolean } = {},
): Uint8Array {
  const parts: Uint8Array[] = [latin1(opts.header ?? '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  objs.forEach((body, i) => {
    offsets.push(offset);
    const chunk = concat([`${i + 1} 0 obj\n`, body, '\nendobj\n']);
    parts.push(chunk);
    offset += chunk.length;
  });
  const trailer = opts.trailer ?? `/Root ${opts.root ?? 1} 0 R`;
  if (opts.xref === false) {
    parts.push(latin1(`trailer\n<< /Size ${objs.length + 1} ${trailer} >>\n%%EOF\n`));
  } else {
    const rows = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
    parts.push(
      latin1(
        `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${rows}trailer\n<< /Size ${objs.length + 1} ${trailer} >>\nstartxref\n${offset}\n%%EOF\n`,
      ),
    );
  }
  return concat(parts);
}

export function stream(dict: string, data: Uint8Array | string): Uint8Array {
  const bytes = typeof data === 'string' ? latin1(data) : data;
  return concat([`<< ${dict} /Length ${bytes.length} >>\nstream\n`, bytes, '\nendstream']);
}

const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
const TEXT = 'BT /F1 12 Tf 72 720 Td (Hostile input survives) Tj ET';

/** A one-page PDF: catalog 1, pages 2, page 3, content 4, font 5, then `extra` objects from 6. */
function onePage(
  opts: {
    page?: string;
    content?: Obj;
    pages?: string;
    catalog?: string;
    extra?: Obj[];
    trailer?: string;
    header?: string;
  } = {},
): Uint8Array {
  return buildPdf(
    [
      `<< /Type /Catalog /Pages 2 0 R ${opts.catalog ?? ''} >>`,
      opts.pages ?? '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R ${opts.page ?? ''} >>`,
      opts.content ?? stream('', TEXT),
      FONT,
      ...(opts.extra ?? []),
    ],
    { ...(opts.trailer ? { trailer: opts.trailer } : {}), ...(opts.header ? { header: opts.header } : {}) },
  );
}

function nested(open: string, close: string, depth: number, inner = '0'): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

/** Every synthetic attack, by name. Each builds its bytes from scratch. */
export function syntheticPdfs(): Variant[] {
  const v = (name: string, recipe: string, make: () => Uint8Array): Variant => ({
    id: `pdf/synthetic/${name}`,
    family: 'pdf',
    filename: `${name}.pdf`,
    recipe,
    make,
  });
  const bombText = (repeats: number): Uint8Array => {
    const unit = enc('BT /F1 12 Tf 72 720 Td (aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa) Tj ET\n'.repeat(1000));
    return zlibWrap(deflateBomb(new Uint8Array(0), unit, repeats, new Uint8Array(0)).data);
  };
  const zeros = (mb: number): Uint8Array =>
    zlibWrap(deflateBomb(new Uint8Array(0), new Uint8Array(1 << 20), mb, new Uint8Array(0)).data);
  return [
    v('baseline', 'a valid one-page PDF (control)', () => onePage()),
    v('header-only', '"%PDF-1.7" and nothing else', () => latin1('%PDF-1.7\n')),
    v('header-then-html', 'PDF header followed by an HTML page', () =>
      latin1('%PDF-1.4\n<!doctype html><html><body><h1>Not a PDF</h1><p>hello</p></body></html>\n'),
    ),
    v('header-then-garbage', 'PDF header followed by 64 KiB of random bytes', () =>
      concat(['%PDF-1.5\n', randomBytes(rng(7), 65536)]),
    ),
    v('html-with-pdf-header-inside', 'an HTML page that mentions %PDF- in its first kilobyte', () =>
      latin1('<!doctype html><html><body><p>Files start with %PDF-1.7 usually.</p></body></html>'),
    ),
    v('no-xref', 'objects and a trailer but no xref table or startxref', () =>
      buildPdf(
        [
          '<< /Type /Catalog /Pages 2 0 R >>',
          '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
          '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
          stream('', TEXT),
          FONT,
        ],
        { xref: false },
      ),
    ),
    v('startxref-past-eof', 'startxref points far beyond the end of the file', () => {
      const s = asLatin1(onePage());
      return latin1(s.replace(/startxref\n\d+/, 'startxref\n999999999'));
    }),
    v('startxref-negative', 'startxref is negative', () =>
      latin1(asLatin1(onePage()).replace(/startxref\n\d+/, 'startxref\n-42')),
    ),
    v('xref-garbage-offsets', 'every xref offset random', () => {
      const r = rng(11);
      return latin1(
        asLatin1(onePage()).replace(
          /\d{10} 00000 n/g,
          () => `${String(intIn(r, 0, 9999999999)).padStart(10, '0')} 00000 n`,
        ),
      );
    }),
    v('xref-prev-loop', 'trailer /Prev points back at the same xref section', () => {
      const s = asLatin1(onePage());
      const at = /startxref\n(\d+)/.exec(s)![1]!;
      return latin1(s.replace('/Root 1 0 R', `/Root 1 0 R /Prev ${at}`));
    }),
    v('xref-huge-subsection', 'xref subsection claims 2^31 entries', () =>
      latin1(asLatin1(onePage()).replace(/xref\n0 \d+/, 'xref\n0 2147483647')),
    ),
    v('trailer-no-root', 'trailer without /Root', () => onePage({ trailer: '/Info 5 0 R' })),
    v('root-not-dict', 'trailer /Root is a number', () => onePage({ trailer: '/Root 42' })),
    v('root-missing-object', '/Root refers to object 999', () => onePage({ trailer: '/Root 999 0 R' })),
    v('pages-missing', 'catalog /Pages refers to a missing object', () =>
      buildPdf(['<< /Type /Catalog /Pages 77 0 R >>']),
    ),
    v('kids-cycle', 'page tree: Pages → Pages → first Pages (cycle, no leaf)', () =>
      onePage({
        pages: '<< /Type /Pages /Kids [6 0 R] /Count 1 >>',
        extra: ['<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>'],
      }),
    ),
    v('kids-self', 'Pages node listing itself as its only kid', () =>
      onePage({ pages: '<< /Type /Pages /Kids [2 0 R] /Count 1 >>' }),
    ),
    v('parent-cycle', 'page whose /Parent chain loops (inherited attributes walk it)', () =>
      buildPdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 /Parent 6 0 R >>',
        '<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>',
        stream('', TEXT),
        FONT,
        '<< /Type /Pages /Kids [2 0 R] /Count 1 /Parent 2 0 R >>',
      ]),
    ),
    v('count-billions', 'page tree /Count 2147483647 with one real kid', () =>
      onePage({ pages: '<< /Type /Pages /Kids [3 0 R] /Count 2147483647 >>' }),
    ),
    v('count-negative', 'page tree /Count -5', () => onePage({ pages: '<< /Type /Pages /Kids [3 0 R] /Count -5 >>' })),
    v('count-nan', 'page tree /Count is a string', () =>
      onePage({ pages: '<< /Type /Pages /Kids [3 0 R] /Count (lots) >>' }),
    ),
    v('kids-million-refs', 'Kids array of 300000 references to the same page, /Count matching', () => {
      const kids = Array.from({ length: 300000 }, () => '3 0 R').join(' ');
      return onePage({ pages: `<< /Type /Pages /Kids [${kids}] /Count 300000 >>` });
    }),
    v('kids-missing-objects', 'Kids refer to 1000 objects that do not exist', () => {
      const kids = Array.from({ length: 1000 }, (_, i) => `${1000 + i} 0 R`).join(' ');
      return onePage({ pages: `<< /Type /Pages /Kids [${kids}] /Count 1000 >>` });
    }),
    v('mediabox-huge', 'MediaBox [0 0 1e30 1e30]', () =>
      onePage({ page: '/MediaBox [0 0 1000000000000000000000000000000 1000000000000000000000000000000]' }),
    ),
    v('mediabox-14400', 'MediaBox at the spec maximum, 14400 x 14400 points, no text (OCR would render it)', () =>
      onePage({ page: '/MediaBox [0 0 14400 14400]', content: stream('', '0 0 m 100 100 l S') }),
    ),
    v('userunit-huge', 'UserUnit 75000 on a full-size page', () =>
      onePage({ page: '/UserUnit 75000 /MediaBox [0 0 14400 14400]', content: stream('', '0 0 m 10 10 l S') }),
    ),
    v('mediabox-zero', 'MediaBox [0 0 0 0]', () => onePage({ page: '/MediaBox [0 0 0 0]' })),
    v('mediabox-negative', 'MediaBox [0 0 -612 -792]', () => onePage({ page: '/MediaBox [0 0 -612 -792]' })),
    v('mediabox-nan', 'MediaBox of names and strings', () => onePage({ page: '/MediaBox [/a (b) null true]' })),
    v('mediabox-short', 'MediaBox with two numbers', () => onePage({ page: '/MediaBox [0 0]' })),
    v('rotate-odd', 'Rotate 45 and CropBox outside MediaBox', () =>
      onePage({ page: '/Rotate 45 /CropBox [5000 5000 6000 6000]' }),
    ),
    v('deep-array', 'a page entry holding arrays nested 200000 deep', () =>
      onePage({ page: `/Junk ${nested('[', ']', 200000)}` }),
    ),
    v('deep-dict', 'a page entry holding dictionaries nested 100000 deep', () =>
      onePage({ page: `/Junk ${nested('<< /A ', ' >>', 100000)}` }),
    ),
    v('deep-array-in-content', 'content stream with an operand array nested 100000 deep', () =>
      onePage({ content: stream('', `BT /F1 12 Tf 72 720 Td ${nested('[', ']', 100000, '(x)')} TJ ET`) }),
    ),
    v('content-deep-q', 'content stream with one million unbalanced q operators', () =>
      onePage({ content: stream('/Filter /FlateDecode', deflateSync(latin1(`${'q '.repeat(1000000)}${TEXT}`))) }),
    ),
    v('content-bad-flate', 'FlateDecode content stream of random bytes', () =>
      onePage({ content: stream('/Filter /FlateDecode', randomBytes(rng(3), 4096)) }),
    ),
    v('content-truncated-flate', 'FlateDecode content cut in the middle', () => {
      const z = deflateSync(latin1(TEXT.repeat(200)));
      return onePage({ content: stream('/Filter /FlateDecode', z.subarray(0, z.length >> 1)) });
    }),
    v('content-unknown-filter', 'content stream with /Filter /NoSuchDecode', () =>
      onePage({ content: stream('/Filter /NoSuchDecode', TEXT) }),
    ),
    v('content-filter-chain', 'content with 1000 chained ASCIIHex filters on plain text', () =>
      onePage({ content: stream(`/Filter [${'/AHx '.repeat(1000)}]`, TEXT) }),
    ),
    v('content-lzw-garbage', 'LZWDecode content of random bytes with /EarlyChange 7', () =>
      onePage({ content: stream('/Filter /LZWDecode /DecodeParms << /EarlyChange 7 >>', randomBytes(rng(5), 8192)) }),
    ),
    v('content-predictor-garbage', 'FlateDecode with PNG predictor and absurd /Columns', () =>
      onePage({
        content: stream(
          '/Filter /FlateDecode /DecodeParms << /Predictor 15 /Columns 2147483647 /Colors 32 /BitsPerComponent 16 >>',
          deflateSync(latin1(TEXT)),
        ),
      }),
    ),
    v('content-length-self', 'content /Length is an indirect reference to itself', () =>
      buildPdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
        concat(['<< /Length 4 0 R >>\nstream\n', TEXT, '\nendstream']),
        FONT,
      ]),
    ),
    v('content-length-huge', 'content /Length 2^40 with no endstream', () =>
      onePage({ content: concat(['<< /Length 1099511627776 >>\nstream\n', TEXT]) }),
    ),
    v('bomb-text-200MB', 'FlateDecode content that inflates to ~200 MB of text-showing operators', () =>
      onePage({ content: stream('/Filter /FlateDecode', bombText(4000)) }),
    ),
    v('bomb-zeros-1GB', 'FlateDecode content that inflates to 1 GiB of NUL bytes', () =>
      onePage({ content: stream('/Filter /FlateDecode', zeros(1024)) }),
    ),
    v('bomb-contents-array', 'page /Contents: 20000 references to one 64 KiB-inflating text stream', () => {
      const refs = Array.from({ length: 20000 }, () => '4 0 R').join(' ');
      const unit = enc('BT /F1 12 Tf 72 720 Td (aaaaaaaaaaaaaaaa) Tj ET\n'.repeat(1500));
      return onePage({ page: `/Contents [${refs}]`, content: stream('/Filter /FlateDecode', deflateSync(unit)) });
    }),
    v('bomb-many-text-ops', '2 million tiny Tj operators (plain, ~40 MB)', () =>
      onePage({ content: stream('', `BT /F1 1 Tf ${'1 0 Td (a) Tj '.repeat(2000000)}ET`) }),
    ),
    v('encrypt-unknown-handler', '/Encrypt with /Filter /NoSuchSecurity', () =>
      onePage({
        trailer:
          '/Root 1 0 R /Encrypt 6 0 R /ID [<00112233445566778899aabbccddeeff> <00112233445566778899aabbccddeeff>]',
        extra: ['<< /Filter /NoSuchSecurity /V 9 /R 9 >>'],
      }),
    ),
    v('encrypt-standard-garbage', 'Standard /Encrypt V5 R6 with random /O /U and no /ID', () =>
      onePage({
        trailer: '/Root 1 0 R /Encrypt 6 0 R',
        extra: ['<< /Filter /Standard /V 5 /R 6 /Length 256 /P -1 /O <00> /U <00> /OE <00> /UE <00> /Perms <00> >>'],
      }),
    ),
    v('encrypt-missing', '/Encrypt refers to a missing object', () =>
      onePage({ trailer: '/Root 1 0 R /Encrypt 99 0 R' }),
    ),
    v('encrypt-rc4-wrong-key', 'Standard V1 R2 handler with random /O /U (user password not empty)', () =>
      onePage({
        trailer:
          '/Root 1 0 R /Encrypt 6 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>]',
        extra: [`<< /Filter /Standard /V 1 /R 2 /P -44 /O <${'ab'.repeat(32)}> /U <${'cd'.repeat(32)}> >>`],
      }),
    ),
    ...[
      ['jpx', '/JPXDecode'],
      ['jbig2', '/JBIG2Decode /DecodeParms << /JBIG2Globals 7 0 R >>'],
      ['dct', '/DCTDecode'],
      ['ccitt', '/CCITTFaxDecode /DecodeParms << /K -1 /Columns 5000 >>'],
    ].map(([n, f]) =>
      v(`image-${n}-garbage`, `page with no text drawing a ${n} image XObject of random bytes`, () =>
        onePage({
          content: stream('', 'q 612 0 0 792 0 0 cm /Im1 Do Q'),
          page: '/Resources << /XObject << /Im1 6 0 R >> >>',
          extra: [
            stream(
              `/Type /XObject /Subtype /Image /Width 2000 /Height 2000 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter ${f}`,
              randomBytes(rng(13), 20000),
            ),
            stream('', randomBytes(rng(17), 500)),
          ],
        }),
      ),
    ),
    v('image-huge-dimensions', 'image XObject claiming 100000 x 100000 RGB pixels with 10 bytes of data', () =>
      onePage({
        content: stream('', 'q 612 0 0 792 0 0 cm /Im1 Do Q'),
        page: '/Resources << /XObject << /Im1 6 0 R >> >>',
        extra: [
          stream(
            '/Type /XObject /Subtype /Image /Width 100000 /Height 100000 /ColorSpace /DeviceRGB /BitsPerComponent 8',
            randomBytes(rng(19), 10),
          ),
        ],
      }),
    ),
    v('image-bomb', 'image XObject, 20000 x 20000 gray, FlateDecode of 400 MB zeros', () =>
      onePage({
        content: stream('', 'q 612 0 0 792 0 0 cm /Im1 Do Q'),
        page: '/Resources << /XObject << /Im1 6 0 R >> >>',
        extra: [
          stream(
            '/Type /XObject /Subtype /Image /Width 20000 /Height 20000 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode',
            zeros(400),
          ),
        ],
      }),
    ),
    v('form-xobject-recursion', 'form XObject that draws itself', () =>
      onePage({
        content: stream('', `${TEXT} /Fm1 Do`),
        page: '/Resources << /Font << /F1 5 0 R >> /XObject << /Fm1 6 0 R >> >>',
        extra: [
          stream(
            '/Type /XObject /Subtype /Form /BBox [0 0 100 100] /Resources << /XObject << /Fm1 6 0 R >> >>',
            '/Fm1 Do',
          ),
        ],
      }),
    ),
    v('form-xobject-mutual', 'two form XObjects drawing each other', () =>
      onePage({
        content: stream('', `${TEXT} /Fa Do`),
        page: '/Resources << /Font << /F1 5 0 R >> /XObject << /Fa 6 0 R >> >>',
        extra: [
          stream(
            '/Type /XObject /Subtype /Form /BBox [0 0 100 100] /Resources << /XObject << /Fb 7 0 R >> >>',
            '/Fb Do /Fb Do',
          ),
          stream(
            '/Type /XObject /Subtype /Form /BBox [0 0 100 100] /Resources << /XObject << /Fa 6 0 R >> >>',
            '/Fa Do /Fa Do',
          ),
        ],
      }),
    ),
    v('form-xobject-fanout', 'form XObjects 30 levels deep, each drawing the next twice (2^30 draws)', () => {
      const forms: Uint8Array[] = [];
      for (let i = 0; i < 30; i++) {
        const next =
          i < 29
            ? `/Resources << /Font << /F1 5 0 R >> /XObject << /N ${7 + i} 0 R >> >>`
            : '/Resources << /Font << /F1 5 0 R >> >>';
        forms.push(stream(`/Type /XObject /Subtype /Form /BBox [0 0 100 100] ${next}`, i < 29 ? '/N Do /N Do' : TEXT));
      }
      return onePage({
        content: stream('', '/N Do'),
        page: '/Resources << /Font << /F1 5 0 R >> /XObject << /N 6 0 R >> >>',
        extra: forms,
      });
    }),
    v('type3-font-recursion', 'Type3 font whose glyph procedure shows text in the same font', () =>
      onePage({
        page: '/Resources << /Font << /F1 6 0 R >> >>',
        content: stream('', 'BT /F1 12 Tf 72 720 Td (aaaa) Tj ET'),
        extra: [
          '<< /Type /Font /Subtype /Type3 /FontBBox [0 0 10 10] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /a 7 0 R >> /Encoding << /Differences [97 /a] >> /FirstChar 97 /LastChar 97 /Widths [1000] /Resources << /Font << /F1 6 0 R >> >> >>',
          stream('', '1000 0 d0 BT /F1 12 Tf (aaaa) Tj ET'),
        ],
      }),
    ),
    v('font-file-garbage', 'TrueType font with a FontFile2 of random bytes', () =>
      onePage({
        page: '/Resources << /Font << /F1 6 0 R >> >>',
        extra: [
          '<< /Type /Font /Subtype /TrueType /BaseFont /Garbage /FirstChar 32 /LastChar 126 /Widths [] /FontDescriptor 7 0 R >>',
          '<< /Type /FontDescriptor /FontName /Garbage /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 8 0 R >>',
          stream('', randomBytes(rng(23), 30000)),
        ],
      }),
    ),
    v('font-cff-garbage', 'Type0/CIDFontType0 font with FontFile3 CFF of random bytes and a broken ToUnicode', () =>
      onePage({
        page: '/Resources << /Font << /F1 6 0 R >> >>',
        content: stream('', 'BT /F1 12 Tf 72 720 Td <0001000200030004> Tj ET'),
        extra: [
          '<< /Type /Font /Subtype /Type0 /BaseFont /Junk /Encoding /Identity-H /DescendantFonts [7 0 R] /ToUnicode 10 0 R >>',
          '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /Junk /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 8 0 R /W [0 [1e30 -1e30]] >>',
          '<< /Type /FontDescriptor /FontName /Junk /Flags 4 /FontBBox [0 0 1 1] /ItalicAngle 0 /Ascent 1 /Descent 0 /CapHeight 1 /StemV 1 /FontFile3 9 0 R >>',
          stream('/Subtype /CIDFontType0C', randomBytes(rng(29), 20000)),
          stream(
            '',
            `/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 beginbfrange <0000> <FFFF> <0041> endbfrange ${'1 usecmap '.repeat(100)} endcmap`,
          ),
        ],
      }),
    ),
    v('font-encoding-cmap-huge', 'Type0 font whose CMap declares a 0000-FFFF range mapped to an array 65536 long', () =>
      onePage({
        page: '/Resources << /Font << /F1 6 0 R >> >>',
        content: stream('', 'BT /F1 12 Tf 72 720 Td <00410042> Tj ET'),
        extra: [
          '<< /Type /Font /Subtype /Type0 /BaseFont /Helvetica /Encoding /Identity-H /DescendantFonts [<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Helvetica /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> >>] /ToUnicode 7 0 R >>',
          stream('', `begincmap 1 beginbfrange <0000> <FFFF> [${'<0041> '.repeat(65536)}] endbfrange endcmap`),
        ],
      }),
    ),
    v('annots-junk', 'page /Annots with numbers, nulls, a self reference and a widget whose /AP draws itself', () =>
      onePage({
        page: '/Annots [1 null (x) 3 0 R 6 0 R 6 0 R /Name 7 0 R]',
        extra: [
          '<< /Type /Annot /Subtype /Widget /Rect [0 0 1e30 -1e30] /AP << /N 8 0 R >> /Parent 6 0 R /Kids [6 0 R] >>',
          '<< /Type /Annot /Subtype /Link /Rect [1 2] /A << /S /URI /URI (javascript:alert(1)) >> /Dest [0 /XYZ] >>',
          stream('/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /XObject << /X 8 0 R >> >>', '/X Do'),
        ],
      }),
    ),
    v('acroform-cycle', 'AcroForm fields whose /Kids and /Parent form a cycle', () =>
      onePage({
        catalog: '/AcroForm << /Fields [6 0 R] /NeedAppearances true >>',
        page: '/Annots [6 0 R 7 0 R]',
        extra: [
          '<< /FT /Tx /T (a) /Kids [7 0 R] /Parent 7 0 R /V (x) >>',
          '<< /FT /Tx /T (b) /Kids [6 0 R] /Parent 6 0 R /Subtype /Widget /Rect [0 0 10 10] >>',
        ],
      }),
    ),
    v('outline-cycle', 'document outline whose /First and /Next loop', () =>
      onePage({
        catalog: '/Outlines 6 0 R',
        extra: [
          '<< /Type /Outlines /First 7 0 R /Last 7 0 R /Count 1 >>',
          '<< /Title (loop) /Parent 6 0 R /Next 7 0 R /Prev 7 0 R /First 7 0 R /Dest [3 0 R /Fit] >>',
        ],
      }),
    ),
    v('names-tree-cycle', 'catalog /Names with a name tree whose /Kids loop', () =>
      onePage({
        catalog: '/Names << /Dests 6 0 R /EmbeddedFiles 6 0 R >>',
        extra: ['<< /Kids [6 0 R 6 0 R] /Limits [(a) (z)] >>'],
      }),
    ),
    v('structtree-cycle', 'marked structure tree with a cycle', () =>
      onePage({
        catalog: '/MarkInfo << /Marked true >> /StructTreeRoot 6 0 R',
        extra: [
          '<< /Type /StructTreeRoot /K 7 0 R /ParentTree << /Nums [0 [7 0 R]] >> >>',
          '<< /Type /StructElem /S /P /P 6 0 R /K [7 0 R 7 0 R] /Pg 3 0 R >>',
        ],
      }),
    ),
    v('objstm-garbage', 'object stream with /N 1000000 and /First past its end', () =>
      onePage({
        extra: [
          stream(
            '/Type /ObjStm /N 1000000 /First 99999999 /Filter /FlateDecode',
            deflateSync(latin1('1 0 2 5 3 9 << /a 1 >>')),
          ),
        ],
      }),
    ),
    v('xref-stream-garbage', 'only a cross-reference stream with absurd /W and /Index', () => {
      const head = onePage();
      const s = asLatin1(head);
      const cut = s.lastIndexOf('xref\n');
      const body = head.subarray(0, cut);
      const xs = stream('/Type /XRef /Size 6 /W [9 9 9] /Index [0 2147483647] /Root 1 0 R', randomBytes(rng(31), 200));
      return concat([body, '99 0 obj\n', xs, `\nendobj\nstartxref\n${body.length}\n%%EOF\n`]);
    }),
    v('inline-image-no-ei', 'inline image BI … ID followed by 100 KiB of bytes and no EI', () =>
      onePage({
        content: stream('', concat([`${TEXT}\nBI /W 100 /H 100 /BPC 8 /CS /G ID `, randomBytes(rng(37), 100000)])),
      }),
    ),
    v('string-unterminated', 'content stream with an unterminated string of 1 MiB', () =>
      onePage({ content: stream('', `BT /F1 12 Tf (${'('.repeat(1 << 20)}`) }),
    ),
    v('many-objects', '200000 tiny objects referenced from one array', () => {
      const objs: Obj[] = [
        '<< /Type /Catalog /Pages 2 0 R /Junk 6 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
        stream('', TEXT),
        FONT,
      ];
      const n = 200000;
      objs.push(`[${Array.from({ length: n }, (_, i) => `${7 + i} 0 R`).join(' ')}]`);
      for (let i = 0; i < n; i++) objs.push(`<< /I ${i} >>`);
      return buildPdf(objs);
    }),
    v('pages-5000', '5000 pages, each with one line of text (bounded work, many pages)', () => {
      const n = 5000;
      const kids = Array.from({ length: n }, (_, i) => `${4 + i} 0 R`).join(' ');
      const objs: Obj[] = [
        '<< /Type /Catalog /Pages 2 0 R >>',
        `<< /Type /Pages /Kids [${kids}] /Count ${n} /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> >>`,
        FONT,
      ];
      const content = 4 + n;
      for (let i = 0; i < n; i++) objs.push(`<< /Type /Page /Parent 2 0 R /Contents ${content} 0 R >>`);
      objs.push(stream('', TEXT));
      return buildPdf(objs);
    }),
    v('pages-empty-20000', '20000 pages with no content at all (every page would want OCR)', () => {
      const n = 20000;
      const kids = Array.from({ length: n }, (_, i) => `${3 + i} 0 R`).join(' ');
      const objs: Obj[] = [
        '<< /Type /Catalog /Pages 2 0 R >>',
        `<< /Type /Pages /Kids [${kids}] /Count ${n} /MediaBox [0 0 612 792] >>`,
      ];
      for (let i = 0; i < n; i++) objs.push('<< /Type /Page /Parent 2 0 R >>');
      return buildPdf(objs);
    }),
    v('utf16-bom-pdf', 'PDF bytes behind a UTF-16 byte-order mark', () =>
      concat([Uint8Array.of(0xff, 0xfe), onePage()]),
    ),
    v('junk-before-header', '1000 bytes of junk before the header', () =>
      concat([randomBytes(rng(41), 1000).map((b) => (b === 0x25 ? 0x20 : b)), onePage()]),
    ),
    v('nul-filled', '%PDF-1.7 followed by 1 MiB of NUL bytes', () => concat(['%PDF-1.7\n', new Uint8Array(1 << 20)])),
    v('js-openaction', 'catalog /OpenAction JavaScript and /AA (must be ignored)', () =>
      onePage({
        catalog:
          '/OpenAction << /S /JavaScript /JS (while(true){}) >> /AA << /WC << /S /JavaScript /JS (app.alert(1)) >> >>',
      }),
    ),
    v('embedded-file-bomb', 'an embedded file attachment inflating to 512 MiB', () =>
      onePage({
        catalog:
          '/Names << /EmbeddedFiles << /Names [(a.txt) << /Type /Filespec /F (a.txt) /EF << /F 6 0 R >> >>] >> >>',
        extra: [stream('/Type /EmbeddedFile /Filter /FlateDecode', zeros(512))],
      }),
    ),
  ];
}

/** Source PDFs from the corpus used for mutation: small enough to mutate many times, varied in structure. */
export const MUTATION_SOURCES = [
  'markitdown/test.pdf',
  'markitdown/masterformat_partial_numbering.pdf',
  'markitdown/RECEIPT-2024-TXN-98765_retail_purchase.pdf',
  'unstructured/fake-memo.pdf',
  'unstructured/emphasis-text.pdf',
  'unstructured/korean-text-with-tables.pdf',
  'unstructured/password.pdf',
  'unstructured/copy-protected.pdf',
  'unstructured/pdf-with-ocr-text.pdf',
  'unstructured/invalid-pdf-structure-pdfminer-one-page.pdf',
  'officeparser/test.pdf',
  'unstructured/negative-coords.pdf',
];

/** Byte ranges of the stream data in a PDF (between `stream` and `endstream`). */
function streamRanges(b: Uint8Array): [number, number][] {
  const out: [number, number][] = [];
  let at = 0;
  for (;;) {
    const s = indexOf(b, 'stream', at);
    if (s < 0) break;
    if (asLatin1(b.subarray(Math.max(0, s - 3), s)) === 'end') {
      at = s + 6;
      continue;
    }
    const start = s + 6 + (b[s + 6] === 0x0d ? 2 : 1);
    const e = indexOf(b, 'endstream', start);
    if (e < 0) break;
    out.push([start, e]);
    at = e + 9;
  }
  return out;
}

/**
 * Mutations of one real PDF. `load` gives the source bytes; `count` random mutations are drawn from
 * the seed, plus a fixed set of structural ones.
 */
export function mutatedPdfs(source: string, load: () => Uint8Array, seed: number, count: number): Variant[] {
  const base = source.replace(/[^A-Za-z0-9]+/g, '_');
  const v = (name: string, recipe: string, make: (src: Uint8Array) => Uint8Array): Variant => ({
    id: `pdf/mutated/${base}/${name}`,
    family: 'pdf',
    filename: `${base}-${name}.pdf`,
    recipe: `${source}: ${recipe}`,
    make: () => make(load()),
  });
  const out: Variant[] = [
    v('no-trailer', 'everything from the last "trailer" or "startxref" on removed', (b) => {
      const t = Math.max(lastIndexOf(b, 'trailer'), 0) || lastIndexOf(b, 'startxref');
      return b.subarray(0, t > 0 ? t : b.length >> 1);
    }),
    v('xref-smashed', 'the last xref table (or xref stream) overwritten with random bytes', (b) => {
      const x = lastIndexOf(b, 'startxref');
      const at = x > 0 ? Number(/startxref\s+(\d+)/.exec(asLatin1(b.subarray(x, x + 40)))?.[1] ?? 0) : 0;
      return smashBytes(
        b,
        rng(subSeed(seed, source + 'x')),
        4000,
        Math.min(at, b.length - 1),
        Math.min(at + 4000, b.length),
      );
    }),
    v('startxref-random', 'startxref value replaced by a random number', (b) => {
      const s = asLatin1(b).replace(
        /startxref\s+\d+/g,
        `startxref\n${intIn(rng(subSeed(seed, source + 's')), 0, 2 ** 31)}`,
      );
      return latin1(s);
    }),
    v('obj-numbers-garbage', 'every "N G obj" header and "N G R" reference renumbered at random', (b) => {
      const r = rng(subSeed(seed, source + 'o'));
      return latin1(
        asLatin1(b).replace(
          /\b\d+ \d+ (obj|R)\b/g,
          (_m, k: string) => `${intIn(r, 0, 2 ** 31)} ${intIn(r, 0, 70000)} ${k}`,
        ),
      );
    }),
    v('count-huge', 'every /Count replaced by /Count 99999999', (b) =>
      latin1(asLatin1(b).replace(/\/Count\s+\d+/g, '/Count 99999999')),
    ),
    v('kids-to-root', "every /Kids array replaced by a reference to the catalog's page tree root (cycles)", (b) => {
      const s = asLatin1(b);
      const root = /\/Pages\s+(\d+ \d+ R)/.exec(s)?.[1] ?? '1 0 R';
      return latin1(s.replace(/\/Kids\s*\[[^\]]*\]/g, `/Kids [${root} ${root}]`));
    }),
    v('mediabox-zero', 'every /MediaBox set to [0 0 0 0]', (b) =>
      latin1(asLatin1(b).replace(/\/MediaBox\s*\[[^\]]*\]/g, '/MediaBox [0 0 0 0]')),
    ),
    v('mediabox-huge', 'every /MediaBox set to [0 0 3e38 3e38]', (b) =>
      latin1(
        asLatin1(b).replace(
          /\/MediaBox\s*\[[^\]]*\]/g,
          '/MediaBox [0 0 300000000000000000000000000000000000000 300000000000000000000000000000000000000]',
        ),
      ),
    ),
    v('lengths-wrong', 'every direct /Length off by a random amount', (b) => {
      const r = rng(subSeed(seed, source + 'l'));
      return latin1(
        asLatin1(b).replace(
          /\/Length\s+(\d+)(?!\s+\d+\s+R)/g,
          (_m, n: string) => `/Length ${Math.max(0, Number(n) + intIn(r, -500, 500))}`,
        ),
      );
    }),
    v('filters-swapped', 'every /FlateDecode renamed /DCTDecode (streams decoded as JPEG)', (b) =>
      latin1(asLatin1(b).replace(/\/FlateDecode/g, '/DCTDecode ')),
    ),
    v('filters-jbig2', 'every /FlateDecode renamed /JBIG2Decode', (b) =>
      latin1(asLatin1(b).replace(/\/FlateDecode/g, '/JBIG2Decode')),
    ),
    v('streams-random', "every stream's data replaced by random bytes (same length)", (b) => {
      const out = b.slice();
      const r = rng(subSeed(seed, source + 'r'));
      for (const [s, e] of streamRanges(b)) for (let i = s; i < e; i++) out[i] = Math.floor(r() * 256);
      return out;
    }),
    v('encrypt-injected', 'an /Encrypt entry with an unknown handler added to every trailer', (b) =>
      latin1(asLatin1(b).replace(/trailer\s*<</g, 'trailer\n<< /Encrypt << /Filter /Bogus /V 7 >> ')),
    ),
    v('html-after-header', 'everything after the first line replaced by an HTML page', (b) =>
      concat([b.subarray(0, indexOf(b, '\n') + 1), '<html><body><p>not really a pdf</p></body></html>']),
    ),
    v('doubled', 'the file followed by a copy of itself with random bytes between', (b) =>
      concat([b, randomBytes(rng(seed), 100), b]),
    ),
  ];
  for (let i = 0; i < count; i++) {
    const r = rng(subSeed(seed, `${source}#${i}`));
    const kind = i % 5;
    if (kind === 0) {
      const frac = r();
      out.push(
        v(`truncate-${i}`, `truncated at ${(frac * 100).toFixed(2)}% of its length`, (b) =>
          b.subarray(0, Math.floor(b.length * frac)),
        ),
      );
    } else if (kind === 1) {
      const flips = intIn(r, 1, 64);
      out.push(
        v(`bitflip-${i}`, `${flips} random bit flips over the whole file (seed ${seed}, index ${i})`, (b) =>
          flipBits(b, rng(subSeed(seed, `${source}@${i}`)), flips),
        ),
      );
    } else if (kind === 2) {
      const flips = intIn(r, 1, 200);
      out.push(
        v(
          `streamflip-${i}`,
          `${flips} random byte smashes inside one stream's data (seed ${seed}, index ${i})`,
          (b) => {
            const rr = rng(subSeed(seed, `${source}@${i}`));
            const ranges = streamRanges(b);
            if (!ranges.length) return smashBytes(b, rr, flips);
            const [s, e] = ranges[Math.floor(rr() * ranges.length)]!;
            return smashBytes(b, rr, flips, s, e);
          },
        ),
      );
    } else if (kind === 3) {
      out.push(
        v(`splice-${i}`, `a random chunk deleted and another duplicated (seed ${seed}, index ${i})`, (b) => {
          const rr = rng(subSeed(seed, `${source}@${i}`));
          const a = Math.floor(rr() * b.length);
          const len = Math.floor(rr() * Math.min(5000, b.length - a));
          const c = Math.floor(rr() * b.length);
          const dup = b.subarray(c, Math.min(b.length, c + Math.floor(rr() * 5000)));
          return concat([b.subarray(0, a), dup, b.subarray(a + len)]);
        }),
      );
    } else {
      const frac = 0.9 + r() * 0.1;
      out.push(
        v(`tail-truncate-${i}`, `truncated at ${(frac * 100).toFixed(2)}% (through the xref/trailer)`, (b) =>
          b.subarray(0, Math.floor(b.length * frac)),
        ),
      );
    }
  }
  return out;
}
