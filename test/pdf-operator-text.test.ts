/**
 * Text runs from the operator list (src/pdf/operator-text.ts): the text state followed on synthetic
 * operator lists, and, on every PDF fixture the project makes, the same text as pdf.js's text content.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractPage, type PdfPage } from '../src/pdf/extract.js';
import { textFromOperators, type FontFacts } from '../src/pdf/operator-text.js';
import { dingbatChar } from '../src/pdf/dingbats.js';
import { openPdf } from '../src/pdf/pdfjs.js';
import { buildPdf, stream } from '../test-support/hostile/pdf.js';
import { corpusAvailable, corpusFiles, CORPUS_SKIP_MESSAGE, readCorpus, REPO_ROOT } from '../test-support/corpus.js';

// pdf.js operator codes used below.
const GS = 9,
  BT = 31,
  ET = 32,
  TC = 33,
  TF = 37,
  TM = 42,
  TJ = 44,
  TD = 40,
  BDC = 70,
  EMC = 71,
  SAVE = 10,
  RESTORE = 11,
  CM = 12;
const FONT: FontFacts = {
  fontMatrix: [0.001, 0, 0, 0.001, 0, 0],
  ascent: 0.8,
  descent: -0.2,
  fallbackName: 'sans-serif',
};
const fonts = (id: string): FontFacts | null =>
  id === 'F1' ? FONT : id === 'V' ? { ...FONT, vertical: true } : id === 'T3' ? { ...FONT, isType3Font: true } : null;
const VIEW = [0, 0, 612, 792];
const same = (s: string) => s;

/** Glyphs of a string, each `width` thousandths of an em wide, with `after` (a TJ number) after each. */
function glyphs(
  text: string,
  width = 500,
  after?: number,
): Array<{ unicode: string; width: number; isSpace: boolean } | number> {
  const out: Array<{ unicode: string; width: number; isSpace: boolean } | number> = [];
  for (const ch of text) {
    out.push({ unicode: ch, width, isSpace: ch === ' ' });
    if (after !== undefined) out.push(after);
  }
  return out;
}

function list(ops: Array<[number, unknown[] | null]>): { fnArray: number[]; argsArray: unknown[] } {
  return { fnArray: ops.map((o) => o[0]), argsArray: ops.map((o) => o[1]) };
}

function texts(ops: Array<[number, unknown[] | null]>): string[] | null {
  const content = textFromOperators(list(ops), fonts, VIEW, same);
  return content ? content.items.map((i) => ('str' in i ? i.str : '')) : null;
}

