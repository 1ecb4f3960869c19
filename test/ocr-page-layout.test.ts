/**
 * Recognised pages laid out, built here word by word. Bullets and check boxes misread by recognition
 * (src/ocr/bullets.ts): a list whose markers came out as "=", "0", "C", "7" is a list again, and lines
 * that really open with a letter, a numeral or a lone sign are left as they were read. Headings: a
 * line recognised with low confidence is not made one, however large. Words: the pronoun "I" read as a
 * stroke is given back.
 */
import { describe, expect, it } from 'vitest';
import { bulletLines } from '../src/ocr/bullets.js';
import { layoutOcrPage } from '../src/ocr/layout.js';
import { finishDocument } from '../src/layout/document.js';
import { serialize } from '../src/markdown/serialize.js';
import { compactTesseractPage, type OcrLine, type OcrPage, type OcrWord } from '../src/ocr/page.js';
import { parseHocr } from '../src/ocr/hocr.js';

const ROW = 30; // row height in pixels (about 10 pt at 200 dpi)

/** One recognised line at (x, y): words separated by a space of 10 px, `gap` after the first. */
function line(words: string[], x: number, y: number, gap = 14, row = ROW, confidence = 0.9): OcrLine {
  const out: OcrWord[] = [];
  let at = x;
  words.forEach((t, k) => {
    const w = t.length * 12 * (row / ROW);
    out.push({ text: t, bbox: { x0: at, y0: y, x1: at + w, y1: y + row }, confidence });
    at += w + (k === 0 ? gap : 10);
  });
  return {
    words: out,
    bbox: { x0: x, y0: y, x1: at, y1: y + row },
    confidence,
    rowHeight: row,
    xHeight: (14 * row) / ROW,
    baseline: { x0: x, y0: y + (24 * row) / ROW, x1: at, y1: y + (24 * row) / ROW },
  };
}

function pageOf(lines: OcrLine[]): OcrPage {
  const bbox = { x0: 0, y0: 0, x1: 1700, y1: 2200 };
  return {
    pageNumber: 1,
    width: 612,
    height: 792,
    rotation: 0,
    scale: 200 / 72,
    skew: 0,
    confidence: 0.9,
    blocks: [{ bbox, confidence: 0.9, paragraphs: lines.map((l) => ({ lines: [l], bbox: l.bbox, confidence: 0.9 })) }],
  };
}

function markdown(page: OcrPage): string {
  return serialize(
    { contentType: 'application/pdf', pages: finishDocument([layoutOcrPage(page)]), metadata: {}, warnings: [] },
    { onlyMainContent: true },
  ).markdown;
}

const ITEMS = [
  'Discussed medication changes',
  'Reviewed warning signs',
  'Provided written instructions',
  'Dietary counseling for diet',
  'Stress reduction techniques',
];

