/**
 * OCR on the corpus' scanned PDFs (skipped, saying why, without ../shared/corpus): auto mode must
 * recognise image-only pages and recover a table from them, and keep a scan's usable text layer.
 */
import { describe, expect, it, afterAll } from 'vitest';
import { corpusAvailable, readCorpus, CORPUS_SKIP_MESSAGE } from '../test-support/corpus.js';
import { createParser } from '../src/parser.js';
import sharp from 'sharp';
import { openForRender, renderPage } from '../src/ocr/render.js';
import { scanPdf } from '../test-support/scans.js';

describe.skipIf(!corpusAvailable)(`OCR on corpus scans${corpusAvailable ? '' : ` (${CORPUS_SKIP_MESSAGE})`}`, () => {
  const parser = createParser({ ocrThreads: 2 });
  afterAll(() => parser.close());

  it('auto recognises an image-only medical report, vital signs table included', async () => {
    const doc = await parser.parseFile(readCorpus('markitdown', 'MEDRPT-2024-PAT-3847_medical_report_scan.pdf'), {
      // OCR of three pages on a shared machine: well past the 30 s default when the cores are busy.
      timeout: 100000,
      parsers: [{ type: 'pdf', mode: 'auto', blocks: true }],
    });
    expect(doc.blocks!.map((p) => p.status)).toEqual(['ok', 'ok', 'ok']);
    for (const p of doc.blocks!) {
      expect(p.items.length).toBeGreaterThan(5);
      for (const b of p.items) {
        expect(b.source).toBe('layout_ocr');
        expect(b.confidence.ocr).not.toBeNull();
      }
    }
    const md = doc.markdown ?? '';
    expect(md).toContain('COMPREHENSIVE MEDICAL REPORT');
    expect(md).toMatch(/\| Blood Pressure \| 142\/88 mmHg \| 120\/80 mmHg \| ELEVATED \|/);
    expect(md).toMatch(/\| Oxygen Saturation \| 97% \| 95-100% \| NORMAL \|/);
    expect(md).toContain('Lisinopril 10mg');
    // The scan is letter size at 200 dpi placed on a smaller page that declares 300: at 300, tesseract's
    // rule finder cut words out of lines of its small type ("A jated symp' include ional dizziness",
    // "Neck: Supple, no ly"); read again at a resolution fitted to the type (src/ocr/type-scale.ts).
    expect(md).toContain('Associated symptoms include occasional dizziness');
    expect(md).toContain('Neck: Supple, no lymphadenopathy, no thyromegaly');
    expect(md).toContain('Refer to Neurology for headache evaluation if symptoms persist');
  });

  it('auto recognises again a scan whose old OCR layer is poor', async () => {
    const doc = await parser.parseFile(readCorpus('unstructured', 'pdf-with-ocr-text.pdf'), {
      timeout: 100000,
      parsers: [{ type: 'pdf', mode: 'auto', blocks: true }],
    });
    for (const b of doc.blocks![0]!.items) expect(b.source).toBe('layout_ocr');
    // The old layer reads "t h e i r cheek"; recognition reads whole words. (The shipped fast model reads the
    // faint "Hawaiian" as "Hawadian"; the tesseract CLI with the same model misreads other words there.)
    expect(doc.markdown).not.toContain('t h e i r');
    expect(doc.markdown).toMatch(/California and Haw\w+ Sugar Refining Corporation/);
    expect(doc.markdown).toMatch(/The National Sugar Refining Company/);
  });

  it('auto keeps the text layer of a scan whose OCR layer is good', async () => {
    const doc = await parser.parseFile(readCorpus('unstructured', 'a1977-backus-p21.pdf'), {
      parsers: [{ type: 'pdf', mode: 'auto', blocks: true }],
    });
    for (const b of doc.blocks![0]!.items) expect(b.source).toBe('native_text');
  });

  it('reads a two-column paper page scanned from the corpus column by column, its margin stamp left out', async () => {
    // The first page of the DPR paper, rendered at 200 dpi and made a grey JPEG scan here: its arXiv
    // stamp runs up the left margin, and its "1 Introduction" has the number set apart from the title.
    const pdf = await openForRender(new Uint8Array(readCorpus('unstructured', 'multi-column.pdf')));
    const page = await renderPage(pdf, 1, { dpi: 200, maxPixels: 40e6 });
    await pdf.loadingTask.destroy();
    const grey = await sharp(page.rgba, { raw: { width: page.width, height: page.height, channels: 4 } })
      .removeAlpha()
      .grayscale()
      .blur(0.6)
      .toColourspace('b-w')
      .raw()
      .toBuffer();
    const scan = await scanPdf({ data: grey, width: page.width, height: page.height }, 200, 70);
    const doc = await parser.parseFile(scan, { timeout: 100000, parsers: [{ type: 'pdf', mode: 'ocr' }] });
    const md = doc.markdown ?? '';
    expect(md).not.toMatch(/arXiv:2004|\[cs\.CL\]/);
    expect(md).toMatch(/^#+ 1 Introduction$/m);
    // Left column (abstract, introduction, footnotes) before the right column.
    const at = (s: string) => md.indexOf(s);
    expect(at('Open-domain question answering relies')).toBeGreaterThan(-1);
    expect(at('Open-domain question answering relies')).toBeLessThan(at('1 Introduction'));
    expect(at('1 Introduction')).toBeLessThan(at('Retrieval in open-domain QA'));
    expect(at('Retrieval in open-domain QA')).toBeLessThan(at('However, it is generally believed'));
  });
});
