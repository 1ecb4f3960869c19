/**
 * Links from PDF link annotations and strikethrough from drawn lines: the extractor's reading of
 * annotations (no pdf.js document needed), then the project's fixture end to end, read from its text
 * layer and by OCR, and two corpus documents. (The layout's part, on synthetic pages, is in
 * pdf-layout.test.ts.) The end-to-end tests need `npm run build` first: the pools load their workers
 * from dist/workers.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createParser } from '../src/parser.js';
import { extractPage, type PdfPage } from '../src/pdf/extract.js';
import { linkAnnotations, linkAreas, linkUrl, MAX_LINK_AREAS, readAnnotations } from '../src/pdf/links.js';
import { PdfObjects } from '../src/pdf/pdf-objects.js';
import { buildPdf } from '../test-support/hostile/pdf.js';
import type { Matrix } from '../src/pdf/matrix.js';
import type { ParseDocument } from '../src/types.js';
import { corpusAvailable, readCorpus, REPO_ROOT } from '../test-support/corpus.js';

const parser = createParser();
afterAll(() => parser.close());

/** pdf.js's viewport of an unrotated US Letter page at scale 1: y flipped to grow downwards. */
const LETTER: Matrix = [1, 0, 0, -1, 0, 792];

describe('link annotations read by the extractor', () => {
  it('takes web, mail and ftp addresses only', () => {
    const link = (url: unknown) => ({ subtype: 'Link', url, rect: [72, 700, 172, 712] });
    expect(linkUrl(link('https://example.org/a'))).toBe('https://example.org/a');
    expect(linkUrl(link('mailto:someone@example.org'))).toBe('mailto:someone@example.org');
    expect(linkUrl(link('ftp://files.example.org/x'))).toBe('ftp://files.example.org/x');
    for (const bad of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,x', 'not a url', 42, undefined])
      expect(linkUrl(link(bad))).toBeNull();
    // Internal destinations and other annotations.
    expect(
      linkUrl({ subtype: 'Link', dest: [{ num: 1, gen: 0 }, { name: 'XYZ' }, 72, 720, 0], rect: [0, 0, 10, 10] }),
    ).toBeNull();
    expect(linkUrl({ subtype: 'Text', url: 'https://example.org', rect: [0, 0, 10, 10] })).toBeNull();
  });

  it('places link rectangles in the upright view, one box per quadrilateral where there are some', () => {
    const areas = linkAreas(
      [
        { subtype: 'Link', url: 'https://example.org/a', rect: [72, 700, 172, 712] },
        // Over the end of one line and the start of the next: two quadrilaterals, one rectangle round both.
        {
          subtype: 'Link',
          url: 'https://example.org/b',
          rect: [72, 660, 540, 688],
          quadPoints: new Float32Array([400, 688, 540, 688, 400, 676, 540, 676, 72, 672, 130, 672, 72, 660, 130, 660]),
        },
      ],
      LETTER,
      612,
      792,
    );
    expect(areas).toEqual([
      { x0: 72, y0: 80, x1: 172, y1: 92, url: 'https://example.org/a' },
      { x0: 400, y0: 104, x1: 540, y1: 116, url: 'https://example.org/b' },
      { x0: 72, y0: 120, x1: 130, y1: 132, url: 'https://example.org/b' },
    ]);
    // A page turned a quarter (/Rotate 90): pdf.js's viewport for it maps user space (x, y) to (y, x).
    const [turned] = linkAreas(
      [{ subtype: 'Link', url: 'https://example.org/c', rect: [100, 200, 112, 300] }],
      [0, 1, 1, 0, 0, 0],
      792,
      612,
    );
    expect(turned).toEqual({ x0: 200, y0: 100, x1: 300, y1: 112, url: 'https://example.org/c' });
  });

  it('never fails on malformed annotations, and leaves out a link as large as the page', () => {
    const throwing = { subtype: 'Link', rect: [72, 700, 172, 712] };
    Object.defineProperty(throwing, 'url', {
      get() {
        throw new Error('broken');
      },
    });
    const good = { subtype: 'Link', url: 'https://example.org/ok', rect: [72, 700, 172, 712] };
    const areas = linkAreas(
      [
        null,
        42,
        'Link',
        [],
        throwing,
        { subtype: 'Link', url: 'https://example.org/x' },
        { subtype: 'Link', url: 'https://example.org/x', rect: ['a', 'b', 'c', 'd'] },
        { subtype: 'Link', url: 'https://example.org/x', rect: [NaN, 0, 10, 10] },
        { subtype: 'Link', url: 'https://example.org/x', rect: [0, 0, Infinity, 10] },
        { subtype: 'Link', url: 'https://example.org/x', rect: [0, 0, 612, 792] },
        { ...good, quadPoints: new Float32Array(7) },
        { ...good, quadPoints: [{ x: 1, y: 2 }] },
      ],
      LETTER,
      612,
      792,
    );
    expect(areas).toEqual([
      { x0: 72, y0: 80, x1: 172, y1: 92, url: 'https://example.org/ok' },
      { x0: 72, y0: 80, x1: 172, y1: 92, url: 'https://example.org/ok' },
    ]);
  });

  it('keeps at most a bounded number of link areas on a page', () => {
    const many = Array.from({ length: 5000 }, (_, k) => ({
      subtype: 'Link',
      url: `https://example.org/${k}`,
      rect: [10 + (k % 50) * 10, 10 + Math.floor(k / 50) * 7, 18 + (k % 50) * 10, 16 + Math.floor(k / 50) * 7],
    }));
    const areas = linkAreas(many, LETTER, 612, 792);
    expect(areas).toHaveLength(MAX_LINK_AREAS);
    expect(areas[0]!.url).toBe('https://example.org/0');
  });

  it('reads a page whose annotations cannot be read, without its links', async () => {
    const fake = (getAnnotations: () => Promise<unknown[]>): PdfPage => ({
      rotate: 0,
      view: [0, 0, 612, 792],
      getViewport: () => ({ width: 612, height: 792, transform: LETTER }),
      getTextContent: async () => ({
        items: [
          {
            str: 'See the download page.',
            dir: 'ltr',
            transform: [10, 0, 0, 10, 72, 700],
            width: 100,
            height: 10,
            fontName: 'F1',
          },
        ],
        styles: { F1: { fontFamily: 'sans-serif', ascent: 0.8, descent: -0.2 } },
      }),
      getOperatorList: async () => ({ fnArray: [], argsArray: [] }),
      getAnnotations,
      commonObjs: { get: () => null },
      cleanup: () => undefined,
    });
    // Text from pdf.js's text content: the fake page's operator list is empty.
    const broken = await extractPage(
      fake(() => {
        throw new Error('damaged /Annots');
      }),
      1,
      { textContent: true },
    );
    expect(broken.items.map((i) => i.text)).toEqual(['See the download page.']);
    expect(broken.links).toBeUndefined();
    const rejected = await extractPage(
      fake(() => Promise.reject(new Error('damaged /Annots'))),
      1,
      { textContent: true },
    );
    expect(rejected.items).toHaveLength(1);
    const linked = await extractPage(
      fake(async () => [{ subtype: 'Link', url: 'https://example.org/download', rect: [110, 698, 170, 710] }]),
      1,
      { textContent: true },
    );
    expect(linked.links).toEqual([{ x0: 110, y0: 82, x1: 170, y1: 94, url: 'https://example.org/download' }]);
  });
});

/** A one-page PDF whose page (object 3) lists `annots` (objects from 4 on); `trailer` adds to its trailer. */
function annotated(annots: string[], trailer = ''): Uint8Array {
  return buildPdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ${annots.length ? `/Annots [${annots.map((_, k) => `${k + 4} 0 R`).join(' ')}]` : ''} >>`,
      ...annots,
    ],
    trailer ? { trailer: `/Root 1 0 R ${trailer}` } : {},
  );
}
const PAGE = { num: 3, gen: 0 };
const link = (action: string, extra = '') =>
  `<< /Type /Annot /Subtype /Link /Rect [72 700 172 712] ${extra} /A ${action} >>`;

describe('link annotations read from the page dictionary', () => {
  it('reads addresses as pdf.js makes them, and passes over internal links, other annotations and hidden links', () => {
    const bytes = annotated([
      link('<< /S /URI /URI (https://example.org/a) >>'),
      link('<< /S /URI /URI (www.example.org/b) >>', '/QuadPoints [72 712 172 712 72 700 172 700]'),
      link('<< /S /URI /URI (https://example.org/hidden) >>', '/F 2'),
      link('<< /S /GoTo /D [3 0 R /XYZ 0 792 0] >>'),
      '<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /Dest [3 0 R /Fit] >>',
      '<< /Type /Annot /Subtype /Text /Rect [0 0 10 10] /Contents (note) >>',
    ]);
    expect(linkAnnotations(new PdfObjects(bytes), PAGE)).toEqual([
      { subtype: 'Link', url: 'https://example.org/a', rect: [72, 700, 172, 712], quadPoints: undefined },
      {
        subtype: 'Link',
        url: 'http://www.example.org/b',
        rect: [72, 700, 172, 712],
        quadPoints: [72, 712, 172, 712, 72, 700, 172, 700],
      },
    ]);
    expect(linkAnnotations(new PdfObjects(annotated([])), PAGE)).toEqual([]);
    expect(linkAnnotations(new PdfObjects(annotated([link('<< /S /GoTo /D [3 0 R /Fit] >>')])), PAGE)).toEqual([]);
    // A file that names no action that could give an address is not looked into at all.
    expect(
      linkAnnotations(new PdfObjects(annotated([link('<< /S /GoTo /D [3 0 R /Fit] >>')])), { num: 40, gen: 0 }),
    ).toEqual([]);
  });

  it('leaves to pdf.js what only it reads right: encrypted strings, other actions that may name an address, relative or escaped addresses', () => {
    const uri = link('<< /S /URI /URI (https://example.org/a) >>');
    expect(linkAnnotations(new PdfObjects(annotated([uri], '/Encrypt << /Filter /Standard >>')), PAGE)).toBeNull();
    for (const action of [
      '<< /S /JavaScript /JS (app.launchURL\\("https://example.org"\\)) >>',
      '<< /S /GoToR /F (https://example.org/doc.pdf) /D [0 /Fit] >>',
      '<< /S /Launch /F (setup.exe) >>',
      '<< /S /URI /URI (docs/a.html) >>',
      '<< /S /URI /URI (https://example.org/a\\(1\\)) >>',
    ]) {
      expect(linkAnnotations(new PdfObjects(annotated([uri, link(action)])), PAGE)).toBeNull();
    }
    expect(linkAnnotations(new PdfObjects(annotated([uri])), { num: 40, gen: 0 })).toBeNull();
  });

  it('asks pdf.js only for the pages it cannot read itself', async () => {
    let asked = 0;
    const page = {
      ref: PAGE,
      getAnnotations: async () => {
        asked++;
        return [{ subtype: 'Link', url: 'https://example.org/js', rect: [0, 0, 10, 10] }];
      },
    };
    const internal = new PdfObjects(annotated([link('<< /S /GoTo /D [3 0 R /Fit] >>')]));
    expect(await readAnnotations(page, internal)).toEqual([]);
    expect(asked).toBe(0);
    const script = new PdfObjects(
      annotated([link('<< /S /JavaScript /JS (app.launchURL\\("https://example.org/js"\\)) >>')]),
    );
    expect(await readAnnotations(page, script)).toHaveLength(1);
    expect(asked).toBe(1);
  });
});

/** Every block's span points at its content in the document markdown. */
function spansHold(doc: ParseDocument): void {
  const md = doc.markdown ?? '';
  const items = doc.blocks!.flatMap((p) => p.items).filter((i) => i.markdownSpan);
  expect(items.length).toBeGreaterThan(0);
  for (const item of items) expect(md.slice(...item.markdownSpan!)).toBe(item.content);
}

const OPTIONS = {
  formats: ['markdown' as const, 'links' as const, 'html' as const],
  parsers: [{ type: 'pdf' as const, mode: 'fast' as const, blocks: true }],
};

describe('links and strikethrough end to end', () => {
  it('the fixture: URL, mail and two-line links, no internal or script links, struck and underlined words, a turned page', async () => {
    const doc = await parser.parseFile(readFileSync(path.join(REPO_ROOT, 'fixtures', 'pdf', 'links.pdf')), OPTIONS, {
      filename: 'links.pdf',
    });
    const md = doc.markdown!;
    expect(md).toContain('on the [download page](https://example.org/download) of the project');
    expect(md).toContain(
      'Read the [installation guide for your system](https://example.org/install) before you start.',
    );
    expect(md).toContain('See the appendix on page 2 for the full list of changes.');
    expect(md).toContain('Click here to run the setup check');
    expect(md).toContain('Source code: <https://example.org/code>');
    expect(md).toContain('Questions go to <support@example.org> or to the forum.');
    expect(md).toContain('moves from ~~Tuesday~~ to Thursday, and the price from ~~$40~~ to $35.');
    expect(md).toContain('Please read the terms of use before you install.');
    expect(md).toContain('| Team | 5 | ~~$40~~ $35 |');
    expect(md).toContain('listed in the [changelog](https://example.org/changelog) kept with the code.');
    expect(md).not.toContain('javascript');
    expect(doc.links).toEqual([
      'https://example.org/download',
      'https://example.org/install',
      'https://example.org/code',
      'mailto:support@example.org',
      'https://example.org/changelog',
    ]);
    expect(doc.html).toContain('<a href="https://example.org/download">download page</a>');
    expect(doc.html).toContain('<del>Tuesday</del>');
    spansHold(doc);
  });

  it.skipIf(!corpusAvailable)('corpus: the calibre demonstration document and the GAO report', async () => {
    const calibre = await parser.parseFile(readCorpus('officeparser', 'test.pdf'), OPTIONS, { filename: 'test.pdf' });
    expect(calibre.markdown).toContain(
      'here is a link pointing to the [calibre download page](http://calibre-ebook.com/download). Then we have a link that points back to the section on paragraph level formatting',
    );
    expect(calibre.markdown).toContain('underlined and ~~struck out~~ text.');
    expect(calibre.markdown!.match(/~~/g)).toHaveLength(2);
    expect(calibre.links).toEqual(['http://calibre-ebook.com/download']);
    spansHold(calibre);
    const gao = await parser.parseFile(
      readCorpus('unstructured', 'invalid-pdf-structure-pdfminer-one-page.pdf'),
      OPTIONS,
      { filename: 'gao.pdf' },
    );
    expect(gao.markdown).toContain('[GAO-20-629](https://www.gao.gov/products/GAO-20-629) (Washington');
    expect(gao.markdown).toContain('details at <https://www.gao.gov/copyright>.');
    expect(gao.markdown).toContain('[Chuck Young](mailto:YoungC1@gao.gov), Managing Director');
    expect(gao.links).toHaveLength(7);
    spansHold(gao);
  });

  it('pages read by OCR keep their links, on a page turned by /Rotate too', async () => {
    const doc = await parser.parseFile(
      readFileSync(path.join(REPO_ROOT, 'fixtures', 'pdf', 'links.pdf')),
      { timeout: 240_000, parsers: [{ type: 'pdf', mode: 'ocr' }] },
      { filename: 'links.pdf' },
    );
    const md = doc.markdown!;
    expect(md).toContain('[download page](https://example.org/download)');
    expect(md).toContain('[installation guide for your system](https://example.org/install)');
    expect(md).toContain('[changelog](https://example.org/changelog)');
    expect(md).not.toContain('javascript');
  }, 300_000);
});