describe('misread bullets', () => {
  it('turns a column of check boxes read as "=", "0", "C", "7", "0" back into a list', () => {
    const marks = ['=', '0', 'C', '7', '0'];
    const page = pageOf(marks.map((m, k) => line([m, ...ITEMS[k]!.split(' ')], 150, 400 + k * 45)));
    expect(bulletLines(page).size).toBe(5);
    const md = markdown(page);
    for (const item of ITEMS) expect(md).toContain(`- ${item}`);
    // The recognised words themselves are kept as read.
    expect(page.blocks[0]!.paragraphs[0]!.lines[0]!.words[0]!.text).toBe('=');
  });

  it('finds the items of a list whose items run on over several lines', () => {
    // Three items of three lines each, the wrapped lines hanging at the text's indent (the scanned
    // GAO report's "¢ Goals, subordinate objectives, ..."), then a paragraph set flush left.
    const marks = ['¢', '«', '¢'];
    const lines: OcrLine[] = [];
    let y = 400;
    marks.forEach((m, k) => {
      // Wrapped lines fill the column as the first does; the last ends short.
      lines.push(line([m, ...`${ITEMS[k]} and the first line runs on to the column's edge`.split(' ')], 150, y));
      lines.push(line(`goes on over a second line of text as wide L${k} as the first`.split(' '), 176, y + 36));
      lines.push(line(['and', 'ends', 'on', 'a', 'third', `T${k}`], 176, y + 72));
      y += 120;
    });
    lines.push(line(['A', 'paragraph', 'after', 'the', 'list', 'closes', 'it'], 150, y));
    const page = pageOf(lines);
    expect(bulletLines(page).size).toBe(3);
    const md = markdown(page);
    for (let k = 0; k < 3; k++) expect(md).toMatch(new RegExp(`^- ${ITEMS[k]}.*\\n?.*L${k}.*T${k}`, 'm'));
    expect(md).toMatch(/^A paragraph after the list closes it$/m);
  });

  it('finds the items of a nested list, each level indented past the item above', () => {
    // A slide's bullets read as "@" and "©": two outer items with two inner ones and an innermost one between.
    const page = pageOf([
      line(['@', ...ITEMS[0]!.split(' ')], 150, 400),
      line(['©', ...ITEMS[1]!.split(' ')], 220, 445),
      line(['©', ...ITEMS[2]!.split(' ')], 220, 490),
      line(['@', ...ITEMS[3]!.split(' ')], 290, 535),
      line(['@', ...ITEMS[4]!.split(' ')], 150, 580),
    ]);
    expect(bulletLines(page).size).toBe(5);
    const md = markdown(page);
    expect(md).toMatch(
      new RegExp(`^- ${ITEMS[0]}\\n +- ${ITEMS[1]}\\n +- ${ITEMS[2]}\\n +- ${ITEMS[3]}\\n- ${ITEMS[4]}$`, 'm'),
    );
  });

  it('takes two lines for a list when both open with the same round bullet a tab away from the text', () => {
    const pair = (gap: number, marks = ['e', 'e']) =>
      pageOf(marks.map((m, k) => line([m, ...ITEMS[k]!.split(' ')], 150, 400 + k * 45, gap)));
    expect(bulletLines(pair(24)).size).toBe(2);
    expect(markdown(pair(24))).toMatch(new RegExp(`^- ${ITEMS[0]}\n- ${ITEMS[1]}$`, 'm'));
    // A word space, or two different marks, make no list of two.
    expect(bulletLines(pair(8)).size).toBe(0);
    expect(bulletLines(pair(24, ['e', 'o'])).size).toBe(0);
  });

  it('leaves lines that open with a word, a numeral or a lone sign as they were', () => {
    const cases: string[][][] = [
      // Sentences opening with "A" and "I".
      [
        ['A', 'new', 'approach'],
        ['I', 'think', 'so'],
        ['A', 'second', 'line'],
      ],
      // A numbered list: numerals that are the text.
      [
        ['1', 'Apple', 'pie'],
        ['2', 'Banana', 'bread'],
        ['3', 'Cherry', 'tart'],
      ],
      // Letters only, each different: could be the text's own.
      [
        ['o', 'Lorem', 'ipsum'],
        ['e', 'Dolor', 'sit'],
        ['C', 'Amet', 'elit'],
      ],
      // Only two such lines.
      [
        ['=', 'Total', 'due'],
        ['=', 'Balance', 'left'],
      ],
      // A chain of formulas.
      [
        ['=', 'p(apply:<<f,x>,<g,x>>)'],
        ['=', 'u(<MLAST>:<B>)'],
        ['=', 'p(1o2:<<MLAST>,<B>>)'],
      ],
    ];
    for (const lines of cases) {
      const page = pageOf(lines.map((w, k) => line(w, 150, 400 + k * 45)));
      expect(bulletLines(page).size, lines.map((w) => w[0]).join(' ')).toBe(0);
    }
    // A marker set tight against its word is part of it ("=Total").
    const tight = pageOf(['=', '=', '='].map((m, k) => line([m, ...ITEMS[k]!.split(' ')], 150, 400 + k * 45, 2)));
    expect(bulletLines(tight).size).toBe(0);
    // Lines far apart or out of line with each other are no list.
    const scattered = pageOf(
      ['=', '=', '='].map((m, k) => line([m, ...ITEMS[k]!.split(' ')], 150 + k * 200, 400 + k * 45)),
    );
    expect(bulletLines(scattered).size).toBe(0);
  });
});