describe('text runs from the operator list', () => {
  it('reads an embedded Dingbats font by the ZapfDingbats encoding (pdf.js gives its codes as MacRoman: "3" for a check mark)', () => {
    const dingbats: FontFacts = { ...FONT, name: 'YCQRWY+Dingbats' };
    const withDingbats = (id: string): FontFacts | null => (id === 'D' ? dingbats : fonts(id));
    const glyph = (unicode: string, code: number) => ({ unicode, width: 700, isSpace: false, originalCharCode: code });
    const content = textFromOperators(
      list([
        [BT, null],
        [TF, ['D', 10]],
        [TM, [[1, 0, 0, 1, 72, 700]]],
        [TJ, [[glyph('3', 0x33), -600, glyph('7', 0x37), -600, glyph('H', 0x48), -600, glyph('¨', 0xac)]]],
        // A PDF whose ToUnicode already says what the glyph is keeps it.
        [TM, [[1, 0, 0, 1, 72, 680]]],
        [TJ, [[glyph('✔', 0x34)]]],
        [TF, ['F1', 10]],
        [TM, [[1, 0, 0, 1, 72, 660]]],
        [TJ, [glyphs('37')]],
        [ET, null],
      ]),
      withDingbats,
      VIEW,
      same,
    )!;
    expect(content.items.map((i) => ('str' in i ? i.str : ''))).toEqual(['✓ ✗ ★ ①', '✔', '37']);
  });

  it('gives each character of a run where it starts: a written gap spans the gap, a ligature written out shares its glyph', () => {
    // "ﬁ" is one glyph that pdf.js's normalisation writes as "fi".
    const fi = { unicode: '\uFB01', width: 560, isSpace: false };
    const content = textFromOperators(
      list([
        [BT, null],
        [TF, ['F1', 10]],
        [TM, [[1, 0, 0, 1, 72, 700]]],
        [TJ, [[...glyphs('ab', 500), -300, fi, ...glyphs('x', 400)]]],
        [ET, null],
      ]),
      fonts,
      VIEW,
      (t) => t.replace(/\uFB01/g, 'fi'),
    )!;
    const item = content.items[0] as { str: string; glyphEdges?: () => number[] | null };
    expect(item.str).toBe('ab fix');
    // a 0-5, b 5-10, the gap 10-13, "fi" 13-18.6 shared, x to 22.6 (points from the run's origin).
    expect(item.glyphEdges!()!.map((e) => Math.round(e * 10) / 10)).toEqual([0, 5, 10, 13, 15.8, 18.6, 22.6]);
  });

  it('places runs by the text matrix and reads gaps as pdf.js does: a space past a tenth of the font size, a new run past 0.6', () => {
    const content = textFromOperators(
      list([
        [BT, null],
        [TF, ['F1', 10]],
        [TM, [[1, 0, 0, 1, 72, 700]]],
        [TJ, [[...glyphs('Hello'), -250, ...glyphs('world'), -50, ...glyphs('!')]]],
        [TJ, [[-2000, ...glyphs('far')]]],
        [ET, null],
      ]),
      fonts,
      VIEW,
      same,
    )!;
    expect(content.items.map((i) => ('str' in i ? i.str : ''))).toEqual(['Hello world!', 'far']);
    const [first, second] = content.items as Array<{ transform: number[]; width: number }>;
    expect(first!.transform).toEqual([10, 0, 0, 10, 72, 700]);
    // 11 glyphs of half an em, a quarter em and a twentieth of one: 5.8 em at 10 pt.
    expect(first!.width).toBeCloseTo(58, 5);
    expect(second!.transform[4]).toBeCloseTo(72 + 58 + 20, 5);
    expect(content.styles['F1']).toMatchObject({ ascent: 0.8, descent: -0.2, fontFamily: 'sans-serif' });
  });

  it('follows moves, save/restore and the CTM; a new line is a new run', () => {
    const content = textFromOperators(
      list([
        [SAVE, null],
        [CM, [2, 0, 0, 2, 10, 20]],
        [BT, null],
        [TF, ['F1', 5]],
        [TD, [30, 300]],
        [TJ, [glyphs('one')]],
        [TD, [0, -12]],
        [TJ, [glyphs('two')]],
        [ET, null],
        [RESTORE, null],
        [BT, null],
        [TF, ['F1', 10]],
        [TD, [100, 100]],
        [TJ, [glyphs('three')]],
        [ET, null],
      ]),
      fonts,
      VIEW,
      same,
    )!;
    const items = content.items as Array<{ str: string; transform: number[] }>;
    expect(items.map((i) => i.str)).toEqual(['one', 'two', 'three']);
    expect(items[0]!.transform).toEqual([10, 0, 0, 10, 70, 620]);
    expect(items[1]!.transform[5]).toBeCloseTo(596, 5);
    // After the restore the CTM is the identity again.
    expect(items[2]!.transform).toEqual([10, 0, 0, 10, 100, 100]);
  });

  it('does not split a code listing into tokens, nor letters set with a wide character spacing taken back after each glyph', () => {
    // Every character in a cell 0.09 em wider than its glyph, tokens 0.13 apart, a real space 0.77.
    const listing = [
      ...glyphs('cv2', 525, -90),
      -41,
      ...glyphs('.', 525, -131),
      ...glyphs('imread(', 525, -90),
      -680,
      ...glyphs('x', 525),
    ];
    expect(
      texts([
        [BT, null],
        [TF, ['F1', 10]],
        [TJ, [listing]],
        [ET, null],
      ]),
    ).toEqual(['cv2.imread(', 'x']);
    // Tc 0.3378 em with 337/1000 taken back after each letter: letters touch, the word gap stays.
    const taken = [...glyphs('Melissa', 500, 337), -335, ...glyphs('Dell', 500, 337)];
    expect(
      texts([
        [BT, null],
        [TF, ['F1', 1]],
        [TC, [0.3378]],
        [TJ, [taken]],
        [ET, null],
      ]),
    ).toEqual(['Melissa Dell']);
    // Plain letter spacing (a heading): letters apart by 0.3 em stay one word; the space glyph and its
    // spacing (1.1 em) end the run, as a gap that wide does in pdf.js, and the layout reads a space there.
    expect(
      texts([
        [BT, null],
        [TF, ['F1', 10]],
        [TC, [3]],
        [TJ, [glyphs('TITLE WORDS')]],
        [ET, null],
      ]),
    ).toEqual(['TITLE', 'WORDS']);
  });

  it('ends runs at marked-content boundaries and leaves out glyphs outside the page', () => {
    expect(
      texts([
        [BT, null],
        [TF, ['F1', 10]],
        [TM, [[1, 0, 0, 1, 72, 700]]],
        [BDC, ['Span', null]],
        [TJ, [glyphs('tagged')]],
        [EMC, null],
        [TJ, [glyphs('next')]],
        [TM, [[1, 0, 0, 1, 900, 700]]],
        [TJ, [glyphs('offpage')]],
        [ET, null],
      ]),
    ).toEqual(['tagged', 'next']);
  });

  it('answers null where pdf.js text content must be asked: vertical or Type3 fonts, right-to-left text, an unknown font', () => {
    const show = (font: string, text: string) =>
      texts([
        [BT, null],
        [TF, [font, 10]],
        [TJ, [glyphs(text)]],
        [ET, null],
      ]);
    expect(show('F1', 'plain')).toEqual(['plain']);
    expect(show('V', 'vertical')).toBeNull();
    expect(show('T3', 'type3')).toBeNull();
    expect(show('F1', 'שלום')).toBeNull();
    expect(show('missing', 'x')).toBeNull();
    // Mirrored by a negative horizontal scaling.
    expect(
      texts([
        [BT, null],
        [TF, ['F1', 10]],
        [35, [-100]],
        [TJ, [glyphs('mirror')]],
        [ET, null],
      ]),
    ).toBeNull();
    // Text before any font was set: not something pdf.js sends, so not something to guess at.
    expect(
      texts([
        [BT, null],
        [TJ, [glyphs('x')]],
        [ET, null],
      ]),
    ).toBeNull();
    // A font set through an ExtGState is followed.
    expect(
      texts([
        [GS, [[['Font', ['F1', 10]]]]],
        [BT, null],
        [TJ, [glyphs('gs font')]],
        [ET, null],
      ]),
    ).toEqual(['gs font']);
  });
});