describe('headings on recognised pages', () => {
  it('makes a large line a heading only when recognition is sure of it', () => {
    const body = (y: number) =>
      Array.from({ length: 6 }, (_, k) =>
        line(['Body', 'text', 'of', 'the', 'page', 'goes', 'on', 'here'], 150, y + k * 40),
      );
    const page = pageOf([
      line(['Quarterly', 'Summary'], 150, 200, 14, 60),
      ...body(300),
      // Marks of a chart taken for letters: large, and read with little confidence.
      line(['SKU-9201'], 700, 600, 14, 60, 0.21),
      ...body(700),
    ]);
    const md = markdown(page);
    expect(md).toMatch(/^#+ Quarterly Summary$/m);
    expect(md).toMatch(/^SKU-9201$/m);
  });
});

describe('text running up the margin of a recognised page', () => {
  /** A line read up the page: a box taller than wide, words stacked upwards. */
  function upward(words: string[], x: number, yBottom: number): OcrLine {
    const out: OcrWord[] = [];
    let at = yBottom;
    for (const t of words) {
      const h = t.length * 12;
      out.push({ text: t, bbox: { x0: x, y0: at - h, x1: x + ROW, y1: at }, confidence: 0.8 });
      at -= h + 10;
    }
    return {
      words: out,
      bbox: { x0: x, y0: at, x1: x + ROW, y1: yBottom },
      confidence: 0.8,
      rowHeight: ROW,
      xHeight: 14,
    };
  }

  it('leaves out a stamp set sideways in the margin and the scraps read beside it, and keeps lone figures', () => {
    // Two columns of running text, their lines at other heights and of other lengths.
    const words = (tag: string, k: number) => [
      'Running',
      'text',
      `${tag}${k}`,
      'of',
      'the',
      'column',
      ...(k % 3 ? ['goes', 'on'] : []),
    ];
    const left = Array.from({ length: 8 }, (_, k) => line(words('L', k), 200, 300 + k * 40));
    const right = Array.from({ length: 8 }, (_, k) => line(words('R', k), 900, 318 + k * 40));
    const page = pageOf([
      ...left,
      ...right,
      upward(['arXiv:2004.04906v3', '[cs.CL]', '30', 'Sep', '2020'], 60, 1500),
      line(['Pe', '|'], 62, 1005, 4),
      // A figure alone on its line is taller than wide too, and stays.
      line(['7'], 200, 700),
    ]);
    const md = markdown(page);
    expect(md).not.toMatch(/arXiv|cs\.CL|Sep 2020|Pe \|/);
    expect(md).toMatch(/^7$/m);
    expect(md.indexOf('L7')).toBeLessThan(md.indexOf('R0'));
  });
});

describe('marks that recognition doubts', () => {
  it('leaves out short lines of signs read with little confidence, and keeps figures read with confidence', () => {
    const text = Array.from({ length: 6 }, (_, k) =>
      line(['Running', 'text', `T${k}`, 'of', 'the', 'page', 'goes', 'on'], 150, 300 + k * 40),
    );
    const page = pageOf([
      ...text,
      // A chart's marks: no word, little confidence.
      line(['=', '—_—)'], 300, 700, 14, ROW, 0.05),
      line(['2-05'], 300, 760, 14, ROW, 0.44),
      // A figure read with confidence, and a word read with little.
      line(['1999'], 300, 820, 14, ROW, 0.95),
      line(['Control'], 300, 880, 14, ROW, 0.3),
    ]);
    const md = markdown(page);
    expect(md).not.toMatch(/—_—|2-05/);
    // The two kept lines stand close enough to make one paragraph.
    expect(md).toMatch(/^1999 Control$/m);
  });

  it('keeps every line inside a ruled area, where a doubtful figure may be a cell', () => {
    const page = pageOf([
      ...Array.from({ length: 4 }, (_, k) => line(['Name', `N${k}`, 'value'], 150, 300 + k * 40)),
      line(['7'], 600, 340, 14, ROW, 0.4),
    ]);
    page.rules = [
      { x0: 100, y0: 280, x1: 800, y1: 280, thickness: 2 },
      { x0: 100, y0: 480, x1: 800, y1: 480, thickness: 2 },
    ];
    expect(markdown(page)).toMatch(/\b7\b/);
  });
});

describe('headings inside a recognised paragraph', () => {
  it('gives a short larger line inside a paragraph its own size (a form section head run into its fields)', () => {
    const field = (k: number, y: number) => line(['Field', `F${k}:`, 'value', 'of', 'the', 'field'], 150, y);
    const lines = [
      field(1, 300),
      field(2, 340),
      line(['Customers'], 150, 390, 14, 40),
      field(3, 450),
      field(4, 490),
      field(5, 530),
    ];
    const bbox = { x0: 0, y0: 0, x1: 1700, y1: 2200 };
    const page: OcrPage = {
      pageNumber: 1,
      width: 612,
      height: 792,
      rotation: 0,
      scale: 200 / 72,
      skew: 0,
      confidence: 0.9,
      // tesseract put the head and the fields in one paragraph.
      blocks: [{ bbox, confidence: 0.9, paragraphs: [{ lines, bbox, confidence: 0.9 }] }],
    };
    expect(markdown(page)).toMatch(/^#+ Customers$/m);
  });
});

describe('the pronoun read as a stroke', () => {
  const hocr = (words: string[]) => `<div class='ocr_page' id='page_1' title='bbox 0 0 1700 2200'>
 <div class='ocr_carea' id='block_1_1' title="bbox 100 200 900 240">
  <p class='ocr_par' id='par_1_1' lang='eng' title="bbox 100 200 900 240">
   <span class='ocr_line' id='line_1_1' title="bbox 100 200 900 240; baseline 0 -8; x_size 40; x_descenders 8; x_ascenders 10">
${words.map((w, k) => `    <span class='ocrx_word' id='word_1_${k}' title='bbox ${100 + k * 120} 200 ${200 + k * 120} 240; x_wconf 90'>${w}</span>`).join('\n')}
   </span>
  </p>
 </div>
</div>`;
  const read = (words: string[]) =>
    compactTesseractPage(
      { blocks: parseHocr(hocr(words)) },
      { pageNumber: 1, width: 612, height: 792, rotation: 0, scale: 200 / 72, skew: 0 },
    )
      .blocks[0]!.paragraphs[0]!.lines[0]!.words.map((w) => w.text)
      .join(' ');

  it('gives "|" and "l" back as "I" before the words that follow the pronoun', () => {
    expect(read(['|', 'am', 'writing', 'to'])).toBe('I am writing to');
    expect(read(['Dear', 'Sir,', 'l', 'have', 'enclosed'])).toBe('Dear Sir, I have enclosed');
    expect(read(['|', 'Am', 'A', 'Header'])).toBe('I Am A Header');
  });

  it('leaves a stroke before anything else as read (a table border, a letter l)', () => {
    expect(read(['|', 'Mobility', '|', '3'])).toBe('| Mobility | 3');
    expect(read(['Form', 'l', 'B'])).toBe('Form l B');
  });
});

describe('a section number set apart from its heading', () => {
  it('stays with the heading on a larger line, and a numbered line of body size keeps its gap', () => {
    const body = (y: number, tag: string) =>
      Array.from({ length: 5 }, (_, k) =>
        line(['Running', 'text', 'of', 'the', 'column', 'goes', 'on', `${tag}${k}`], 211, y + k * 40),
      );
    // An indented abstract above, as on a paper's first page: read alone, the "1" would stand left of
    // everything above it and be taken for a column of its own.
    const abstract = Array.from({ length: 5 }, (_, k) =>
      line(['Indented', 'abstract', 'text', 'goes', 'on', `c${k}`], 260, 300 + k * 40),
    );
    const page = pageOf([
      ...abstract,
      // "1" then a gap of about an em and a half of this line's size, the title set larger.
      line(['1', 'Introduction'], 212, 530, 48, 40),
      ...body(600, 'b'),
    ]);
    const md = markdown(page);
    expect(md).toMatch(/^#+ 1 Introduction$/m);
    const rows = pageOf([
      ...body(300, 'a'),
      line(['1', 'Apple'], 212, 530, 48),
      line(['2', 'Pear'], 212, 570, 48),
      line(['3', 'Plum'], 212, 610, 48),
      ...body(680, 'b'),
    ]);
    expect(markdown(rows)).not.toMatch(/1 Apple/);
  });
});

describe('links on a recognised page', () => {
  it('makes the recognised words inside a link area of the page a link', () => {
    const s = 200 / 72;
    const l = line(['Get', 'it', 'from', 'the', 'download', 'page', 'today.'], 200, 600);
    const [download, page] = [l.words[4]!, l.words[5]!];
    const area = {
      x0: download.bbox.x0 / s - 1,
      x1: page.bbox.x1 / s + 1,
      y0: l.bbox.y0 / s - 2,
      y1: l.bbox.y1 / s + 2,
      url: 'https://example.org/download',
    };
    const md = serialize(
      {
        contentType: 'application/pdf',
        pages: finishDocument([layoutOcrPage(pageOf([l]), [area])]),
        metadata: {},
        warnings: [],
      },
      { onlyMainContent: true },
    ).markdown;
    expect(md.trim()).toBe('Get it from the [download page](https://example.org/download) today.');
  });
});