describe("operator-list text against pdf.js text content on the project's PDFs", () => {
  const dir = path.join(REPO_ROOT, 'fixtures', 'pdf');
  const files = readdirSync(dir).filter((f) => f.endsWith('.pdf'));
  it.each(files)('%s: the same text on every page', async (file) => {
    const opened = await openPdf(readFileSync(path.join(dir, file)));
    try {
      for (let n = 1; n <= opened.doc.numPages; n++) {
        const page = (await opened.doc.getPage(n)) as PdfPage;
        // The page is one the operator list carries (no fallback to text content hides a difference).
        const ops = await page.getOperatorList({ annotationMode: 0 });
        expect(
          textFromOperators(ops, (id) => page.commonObjs.get(id) as FontFacts, page.view ?? [], same),
        ).not.toBeNull();
        const fromOps = await extractPage(page, n);
        const fromContent = await extractPage(page, n, { textContent: true });
        // Word for word, in the same places (runs may be cut differently: compare the words).
        const words = (items: typeof fromOps.items) => items.flatMap((i) => i.text.split(/\s+/).filter(Boolean));
        expect(words(fromOps.items)).toEqual(words(fromContent.items));
        // Runs turned at a right angle too (heads over a sheet's columns).
        expect(words(fromOps.turned ?? [])).toEqual(words(fromContent.turned ?? []));
        expect(fromOps.lines).toEqual(fromContent.lines);
        page.cleanup();
      }
    } finally {
      await opened.destroy();
    }
  });
});

if (!corpusAvailable) console.warn(CORPUS_SKIP_MESSAGE);
describe.skipIf(!corpusAvailable)('operator-list text against pdf.js text content on the corpus PDFs', () => {
  // Every character drawn, in the same order: only the spaces between runs may be read differently.
  const pdfs = ['markitdown', 'unstructured', 'officeparser'].flatMap((folder) =>
    corpusFiles(folder, ['.pdf']).map((f) => `${folder}/${f}`),
  );
  it.each(pdfs)('%s: the same characters on its first pages', async (rel) => {
    let opened;
    try {
      opened = await openPdf(readCorpus(rel));
    } catch {
      return; // password-protected: nothing to compare
    }
    try {
      for (let n = 1; n <= Math.min(opened.doc.numPages, 10); n++) {
        const page = (await opened.doc.getPage(n)) as PdfPage;
        const chars = (items: Array<{ text: string }>) =>
          items
            .map((i) => i.text)
            .join('')
            .replace(/\s+/g, '');
        // Except the glyphs of embedded Dingbats fonts, which pdf.js's text content gives as their
        // codes (MacRoman: "3" for ✓) and the operator list path reads as the symbols.
        const fromOps = [...chars((await extractPage(page, n)).items)];
        const fromContent = [...chars((await extractPage(page, n, { textContent: true })).items)];
        const asContent = fromOps.map((ch, i) =>
          ch !== fromContent[i] && dingbatChar(fromContent[i]?.charCodeAt(0) ?? 0) === ch ? fromContent[i] : ch,
        );
        expect(asContent.join('')).toBe(fromContent.join(''));
        page.cleanup();
      }
    } finally {
      await opened.destroy();
    }
  });
});

describe('operator-list text against pdf.js text content on content streams that use the whole text state', () => {
  // Each stream is one page in Helvetica (F1) and Times (F2), with a form XObject (X1) that shows text.
  const streams: Record<string, string> = {
    'kerning, word and character spacing':
      'BT /F1 11 Tf 72 700 Td [(W) 80 (orld) -250 (wide) -3000 (apart)] TJ 0 -14 Td 2 Tw (two words) Tj 0 -14 Td 0.4 Tc (spaced letters) Tj 0 Tc 0 Tw ET',
    'leading, quote operators and rise':
      'BT /F2 10 Tf 14 TL 72 650 Td (first line) Tj T* (second line) Tj (third line) \' 1 0.5 (fourth line) " 0 -14 Td (x) Tj 4 Ts (2) Tj 0 Ts 0 -14 Td (rest) Tj ET',
    'horizontal scaling and a scaled, rotated text matrix':
      'BT /F1 12 Tf 60 Tz 72 560 Td (narrow text here) Tj 100 Tz 2 0 0 2 72 520 Tm (double) Tj 0 1 -1 0 500 300 Tm (sideways) Tj ET',
    'save/restore, CTM and a form XObject':
      'q 0.5 0 0 0.5 36 200 cm BT /F1 20 Tf 72 400 Td (half size) Tj ET Q BT /F2 12 Tf 72 420 Td (after restore) Tj ET q 1 0 0 1 0 -100 cm /X1 Do Q',
    'text outside the page and marked content':
      'BT /F1 12 Tf 700 700 Td (off the page) Tj -628 -40 Td /Span <</MCID 0>> BDC (tagged) Tj EMC ( untagged) Tj ET',
  };
  const form = stream(
    '/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 6 0 R >> >>',
    'BT /F1 12 Tf 72 300 Td (inside the form) Tj ET',
  );
  const pdf = (content: string) =>
    buildPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 6 0 R /F2 7 0 R >> /XObject << /X1 5 0 R >> >> /Contents 4 0 R >>',
      stream('', content),
      form,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>',
    ]);
  it.each(Object.keys(streams))('%s', async (name) => {
    const opened = await openPdf(pdf(streams[name]!));
    try {
      const page = (await opened.doc.getPage(1)) as PdfPage;
      const ops = await page.getOperatorList({ annotationMode: 0 });
      expect(
        textFromOperators(ops, (id) => page.commonObjs.get(id) as FontFacts, page.view ?? [], same),
      ).not.toBeNull();
      const a = await extractPage(page, 1);
      const b = await extractPage(page, 1, { textContent: true });
      // The same runs, each where pdf.js places it (to a twentieth of a point) and about as wide: pdf.js
      // counts into a run's width the gap to a glyph that then starts a new run on another baseline.
      const key = (i: (typeof a.items)[number]) =>
        `${i.text.replace(/\s+/g, ' ').trim()} @ ${[i.x0, i.y0, i.y1].map((v) => (Math.round(v * 20) / 20).toFixed(2)).join(',')} ${i.fontSize}`;
      const sorted = (items: typeof a.items) =>
        [...items].sort((p, q) => (key(p) < key(q) ? -1 : key(p) > key(q) ? 1 : 0));
      const [ra, rb] = [sorted(a.items), sorted(b.items)];
      expect(ra.map(key)).toEqual(rb.map(key));
      ra.forEach((r, k) => expect(Math.abs(r.x1 - rb[k]!.x1)).toBeLessThan(1));
    } finally {
      await opened.destroy();
    }
  });
});
