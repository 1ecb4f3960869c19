/**
 * The layout engine and the document passes on synthetic pages (no pdf.js): the engine must work the
 * same on OCR words as on native text, so these tests feed it plain `PageInput`s.
 */
import { describe, expect, it } from 'vitest';
import { layoutPage } from '../src/layout/engine.js';
import { findAlignedTables } from '../src/layout/tables.js';
import { makeLine, type Line, type Word } from '../src/layout/lines.js';
import { finishDocument } from '../src/layout/document.js';
import type { PageInput, TextItem } from '../src/layout/types.js';
import { needsOcr } from '../src/pdf/needs-ocr.js';
import { serialize } from '../src/markdown/serialize.js';
import type { DocModel } from '../src/model/document.js';

const CHAR_W = 0.5; // of the font size, for synthetic widths

function item(text: string, x: number, y: number, size = 10, extra: Partial<TextItem> = {}): TextItem {
  return {
    text,
    x0: x,
    x1: x + text.length * size * CHAR_W,
    y0: y - size * 0.8,
    y1: y + size * 0.2,
    fontSize: size,
    fontName: 'Test',
    bold: false,
    italic: false,
    dir: 'ltr',
    ...extra,
  };
}

function page(items: TextItem[], extra: Partial<PageInput> = {}): PageInput {
  return {
    pageNumber: 1,
    width: 612,
    height: 792,
    rotation: 0,
    items,
    lines: [],
    rects: [],
    images: [],
    source: 'native_text',
    ...extra,
  };
}

function markdownOf(pages: PageInput[], onlyMainContent = true): string {
  const layouts = pages.map((p) => layoutPage(p));
  const doc: DocModel = { contentType: 'application/pdf', pages: finishDocument(layouts), metadata: {}, warnings: [] };
  return serialize(doc, { onlyMainContent }).markdown;
}

/** A column of wrapped lines of words "<tag>1 <tag>2 ...", left edge x, starting at baseline y. */
function column(tag: string, x: number, y: number, lines: number, perLine = 6): TextItem[] {
  const out: TextItem[] = [];
  let n = 1;
  for (let l = 0; l < lines; l++) {
    const words: string[] = [];
    for (let k = 0; k < perLine; k++) words.push(`${tag}${n++}`);
    out.push(item(words.join(' '), x, y + l * 12));
  }
  return out;
}

describe('layout engine on synthetic pages', () => {
  it('reads two columns column by column, with a full-width title first', () => {
    const left = column('left', 72, 130, 10);
    // The left column ends its paragraph (a column ending mid-sentence runs on into the next one).
    left[left.length - 1]!.text += '.';
    const items = [item('A Title Across the Page', 72, 80, 20), ...left, ...column('right', 320, 130, 10)];
    const md = markdownOf([page(items)]);
    const lines = md.trim().split('\n\n');
    expect(lines[0]).toBe('# A Title Across the Page');
    expect(md.indexOf('left80')).toBeLessThan(md.indexOf('right1'));
    // each column is one paragraph (its lines joined)
    expect(lines).toHaveLength(3);
  });

  it("keeps a relation sign that ends a column's line in its column, across a gutter of 1.5 em", () => {
    // Displayed equations keep a relation sign set about an em from its sides on their line; a
    // gutter is wider, so "=" ending a line of the left column does not join the right column.
    const left = column('left', 72, 130, 10);
    left[left.length - 1]!.text += '.';
    const eqLine = left[3]!;
    const eq = item('=', eqLine.x1 + 2, 130 + 3 * 12);
    const right = column('right', eq.x1 + 15, 130, 10);
    const md = markdownOf([page([...left, eq, ...right])]);
    expect(md).toContain('left24 =');
    expect(md.indexOf('left60')).toBeLessThan(md.indexOf('right1'));
  });

  it('joins a paragraph broken at the column break, and reads a column-foot footnote after the text', () => {
    const left = column('left', 72, 400, 10);
    const right = column('right', 320, 400, 10);
    right[right.length - 1]!.text += '.';
    // A footnote at the foot of the left column: smaller face, a raised number first.
    const note = [item('1', 72, 532, 5, { y0: 526, y1: 530 }), item('A note about the left column.', 76, 534, 7.5)];
    const md = markdownOf([page([...left, ...right, ...note])]);
    const paras = md.trim().split('\n\n');
    expect(paras).toHaveLength(2);
    expect(paras[0]).toContain('left60 right1');
    expect(paras[1]).toBe('<sup>1</sup> A note about the left column.');
  });

  it('lists an image as a figure block without writing an empty image link into the markdown', () => {
    const items = [item('Text above the picture.', 72, 100), item('Text below the picture.', 72, 400)];
    const layout = layoutPage(page(items, { images: [{ x0: 72, y0: 120, x1: 400, y1: 380 }] }));
    const doc: DocModel = {
      contentType: 'application/pdf',
      pages: finishDocument([layout]),
      metadata: {},
      warnings: [],
    };
    const out = serialize(doc, { onlyMainContent: true });
    expect(out.markdown).toBe('Text above the picture.\n\nText below the picture.\n');
    const figure = out.layout[0]!.items.find((i) => i.type === 'figure');
    expect(figure?.bbox).toEqual([0.1176, 0.1515, 0.6536, 0.4798]);
    expect(figure?.markdownSpan).toBeNull();
  });

  it('keeps a full-width element between two-column bands in place', () => {
    const items = [
      ...column('a', 72, 100, 5),
      ...column('b', 320, 100, 5),
      item('A full width sentence that runs across both of the columns of this page here.', 72, 200),
      ...column('c', 72, 240, 5),
      ...column('d', 320, 240, 5),
    ];
    const md = markdownOf([page(items)]);
    const order = ['a1', 'b1', 'A full width', 'c1', 'd1'].map((s) => md.indexOf(s));
    expect(order.every((v) => v >= 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
  });

  it('reads three columns left to right, each top to bottom', () => {
    const items = [...column('a', 40, 100, 12, 4), ...column('b', 230, 100, 12, 4), ...column('c', 420, 100, 12, 4)];
    const md = markdownOf([page(items)]);
    const order = ['a1', 'a48', 'b1', 'b48', 'c1', 'c48'].map((t) =>
      md.indexOf(`${t} `) >= 0 ? md.indexOf(`${t} `) : md.indexOf(t),
    );
    expect(order.every((v) => v >= 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
  });

  it('reads a letterhead line by line and keeps a wide justified space inside its line', () => {
    const items = [
      item('ACME Corporation', 72, 60, 16),
      item('Invoice 2024-001', 420, 62),
      item('Ship to:', 72, 90),
      item('Date: 2024-05-01', 420, 90),
      // A justified paragraph whose middle line has one very wide space.
      item('The goods listed below were shipped on the date given above and', 72, 140),
      item("arrive at the customer's address", 72, 152),
      item('within five working days of it.', 252, 152),
      item('Payment is due within thirty days of the date of this invoice.', 72, 164),
    ];
    const md = markdownOf([page(items)]);
    expect(md.indexOf('ACME Corporation')).toBeLessThan(md.indexOf('Invoice 2024-001'));
    expect(md.indexOf('Invoice 2024-001')).toBeLessThan(md.indexOf('Ship to:'));
    expect(md).toContain(
      "given above and arrive at the customer's address within five working days of it. Payment is due",
    );
  });

  it('joins hyphenated line ends and nested bullet lists', () => {
    const items = [
      item('The conver-', 72, 100),
      item('sion works well.', 72, 112),
      item('•', 72, 150),
      item('First item', 84, 150),
      item('•', 90, 164),
      item('Nested item', 102, 164),
      item('•', 72, 178),
      item('Second item', 84, 178),
    ];
    const md = markdownOf([page(items)]);
    expect(md).toContain('The conversion works well.');
    expect(md).toContain('- First item\n  - Nested item\n- Second item');
  });

  it("keeps a numbered item's wrapped line in the item when the marker and its first words are one run", () => {
    // pdf.js gives "1. An o" as one run and the rest of the line ("ff-the-shelf ...", after a ligature)
    // as another: the item's text starts inside the first run, where the wrapped line is indented to.
    const md = markdownOf([
      page([
        item('Our contributions are as follows.', 72, 280),
        item('1. An o', 72, 300),
        item('ff-the-shelf toolkit for applying models to layout', 107, 300, 10, { x1: 380 }),
        item('detection, character recognition and other tasks', 87, 312),
        item('2. A rich repository of pre-trained models', 72, 324),
      ]),
    ]);
    expect(md).toContain(
      '1. An off-the-shelf toolkit for applying models to layout detection, character recognition and other tasks\n2. A rich',
    );
  });

  it('keeps the hyphen of a compound split at a line end and joins a word split for the break', () => {
    // Lines of about the same length, so that every line break is inside one paragraph.
    const lines = [
      'First, because the chat-',
      'optimized models answer well, we con-',
      'sider some open-',
      'domain questions with the Knight-',
      'Commander, and question-to-',
      'positive pairs for children- and',
      'adults; these models out-',
      'perform the base-',
      'line here.',
    ];
    const md = markdownOf([page(lines.map((l, i) => item(l, 72, 100 + i * 12)))]);
    expect(md).toContain('because the chat-optimized models');
    expect(md).toContain('we consider some open-domain questions');
    expect(md).toContain('the Knight-Commander, and question-to-positive pairs');
    expect(md).toContain('for children- and adults');
    expect(md).toContain('models outperform the baseline here.');
  });

  it('orders right-to-left lines from the right', () => {
    const rtl = (t: string, x: number, y: number): TextItem => item(t, x, y, 10, { dir: 'rtl' });
    // Logical order: "שלום" then "עולם"; the first word sits further right.
    const md = markdownOf([page([rtl('עולם', 100, 100), rtl('שלום', 124, 100)])]);
    expect(md.trim()).toBe('שלום עולם');
  });

  it('reads a sloping row left to right: the right end sitting a fraction of a point higher does not come first', () => {
    // A scanned header line that slopes up by 0.6 pt over the page, its parts far apart.
    const parts = [
      item('Report ID:', 40, 100.6),
      item('MEDRPT-2024-17', 130, 100.4),
      item('Date of Service:', 330, 100.2),
      item('October 28, 2024', 450, 100),
    ];
    const md = markdownOf([page([item('Summary of the visit', 40, 60, 16), ...parts, ...column('body', 40, 140, 6)])]);
    const at = ['Report ID:', 'MEDRPT-2024-17', 'Date of Service:', 'October 28, 2024'].map((t) => md.indexOf(t));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('joins double-spaced lines into paragraphs, split at first-line indents; keeps one-line items apart', () => {
    const size = 12;
    const lines: TextItem[] = [];
    let y = 90;
    let n = 0;
    for (let p = 0; p < 3; p++) {
      for (let l = 0; l < 5; l++) {
        const indent = l === 0 ? 36 : 0;
        const len = l === 4 ? 40 : Math.floor((450 - indent) / (size * CHAR_W));
        let t = '';
        while (t.length < len) t += `p${p}w${n++} `;
        lines.push(item(t.slice(0, len).trim() + (l === 4 ? '.' : ''), 100 + indent, y, size));
        y += 24;
      }
    }
    const paragraphs = markdownOf([page(lines)])
      .trim()
      .split('\n\n');
    expect(paragraphs.length).toBe(3);
    paragraphs.forEach((para, p) =>
      expect(para.startsWith(`p${p}w`) && para.endsWith('.') && !para.includes(`p${p + 1}w`)).toBe(true),
    );

    // Short one-line entries a line apart are separate paragraphs, however many there are.
    const entries = Array.from({ length: 10 }, (_, i) =>
      item(`Entry number ${i + 1} stands alone on its own line, a sentence of its own.`, 100, 90 + i * 24, size),
    );
    expect(
      markdownOf([page(entries)])
        .trim()
        .split('\n\n'),
    ).toHaveLength(10);
  });

  it('leaves margin line numbers out of the text (a court filing), but keeps the numbers of a tab-separated list', () => {
    const size = 12;
    const items: TextItem[] = [];
    let n = 0;
    for (let i = 1; i <= 20; i++) {
      const y = 80 + i * 24;
      const num = String(i);
      items.push(item(num, 60 - num.length * size * CHAR_W, y, size));
      if (i >= 3 && i <= 17) {
        let t = '';
        while (t.length < 70) t += `w${n++} `;
        items.push(item(i === 17 ? 'and so the claim ends here.' : t.trim(), 100, y, size));
      }
    }
    const md = markdownOf([page(items)]);
    expect(md).not.toMatch(/^\d+$/m);
    expect(md.trim().split('\n\n')).toHaveLength(1);
    expect(markdownOf([page(items)], false)).toMatch(/\b1 2 3 4 5\b/);

    const list = [
      'Apples are red.',
      'Bananas are yellow.',
      'Cherries are dark.',
      'Dates are sweet.',
      'Elderberries are small.',
      'Figs are soft.',
    ].flatMap((t, i) => [item(String(i + 1), 60, 100 + i * 18, size), item(t, 100, 100 + i * 18, size)]);
    const listMd = markdownOf([page(list)]);
    for (let i = 1; i <= 6; i++) expect(listMd).toMatch(new RegExp(`(^|\\s)${i}(\\s|$)`));
  });

  it('does not take a row of form fields set in larger type for headings', () => {
    const fields = [
      item('Invoice No.:', 40, 100, 14),
      item('INV-2291', 150, 100, 14),
      item('Date:', 330, 100, 14),
      item('3 May 2024', 400, 100, 14),
    ];
    const md = markdownOf([page([item('Acme Supplies Ltd', 40, 60, 22), ...fields, ...column('body', 40, 140, 8)])]);
    expect(md).toMatch(/^# Acme Supplies Ltd/m);
    for (const t of ['Invoice No.:', 'INV-2291', 'Date:', '3 May 2024']) {
      expect(md).toContain(t);
      expect(md).not.toMatch(new RegExp(`^#+ ${t.replace(/[.]/g, '\\.')}`, 'm'));
    }
  });

  it('finds a table from aligned columns without rules', () => {
    const rows = [
      ['Item', 'Qty', 'Price'],
      ['Apples', '3', '$1.20'],
      ['Pears', '12', '$4.00'],
      ['Plums', '7', '$2.10'],
    ];
    const items = rows.flatMap((r, i) => r.map((c, j) => item(c, 72 + j * 120, 100 + i * 14)));
    const md = markdownOf([page(items)]);
    expect(md).toContain('| Item | Qty | Price |');
    expect(md).toContain('| Pears | 12 | $4.00 |');
  });

  it('finds a table in one column of a two-column page, its column heads set as one line of text', () => {
    // Left: a column of prose level with the table. Right: heads whose word spaces are ordinary (one
    // line to the line builder), two rows of figures, and the caption under them.
    const left = column('left', 72, 100, 12, 5);
    const at = (text: string, x: number, y: number): TextItem => item(text, x, y);
    const right = [
      at('Top-1', 383, 100),
      at('Top-5', 416, 100),
      at('Top-20', 449, 100),
      at('Top-100', 487, 100),
      at('Gold', 322, 116),
      at('44.9', 385, 116),
      at('66.8', 418, 116),
      at('78.1', 454, 116),
      at('85.0', 492, 116),
      at('Dist. Sup.', 322, 130),
      at('43.9', 385, 130),
      at('65.3', 418, 130),
      at('77.1', 454, 130),
      at('84.4', 492, 130),
      at('Table 5: Retrieval accuracy on the', 320, 150),
      at('development set of Natural Questions.', 320, 162),
    ];
    const md = markdownOf([page([...left, ...right])]);
    expect(md).toContain('|  | Top-1 | Top-5 | Top-20 | Top-100 |');
    expect(md).toContain('| Gold | 44.9 | 66.8 | 78.1 | 85.0 |');
    expect(md).toContain('| Dist. Sup. | 43.9 | 65.3 | 77.1 | 84.4 |');
    // The prose of the left column stays text.
    expect(md).toMatch(/left1 left2 left3/);
  });

  it('does not take a caption line above a table for its column heads', () => {
    const at = (text: string, x: number, y: number): TextItem => item(text, x, y);
    const items = [
      at('Quarterly sales by region', 72, 100),
      ...[
        ['North', '12', '15'],
        ['South', '9', '11'],
        ['West', '14', '13'],
      ].flatMap((r, i) => r.map((c, j) => at(c, [72, 200, 260][j]!, 116 + i * 14))),
    ];
    const md = markdownOf([page(items)]);
    expect(md).toContain('Quarterly sales by region\n');
    expect(md).toContain('| North | 12 | 15 |');
    expect(md).not.toMatch(/\| Quarterly/);
  });

  it('splits a run of tightly set figures into columns, but not figures whose thousands a space groups', () => {
    const tight = [
      ['Segment', '2021 2022 2023'],
      ['Retail', '1,204 1,310 1,422'],
      ['Online', '2,415 3,020 3,877'],
      ['Services', '310 298 305'],
    ];
    const md = markdownOf([page(tight.flatMap((r, i) => r.map((c, j) => item(c, 72 + j * 150, 100 + i * 14))))]);
    expect(md).toContain('| Segment | 2021 | 2022 | 2023 |');
    expect(md).toContain('| Online | 2,415 | 3,020 | 3,877 |');
    const spaced = [
      ['Item', 'Amount'],
      ['Rent', '12 500'],
      ['Power', '3 400'],
      ['Water', '1 250'],
    ];
    const md2 = markdownOf([page(spaced.flatMap((r, i) => r.map((c, j) => item(c, 72 + j * 150, 100 + i * 14))))]);
    expect(md2).toContain('| Rent | 12 500 |');
    // A mark standing for a value (yes, no, none) is a cell of its own among the figures.
    const marked = [
      ['Method', 'IB Top-5 Top-20'],
      ['Random', '✗ 47.0 64.3'],
      ['Gold', '✓ 51.1 69.1'],
      ['Mixed', '– 52.1 70.8'],
    ];
    const md3 = markdownOf([page(marked.flatMap((r, i) => r.map((c, j) => item(c, 72 + j * 150, 100 + i * 14))))]);
    expect(md3).toContain('| Method | IB | Top-5 | Top-20 |');
    expect(md3).toContain('| Gold | ✓ | 51.1 | 69.1 |');
    expect(md3).toContain('| Mixed | – | 52.1 | 70.8 |');
  });

  it('reads a statement with year columns and dot leaders as a table', () => {
    const rows = [
      ['', '2023', '2022'],
      ['Revenue ..........', '1,234', '1,100'],
      ['Cost of sales ......', '(800)', '(700)'],
      ['Gross profit ........', '434', '400'],
    ];
    const items = rows.flatMap((r, i) => r.flatMap((c, j) => (c ? [item(c, [72, 300, 400][j]!, 100 + i * 14)] : [])));
    const md = markdownOf([page(items)]);
    expect(md).toContain('|  | 2023 | 2022 |');
    expect(md).toContain('| Cost of sales | (800) | (700) |');
  });

  it('finds a ruled table with a merged cell', () => {
    const xs = [72, 172, 272, 372];
    const ys = [100, 120, 140, 160];
    const lines = [
      ...ys.map((y) => ({ x0: 72, x1: 372, y0: y, y1: y, width: 0.5 })),
      ...xs.map((x, i) => ({ x0: x, x1: x, y0: i === 2 ? 120 : 100, y1: 160, width: 0.5 })),
    ];
    const items = [
      item('Name', 80, 114),
      item('Scores', 200, 114),
      item('', 0, 0),
      item('Ann', 80, 154 - 20),
      item('1', 180, 134),
      item('2', 280, 134),
      item('Bob', 80, 154),
      item('3', 180, 154),
      item('4', 280, 154),
    ].filter((i) => i.text);
    const md = markdownOf([page(items, { lines })]);
    expect(md).toContain('| Name | Scores |  |');
    expect(md).toContain('| Ann | 1 | 2 |');
    expect(md).toContain('| Bob | 3 | 4 |');
  });

  it('marks running headers, footers and page numbers by repetition and position', () => {
    const pages = [1, 2, 3].map((n) =>
      page([item('Annual Report 2024', 72, 40, 8), item(`Page ${n}`, 290, 770, 8), ...column(`p${n}w`, 72, 120, 12)], {
        pageNumber: n,
      }),
    );
    const md = markdownOf(pages);
    expect(md).not.toContain('Annual Report');
    expect(md).not.toMatch(/Page \d/);
    const kept = markdownOf(pages, false);
    expect(kept).toContain('Annual Report 2024');
    const layouts = pages.map((p) => layoutPage(p));
    const types = finishDocument(layouts).flatMap((p) => p.blocks.map((b) => b.type ?? 'text'));
    expect(types.filter((t) => t === 'page_header')).toHaveLength(3);
    expect(types.filter((t) => t === 'page_number')).toHaveLength(3);
  });

  it('finds the header and footer of a single page by position, face and the page number beside them', () => {
    const body = column('w', 72, 200, 20);
    const md = markdownOf([
      page([
        // A header opening with a year, in a smaller face.
        item('2022 Environmental Progress Report', 380, 32, 7),
        ...body,
        // A footer level with the page number; another line, in the body face, alone at the very foot.
        item('633', 72, 728, 8),
        item('Communications of the ACM', 320, 728, 8),
        item('Northwind Press', 320, 737, 8),
        item('Printed on recycled paper', 250, 772, 10),
      ]),
    ]);
    expect(md).not.toContain('Environmental Progress Report');
    expect(md).not.toContain('Communications of the ACM');
    expect(md).not.toContain('Northwind Press');
    expect(md).not.toContain('633');
    expect(md).not.toContain('recycled paper');
    expect(md).toContain('w1 w2');
    expect(md).toContain('w120');
  });

  it('takes a running head set larger than the text for one when it stands level with the page number', () => {
    const md = markdownOf([
      page([item('page 4', 72, 50, 9), item('2.3 Terminal Responses', 330, 52, 14), ...column('w', 72, 140, 20)]),
    ]);
    expect(md).not.toContain('Terminal Responses');
    expect(md).not.toContain('page 4');
    expect(md).toContain('w1 w2');
  });

  it('knows page numbers in their common forms', () => {
    for (const form of ['Page | 7', '7 | Page', '- 7 -', 'p. 7', '7/12', 'Seite 7 von 12', 'vii']) {
      const md = markdownOf([page([...column('w', 72, 200, 12), item(form, 290, 770, 9)])]);
      expect(md, form).not.toContain(form);
      expect(md).toContain('w72');
    }
  });

  it('derives heading levels from font sizes over the whole document', () => {
    const p1 = page([
      item('Big Title', 72, 80, 24),
      item('Section A', 72, 130, 16),
      ...column('x', 72, 160, 6),
      item('Sub A.1', 72, 260, 13),
      ...column('y', 72, 290, 6),
    ]);
    const p2 = page([item('Section B', 72, 80, 16), ...column('z', 72, 110, 6)], { pageNumber: 2 });
    const md = markdownOf([p1, p2]);
    expect(md).toContain('# Big Title');
    expect(md).toContain('## Section A');
    expect(md).toContain('### Sub A.1');
    expect(md).toContain('## Section B');
  });

  it('takes a formula set large for no heading, and headings with a sign or two for headings', () => {
    const p1 = page([
      item('C++ Basics', 72, 80, 16),
      ...column('x', 72, 110, 6),
      // Display formulas set larger than the body, as a typewritten paper or a scan shows them.
      item('= (f o g):<x, y>', 100, 200, 14),
      item('(p<CONS, f1, ..., fn>):x', 100, 230, 14),
      item('Q&A', 72, 270, 16),
      ...column('y', 72, 300, 6),
    ]);
    const md = markdownOf([p1]);
    expect(md).toContain('# C++ Basics');
    expect(md).toContain('# Q&A');
    expect(md).not.toMatch(/^#+ .*(?:f o g|CONS)/m);
    expect(md).toContain('(p\\<CONS, f1, ..., fn>):x');
  });

  it('takes form fields set large (a signature box) for no headings, and titles with a colon for headings', () => {
    const p1 = page([
      item('BERT: Pre-training of Deep Transformers', 72, 80, 18),
      ...column('x', 72, 110, 6),
      item('Name: Elizabeth A. Warren, MD', 72, 200, 13),
      item('License #: WA-MD-45782', 72, 220, 13),
      item('Prepared By: Sarah Martinez', 72, 240, 13),
      item('Chapter 1: Origins', 72, 260, 16),
      ...column('y', 72, 290, 6),
    ]);
    const md = markdownOf([p1]);
    expect(md).toMatch(/^# BERT: Pre-training of Deep Transformers$/m);
    expect(md).toMatch(/^#+ Chapter 1: Origins$/m);
    expect(md).toMatch(/^Name: Elizabeth A\. Warren, MD$/m);
    expect(md).toMatch(/^License #: WA-MD-45782$/m);
    expect(md).toMatch(/^Prepared By: Sarah Martinez$/m);
  });

  it('never lets bboxes leave the page and keeps ids and order contiguous', () => {
    const items = [...column('q', -20, -5, 3), ...column('r', 500, 780, 3)];
    const layout = layoutPage(page(items));
    for (const b of layout.blocks) {
      for (const v of b.block.bbox!) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(1);
      }
    }
  });
});

/**
 * A justified column: each line's words (one run each, as word processors write stretched lines) set
 * from `x` to `x + width`, the spaces stretched to fill it; the words are "<tag><n>" and x's, their
 * lengths varied by `lengths` so that the spaces fall at other places on every line, and grown
 * until the spaces are a third to five sixths of an em (unless `grow` is false).
 */
function justified(
  tag: string,
  x: number,
  y: number,
  width: number,
  lines: number,
  perLine: number,
  size = 10,
  leading = 12,
  lengths = [3, 6, 2, 5, 4, 7, 3, 5],
  grow = true,
): TextItem[] {
  const out: TextItem[] = [];
  let n = 1;
  for (let l = 0; l < lines; l++) {
    const words = Array.from(
      { length: perLine },
      (_, k) => `${tag}${n++}${'x'.repeat(lengths[(l * 3 + k) % lengths.length]!)}`,
    );
    // Words grow a letter at a time (the word after the last grown) while the spaces stay wider
    // than a third of an em.
    const ink = (): number => words.reduce((m, w) => m + w.length * size * CHAR_W, 0);
    for (let k = l; grow && ink() + size * CHAR_W + (perLine - 1) * size * 0.3 <= width; k++) words[k % perLine] += 'x';
    const inked = ink();
    const space = (width - inked) / (perLine - 1);
    let at = x;
    for (const w of words) {
      out.push(item(w, at, y + l * leading, size));
      at += w.length * size * CHAR_W + space;
    }
  }
  return out;
}

describe('columns set close and justified', () => {
  it("reads two justified columns set 0.8 em apart column by column: the right column's lines all start at one x", () => {
    // Baselines level across the gutter, a gutter of 8 pt in 10 pt type: narrower than the row's
    // stretched word spaces, so only the right column's common left edge tells it.
    const left = justified('l', 62, 130, 240, 20, 5, 10, 12, [2, 4, 1, 3, 5, 2, 4, 3]);
    const right = justified('r', 310, 130, 240, 20, 5, 10, 12, [2, 4, 1, 3, 5, 2, 4, 3]);
    const md = markdownOf([page([...left, ...right])]);
    expect(md).toContain(left.map((w) => w.text).join(' '));
    expect(md).toContain(right.map((w) => w.text).join(' '));
    expect(md.indexOf('l100x')).toBeLessThan(md.indexOf('r1x'));
    expect(md).not.toContain('|');
  });

  it("parts the last line of a right column's paragraph at a gutter of 0.86 em, where the left column runs on", () => {
    // Two columns 8.6 pt apart in 10 pt type, their lines level. The right column's paragraph ends with
    // "board." beside a stretched line of the left column: its space before "board." is no wider than
    // the left line's own.
    const items: TextItem[] = [];
    for (let k = 0; k < 5; k++) {
      items.push(item(`l${k} words of the left column run on here`, 60.1, 156.6 + k * 14.4, 10, { x1: 301.5 }));
      items.push(item(`r${k} words of the right column run on here`, 310.1, 156.6 + k * 14.4, 10, { x1: 551.7 }));
    }
    const last: Array<[string, number, number]> = [
      ['the', 60.1, 73.7],
      ['8.5', 80.1, 92.7],
      ['regional', 99.1, 132.1],
      ['cases', 138.5, 160.2],
      ['showed', 166.7, 198.3],
      ['a', 204.7, 209.5],
      ['share', 216.0, 238.3],
      ['buyback', 244.7, 278.5],
      ['that', 284.9, 301.5],
      ['board.', 310.1, 336.5],
    ];
    for (const [t, x0, x1] of last) items.push(item(t, x0, 156.6 + 5 * 14.4, 10, { x1 }));
    items.push(item('widened within the first week.', 60.1, 156.6 + 6 * 14.4, 10, { x1: 200 }));
    const md = markdownOf([page(items)]);
    expect(md).toContain('buyback that widened within the first week.');
    expect(md).toContain('r4 words of the right column run on here board.');
  });

  it("keeps the stretched spaces of a narrow justified column inside its lines, where the next lines' spaces overlap them", () => {
    // Three or four words to a 150 pt line of 8.5 pt type, spaces of 14 pt (over an em and a half),
    // each word one run. The spaces of the second of every three lines overlap those of the line
    // above it by more than a word space; the line above that runs words through them.
    const starts = [
      [40, 109, 160],
      [40, 84, 134, 174],
      [40, 89, 139, 179],
    ];
    const items: TextItem[] = [];
    let n = 1;
    for (let l = 0; l < 13; l++) {
      const xs = starts[l % 3]!;
      xs.forEach((x, k) => {
        const end = k + 1 < xs.length ? xs[k + 1]! - 14 : 190;
        items.push(item(`n${n++}`, x, 200 + l * 11.6, 8.5, { x1: end }));
      });
    }
    const beside = column('b', 220, 205.8, 11);
    const md = markdownOf([page([...items, ...beside])]);
    // The column's words read in order, one paragraph, with nothing between them.
    expect(md).toContain(items.map((w) => w.text).join(' '));
    expect(md).not.toContain('|');
  });
});

describe('spaces of a justified column that line up over a few lines ("rivers")', () => {
  it('keeps a line whose last word stands past a river in its column, where a full line of the same measure runs below', () => {
    // Three columns, 10 pt type, gutters of 14 pt. In the middle column three lines end with a word
    // set after a stretched space of 8-10.6 pt, and the spaces before those words overlap line after
    // line (364-373 pt). The paragraph ends two lines later, so no three lines below run through them;
    // the full line under them has the very measure of the stretched lines (222.7 to 389.3).
    const full = (tag: string, x0: number, x1: number, y: number): TextItem =>
      item(`${tag} words of a full line`, x0, y, 10, { x1 });
    const side: TextItem[] = [];
    for (let l = 0; l < 12; l++) {
      side.push(full(`a${l}`, 42, 208.7, 130 + l * 10.5));
      side.push(full(`c${l}`, 403.3, 570, 130 + l * 10.5));
    }
    const mid: TextItem[] = [];
    for (let l = 0; l < 6; l++) mid.push(full(`b${l}`, 222.7, 389.3, 130 + l * 10.5));
    const stretched: Array<Array<[string, number, number]>> = [
      [
        ['the', 222.7, 236.6],
        ['older', 246.9, 268.6],
        ['models', 279.0, 309.8],
        ['predicted.', 320.2, 363.2],
        ['The', 373.5, 389.3],
      ],
      [
        ['monitoring', 222.7, 269.0],
        ['team', 279.7, 301.7],
        ['noted', 312.3, 336.9],
        ['that', 347.5, 364.8],
        ['the', 375.4, 389.3],
      ],
      [
        ['pollinator', 222.7, 263.0],
        ['survey', 271.1, 299.7],
        ['near', 307.8, 327.1],
        ['Carrow', 335.3, 365.2],
        ['had', 373.3, 389.3],
      ],
    ];
    stretched.forEach((words, k) => {
      for (const [t, x0, x1] of words) mid.push(item(t, x0, 130 + (6 + k) * 10.5, 10, { x1 }));
    });
    mid.push(item('doubled before any seasonal measure', 222.7, 130 + 9 * 10.5, 10, { x1: 389.3 }));
    mid.push(item('began.', 222.7, 130 + 10 * 10.5, 10, { x1: 252 }));
    const md = markdownOf([page([...side, ...mid])]);
    expect(md).toContain(
      'b5 words of a full line the older models predicted. The monitoring team noted that the pollinator survey near Carrow had doubled before any seasonal measure began.',
    );
  });

  it('keeps the first line of a column whole where its spaces line up with the line above, and a full line runs below', () => {
    // The right column starts with two stretched lines whose spaces overlap (504-515 pt); nothing
    // above them in that column, a full line of their measure (403.3 to 570) under them. Beside them a
    // heading in larger type opens the left column's row.
    const items: TextItem[] = [item('Counts this season', 42, 125.1, 12, { x1: 155.4, bold: true })];
    for (let l = 0; l < 8; l++) items.push(item(`a${l} words of a full line`, 42, 140 + l * 10.5, 10, { x1: 208.7 }));
    const first: Array<Array<[string, number, number]>> = [
      [
        ['The', 403.3, 419.1],
        ['fragmented', 429.2, 479.1],
        ['root', 489.1, 506.1],
        ['biomass', 516.2, 551.4],
        ['at', 561.5, 570],
      ],
      [
        ['Halvern', 403.3, 436.3],
        ['doubled', 447.7, 482.0],
        ['by', 493.4, 503.8],
        ['95', 515.2, 526.1],
        ['percent', 537.5, 570],
      ],
    ];
    first.forEach((words, k) => {
      for (const [t, x0, x1] of words) items.push(item(t, x0, 117.4 + k * 10.5, 10, { x1 }));
    });
    for (let l = 2; l < 8; l++)
      items.push(item(`c${l} words of a full line`, 403.3, 117.4 + l * 10.5, 10, { x1: 570 }));
    const md = markdownOf([page(items)]);
    expect(md).toContain('The fragmented root biomass at Halvern doubled by 95 percent c2 words of a full line');
  });

  it('keeps a line whole where a river runs four lines down and one of them starts a word at its edge by chance', () => {
    // 8.5 pt type. The spaces at 442-452 pt line up over four lines; "began." starts 0.1 pt from where the gap
    // of the line above ends, the lines under it do not. The line above is a full line of the column.
    const items: TextItem[] = [];
    const lines: Array<Array<[string, number, number]>> = [
      [['the field crew noted that the', 403.3, 570]],
      [
        ['seed', 403.3, 423.6],
        ['bank', 436.2, 457.1],
        ['near', 469.7, 489.0],
        ['Ivybridge', 501.6, 541.4],
        ['had', 554.0, 570.0],
      ],
      [
        ['persisted', 403.3, 442.6],
        ['before', 452.0, 479.3],
        ['any', 488.7, 504.4],
        ['nutrient-poor', 513.8, 570.0],
      ],
      [
        ['measure', 403.3, 440.4],
        ['began.', 451.9, 481.2],
        ['The', 492.7, 508.5],
        ['field', 520.0, 538.3],
        ['crew', 549.8, 570.0],
      ],
      [
        ['recorded', 403.3, 441.1],
        ['the', 453.8, 467.7],
        ['estuary', 480.4, 512.5],
        ['of', 525.1, 533.3],
        ['every', 546.0, 570.0],
      ],
      [
        ['managed', 403.3, 443.4],
        ['site', 450.2, 465.5],
        ['twice', 472.3, 494.8],
        ['a', 501.5, 506.7],
        ['week,', 513.5, 538.5],
        ['which', 545.2, 570.0],
      ],
      [['gave 18.0 usable readings.', 403.3, 518.6]],
    ];
    lines.forEach((words, k) => {
      const y = 468.4 + k * 10.5;
      items.push(
        item('words of the left column', 42, y, 8.5, { x1: 208.7 }),
        item('words of the middle column', 222.7, y, 8.5, { x1: 389.3 }),
      );
      for (const [t, x0, x1] of words) items.push(item(t, x0, y, 8.5, { x1 }));
    });
    const md = markdownOf([page(items)]);
    expect(md).toContain(
      'seed bank near Ivybridge had persisted before any nutrient-poor measure began. The field crew recorded the estuary',
    );
  });

  it("keeps a table of even columns set under a paragraph's full last line a table", () => {
    // Six left-aligned columns 30 pt apart across the text's measure (72 to 540 pt), the paragraph's
    // last line filling the measure too: the first row's spaces are alike and a full line runs over
    // them, as over a stretched line of the paragraph.
    const para = [0, 1, 2, 3].map((k) =>
      item(`p${k} words of a paragraph that fills its line`, 72, 100 + k * 12, 10, { x1: 540 }),
    );
    const xs = [72, 152, 232, 312, 392, 472];
    const rows = [
      ['Site', 'Cores', 'Depth', 'Mass', 'Area', 'Density'],
      ['North', '2533', '3592', '4101', '1200', '0.4412'],
      ['South', '3774', '6197', '3310', '1105', '0.3908'],
      ['East', '4910', '1545', '2205', '980', '0.5120'],
    ];
    const table = rows.flatMap((r, i) =>
      r.map((c, j) => item(c, xs[j]!, 160 + i * 14, 10, { x1: j === 5 ? 540 : xs[j]! + 50 })),
    );
    const md = markdownOf([page([...para, ...table])]);
    expect(md).toContain('| Site | Cores | Depth | Mass | Area | Density |');
    expect(md).toContain('| South | 3774 | 6197 | 3310 | 1105 | 0.3908 |');
  });

  it('keeps the rows of a table of two rows between paragraphs apart from the full line under them', () => {
    // A head row and one row of six columns 30 pt apart across the measure (72 to 540 pt), a
    // paragraph's short last line above, a full line of the next paragraph 14 pt under the row.
    const para = [0, 1, 2].map((k) =>
      item(`p${k} words of a paragraph that fills its line`, 72, 100 + k * 12, 10, { x1: k === 2 ? 300 : 540 }),
    );
    const xs = [72, 152, 232, 312, 392, 472];
    const rows = [
      ['Site', 'Cores', 'Depth', 'Mass', 'Area', 'Density'],
      ['North', '2533', '3592', '4101', '1200', '0.4412'],
    ];
    const table = rows.flatMap((r, i) =>
      r.map((c, j) => item(c, xs[j]!, 150 + i * 14, 10, { x1: j === 5 ? 540 : xs[j]! + 50 })),
    );
    const after = [0, 1, 2].map((k) =>
      item(`q${k} words of the next paragraph, a full line`, 72, 178 + k * 12, 10, { x1: k === 2 ? 260 : 540 }),
    );
    const md = markdownOf([page([...para, ...table, ...after])]);
    expect(md).not.toContain('North 2533 3592');
  });

  it('finds no table of two columns in four justified lines whose spaces line up as a river', () => {
    // A column 157 pt wide in 9.5 pt type, looked at on its own (as the column scan of a page of
    // columns does): its four lines' spaces (18.6, 7.6, 8.2 and 15.2 pt, alike within each line) line
    // up at 291-297 pt, so each line comes cut in two there.
    const lines: Array<Array<[string, number, number]>> = [
      [
        ['Where', 219.1, 246.9],
        ['the', 265.5, 278.8],
        ['watershed', 297.3, 341.0],
        ['was', 359.6, 376.0],
      ],
      [
        ['fragmented,', 219.1, 270.1],
        ['the', 277.7, 291.1],
        ['pollinator', 298.7, 340.0],
        ['survey', 347.5, 375.9],
      ],
      [
        ['fluctuated', 219.1, 261.8],
        ['more', 270.1, 291.9],
        ['slowly', 300.1, 327.2],
        ['than', 335.4, 354.4],
        ['the', 362.7, 376.0],
      ],
      [
        ['older', 219.1, 241.1],
        ['models', 256.4, 287.1],
        ['predicted.', 302.2, 344.8],
        ['The', 360.0, 375.9],
      ],
    ];
    const rows: Line[][] = lines.map((words, k) => {
      const ws: Word[] = words.map(([text, x0, x1]) => ({
        text,
        x0,
        x1,
        y0: 712 + k * 11.3 - 7.6,
        y1: 712 + k * 11.3 + 1.9,
        size: 9.5,
        bold: false,
        italic: false,
        mono: false,
        rtl: false,
      }));
      const cut = ws.findIndex((w) => w.x0 > 295);
      return [makeLine(ws.slice(0, cut), false), makeLine(ws.slice(cut), false)];
    });
    expect(rows[0]!.map((l) => l.text)).toEqual(['Where the', 'watershed was']);
    expect(findAlignedTables(rows, [], 595, 842, [], { a: 219.1, b: 376 })).toEqual([]);
  });

  it("ends a stretched line's measure at a gutter only a quarter wider than its spaces", () => {
    // Spaces of 11.4 pt, a gutter of 14.4 pt before the right column. The new paragraph's first line
    // has a space over those of the lines above it (the one of "from 44" starts 0.4 pt from where the
    // gap ends); the line under it is a full line of the right column alone.
    const items: TextItem[] = [];
    const ys = [560.7, 572.4, 584.1, 595.7, 608.0, 619.6, 635.5, 647.2];
    // The left column ends above the new paragraph, the middle one has a paragraph's last line beside
    // the line under it.
    for (const y of ys) {
      if (y < 600) items.push(item('words of the left column', 36.1, y, 10, { x1: 200.9 }));
      items.push(
        item(y === 619.6 ? 'which gave 6.2 usable readings.' : 'words of the middle column', 215.1, y, 10, {
          x1: y === 619.6 ? 352.3 : 379.7,
        }),
      );
    }
    const right: Array<Array<[string, number, number]>> = [
      [['the peak-hour group the travel survey', 394.1, 558.9]],
      [
        ['suburban', 394.1, 434.1],
        ['group', 445.6, 470.3],
        ['the', 481.8, 495.7],
        ['cycle', 507.3, 529.3],
        ['lane', 540.7, 558.9],
      ],
      [
        ['rebounded', 394.1, 439.9],
        ['from', 445.9, 465.7],
        ['44', 471.7, 482.5],
        ['to', 488.5, 497.0],
        ['71', 503.0, 513.8],
        ['over', 519.8, 538.7],
        ['the', 544.7, 558.7],
      ],
      [['review period.', 394.1, 454.6]],
      [
        ['These', 394.1, 419.5],
        ['figures', 430.9, 460.0],
        ['suggest', 471.3, 504.9],
        ['that', 516.3, 533.5],
        ['the', 545.0, 558.9],
      ],
      [
        ['suburban', 394.1, 434.1],
        ['interchange', 440.3, 491.1],
        ['matters', 497.4, 530.7],
        ['more', 536.9, 558.9],
      ],
      [['than the park-and-ride site itself. For', 394.1, 558.9]],
      [['the subsidised group the rail junction.', 394.1, 558.6]],
    ];
    right.forEach((words, k) => {
      for (const [t, x0, x1] of words) items.push(item(t, x0, ys[k]!, 10, { x1 }));
    });
    const md = markdownOf([page(items)]);
    expect(md).toContain(
      'These figures suggest that the suburban interchange matters more than the park-and-ride site itself.',
    );
  });
});

describe('a table in one column of two', () => {
  it('is found when a centred line (the authors, a running head) crosses the gutter above the columns', () => {
    // An authors line centred on the page, narrower than half of it, runs across the gutter: the
    // gutter is still one, so the table in the right column is looked for in that column alone,
    // where the left column's lines level with its rows do not hide its columns.
    const centred = (text: string, y: number, size: number): TextItem => {
      const w = text.length * size * CHAR_W;
      return item(text, 306 - w / 2, y, size);
    };
    const left = column('left', 72, 130, 30);
    left[left.length - 1]!.text += '.';
    const right = column('right', 320, 130, 6);
    right[right.length - 1]!.text += '.';
    const rows = [
      ['Site', 'Cores', 'Depth'],
      ['North A', '2533', '3592'],
      ['North B', '3774', '6197'],
      ['Central C', '4910', '1545'],
      ['Valley D', '5254', '7441'],
      ['West E', '5299', '8458'],
    ];
    const table = rows.flatMap((r, i) => r.map((c, j) => item(c, 320 + j * 80, 214 + i * 14)));
    const after = column('after', 320, 310, 12);
    const md = markdownOf([
      page([
        centred('Journal of Page Layout 14 (2024)', 40, 8),
        centred('Sediment Recovery in Salt Marshes', 80, 20),
        centred('Alice Marlow and Kenneth Thornbury', 104, 11),
        ...left,
        ...right,
        ...table,
        ...after,
      ]),
    ]);
    expect(md).toContain('| North B | 3774 | 6197 |');
    expect(md.indexOf('left180')).toBeLessThan(md.indexOf('right1 '));
  });
});

describe('amounts flush left beside figures flush right', () => {
  it("keep each amount under its own head: the cells' alignment shows where columns meet", () => {
    // Heads flush right over their columns; currency amounts flush left in the same columns, one
    // cell's padding (3.5 pt) right of where the column before ends its figures flush right.
    const rows: Array<Array<[string, number, number]>> = [
      [
        ['Measure', 65.8, 100.9],
        ['H1 2024', 262.4, 295.8],
        ['H1 2023', 379.2, 412.6],
        ['Change', 498.3, 529.4],
      ],
      [
        ['Revenue', 65.8, 99.0],
        ['€ 412.6m', 182.5, 218.3],
        ['€ 398.1m', 299.3, 335.1],
        ['+3.6%', 504.3, 529.4],
      ],
      [
        ['Operating profit', 65.8, 127.2],
        ['€ 38.2m', 182.5, 213.6],
        ['€ 41.9m', 299.3, 330.4],
        ['−8.8%', 504.3, 529.4],
      ],
      [
        ['Free cash flow', 65.8, 121.7],
        ['€ (4.1)m', 182.5, 215.2],
        ['€ 12.7m', 299.3, 330.4],
        ['n/a', 416.0, 427.6],
      ],
      [
        ['Employees', 65.8, 108.0],
        ['2,314', 274.5, 295.8],
        ['2,287', 391.3, 412.6],
        ['+27', 514.6, 529.4],
      ],
    ];
    const items = rows.flatMap((r, i) => r.map(([t, x0, x1]) => item(t, x0, 95 + i * 14.4, 9, { x1, bold: i === 0 })));
    const md = markdownOf([page(items)]);
    expect(md).toContain('| **Measure** | **H1 2024** | **H1 2023** | **Change** |');
    expect(md).toContain('| Free cash flow | € (4.1)m | € 12.7m | n/a |');
    expect(md).toContain('| Employees | 2,314 | 2,287 | +27 |');
  });
});

describe('a line of prose right under a table', () => {
  it("is no row of the table though its stretched spaces fall in the table's gutters", () => {
    // A table in 8.1 pt (bold heads; labels, and figures flush right at 215 and 296 pt) and, 7 pt
    // under its last row, a justified line in 9 pt across the same width whose words stand 9.4 pt
    // apart: two of them inside the first gutter, one inside the second.
    const box = (text: string, x0: number, x1: number, y0: number, size: number, bold = false): TextItem =>
      item(text, x0, y0 + size * 0.8, size, { x1, y0, y1: y0 + size * 1.17, bold });
    const rows = [
      ['Station', 'Mean', 'Max'],
      ['S1', '22.9', '10.0'],
      ['S2', '26.1', '13.1'],
      ['S3', '14.3', '11.0'],
      ['S4', '33.9', '20.8'],
      ['S5', '13.7', '29.2'],
    ];
    const ends = [0, 215.1, 296.4];
    const table = rows.flatMap((r, i) =>
      r.map((c, j) =>
        j === 0
          ? box(c, 55.8, 55.8 + c.length * 4.6, 80.4 + i * 12.86, 8.1, i === 0)
          : box(c, ends[j]! - c.length * 4.6, ends[j]!, 80.4 + i * 12.86, 8.1, i === 0),
      ),
    );
    const words: Array<[string, number, number]> = [
      ['These', 54.1, 81.1],
      ['figures', 90.5, 122.2],
      ['suggest', 131.5, 166.9],
      ['that', 176.3, 194.6],
      ['the', 204.0, 218.7],
      ['managed', 228.0, 269.9],
      ['root', 279.1, 297.9],
    ];
    const prose = words.map(([t, x0, x1]) => box(t, x0, x1, 161.4, 9));
    const md = markdownOf([page([...table, ...prose])]);
    // The table ends with its last row, in its three columns; the line is text after it.
    expect(md).toContain('| **Station** | **Mean** | **Max** |');
    expect(md).toContain('| S5 | 13.7 | 29.2 |\n\nThese');
    expect(md).not.toMatch(/\| These|figures \|/);
  });
});

describe('tables side by side in two columns', () => {
  it("keeps the right table's last row, level with the head row of the table that starts beside it", () => {
    // Right column: Plot / Spring / Autumn and five rows. Left column: prose, then a caption and a
    // table whose head row stands level with the right table's last row (P5).
    const items: TextItem[] = [];
    const right = [
      ['Plot', 'Spring', 'Autumn'],
      ['P1', '16', '7'],
      ['P2', '48', '53'],
      ['P3', '30', '9'],
      ['P4', '6', '27'],
      ['P5', '5', '14'],
    ];
    const ys = [303.7, 319.4, 330.7, 347.2, 362.3, 377.9];
    right.forEach((r, i) =>
      r.forEach((c, j) =>
        items.push(
          item(c, j === 0 ? 311.4 : [0, 360.7, 400.8][j]! - c.length * 4.3, ys[i]! + 6, 8.6, {
            x1: j === 0 ? 311.4 + c.length * 4.3 : [0, 360.7, 400.8][j]!,
            bold: i === 0,
          }),
        ),
      ),
    );
    for (let k = 0; k < 24; k++)
      items.push(item(`l${k} words of the left column's prose run on`, 51.7, 60 + k * 12 + 6, 9, { x1: 288.4 }));
    for (let k = 0; k < 19; k++)
      items.push(item(`q${k} words of the right column's prose run on`, 306.4, 60 + k * 12 + 6, 9, { x1: 543 }));
    for (let k = 0; k < 14; k++)
      items.push(item(`m${k} words of the left column's prose run on`, 51.7, 440 + k * 12 + 6, 9, { x1: 288.4 }));
    items.push(item('Table 1: Results on the test split.', 51.7, 362.3 + 6, 8.6, { x1: 159.8 }));
    const left = [
      ['Model', 'Params', 'Acc.', 'F1'],
      ['Linear', '77M', '79.8', '81.1'],
      ['Tree', '49M', '93.2', '74.1'],
      ['Forest', '82M', '77.3', '52.8'],
    ];
    left.forEach((r, i) =>
      r.forEach((c, j) =>
        items.push(
          item(c, [56.7, 100.4, 138.9, 163.8][j]!, 377.9 + i * 14 + 6, 8.6, {
            x1: [56.7, 100.4, 138.9, 163.8][j]! + c.length * 4.3,
            bold: i === 0,
          }),
        ),
      ),
    );
    for (let k = 0; k < 17; k++)
      items.push(item(`r${k} words of the right column's prose run on`, 306.4, 396.7 + k * 12 + 6, 9, { x1: 543 }));
    const md = markdownOf([page(items)]);
    expect(md).toContain('| P4 | 6 | 27 |\n| P5 | 5 | 14 |');
    expect(md).toContain('| Tree | 49M | 93.2 | 74.1 |');
  });
});

describe('the foot of a table in one column and the head of another in the next', () => {
  it('are two tables, not one across the gutter, where no line of one is level with a line of the other', () => {
    // The middle of an A4 page of two columns, as a browser printed it (text, box, size, bold,
    // italic): left, Table 1's caption and rows, then prose; right, the end of a paragraph, Table 2's
    // caption and rows falling between the left table's rows, their figures on baselines of their own.
    const raw: Array<[string, number, number, number, number, number, number, number]> = [
      ['Table 1: Results on the test split.', 51.7, 159.8, 386.3, 394.7, 8.4, 0, 1],
      ['Model', 56.7, 80, 401.9, 410.5, 8.5, 1, 0],
      ['Params', 100.4, 128.3, 401.9, 410.5, 8.5, 1, 0],
      ['Acc.', 138.2, 153.8, 401.9, 410.5, 8.5, 1, 0],
      ['F1', 169.3, 178.8, 401.9, 410.5, 8.5, 1, 0],
      ['Linear', 56.7, 79, 416.2, 424.7, 8.5, 0, 0],
      ['77M', 100.4, 116.6, 416.2, 424.7, 8.5, 0, 0],
      ['79.8', 138.9, 153.8, 416.2, 424.7, 8.5, 0, 0],
      ['81.1', 163.8, 178.8, 416.2, 424.7, 8.5, 0, 0],
      ['Tree', 56.7, 72, 429.7, 438.2, 8.5, 0, 0],
      ['49M', 100.4, 116.6, 429.7, 438.2, 8.5, 0, 0],
      ['93.2', 138.9, 153.8, 429.7, 438.2, 8.5, 0, 0],
      ['74.1', 163.8, 178.8, 429.7, 438.2, 8.5, 0, 0],
      ['Forest', 56.7, 77.8, 443.9, 452.5, 8.5, 0, 0],
      ['82M', 100.4, 116.6, 443.9, 452.5, 8.5, 0, 0],
      ['77.3', 138.9, 153.8, 443.9, 452.5, 8.5, 0, 0],
      ['52.8', 163.8, 178.8, 443.9, 452.5, 8.5, 0, 0],
      ['Boosted', 56.7, 84.6, 457.4, 466, 8.5, 0, 0],
      ['64M', 100.4, 116.6, 457.4, 466, 8.5, 0, 0],
      ['92.4', 138.9, 153.8, 457.4, 466, 8.5, 0, 0],
      ['66.2', 163.8, 178.8, 457.4, 466, 8.5, 0, 0],
      ['Ensemble', 56.7, 90.4, 470.9, 479.5, 8.5, 0, 0],
      ['31M', 100.4, 116.6, 470.9, 479.5, 8.5, 0, 0],
      ['97.3', 138.9, 153.8, 470.9, 479.5, 8.5, 0, 0],
      ['69.9', 163.8, 178.8, 470.9, 479.5, 8.5, 0, 0],
      ['The', 51.7, 66.5, 491.9, 501.4, 9.5, 0, 0],
      ['fi', 69.3, 74.6, 491.9, 501.4, 9.5, 0, 0],
      ['eld crew noted that the riparian bu', 74.6, 207.4, 491.9, 501.4, 9.5, 0, 0],
      ['ff', 207.4, 213.1, 491.9, 501.4, 9.5, 0, 0],
      ['er near Marlow had', 213.1, 288.4, 491.9, 501.4, 9.5, 0, 0],
      ['doubled before any upland measure began. A second pass', 51.7, 288.4, 503.9, 513.4, 9.5, 0, 0],
      ['over the peat layer con', 51.7, 140.9, 515.9, 525.4, 9.5, 0, 0],
      ['fi', 140.9, 146.1, 515.9, 525.4, 9.5, 0, 0],
      ['rmed that the beetle assemblage had', 146.1, 288.4, 515.9, 525.4, 9.5, 0, 0],
      ['Local volunteers recorded the watershed of every restored site', 306.4, 543, 385.4, 394.9, 9.5, 0, 0],
      ['twice a week, which gave 77 usable readings. The fragmented', 306.4, 543, 396.7, 406.1, 9.5, 0, 0],
      ['seed bank at Yarrow responded by 96 percent between March', 306.4, 543, 408.7, 418.1, 9.5, 0, 0],
      ['and August. These', 306.4, 378.8, 420.7, 430.1, 9.5, 0, 0],
      ['fi', 382.1, 387.4, 420.7, 430.1, 9.5, 0, 0],
      ['gures suggest that the upland seed bank', 387.4, 543, 420.7, 430.1, 9.5, 0, 0],
      ['matters more than the seed bank itself.', 306.4, 452.7, 432.7, 442.1, 9.5, 0, 0],
      ['Table 2: Accuracy against the baselines.', 306.4, 440.6, 452.3, 460.7, 8.4, 0, 1],
      ['Method', 311.4, 339.8, 467.9, 476.5, 8.5, 1, 0],
      ['Dev', 358.5, 372.5, 467.9, 476.5, 8.5, 1, 0],
      ['Test', 386, 401, 467.9, 476.5, 8.5, 1, 0],
      ['Time (s)', 411, 441, 467.9, 476.5, 8.5, 1, 0],
      ['Baseline', 311.4, 340.8, 484.3, 492.8, 8.5, 0, 0],
      ['a', 340.8, 344, 481.8, 488.9, 7.1, 0, 0],
      ['71.4', 357.5, 372.5, 482.2, 490.7, 8.5, 0, 0],
      ['70.9', 386, 401, 482.2, 490.7, 8.5, 0, 0],
      ['12.1', 426, 441, 482.2, 490.7, 8.5, 0, 0],
      ['Rules', 311.4, 330.6, 497.9, 506.5, 8.5, 0, 0],
      ['73.8', 357.5, 372.5, 497.9, 506.5, 8.5, 0, 0],
      ['72.2', 382.5, 397.4, 500, 508.6, 8.5, 0, 0],
      ['*', 397.4, 401, 497.5, 504.7, 7.1, 0, 0],
      ['3.4', 430.3, 441, 497.9, 506.5, 8.5, 0, 0],
      ['Ranker', 311.4, 335.9, 513.7, 522.2, 8.5, 0, 0],
      ['78.6', 353.9, 368.9, 515.8, 524.3, 8.5, 0, 0],
      ['†', 368.9, 372.5, 513.3, 520.4, 7.1, 0, 0],
      ['77.5', 382.5, 397.4, 515.8, 524.3, 8.5, 0, 0],
      ['†', 397.4, 401, 513.3, 520.4, 7.1, 0, 0],
      ['41.7', 426, 441, 513.7, 522.2, 8.5, 0, 0],
    ];
    const items = raw.map(([text, x0, x1, y0, y1, size, bold, italic]): TextItem => ({
      ...item(text, x0, y1 - size * 0.2, size, { bold: !!bold, italic: !!italic }),
      x1,
      y0,
      y1,
    }));
    const md = markdownOf([page(items, { width: 595, height: 842 })]);
    expect(md).toContain(
      '| Tree | 49M | 93.2 | 74.1 |\n| Forest | 82M | 77.3 | 52.8 |\n| Boosted | 64M | 92.4 | 66.2 |\n| Ensemble | 31M | 97.3 | 69.9 |',
    );
    expect(md).not.toMatch(/52\.8 \*Table 2/);
  });
});

describe('a full-width table under two columns', () => {
  // A head row over figures set flush right: Walls, Length (m) and Cover (%) centred in their cells,
  // each nearer the cut before its figures than after it (Length's middle even holds a cut).
  const heads: Array<[string, number]> = [
    ['Parish', 52],
    ['Walls', 225],
    ['Length (m)', 336],
    ['Cover (%)', 463],
  ];
  const body = [
    ['Aldgate', '3785', '556', '423'],
    ['Brenner', '5577', '8198', '1947'],
    ['Carrow', '9027', '5969', '2205'],
    ['Dunmore', '6485', '8773', '8059'],
    ['Elsworth', '7066', '1729', '866'],
  ];
  const right = [296, 420, 544];
  const tableItems = (top: number): TextItem[] => [
    ...heads.map(([t, x]) => item(t, x, top, 9)),
    ...body.flatMap((r, i) =>
      r.map((c, j) =>
        j === 0 ? item(c, 52, top + 12 * (i + 1), 9) : item(c, right[j - 1]! - c.length * 4.5, top + 12 * (i + 1), 9),
      ),
    ),
  ];

  it('keeps its first rows when the two columns above it share rows and a gutter with it', () => {
    // Baselines level across the columns; the column gutter (268 to 310) lines up with the gutter
    // between the first two columns of the table, so one run of rows goes from the text into the
    // table. Three columns follow the table: no gutter runs down the whole page.
    const left = column('left', 50, 200, 12, 7);
    const rightCol = column('right', 310, 200, 12, 7);
    left[left.length - 1]!.text += '.';
    rightCol[rightCol.length - 1]!.text += '.';
    const three = [column('a', 50, 470, 10, 6), column('b', 220, 470, 10, 8), column('c', 400, 470, 10, 6)].flat();
    const md = markdownOf([
      page([
        ...left,
        ...rightCol,
        item('Table 1: Walls surveyed per parish.', 50, 352, 9),
        ...tableItems(376),
        ...three,
      ]),
    ]);
    expect(md).toContain('| Aldgate | 3785 | 556 | 423 |');
    expect(md).toContain('| Brenner | 5577 | 8198 | 1947 |');
  });

  it('names each column by its own head when the head row has one head for each column', () => {
    const md = markdownOf([page([item('Table 1: Walls surveyed per parish.', 50, 352, 9), ...tableItems(376)])]);
    expect(md).toContain('| Parish | Walls | Length (m) | Cover (%) |');
  });
});

describe('a running head right over a table at the top of a page', () => {
  it('is no head row of the table, and leaves the page as a running head', () => {
    // The head sits at 70 pt on a 792 pt page (below the top 8% that no table reaches), its two
    // parts at the text's edges, set off from the table's head row by a line, twice as far as the
    // rows are from each other.
    const head = [item('Working Paper No. 17', 60, 70, 9), item('2', 548, 70, 9)];
    const rows = [
      ['Bank size', 'Cash', 'Loan', 'Credit', 'Tax'],
      ['1 to 5 bn', '753', '9061', '1232', '2123'],
      ['5 to 20 bn', '3427', '4504', '1367', '6758'],
      ['20 to 50 bn', '6878', '4185', '4810', '2991'],
      ['Over 50 bn', '1944', '4508', '7249', '3374'],
    ];
    const table = rows.flatMap((r, i) => r.map((c, j) => item(c, 60 + j * 100, 88 + i * 12, 9)));
    const md = markdownOf([page([...head, ...table, ...column('body', 60, 190, 20, 9)])]);
    expect(md).toContain('| Bank size | Cash | Loan | Credit | Tax |');
    expect(md).not.toContain('Working Paper No. 17');
  });
});

describe('text that starts at the top edge of the page', () => {
  it('reads two columns that start in the top margin band column by column', () => {
    // Lines set close (a list of entries, each its own block) from 30 pt down, in two columns; the
    // margin band holds the first few of each column.
    const words = ['alpha', 'beta gamma', 'delta epsilon zeta', 'eta', 'theta iota kappa lambda'];
    const side = (tag: string, x: number): TextItem[] =>
      Array.from({ length: 30 }, (_, k) =>
        item(`${tag}${k + 1}: ${words[k % words.length]}`, x, 30 + k * 14, 10, { bold: k % 2 === 0 }),
      );
    const md = markdownOf([page([...side('left', 72), ...side('right', 330)])]);
    const at = (re: RegExp): number => md.search(re);
    expect(md).not.toContain('|');
    expect(at(/left30\b/)).toBeGreaterThan(-1);
    expect(at(/right1\b/)).toBeGreaterThan(at(/left30\b/));
  });

  it('still keeps a two-line running header apart from a two-column body below it', () => {
    const header = [item('Journal of Examples', 72, 40, 9), item('Volume 3', 72, 52, 9)];
    const md = markdownOf([page([...header, ...column('left', 72, 120, 20), ...column('right', 330, 120, 20)])], false);
    expect(md.indexOf('Journal of Examples')).toBeLessThan(md.indexOf('left1'));
    expect(md.indexOf('right1 ')).toBeGreaterThan(md.indexOf('left120'));
  });
});

it('reads a number and a date set right of a letterhead with the lines they stand level with', () => {
  const md = markdownOf([
    page([
      item('MANUAL TRANSMITTAL', 72, 60, 14),
      item('2.3.59', 480, 60, 12, { bold: true }),
      item('Department of the Treasury', 72, 80),
      item('DECEMBER 12, 2022', 450, 80, 12),
      item('Internal Revenue Service', 72, 94),
      item('EFFECTIVE DATE', 72, 140, 12, { bold: true }),
      item('(01-17-2023)', 80, 156),
      item('PURPOSE', 72, 190, 12, { bold: true }),
      item('This transmits revised instructions for the terminal responses of the codes and', 80, 210, 10, { x1: 540 }),
      item('their displays.', 80, 222),
    ]),
  ]);
  const at = (t: string): number => md.indexOf(t);
  expect(at('2.3.59')).toBeGreaterThan(at('MANUAL TRANSMITTAL'));
  expect(at('DECEMBER 12, 2022')).toBeLessThan(at('EFFECTIVE DATE'));
  expect(at('PURPOSE')).toBeLessThan(at('This transmits'));
  expect(at('DECEMBER 12, 2022')).toBeGreaterThan(at('Department of the Treasury'));
});

it('reads a run-in heading before the paragraph it opens, whichever top is a hair higher', () => {
  for (const shift of [0.01, -0.01]) {
    const lines = [
      item('In-batch negatives', 72, 200 + shift, 10, { bold: true }),
      item('assume that we have many questions in a', 172, 200, 10, { x1: 300 }),
      item('mini-batch and each one is associated with a', 72, 212, 10, { x1: 300 }),
      item('relevant passage that we use for training the', 72, 224, 10, { x1: 300 }),
      item('encoders of the model.', 72, 236),
    ];
    const md = markdownOf([page([item('Some earlier text of the page that ends here.', 72, 150), ...lines])]);
    expect(md.indexOf('In-batch negatives')).toBeGreaterThan(-1);
    expect(md.indexOf('In-batch negatives')).toBeLessThan(md.indexOf('assume that we'));
  }
});

it('reads the tail of a paragraph at the head of each column with its column, not before both', () => {
  // Each column opens with the last two lines of a paragraph the page broke, in the top band, a
  // paragraph gap above the column's next paragraph.
  const words = 'the of retrieval passages question dense model training answer with encoder results'.split(' ');
  const prose = (tag: string, x: number, y: number, lines: number): TextItem[] =>
    Array.from({ length: lines }, (_, l) => {
      const ws = [`${tag}${l + 1}`];
      for (let k = 0; ws.join(' ').length < 36 + ((l * 7) % 9); k++) ws.push(words[(l * 5 + k) % words.length]!);
      // Justified: every line but a paragraph's last runs to the column's edge.
      return item(
        ws.join(' ') + (l === lines - 1 ? '.' : ''),
        x,
        y + l * 12,
        10,
        l === lines - 1 ? {} : { x1: x + 230 },
      );
    });
  const md = markdownOf(
    [
      page([
        ...prose('atail', 72, 60, 2),
        ...prose('abody', 72, 96, 40),
        ...prose('btail', 330, 60, 2),
        ...prose('bbody', 330, 96, 40),
      ]),
    ],
    false,
  );
  expect(md).not.toContain('|');
  const at = (w: string): number => md.search(new RegExp(`\\b${w}\\b`));
  expect(at('atail1')).toBeLessThan(at('abody1'));
  expect(at('abody40')).toBeLessThan(at('btail1'));
  expect(at('btail2')).toBeLessThan(at('bbody1'));
  // Running heads over the columns (one short line each, set smaller) still come first.
  const heads = [item('Journal of Examples', 72, 40, 8), item('Page 3', 500, 40, 8)];
  const md2 = markdownOf([page([...heads, ...prose('left', 72, 60, 40), ...prose('right', 330, 60, 40)])], false);
  expect(md2.indexOf('Page 3')).toBeLessThan(md2.indexOf('left1 '));
});

describe('contents set in columns', () => {
  it('reads a two-column table of contents column by column, not as a table', () => {
    const entries = (side: string, x: number): TextItem[] =>
      Array.from({ length: 14 }, (_, k) =>
        item(
          `${side} chapter ${k + 1} ${'.'.repeat(25 - String(k).length)} ${side === 'Left' ? k * 3 + 1 : k * 3 + 60}`,
          x,
          100 + k * 14,
        ),
      );
    const md = markdownOf([page([...entries('Left', 60), ...entries('Right', 330)])]);
    expect(md).not.toContain('|');
    const lastLeft = md.indexOf('Left chapter 14');
    const firstRight = md.indexOf('Right chapter 1 ');
    expect(lastLeft).toBeGreaterThan(-1);
    expect(firstRight).toBeGreaterThan(lastLeft);
  });

  it('keeps a real table whose rows end in numbers', () => {
    const rows = Array.from({ length: 6 }, (_, k) => [
      item(`Item ${k + 1}`, 60, 100 + k * 14),
      item(`${k * 7 + 3}`, 250, 100 + k * 14),
      item(`${k * 11 + 5}`, 400, 100 + k * 14),
    ]).flat();
    expect(
      markdownOf([page([item('Name', 60, 86), item('Count', 250, 86), item('Total', 400, 86), ...rows])]),
    ).toContain('| Item 1 | 3 | 5 |');
  });
});

describe('accents built from two glyphs (TeX)', () => {
  it('joins an accent to the letter of the next run kerned under it, and a raised lone accent to the letter below', () => {
    // "Petr Baudiˇ" + "s and Jan ˇ" (the next run starts under the accent) + a raised "ˇ" over the S of "Sedivy".
    const a = item('Petr Baudiˇ', 100, 200);
    const b = item('s and Jan ', a.x1 - 3, 200);
    const sed = item('Sedivy.', b.x1 + 0.2, 200);
    const hacek = item('ˇ', sed.x0 + 0.8, 197.5, 10, { x1: sed.x0 + 4 });
    expect(markdownOf([page([a, b, hacek, sed])]).trim()).toBe('Petr Baudiš and Jan Šedivy.');
  });

  it('leaves an accent alone where no letter is under it or Unicode has no such letter', () => {
    // Apart from the next run (a gap, not a kern): not joined.
    const a = item('tilde ˜', 100, 200);
    const b = item('n', a.x1 + 4, 200);
    expect(markdownOf([page([a, b])]).trim()).toBe('tilde ˜ n');
    // Kerned under, but t with an acute accent is no precomposed letter.
    const c = item('don´', 100, 300);
    const d = item('t', c.x1 - 2, 300);
    expect(markdownOf([page([c, d])]).trim()).toBe('don´t');
    // An acute before a consonant reads as an apostrophe, not as ś.
    const e = item('Norway´', 100, 400);
    const f = item('s largest daily', e.x1 - 2, 400);
    expect(markdownOf([page([e, f])]).trim()).toBe('Norway´s largest daily');
  });
});

describe('layout engine on hostile pages', () => {
  it('lays out a page of scattered runs and a single line of thousands of glyphs', () => {
    let seed = 99;
    const rnd = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const scattered = Array.from({ length: 25000 }, () => item('x', rnd() * 600, rnd() * 780, 2 + rnd() * 20));
    const one = Array.from({ length: 8000 }, (_, i) => item('a', 10 + i * 0.07, 400, 6));
    const lines = Array.from({ length: 3000 }, (_, i) => ({
      x0: rnd() * 600,
      x1: rnd() * 600,
      y0: i % 780,
      y1: i % 780,
      width: 0.5,
    })).map((l) => ({ ...l, x0: Math.min(l.x0, l.x1), x1: Math.max(l.x0, l.x1) }));
    for (const items of [scattered, one]) {
      const layout = layoutPage(page(items, { lines }));
      expect(layout.status).toBe('ok');
      expect(layout.blocks.length).toBeGreaterThan(0);
    }
  });
});

describe('needsOcr', () => {
  it('wants OCR for pages without text, garbage text or text only over a full-page image', () => {
    expect(needsOcr(page([])).needed).toBe(true);
    expect(needsOcr(page([], { images: [{ x0: 0, y0: 0, x1: 612, y1: 792 }] })).reason).toBe('image-only');
    expect(needsOcr(page([item('\uFFFD\uFFFD\uE001\uE002 \uE003\uE004\uE005', 72, 100)])).reason).toBe('garbage-text');
    expect(needsOcr(page([item('12', 300, 770)], { images: [{ x0: 0, y0: 0, x1: 612, y1: 792 }] })).needed).toBe(true);
  });

  it('leaves a page that paints nothing to its (empty) text layer, but not one that draws without text', () => {
    expect(needsOcr(page([], { paints: 0 }))).toMatchObject({ needed: false, reason: 'blank' });
    // Whitespace-only text on an otherwise empty page is still blank.
    expect(needsOcr(page([item('   ', 72, 100)], { paints: 0 })).reason).toBe('blank');
    // Outlined glyphs (vector text) paint paths and carry no text layer: they want OCR.
    expect(needsOcr(page([], { paints: 120 }))).toMatchObject({ needed: true, reason: 'no-text' });
    // Drawing operators not read (text-only fallback): nothing is known about the page's marks.
    expect(needsOcr(page([])).needed).toBe(true);
    expect(needsOcr(page([], { paints: 0, images: [{ x0: 0, y0: 0, x1: 612, y1: 792 }] })).reason).toBe('image-only');
  });

  it('keeps native text that reads', () => {
    expect(needsOcr(page(column('word', 72, 100, 20))).needed).toBe(false);
    // A scan with a good invisible text layer over it reads natively.
    expect(needsOcr(page(column('word', 72, 100, 30), { images: [{ x0: 0, y0: 0, x1: 612, y1: 792 }] })).needed).toBe(
      false,
    );
  });

  it('reads a table of contents natively: dot leaders are not a font without letters', () => {
    const toc = ['Introduction', 'Methods', 'Results', 'Discussion', 'Appendix'].flatMap((title, i) => [
      item(`${title} ${'.'.repeat(90)} ${i * 7 + 1}`, 72, 100 + i * 20),
      item(`${i + 1}.1 Part ${'. '.repeat(40)} ${i * 7 + 3}`, 90, 110 + i * 20),
    ]);
    expect(needsOcr(page(toc)).needed).toBe(false);
    // Symbols that do not repeat, as a font without a Unicode map decodes, still want OCR.
    expect(
      needsOcr(page([item('#%&)*+/<=>?@[]^_{|}~!$(;:', 72, 100), item('~}|{_^]@?>=</+*)&%$#!', 72, 120)])).reason,
    ).toBe('garbage-text');
  });
});

describe('notes in a script without case', () => {
  /** A line of Korean text: Hangul and Han set an em wide, other characters half an em. */
  function wide(text: string, x: number, y: number, size = 9): TextItem {
    let w = 0;
    for (const ch of text) w += /[\p{Script=Hangul}\p{Script=Han}]/u.test(ch) ? size : size * 0.5;
    return item(text, x, y, size, { x1: x + w });
  }

  it('two columns of "*" notes wrapped onto lines without the sign are notes read column by column, not a table', () => {
    const left = [
      '* 발급월+1개월까지는 전월 이용금액 40만원 미만 시에도 제공',
      '* 할인점은 온라인몰도 포함되며, 기업형 슈퍼마켓(이마트',
      '에브리데이, 홈플러스 익스프레스, 롯데슈퍼 등), 쇼핑 외 결제건',
      '(상품권, 주차장 등), 임대매장은 제외',
      '* 주유는 LPG충전소 포함',
    ];
    const right = [
      '* 전월 이용금액 40만원 이상 시 제공',
      '* 발급월+1개월까지는 전월 이용금액 40만원 미만 시에도 제공',
      '* 커피전문점은 오프라인 결제건에 한하며, 임대매장은 제외',
      '(단, 스타벅스의 경우, 사이렌오더 결제건도 혜택 제공)',
      '* 제과점은 오프라인 결제건에 한하며, 임대매장은 제외',
    ];
    // The sign, then the note's text 8 pt right of it; lines that go on are set at the text.
    const note = (t: string, x: number, y: number): TextItem[] =>
      t.startsWith('* ') ? [item('*', x, y, 8), wide(t.slice(2), x + 8, y, 8)] : [wide(t, x + 8, y, 8)];
    const lefts = left.flatMap((t, i) => note(t, 40, 200 + i * 12));
    const gutter = Math.max(...lefts.map((l) => l.x1)) + 20;
    const items = [...lefts, ...right.flatMap((t, i) => note(t, gutter, 200 + i * 12))];
    const md = markdownOf([page(items)]);
    expect(md).not.toContain('| --- |');
    // The note goes on over its second and third lines, and the left column comes first.
    expect(md).toContain(
      '기업형 슈퍼마켓(이마트 에브리데이, 홈플러스 익스프레스, 롯데슈퍼 등), 쇼핑 외 결제건 (상품권, 주차장 등), 임대매장은 제외',
    );
    expect(md.indexOf('주유는 LPG충전소 포함')).toBeLessThan(md.indexOf('전월 이용금액 40만원 이상 시 제공'));
    // The second column's notes are a list of their own, not items nested in the first column's last.
    expect(md).toMatch(/^- 전월 이용금액 40만원 이상 시 제공$/m);
  });
});

describe('rules typed as text', () => {
  it('a line of "=" or "-" signs (a receipt, a plain-text report) is a rule between paragraphs, never part of one', () => {
    const mono = { monospace: true } as Partial<TextItem>;
    const lines = [
      'Store #0342 - Downtown',
      'TXN: 98765-2024',
      '===================================',
      'USB-C Hub 7-in-1 Adapter',
      '2 @ $79.99 $159.98',
      '-----------------------------------',
      'SUBTOTAL $863.91',
    ];
    const md = markdownOf([page(lines.map((t, i) => item(t, 200, 100 + i * 11, 9, mono)))]);
    expect(md).toContain('TXN: 98765-2024\n\n---\n\nUSB-C Hub 7-in-1 Adapter');
    expect(md).toContain('$159.98\n\n---\n\nSUBTOTAL $863.91');
    expect(md).not.toContain('===');
  });

  it("short monospaced lines laid out by hand (a receipt's items) are a paragraph a line, code is not", () => {
    const mono = { monospace: true } as Partial<TextItem>;
    const receipt = [
      'Wireless Noise-Cancelling',
      'Headphones - Premium Black',
      'AUDIO-5521 1 @ $349.99',
      'Member Discount $-50.00',
    ];
    const md = markdownOf([page(receipt.map((t, i) => item(t, 200, 100 + i * 11, 9, mono)))]);
    expect(md).toContain(
      'Wireless Noise-Cancelling\n\nHeadphones - Premium Black\n\nAUDIO-5521 1 @ $349.99\n\nMember Discount $-50.00',
    );
    const code = ['for (let i = 0; i < n; i++) {', '  total += price[i];', '}', 'return total;'];
    expect(markdownOf([page(code.map((t, i) => item(t, 200, 100 + i * 11, 9, mono)))])).toContain('```');
  });
});

describe('numbered badges', () => {
  it('a section number set larger before its heading on the same baseline is part of the heading line', () => {
    const bold = { bold: true } as Partial<TextItem>;
    const items = [
      item('1', 384, 200, 15, bold),
      item('Defend critical infrastructure', 405, 200, 11, bold),
      item('1.1: Establish cybersecurity requirements', 405, 222, 9),
      item('1.2: Scale public-private collaboration', 405, 234, 9),
    ];
    const md = markdownOf([page(items)]);
    expect(md).toMatch(/^(?:#+ |\*\*)?1 Defend critical infrastructure/m);
    // A figure of the same size as the text after it, a gutter away, stays apart (a table's first column).
    const row = markdownOf([
      page([
        item('1', 72, 200, 10),
        item('Widget', 100, 200, 10),
        item('2', 72, 214, 10),
        item('Gadget', 100, 214, 10),
        item('3', 72, 228, 10),
        item('Sprocket', 100, 228, 10),
      ]),
    ]);
    expect(row).not.toContain('1 Widget');
  });
});

describe('borderless tables whose cells wrap over several lines', () => {
  const bold = { bold: true } as Partial<TextItem>;
  /** Rows of [cells...], each cell its lines; lines `lead` apart, rows `rowGap` further apart. */
  function table(
    xs: number[],
    head: string[],
    rows: string[][][],
    y0: number,
    lead = 12,
    rowGap = 4,
    size = 10,
  ): TextItem[] {
    const out = head.map((t, i) => item(t, xs[i]!, y0, size, bold));
    let y = y0 + lead + rowGap;
    for (const r of rows) {
      r.forEach((cell, i) => cell.forEach((t, k) => out.push(item(t, xs[i]!, y + k * lead, size))));
      y += Math.max(...r.map((c) => c.length)) * lead + rowGap;
    }
    return out;
  }
  const meaning = [
    [['A'], ['Yes'], ['Adjustment transactions including the', 'code, posted date and other dates']],
    [['B'], ['No'], ['Re-establishes the retention module', 'back to the active master file']],
    [['C'], ['Yes'], ['Help screen']],
    [['D'], ['No'], ['Entity information including the', 'freeze codes, indicators and posted', 'transactions']],
    [['E'], ['Yes'], ['Payment summary']],
  ];

  it('a wrapped description column is a column of the table, each cell whole, when rows stand further apart than lines', () => {
    const md = markdownOf([
      page([item('The codes in use:', 72, 80), ...table([72, 140, 200], ['Code', 'Active', 'Meaning'], meaning, 110)]),
    ]);
    expect(md).toContain('| **Code** | **Active** | **Meaning** |');
    expect(md).toContain('| A | Yes | Adjustment transactions including the code, posted date and other dates |');
    expect(md).toContain(
      '| D | No | Entity information including the freeze codes, indicators and posted transactions |',
    );
    expect(md).not.toMatch(/^#+ Meaning/m);
  });

  it('rows set as tight as lines: a cell goes on where its lines go on in lower case and no row starts so', () => {
    const md = markdownOf([page(table([72, 140, 200], ['Code', 'Active', 'Meaning'], meaning, 110, 12, 0))]);
    expect(md).toContain('| B | No | Re-establishes the retention module back to the active master file |');
    expect(md).toContain('| E | Yes | Payment summary |');
  });

  it('two cells of a row wrapped together go on together', () => {
    const rows = [
      [
        ['X1'],
        ['Primary pump assembly for the', 'north cooling loop'],
        ['Replaced in March after', 'the bearing failed'],
      ],
      [['X2'], ['Secondary valve'], ['Inspected yearly']],
      [['X3'], ['Pressure sensor mounted on', 'the return line'], ['Calibrate before each', 'season starts']],
      [['X4'], ['Control panel'], ['None']],
    ];
    const md = markdownOf([page(table([72, 120, 330], ['Code', 'Description', 'Remarks'], rows, 110, 12, 6))]);
    expect(md).toContain(
      '| X1 | Primary pump assembly for the north cooling loop | Replaced in March after the bearing failed |',
    );
    expect(md).toContain('| X3 | Pressure sensor mounted on the return line | Calibrate before each season starts |');
  });

  it('a row that leaves its first cell empty in a table of tight rows stays a row of its own', () => {
    const rows = [
      [['Smith'], ['Sales'], ['London']],
      [[], ['Marketing'], ['Paris']],
      [['Jones'], ['Finance'], ['Leeds']],
      [['Brown'], ['Legal'], ['York']],
    ];
    const md = markdownOf([page(table([72, 160, 260], ['Name', 'Team', 'Office'], rows, 110, 12, 0))]);
    expect(md).toContain('|  | Marketing | Paris |');
  });

  it('heads over three lines, one of them set closer to the next head than the columns stand', () => {
    // "Tax Per" and "Result" are a word space apart in the head line, but every body row keeps the
    // column boundary between them; "Display" stands alone over "File" / "Source".
    const head = [
      item('Display', 235, 100, 10, bold),
      item('File', 235, 112, 10, bold),
      item('MFT &', 281, 112, 10, bold),
      item('Definer', 190, 124, 10, bold),
      item('Source', 235, 124, 10, bold),
      item('Tax Per', 281, 124, 10, bold),
      item('Result', 321, 124, 10, bold),
    ];
    const body: TextItem[] = [];
    const rows: Array<[string, string, string, string[]]> = [
      ['A', 'Y', 'Y', ['Adjustment transactions including', 'code, posted date and cycle']],
      ['B', 'Y', 'N', ['Retention tax module']],
      ['C', 'N', 'N', ['Tax module screen associated', 'with the check number']],
      ['D', 'Y', 'N', ['Deposit schedules']],
    ];
    let y = 143;
    for (const [a, b, c, d] of rows) {
      body.push(item(a, 190, y), item(b, 235, y), item(c, 281, y));
      d.forEach((t, k) => body.push(item(t, 326, y + k * 12)));
      y += d.length * 12 + 7;
    }
    const md = markdownOf([page([...head, ...body])]);
    expect(md).toContain('| **Definer** | **Display File Source** | **MFT & Tax Per** | **Result** |');
    expect(md).toContain('| A | Y | Y | Adjustment transactions including code, posted date and cycle |');
    expect(md).toContain('| C | N | N | Tax module screen associated with the check number |');
  });

  it("a smaller sub-line under each row, across the columns, stays with its row, the last row's too", () => {
    const xs = [50, 100, 215, 250, 300];
    const items = [
      item('Invoice 2024-001', 50, 60, 16, bold),
      ...['Item', 'Description', 'Qty', 'Unit', 'Amount'].map((t, i) => item(t, xs[i]!, 100, 9, bold)),
    ];
    const rows = [
      ['A-100', 'Widget, large', '2', '$10.00', '$20.00', 'Includes mounting kit, brackets, screws and a warranty'],
      ['B-200', 'Gadget', '1', '$35.50', '$35.50', 'Refurbished unit, tested and certified by the factory'],
      ['C-300', 'Cable set', '4', '$2.25', '$9.00', 'Assorted lengths with gold plated connectors at the ends'],
    ];
    let y = 116;
    for (const r of rows) {
      r.slice(0, 5).forEach((t, i) => items.push(item(t, xs[i]!, y, 9)));
      items.push(item(r[5]!, 110, y + 11, 7));
      y += 25;
    }
    items.push(item('Total: $64.50', 460, y + 10, 10, bold));
    const md = markdownOf([page(items)]);
    expect(md).toContain(
      '| A-100 | Widget, large Includes mounting kit, brackets, screws and a warranty | 2 | $10.00 | $20.00 |',
    );
    expect(md).toContain(
      '| C-300 | Cable set Assorted lengths with gold plated connectors at the ends | 4 | $2.25 | $9.00 |',
    );
    expect(md.match(/^\| --- /gm)).toHaveLength(1);
  });

  it('two columns of running text are no table, however their lines line up', () => {
    const left = column('left', 72, 130, 10),
      right = column('right', 320, 130, 7);
    const md = markdownOf([page([...left, ...right])]);
    expect(md).not.toContain('|');
  });
});

describe("margin text told from the body's first and last lines", () => {
  it('numbered rows ending each page stay; a footer repeated with its page number goes; a footer taken into the last row is cut off', () => {
    const pages = [18, 57, 96].map((k, n) => {
      const rows: TextItem[] = [];
      // Contents rows at even spacing down to the page foot; the last one ends each page.
      for (let r = 0; r < 12; r++)
        rows.push(
          item(`2.3.59-${k - 12 + r}`, 72, 572 + r * 14),
          item(`Command Code BMFOL Display ${r}`, 140, 572 + r * 14),
        );
      // The footer on the line under the last row; on the middle page right under its text, so that
      // the two come as one block.
      const foot = [item('Internal Revenue Manual', n === 1 ? 140 : 400, 751)];
      return page(
        [
          ...column(`p${n}w`, 72, 100, 30),
          ...rows,
          item(`2.3.59-${k}`, 72, 740),
          item('Command Code BMFOL Tax Module Display', 140, 740),
          ...foot,
          item(`Page ${n + 1}`, 500, 775, 8),
        ],
        { pageNumber: n + 1 },
      );
    });
    const md = markdownOf(pages);
    for (const k of [18, 57, 96]) expect(md).toContain(`2.3.59-${k}`);
    expect(md).not.toContain('Internal Revenue Manual');
    expect(md).not.toMatch(/Page \d/);
    expect(md).toContain('Command Code BMFOL Tax Module Display');
    expect(markdownOf(pages, false)).toContain('Internal Revenue Manual');
  });
});

describe('hyphens at line ends', () => {
  const para = (lines: string[], y = 100): TextItem[] => lines.map((t, i) => item(t, 72, y + i * 12));

  it('keeps the hyphens of a compound that goes on after the break, and after a prefix before a word', () => {
    const md = markdownOf([
      page(
        para([
          'Modern systems reach state-',
          'of-the-art results with a simple dual-',
          'encoder model, and the multi-',
          'dataset setting and the co-',
          'operation of both help with self-',
          'attention as the main part here.',
        ]),
      ),
    ]);
    expect(md).toContain('state-of-the-art');
    expect(md).toContain('dual-encoder');
    expect(md).toContain('multi-dataset');
    expect(md).toContain('cooperation');
    expect(md).toContain('self-attention');
  });

  it("follows the document's own spelling of a word split at a line end", () => {
    const split = para([
      'We report results on the bench-',
      'mark set and on a data-',
      'driven model of the task here.',
    ]);
    expect(markdownOf([page(split)])).toContain('the bench-mark set');
    // Written closed up elsewhere in the document: closed up at the break too.
    const md = markdownOf([page([...split, ...para(['The benchmark has three parts.'], 200)])]);
    expect(md).toContain('the benchmark set');
    expect(md).toContain('data-driven');
    expect(md).not.toContain('\u00AD');
  });
});

describe('bold lead-ins', () => {
  const bold = { bold: true } as Partial<TextItem>;
  it('a bold lead-in wrapped mid-phrase stays in one paragraph with the plain text that goes on from it', () => {
    const items = [
      item('Organizational roles, responsibilities, and', 72, 100, 10, bold),
      item('coordination. While the framework sets out who does what, the', 72, 112),
      item('agencies agree on the details among themselves each year.', 72, 124),
    ];
    const md = markdownOf([page(items)]);
    expect(md).not.toMatch(/^#/m);
    expect(md.trim().split('\n\n')).toHaveLength(1);
    expect(md).toContain('**Organizational roles, responsibilities, and** coordination.');
  });

  it('a bold title line that ends a phrase is still a block of its own', () => {
    const items = [
      item('Organizational Roles', 72, 100, 10, bold),
      item('While the framework sets out who does what, the agencies', 72, 112),
      item('agree on the details among themselves each year.', 72, 124),
    ];
    const md = markdownOf([page(items)]);
    expect(md.trim().split('\n\n')).toHaveLength(2);
  });
});

describe('tables of dashes and marks, turned heads', () => {
  // A sheet printed with rules between rows: row labels, four value columns set flush right, most
  // cells an em dash for nothing.
  const labels = [
    'Zone NA',
    'Zone EUR',
    'Zone AOA',
    'Zone LATAM',
    'Zone GC',
    'Nestlé Health Science',
    'Nespresso',
    'Total',
  ];
  const values = [
    ['—', '(9)', '—', '(285)'],
    ['—', '(23)', '—', '—'],
    ['—', '(6)', '—', '—'],
    ['—', '(14)', '—', '—'],
    ['—', '—', '—', '—'],
    ['(16)', '(3)', '—', '(314)'],
    ['—', '—', '—', '—'],
    ['(16)', '(55)', '—', '(599)'],
  ];
  const rights = [306, 382, 470, 545];
  function dashTable(y0: number): TextItem[] {
    return labels.flatMap((label, r) => [
      item(label, 50, y0 + r * 12.7, 8),
      ...values[r]!.map((v, c) => item(v, rights[c]! - v.length * 4, y0 + r * 12.7, 8)),
    ]);
  }
  // A rule over each row and one under the last.
  const rules = [...labels, ''].map((_, r) => ({
    x0: 48,
    x1: 546,
    y0: 227 + r * 12.7,
    y1: 227 + r * 12.7,
    width: 0.1,
  }));

  it('a ruled sheet whose cells are mostly em dashes is a table, the dashes its values', () => {
    const md = markdownOf([
      page([item('Other information', 50, 90, 9, { bold: true }), ...dashTable(236)], { lines: rules }),
    ]);
    expect(md).toContain('| Zone NA | — | (9) | — | (285) |');
    expect(md).toContain('| Zone GC | — | — | — | — |');
    expect(md).toContain('| Total | (16) | (55) | — | (599) |');
    expect(md).not.toMatch(/^#+ Zone/m);
  });

  it("a units line and a period set apart under a table are the next table's heads, not its last row; its shaded rows are no chart", () => {
    // Two sheets one above the other, the second's units and period set a blank line or two under
    // the first's last row; each value column group shaded, the shading a box per row as tall as it.
    const sheet = (y0: number): TextItem[] =>
      labels.flatMap((label, r) => [
        item(label, 50, y0 + r * 12.7, 8),
        ...values[r]!.map((v, c) =>
          item(v.replace('—', String(100 + r * 7 + c)), rights[c]! - v.length * 4, y0 + r * 12.7, 8),
        ),
      ]);
    const shading = labels.flatMap((_, r) =>
      [0, 1].map((g) => ({
        x0: 260 + g * 150,
        x1: 390 + g * 150,
        y0: 227 + r * 12.7,
        y1: 227 + (r + 1) * 12.7 + (r === 3 ? 12.7 : 0),
        filled: true,
        stroked: false,
      })),
    );
    const md = markdownOf([
      page(
        [
          ...sheet(236),
          item('In millions of CHF', 50, 360, 8),
          item('January–June', 494, 365, 8),
          item('2022', 525, 374, 8),
          ...sheet(400),
        ],
        { rects: shading },
      ),
    ]);
    const tables = md.split('\n\n').filter((b) => b.startsWith('|'));
    expect(tables).toHaveLength(2);
    expect(tables[0]).not.toContain('In millions');
    expect(md).toMatch(
      /\| Total \| \(16\) \| \(55\) \| 151 \| \(599\) \|\n\nIn millions of CHF\n\nJanuary–June 2022\n\n\| Zone NA/,
    );
  });

  it('a grid of single letters, every cell filled, is a table', () => {
    const items: TextItem[] = [];
    for (let r = 0; r < 12; r++) for (let c = 0; c < 6; c++) items.push(item('x', 55 + c * 80, 80 + r * 15.7, 11));
    const md = markdownOf([page(items)]);
    expect(md.trim().split('\n')).toHaveLength(12 + 1);
    expect(md).toContain('| x | x | x | x | x | x |\n| --- | --- | --- | --- | --- | --- |');
  });

  it('formula pieces set apart are still no table', () => {
    // A displayed formula whose operators and variables the line builder set apart, over two rows.
    const parts = [
      ['x', '=', 'a', '+', 'b'],
      ['y', '−', 'c', '·', 'd'],
      ['z', '=', 'e', '×', 'f'],
    ];
    const items = parts.flatMap((row, r) => row.map((t, c) => item(t, 200 + c * 30, 300 + r * 14, 10)));
    const md = markdownOf([page([...column('text', 72, 100, 8), ...items])]);
    expect(md).not.toContain('|');
  });

  /** A head turned to read upwards over the column whose right edge is `right`: its lines left to right. */
  function turnedHead(lines: string[], right: number, foot: number, size = 8): TextItem[] {
    const lead = size * 1.16;
    const x0 = right - lines.length * lead;
    return lines.map((t, k) => ({
      text: t,
      x0: x0 + k * lead,
      x1: x0 + (k + 1) * lead,
      y0: foot - t.length * size * CHAR_W,
      y1: foot,
      fontSize: size,
      fontName: 'Test',
      bold: false,
      italic: false,
      dir: 'ltr' as const,
      angle: 270 as const,
    }));
  }

  it("heads turned upright over the columns are the table's head row, read in their own direction; a turned stamp in the margin stays out", () => {
    const turned = [
      ...turnedHead(['Impairment of', 'goodwill and', 'intangible assets'], 309, 222),
      ...turnedHead(['Impairment of', 'intangible assets'], 382, 222),
      ...turnedHead(['Impairment of', 'goodwill and', 'intangible assets'], 472, 222),
      ...turnedHead(['Impairment of', 'intangible assets'], 545, 222),
      // An identifier up the left margin, as arXiv stamps its papers.
      ...turnedHead(['arXiv:2401.00001v1 [cs.CL] 1 Jan 2024'], 30, 600, 20),
    ];
    const md = markdownOf([
      page([item('Other information', 50, 90, 9, { bold: true }), ...dashTable(236)], { lines: rules, turned }),
    ]);
    const rows = md
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('|'));
    expect(rows[0]).toBe(
      '|  | Impairment of goodwill and intangible assets | Impairment of intangible assets | Impairment of goodwill and intangible assets | Impairment of intangible assets |',
    );
    expect(rows[2]).toBe('| Zone NA | — | (9) | — | (285) |');
    expect(md).not.toContain('arXiv');
  });

  it("a units line and periods stacked right over the turned heads are the head's upper row; a title across the columns is not", () => {
    const turned = [
      ...turnedHead(['Impairment of', 'goodwill and', 'intangible assets'], 309, 222),
      ...turnedHead(['Impairment of', 'intangible assets'], 382, 222),
      ...turnedHead(['Impairment of', 'goodwill and', 'intangible assets'], 472, 222),
      ...turnedHead(['Impairment of', 'intangible assets'], 545, 222),
    ];
    const upper = [
      item('In millions of CHF', 50, 124, 8),
      item('January–June', 331, 130, 8),
      item('2023', 362, 140, 8),
      item('January–June', 494, 130, 8),
      item('2022', 525, 140, 8),
    ];
    const md = markdownOf([
      page([item('Other information', 50, 88, 9, { bold: true }), ...upper, ...dashTable(236)], {
        lines: rules,
        turned,
      }),
    ]);
    const rows = md
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('|'));
    expect(rows[0]).toBe('| In millions of CHF |  | January–June 2023 |  | January–June 2022 |');
    expect(rows[2]).toBe(
      '|  | Impairment of goodwill and intangible assets | Impairment of intangible assets | Impairment of goodwill and intangible assets | Impairment of intangible assets |',
    );
    expect(md.startsWith('**Other information**\n\n|') || md.startsWith('# Other information\n\n|')).toBe(true);

    // A title set across the columns right over the heads stays a paragraph, and so does all above it.
    const titled = markdownOf([
      page(
        [
          item('Impairment charges by zone and by half-year period', 200, 140, 8),
          ...upper.slice(0, 1),
          ...dashTable(236),
        ],
        { lines: rules, turned },
      ),
    ]);
    expect(titled).toContain('Impairment charges by zone and by half-year period\n');
    expect(
      titled
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('|'))[0],
    ).toBe(
      '|  | Impairment of goodwill and intangible assets | Impairment of intangible assets | Impairment of goodwill and intangible assets | Impairment of intangible assets |',
    );
  });

  it('turned heads inside the ruled head cells of a fully ruled table fill those cells', () => {
    // Rules round every cell, the head row 90 pt tall with the turned heads in it.
    const xs = [48, 200, 310, 390, 475, 546];
    const ys = [132, ...labels.map((_, r) => 227 + r * 12.7), 227 + labels.length * 12.7];
    const grid = [
      ...ys.map((y) => ({ x0: 48, x1: 546, y0: y, y1: y, width: 0.5 })),
      ...xs.map((x) => ({ x0: x, x1: x, y0: 132, y1: ys[ys.length - 1]!, width: 0.5 })),
    ];
    const turned = [
      ...turnedHead(['Impairment of', 'goodwill'], 306, 222),
      ...turnedHead(['Impairment'], 382, 222),
      ...turnedHead(['Impairment of', 'goodwill'], 470, 222),
      ...turnedHead(['Impairment'], 545, 222),
    ];
    const md = markdownOf([page([item('Region', 50, 220, 8), ...dashTable(236)], { lines: grid, turned })]);
    const rows = md
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('|'));
    expect(rows[0]).toBe('| Region | Impairment of goodwill | Impairment | Impairment of goodwill | Impairment |');
    expect(rows[2]).toBe('| Zone NA | — | (9) | — | (285) |');
  });

  it('heads turned to read downwards are read top to bottom, their lines right to left', () => {
    const down = (lines: string[], left: number, top: number, size = 8): TextItem[] =>
      lines.map((t, k) => ({
        text: t,
        x0: left + (lines.length - 1 - k) * size * 1.16,
        x1: left + (lines.length - k) * size * 1.16,
        y0: top,
        y1: top + t.length * size * CHAR_W,
        fontSize: size,
        fontName: 'Test',
        bold: false,
        italic: false,
        dir: 'ltr' as const,
        angle: 90 as const,
      }));
    // Set to the top of their row of cells: the short ones end well above the figures.
    const turned = [
      ...down(['Sales', 'in CHF'], 290, 190),
      ...down(['Profit'], 370, 190),
      ...down(['Costs'], 458, 190),
      ...down(['Other'], 530, 190),
    ];
    const md = markdownOf([page(dashTable(236), { lines: rules, turned })]);
    expect(md.trim().split('\n')[0]).toBe('|  | Sales in CHF | Profit | Costs | Other |');
  });
});

describe('bulleted lists side by side, nested by indent', () => {
  // A slide's two columns (as LibreOffice prints sample-presentation.pptx), each a subtitle and a list
  // whose levels are set further in with other bullets (● ○ ■), the bullet a run of its own before the
  // text. The right list starts a line higher (its subtitle has one line, the left one two), so its
  // items stand almost level with the left list's items.
  const box = (text: string, x0: number, y0: number, x1: number, y1: number, size: number): TextItem =>
    item(text, x0, y1, size, { x1, y0, y1 });
  const slide = [
    box('This is the second content slide', 31.7, 42.2, 446.6, 72.8, 26.3),
    box('What happens when there’s one', 31.7, 101.0, 323.5, 121.9, 18),
    box('here', 31.7, 125.0, 72.2, 145.9, 18),
    box('●', 40.7, 161.0, 56.4, 181.9, 18),
    box('Topic 1', 67.7, 161.0, 130.1, 181.9, 18),
    box('○', 78.7, 184.5, 90.9, 200.8, 14),
    box('Subtopic 1', 103.7, 184.5, 178.2, 200.8, 14),
    box('○', 78.7, 203.4, 90.9, 219.7, 14),
    box('Subtopic 2', 103.7, 203.4, 178.2, 219.7, 14),
    box('■', 114.7, 222.3, 127.9, 238.6, 14),
    box('Subtopic 1 of subtopic 2', 139.7, 222.3, 309.7, 238.6, 14),
    box('●', 40.7, 241.7, 56.4, 262.7, 18),
    box('Topic 2', 67.7, 241.8, 130.1, 262.7, 18),
    box('What happens when there’s 2', 367.2, 101.0, 637.0, 121.9, 18),
    box('●', 376.2, 137.0, 391.9, 157.9, 18),
    box('Details 1', 403.2, 137.0, 482.8, 157.9, 18),
    box('○', 414.2, 160.5, 426.4, 176.8, 14),
    box('Sub-details 1', 439.2, 160.5, 531.0, 176.8, 14),
    box('○', 414.2, 179.4, 426.4, 195.7, 14),
    box('Sub-details 2', 439.2, 179.4, 531.0, 195.7, 14),
    box('■', 450.2, 198.3, 463.4, 214.6, 14),
    box('This one is a sub-sub-detail', 475.2, 198.3, 667.2, 214.6, 14),
    box('●', 376.2, 217.7, 391.9, 238.6, 18),
    box('Details 2', 403.2, 217.8, 482.8, 238.8, 18),
  ];

  it('two columns of bulleted lists are read column by column, each list nested by its indents, not as a table', () => {
    const md = markdownOf([page(slide, { width: 720, height: 405 })]);
    expect(md).not.toContain('|');
    expect(md).toContain(
      'What happens when there’s one here\n\n- Topic 1\n  - Subtopic 1\n  - Subtopic 2\n    - Subtopic 1 of subtopic 2\n- Topic 2\n',
    );
    expect(md).toContain(
      'What happens when there’s 2\n\n- Details 1\n  - Sub-details 1\n  - Sub-details 2\n    - This one is a sub-sub-detail\n- Details 2\n',
    );
    expect(md.indexOf('Topic 2')).toBeLessThan(md.indexOf('What happens when there’s 2'));
  });

  it('a table whose cells open with bullets under a head row stays a table', () => {
    const rows = [
      ['Option', 'Pros', 'Cons'],
      ['Rent', '• No upkeep', '• Rising rents'],
      ['Buy', '• Equity builds', '• Large deposit'],
      ['Lease', '• Fixed term', '• Early exit fees'],
    ];
    const items = rows.flatMap((r, k) => r.map((t, c) => item(t, 72 + c * 150, 100 + k * 16)));
    const md = markdownOf([page(items)]);
    expect(md).toContain('| Option | Pros | Cons |');
    expect(md).toContain('| Buy | • Equity builds | • Large deposit |');
  });

  it('bullets of several kinds at growing indents make nested lists', () => {
    const levels: Array<[string, number, string]> = [
      ['▪', 72, 'First'],
      ['–', 90, 'Second'],
      ['•', 108, 'Third'],
      ['–', 90, 'Back to second'],
      ['▪', 72, 'Back to first'],
    ];
    const md = markdownOf([
      page(levels.flatMap(([b, x, t], k) => [item(b, x, 100 + k * 14), item(t, x + 12, 100 + k * 14)])),
    ]);
    expect(md).toBe('- First\n  - Second\n    - Third\n  - Back to second\n- Back to first\n');
  });
});

describe('bullets Word sets: a fixed-pitch "o", a picture', () => {
  it('nests an item under a picture bullet and one under an "o" set in a fixed-pitch face, as Word\'s levels go', () => {
    const md = markdownOf([
      page(
        [
          item('A multi-level list with bullets:', 90, 430, 12),
          item('\uF0A7', 90, 447, 12),
          item('One', 108, 447, 12),
          item('\uF0A7', 108, 463, 12),
          item('Two', 126, 463, 12),
          item('This bullet uses an image as the bullet item', 144, 479, 12),
          item('o', 144, 495, 12, { monospace: true }),
          item('Four', 162, 495, 12),
          item('\uF0A7', 90, 511, 12),
          item('Five', 108, 511, 12),
        ],
        { images: [{ x0: 126.5, y0: 470.6, x1: 134.4, y1: 478.5 }] },
      ),
    ]);
    expect(md).toBe(
      'A multi-level list with bullets:\n\n- One\n  - Two\n    - This bullet uses an image as the bullet item\n      - Four\n- Five\n',
    );
  });

  it('an "o" in the text face, or an icon before a line among no list, is no bullet', () => {
    const md = markdownOf([
      page(
        [
          item('o', 72, 100, 12),
          item('meu caro amigo, escrevo-lhe de longe.', 86, 100, 12),
          item('+44 20 7946 0958', 90, 140, 12),
        ],
        { images: [{ x0: 74, y0: 131, x1: 84, y1: 141 }] },
      ),
    ]);
    expect(md).not.toContain('- ');
    expect(md).toContain('+44 20 7946 0958');
  });
});

describe('drop caps', () => {
  it('a paragraph whose first lines are indented past a large initial is one paragraph, the initial its first letter', () => {
    const cap = item('D', 72, 259, 38.8, { y0: 223.2, y1: 266.7, x1: 99.8 });
    const md = markdownOf([
      page([
        item('Dropcaps', 72, 226, 13, { bold: true }),
        item('rop caps are used to emphasize the leading paragraph at the start of a section. In', 99.8, 243),
        item('Word it is possible to specify how many lines of text a drop-cap should use, and', 99.8, 259),
        item('the lines after those go back to the margin as the paragraph goes on to its end.', 72, 275),
        cap,
        item('A second paragraph follows.', 72, 300),
      ]),
    ]);
    expect(md).toContain(
      'Drop caps are used to emphasize the leading paragraph at the start of a section. In Word it is possible to specify how many lines of text a drop-cap should use, and the lines after those go back to the margin',
    );
    expect(md).not.toMatch(/^D$/m);
  });

  it('a drop cap three lines deep whose top rises beside the heading above leaves the heading alone', () => {
    // As Word sets it: the cap's box reaches up beside the short heading, and its middle is level
    // with the paragraph's second line.
    const md = markdownOf([
      page([
        item('Dropcaps', 72, 227, 13, { bold: true, x1: 130.6 }),
        item('rop caps are used to emphasize the leading paragraph at the start of a', 135.3, 243),
        item('section. In Word it is possible to specify how many lines of text a drop-cap', 135.3, 259),
        item('should use.', 135.3, 275),
        item('D', 93.6, 275, 58.5, { y0: 220.8, y1: 286.4, x1: 135.3 }),
        item('Links', 72, 301, 13, { bold: true }),
      ]),
    ]);
    expect(md).toContain(
      'Dropcaps\n\nDrop caps are used to emphasize the leading paragraph at the start of a section. In Word it is possible to specify how many lines of text a drop-cap should use.\n',
    );
  });

  it('a capital initial before a word of its own is set apart from it', () => {
    const md = markdownOf([
      page([
        item('A', 72, 131, 36, { y0: 102, y1: 138, x1: 96 }),
        item('long time ago the valley was empty of people, and the river ran', 102, 112),
        item('wide and slow through the woods where the town now stands today.', 102, 126),
      ]),
    ]);
    expect(md).toContain('A long time ago the valley was empty of people, and the river ran wide and slow');
  });
});

describe('multi-level numbered lists', () => {
  it('"1.1." under "1." and "1.1.2." under "1.1." nest, numbered by their last part; a line wrapped back between a wide number and its text stays in its item', () => {
    // As Word sets a multi-level list: each level further in, the number a run of its own and the
    // text at the next tab stop, wrapped lines back at the level's hanging indent.
    const md = markdownOf([
      page([
        item('Multi-level Lists', 72, 300, 13, { bold: true }),
        item('1.', 90, 318, 12),
        item('One', 108, 318, 12),
        item('1.1. Two', 108, 334, 12),
        item('1.1.1.', 126, 350, 12),
        item('Three', 180, 350, 12),
        item('1.1.2.', 126, 366, 12),
        item('Four with a very long line to demonstrate that the hanging indent', 180, 366, 12, { x1: 536 }),
        item('for the list is working correctly.', 151, 382, 12),
        item('1.1.3.', 126, 398, 12),
        item('Five', 180, 398, 12),
        item('2.', 90, 414, 12),
        item('Six', 108, 414, 12),
      ]),
    ]);
    expect(md).toContain(
      '1. One\n   1. Two\n      1. Three\n      2. Four with a very long line to demonstrate that the hanging indent for the list is working correctly.\n      3. Five\n2. Six\n',
    );
  });

  it('numbered section headings at one margin, clauses numbered at the margin and contents entries indented by level keep their numbers', () => {
    const md = markdownOf([
      page([
        item('2 Introduction', 72, 100, 14, { bold: true }),
        ...column('intro', 72, 124, 3, 8),
        item('2.1 Methods', 72, 176, 12, { bold: true }),
        ...column('methods', 72, 196, 3, 8),
        item('3. Definitions', 72, 250),
        item('3.1 The Contractor shall deliver the goods named in the order.', 72, 264),
        // Contents entries indented by level, the first level no list item.
        item('2.3.59.1 Program Scope and Objectives', 72, 300),
        item('2.3.59.1.1 Background', 90, 314),
        item('2.3.59.1.2 Authority', 90, 328),
      ]),
    ]);
    expect(md).not.toMatch(/^\s*[12]\. /m);
    expect(md).toContain('2.1 Methods');
    expect(md).toContain('3.1 The Contractor shall deliver');
    expect(md).toContain('2.3.59.1.2 Authority');
  });
});

describe('links from link areas', () => {
  const url = 'https://example.org/download';
  /** The x where character k of a synthetic run starts. */
  const at = (it: TextItem, k: number): number => it.x0 + k * it.fontSize * CHAR_W;
  /** A link area over characters [from, to) of a run, as tall as its line and `pad` wider either side. */
  const over = (it: TextItem, from: number, to: number, href = url, pad = 0) => ({
    x0: at(it, from) - pad,
    x1: at(it, to) + pad,
    y0: it.y0 - 1,
    y1: it.y1 + 1,
    url: href,
  });

  it('makes the words of a run inside a link area a link, and leaves a full stop the padded area takes in', () => {
    const a = item('For example, here is the download page of the project.', 72, 100);
    const b = item('Get the installer from the download page.', 72, 112);
    const s = (it: TextItem, w: string): [number, number] => [it.text.indexOf(w), it.text.indexOf(w) + w.length];
    const md = markdownOf([
      page([a, b], { links: [over(a, ...s(a, 'download page')), over(b, ...s(b, 'download page'), url, 2.5)] }),
    ]);
    expect(md).toContain(`here is the [download page](${url}) of the project.`);
    expect(md).toContain(`from the [download page](${url}).`);
  });

  it('cuts a run at the glyph positions the source gives, where an estimate from its width would miss', () => {
    // Wide and narrow letters, wider and narrower than usual: an estimate puts "iii" left of where it is drawn.
    const text = 'mmmmmmmmmm mmmmmmmmmm iii ii link';
    const widths = [...text].map((c) => (c === 'm' ? 9 : c === ' ' ? 3 : c === 'i' || c === 'l' ? 2 : 5));
    const edges = [72];
    for (const w of widths) edges.push(edges[edges.length - 1]! + w);
    const it = item(text, 72, 100, 10, { x1: edges[edges.length - 1]!, edges });
    const k = text.indexOf('iii');
    const md = markdownOf([page([it], { links: [{ x0: edges[k]!, x1: edges[k + 3]!, y0: 90, y1: 103, url }] })]);
    expect(md.trim()).toBe(`mmmmmmmmmm mmmmmmmmmm [iii](${url}) ii link`);
  });

  it('without glyph positions, shares a run out by the usual widths of its letters', () => {
    // Helvetica's widths (thousandths of an em): a line of narrow letters before the link.
    const adv: Record<string, number> = {
      i: 222,
      l: 222,
      s: 500,
      e: 556,
      t: 278,
      h: 556,
      n: 556,
      o: 556,
      r: 333,
      ' ': 278,
    };
    const text = 'iiiiiiiiiiiiiiiiiiiiiiiiiiiiii lilt see the notes here';
    const x = (k: number): number => 72 + [...text.slice(0, k)].reduce((w, c) => w + adv[c]! / 100, 0);
    const it = item(text, 72, 100, 10, { x1: x(text.length) });
    const k = text.indexOf('notes');
    const md = markdownOf([page([it], { links: [{ x0: x(k) - 1, x1: x(k + 5) + 1, y0: 90, y1: 103, url }] })]);
    expect(md.trim()).toBe(`iiiiiiiiiiiiiiiiiiiiiiiiiiiiii lilt see the [notes](${url}) here`);
  });

  it("finds a right-to-left run's first word at its right end", () => {
    const it = item('שלום עולם יפה מאוד', 300, 300, 10, { dir: 'rtl' });
    const md = markdownOf([page([it], { links: [{ x0: it.x1 - 22, x1: it.x1, y0: 290, y1: 303, url }] })]);
    expect(md.trim()).toBe(`[שלום](${url}) עולם יפה מאוד`);
  });

  it('keeps a link over the end of one line and the start of the next one link, and takes one of two areas over the same words', () => {
    const a = item('Before you start, read the installation', 72, 100);
    const b = item('guide for your system.', 72, 112);
    const href = 'https://example.org/install';
    const areaA = over(a, a.text.indexOf('installation'), a.text.length, href);
    const md = markdownOf([page([a, b], { links: [areaA, { ...areaA }, over(b, 0, 'guide'.length, href)] })]);
    expect(md.trim()).toBe(`Before you start, read the [installation guide](${href}) for your system.`);
  });

  it('joins an address written out and broken over a line end, at a slash or a hyphen, into one autolink', () => {
    const a = item('The code is at https://example.org/tools/data-', 72, 300);
    const b = item('cleaner/releases and on the mirror.', 72, 312);
    const href = 'https://example.org/tools/data-cleaner/releases';
    const k = a.text.indexOf('https');
    const areas = [over(a, k, a.text.length, href), over(b, 0, 'cleaner/releases'.length, href)];
    expect(markdownOf([page([a, b], { links: areas })]).trim()).toBe(`The code is at <${href}> and on the mirror.`);
    const c = item('The code is at https://example.org/tools/', 72, 300);
    const d = item('data-cleaner/releases and on the mirror.', 72, 312);
    const areas2 = [over(c, k, c.text.length, href), over(d, 0, 'data-cleaner/releases'.length, href)];
    expect(markdownOf([page([c, d], { links: areas2 })]).trim()).toBe(`The code is at <${href}> and on the mirror.`);
  });

  it('links words set as runs of their own and the space between them as one link', () => {
    const words = ['See', 'the', 'release', 'notes', 'today.'];
    let x = 72;
    const items = words.map((w) => {
      const it = item(w, x, 100);
      x = it.x1 + 3;
      return it;
    });
    const [r, n] = [items[2]!, items[3]!];
    const md = markdownOf([page(items, { links: [{ x0: r.x0, x1: n.x1, y0: 90, y1: 103, url }] })]);
    expect(md.trim()).toBe(`See the [release notes](${url}) today.`);
  });

  it('writes a link whose words are its own address as an autolink', () => {
    const it = item('Code: https://example.org/code and more.', 72, 300);
    const k = it.text.indexOf('https');
    const md = markdownOf([
      page([it], { links: [over(it, k, k + 'https://example.org/code'.length, 'https://example.org/code')] }),
    ]);
    expect(md.trim()).toBe('Code: <https://example.org/code> and more.');
  });

  it('lays out a page of thousands of link areas', () => {
    const items: TextItem[] = [];
    const links: NonNullable<PageInput['links']> = [];
    for (let row = 0; row < 60; row++) {
      const it = item(Array.from({ length: 12 }, (_, k) => `w${row}x${k}`).join(' '), 40, 40 + row * 12, 8);
      items.push(it);
      // Many areas per word, overlapping: a generated index or a map.
      for (let k = 0; k < 60; k++)
        links.push({
          x0: it.x0 + k * 4,
          x1: it.x0 + k * 4 + 20,
          y0: it.y0,
          y1: it.y1,
          url: `https://example.org/${row}/${k}`,
        });
    }
    const layout = layoutPage(page(items, { links }));
    expect(links.length).toBe(3600);
    expect(layout.blocks.length).toBeGreaterThan(0);
    const hrefs = layout.blocks
      .flatMap((b) => (b.block.node.kind === 'paragraph' ? b.block.node.content : []))
      .filter((i) => i.type === 'text' && i.href);
    expect(hrefs.length).toBeGreaterThan(60);
  });
});

describe('strikethrough from drawn lines', () => {
  const at = (it: TextItem, k: number): number => it.x0 + k * it.fontSize * CHAR_W;
  /** A hairline through characters [from, to) of a run, `rise` of its size above the baseline. */
  const through = (it: TextItem, from: number, to: number, rise = 0.3, width = 0.6) => {
    const y = it.y0 + (it.y1 - it.y0) * 0.8 - rise * it.fontSize;
    return { x0: at(it, from), x1: at(it, to), y0: y, y1: y, width };
  };
  const span = (it: TextItem, w: string): [number, number] => [it.text.indexOf(w), it.text.indexOf(w) + w.length];

  it('strikes through the words a hairline crosses at half their x-height, not those underlined at the baseline', () => {
    const a = item('The meeting moves from Tuesday to Thursday.', 72, 100);
    const b = item('Please read the terms before signing.', 72, 112);
    const lines = [through(a, ...span(a, 'Tuesday')), through(b, ...span(b, 'terms'), -0.12)];
    const md = markdownOf([page([a, b], { lines })]);
    expect(md).toContain('moves from ~~Tuesday~~ to Thursday.');
    expect(md).toContain('read the terms before');
    expect(md.match(/~~/g)).toHaveLength(2);
  });

  it('leaves a rule that runs past the text, across a gutter, or a bar as thick as a highlight', () => {
    const a = item('Struck words here.', 72, 100);
    // Two cells of a row with a wide gap between them, a rule through both at their x-height.
    const c1 = item('Region', 72, 130),
      c2 = item('North', 300, 130);
    // A heading with a decorative rule through it that runs on well past its words.
    const h = item('Section', 200, 160);
    // Small type marked with a filled bar as tall as its letters.
    const small = item('Highlighted note', 72, 190, 5);
    const lines = [
      through(a, ...span(a, 'Struck words')),
      { x0: c1.x0, x1: c2.x1, y0: 127, y1: 127, width: 0.5 },
      { x0: 72, x1: 540, y0: 157, y1: 157, width: 0.5 },
      { ...through(small, 0, small.text.length, 0.3, 2.5) },
    ];
    const md = markdownOf([page([a, c1, c2, h, small], { lines })]);
    expect(md).toContain('~~Struck words~~ here.');
    expect(md.match(/~~/g)).toHaveLength(2);
  });

  it('leaves the rules of a ruled table, and strikes a figure through inside a cell', () => {
    // A grid of three columns and three rows, its borders drawn cell by cell as word processors
    // draw them. The second row's text sits high in its cells, so the border above it crosses its
    // letters; in the narrow last column that border runs over nothing but the cell's figures.
    const xs = [72, 200, 328, 359];
    const ys = [90, 106, 118, 134];
    const lines: PageInput['lines'] = [];
    for (let c = 0; c + 1 < xs.length; c++)
      for (const y of ys) lines.push({ x0: xs[c]!, x1: xs[c + 1]!, y0: y, y1: y, width: 0.5 });
    for (const x of xs)
      for (let r = 0; r + 1 < ys.length; r++) lines.push({ x0: x, x1: x, y0: ys[r]!, y1: ys[r + 1]!, width: 0.5 });
    const cells = [
      item('Item', 76, 102),
      item('Count', 204, 102),
      item('Code', 331, 102),
      item('Pens', 76, 110.5),
      item('3', 204, 110.5),
      item('40132', 331, 110.5),
      item('Pencils', 76, 130),
      item('14 12', 204, 130),
      item('40133', 331, 130),
    ];
    lines.push(through(cells[7]!, 0, 2));
    const md = markdownOf([page(cells, { lines })]);
    expect(md).toContain('| Pens | 3 | 40132 |');
    expect(md).toContain('| Pencils | ~~14~~ 12 | 40133 |');
    expect(md.match(/~~/g)).toHaveLength(2);
  });
});

describe('running text of whole documents', () => {
  it('a note whose number stands an em before its text at the page foot stays whole; the running head and page number go', () => {
    const notes = [
      'The survey of the upper valley was repeated in May.',
      'Two of the gauges failed during the winter floods.',
      'Figures for the last year are provisional estimates.',
    ];
    const pages = [1, 2, 3].map((n) =>
      page(
        [
          item(`${n + 44}`, 72, 40, 8),
          item('Annals of Test Engineering', 250, 40, 8),
          ...column(`p${n}w`, 72, 120, 40),
          // The number at the margin, its note a little more than an em to its right.
          item(`${n}`, 72, 700, 8),
          item(notes[n - 1]!, 86, 700, 8),
        ],
        { pageNumber: n },
      ),
    );
    const md = markdownOf(pages);
    for (const n of [1, 2, 3]) expect(md).toContain(`${n} ${notes[n - 1]}`);
    expect(md).not.toContain('Annals of Test Engineering');
    expect(md).not.toMatch(/^4[5-7]$/m);
  });
});

describe('heads over figures, group heads, values that look like numbering', () => {
  /** A word at [x0, x1] on baseline y (its width given, not taken from its length). */
  const at = (text: string, x0: number, x1: number, y: number, extra: Partial<TextItem> = {}): TextItem => ({
    ...item(text, x0, y, 10, extra),
    x1,
  });

  it('a decimal figure followed by another figure is a value of its column, not a section number before its text', () => {
    // "4.6" reads like a section number ("4.6 Results"), whose text may stand a few ems off at a tab;
    // in a row of figures the space after it is the gutter before the next column. (Some rows hold
    // a whole number there, so the row is no run of tight figures to be cut apart later.)
    const rows = [
      ['Batch', 'Temp', 'Hours', 'Yield'],
      ['B-101', '882', '4.6', '71.0'],
      ['B-102', '873', '12', '94.8'],
      ['B-103', '965', '3.8', '77.3'],
      ['B-104', '948', '2.5', '73.3'],
    ];
    const md = markdownOf([
      page(
        rows.flatMap((r, i) => r.map((c, j) => item(c, [72, 160, 230, 300][j]!, 100 + i * 14, 10, { bold: i === 0 }))),
      ),
    ]);
    expect(md).toContain('| B-101 | 882 | 4.6 | 71.0 |');
    expect(md).toContain('| B-103 | 965 | 3.8 | 77.3 |');
  });

  it('a group head over two columns whose heads and figures stand closer than a line split allows still has both columns', () => {
    // "Rainfall (mm)" over "Mean" and "Maximum", set flush right like their figures and so under an
    // em apart (the line builder keeps them as one line); the figures under them are a gutter apart
    // in every row. A row with no maximum keeps the figures from reading as one run to be cut apart.
    const items: TextItem[] = [
      at('Month', 72, 100, 100, { bold: true }),
      at('Rainfall (mm)', 172, 232, 100, { bold: true }),
      at('Temperature (°C)', 262, 340, 100, { bold: true }),
      at('Mean', 180, 200, 114, { bold: true }),
      at('Maximum', 206, 232, 114, { bold: true }),
      at('Mean', 290, 310, 114, { bold: true }),
      at('Maximum', 316, 342, 114, { bold: true }),
    ];
    const body = [
      ['January', '80.6', '224.6', '16.2', '33.2'],
      ['February', '147.6', '269.9', '8.6', '36.4'],
      ['March', '114.6', '', '20.6', '38.3'],
      ['April', '37.0', '243.6', '0.2', '34.4'],
    ];
    body.forEach((r, i) => {
      const y = 128 + i * 14;
      items.push(at(r[0]!, 72, 72 + r[0]!.length * 5, y));
      // Figures set flush right in each column.
      [200, 232, 310, 342].forEach((right, k) => {
        const t = r[k + 1]!;
        if (t) items.push(at(t, right - t.length * 3.4, right, y));
      });
    });
    const md = markdownOf([page(items)]);
    expect(md).toContain('| January | 80.6 | 224.6 | 16.2 | 33.2 |');
    expect(md).toContain('| March | 114.6 |  | 20.6 | 38.3 |');
    expect(md).toContain('|  | **Mean** | **Maximum** | **Mean** | **Maximum** |');
  });
});

describe('a caption at the head of a page of its own', () => {
  it('is the caption of the table under it, not a running head, though set small in the top margin', () => {
    // A4. The running head at 60 pt; a table's caption in 9 pt at 84 pt, within the top eighth of the
    // page, over the table; body text in 10 pt from 220 pt.
    const rows = [
      ['Marsh', 'Year one', 'Year two', 'Change'],
      ['Alkborough', '28.6', '82.6', '45.1'],
      ['Freiston', '32.9', '64.9', '52.5'],
      ['Medmerry', '15.6', '50.2', '32.3'],
      ['Steart', '34.4', '53.4', '43.3'],
    ];
    const table = rows.flatMap((r, i) => r.map((c, j) => item(c, 56 + j * 120, 110 + i * 14)));
    const body = column('body', 54, 220, 30);
    body[body.length - 1]!.text += '.';
    const md = markdownOf([
      page(
        [
          item('214 · A. Marlow, K. Thornbury', 54, 60, 8),
          item('Table 2: Mean accretion by marsh and year (mm).', 54, 84, 9),
          ...table,
          ...body,
        ],
        { width: 595, height: 842 },
      ),
    ]);
    expect(md).toContain('Table 2: Mean accretion by marsh and year (mm).');
    expect(md).toContain('| Freiston | 32.9 | 64.9 | 52.5 |');
    expect(md).not.toContain('Marlow, K. Thornbury');
  });
});

describe('three short columns at the foot of a page', () => {
  it('are read column by column, the heading first, not line by line across', () => {
    // A band of three columns 2-3 lines tall under a full-width table: a heading and one line in the
    // first, two lines each in the others, the first column's line lower than theirs (under the
    // larger heading).
    const items: TextItem[] = [
      item('Findings', 50.1, 741, 12, { x1: 98.3, bold: true }),
      item('In Jarrow the effect was smaller, and', 50.1, 756, 9.5, { x1: 206.8 }),
      item('the canopy gap recovered only', 219.1, 740, 9.5, { x1: 375.8 }),
      item('where local volunteers intervened.', 219.1, 751.5, 9.5, { x1: 376 }),
      item('The canopy gap reported for', 388.1, 740, 9.5, { x1: 545 }),
      item('Oakhurst in 2001 has not been', 388.1, 751.5, 9.5, { x1: 544.9 }),
    ];
    for (let k = 0; k < 12; k++)
      items.push(item(`t${k} words of the text above run across the page`, 50.1, 560 + k * 12, 9.5, { x1: 545 }));
    const md = markdownOf([page(items, { width: 595, height: 842 })]);
    expect(md.indexOf('In Jarrow')).toBeGreaterThan(md.indexOf('Findings'));
    expect(md.indexOf('In Jarrow')).toBeLessThan(md.indexOf('the canopy gap recovered'));
    expect(md.indexOf('the canopy gap recovered')).toBeLessThan(md.indexOf('The canopy gap reported'));
  });
});

describe('a caption alone under two columns', () => {
  it('is read after both columns: its table follows on the next page', () => {
    const left = column('left', 54, 130, 30, 5);
    const right = column('right', 306, 130, 28, 5);
    right[right.length - 1]!.text += '.';
    const caption = item('Table 1. Balance sheet items by bank size.', 54, 130 + 31.5 * 12, 8, { italic: true });
    const md = markdownOf([page([...left, ...right, caption])]);
    expect(md.indexOf('right140')).toBeGreaterThan(0);
    expect(md.indexOf('Table 1. Balance sheet items')).toBeGreaterThan(md.indexOf('right140'));
    expect(md.indexOf('right1 ')).toBeGreaterThan(md.indexOf('left150'));
  });
});

describe('running heads and feet of whole documents', () => {
  /** A word at [x0, x1] on baseline y (its width given, not taken from its length). */
  const at = (text: string, x0: number, x1: number, y: number, extra: Partial<TextItem> = {}): TextItem => ({
    ...item(text, x0, y, 10, extra),
    x1,
  });
  const prose = (tag: string, y: number): TextItem[] =>
    [0, 1, 2].map((k) =>
      at(
        `${tag} line ${k + 1} of a paragraph in the report that runs across the whole width of the page.`,
        64,
        530,
        y + k * 14,
      ),
    );
  const head = (): TextItem[] => [at('Northgate Trust', 64, 118, 72), at('Annual Review 2024', 459, 531, 72)];

  it('a running head over a table that goes on from the page before leaves the table and the document', () => {
    // Page 2 starts with the running head right over the table's column heads; the right half of
    // the head stands over the last column, so the head alone does not tell it from the table's own
    // first row. Pages 1 and 3 show the same two parts at the same height alone.
    const table = [
      ['Expense', 'Budget', 'Actual', 'Variance'],
      ['Staff', '2,410', '2,380', '30'],
      ['Premises', '1,120', '1,305', '-185'],
      ['Total expenses', '6,124', '4,624', '515'],
    ];
    const rights = [0, 296, 413, 529];
    const rows = table.flatMap((r, i) =>
      r.map((c, k) =>
        k === 0
          ? at(c, 66, 66 + c.length * 5, 95 + i * 14, { bold: i === 0 })
          : at(c, rights[k]! - c.length * 5, rights[k]!, 95 + i * 14, { bold: i === 0 }),
      ),
    );
    const pages = [
      page([...head(), ...prose('First', 110), ...prose('Second', 170)], { pageNumber: 1 }),
      page([...head(), ...rows, ...prose('Third', 170)], { pageNumber: 2 }),
      page([...head(), ...prose('Fourth', 110)], { pageNumber: 3 }),
    ];
    const md = markdownOf(pages);
    expect(md).not.toContain('Northgate');
    expect(md).not.toContain('Annual Review');
    expect(md).toContain('| **Expense** | **Budget** | **Actual** | **Variance** |');
    expect(md).toContain('| Total expenses | 6,124 | 4,624 | 515 |');
    // Reported, not lost: the blocks are there with onlyMainContent false.
    expect(markdownOf(pages, false).match(/Northgate Trust/g)).toHaveLength(3);
  });

  it('a table at the top of its page whose first row is no running text keeps it', () => {
    // The same table with its own first row at the height where other pages have a running head
    // of other words: nothing to peel.
    const table = [
      ['Region', 'Sites', 'Staff'],
      ['North', '12', '140'],
      ['South', '9', '96'],
      ['West', '4', '51'],
    ];
    const rows = table.flatMap((r, i) =>
      r.map((c, k) => at(c, 64 + k * 150, 64 + k * 150 + c.length * 5, 72 + i * 14)),
    );
    const pages = [
      page([...head(), ...prose('First', 110)], { pageNumber: 1 }),
      page([...rows, ...prose('Second', 170)], { pageNumber: 2 }),
      page([...head(), ...prose('Third', 110)], { pageNumber: 3 }),
    ];
    const md = markdownOf(pages);
    expect(md).toContain('| Region | Sites | Staff |');
    expect(md).toContain('| West | 4 | 51 |');
  });

  it("mirrored running heads: the journal on odd pages in another face than the authors on even ones; the imprint under the first page's note", () => {
    const pages = [1, 2, 3, 4].map((n) => {
      const items: TextItem[] = [];
      if (n === 1) items.push(at('Journal of Coastal Ecology 14 (2024) 211–229', 204, 390, 60, { fontSize: 8 }));
      else if (n % 2 === 0) items.push(at(`${210 + n} · A. Marlow, K. Thornbury`, 54, 177, 60, { fontSize: 8 }));
      else
        items.push(
          at(`Journal of Coastal Ecology 14 (2024) 211–229 · ${210 + n}`, 331, 541, 60, { fontSize: 8, italic: true }),
        );
      items.push(...column(`p${n}w`, 54, 100, 50, 10));
      if (n === 1) {
        items.push(
          at('1', 54, 58, 708, { fontSize: 7.6 }),
          at('The riparian buffer reported for Ivybridge in 2015 has not been revised since.', 65, 366, 708, {
            fontSize: 7.6,
          }),
        );
        items.push(
          at('https://doi.org/10.5555/jce.2024.0211', 54, 207, 727, { fontSize: 8 }),
          at('© 2024 Coastal Ecology Society', 410, 541, 727, { fontSize: 8 }),
        );
      }
      return page(items, { pageNumber: n });
    });
    const md = markdownOf(pages);
    expect(md).not.toContain('Journal of Coastal Ecology');
    expect(md).not.toContain('Thornbury');
    expect(md).not.toContain('doi.org');
    expect(md).not.toContain('© 2024');
    expect(md).toContain('The riparian buffer reported for Ivybridge in 2015 has not been revised since.');
  });
});

describe('columns left empty', () => {
  it('a row of years under group heads heads the figures under it, set left of them in cells of their own', () => {
    // "Commuting", "Leisure", "Business" over "2019 2023" each; the years centred in head cells set
    // half a cell left of the figures' cells (so each year stands over a column with nothing under it).
    const at = (text: string, x0: number, x1: number, y0: number, bold = false): TextItem => ({
      ...item(text, x0, y0 + 7.2, 9, { bold }),
      x1,
      y0,
      y1: y0 + 9,
    });
    const items: TextItem[] = [
      at('Mode', 61.8, 85.1, 176.8, true),
      at('Commuting', 177.8, 223.6, 176.8, true),
      at('Leisure', 327.2, 355.2, 176.8, true),
      at('Business', 464.8, 498.7, 176.8, true),
    ];
    [132.1, 202.4, 272.7, 342.9, 413.2, 483.5].forEach((x, k) =>
      items.push(at(k % 2 ? '2023' : '2019', x, x + 19.2, 192.2, true)),
    );
    const body = [
      ['Rail', '687', '241', '339', '598', '465', '279'],
      ['Bus', '765', '828', '132', '330', '337', '52'],
      ['Car', '186', '582', '586', '395', '280', '11'],
      ['Walk', '46', '737', '115', '478', '618', '55'],
    ];
    body.forEach((r, i) =>
      r.forEach((c, k) => {
        const y = 207.6 + i * 15.4;
        if (k === 0) items.push(at(c, 61.8, 61.8 + c.length * 4.6, y));
        else {
          const right = 199 + (k - 1) * 70.3;
          items.push(at(c, right - c.length * 4.8, right, y));
        }
      }),
    );
    const md = markdownOf([page(items)]);
    expect(md).toContain('|  | **2019** | **2023** | **2019** | **2023** | **2019** | **2023** |');
    expect(md).toContain('| Rail | 687 | 241 | 339 | 598 | 465 | 279 |');
    expect(md).toContain('| Walk | 46 | 737 | 115 | 478 | 618 | 55 |');
  });

  it('heads set flush left just right of figures set flush right, each over a column of its own, head those columns; an italic row under them is a sub-head', () => {
    // Word's table as PDF: "New students" starts 3 pt right of where "110" ends, "Graduating"
    // right of where "103" ends; every head already stands over a column of figures of its own.
    const at = (text: string, x0: number, x1: number, y0: number, extra: Partial<TextItem> = {}): TextItem => ({
      ...item(text, x0, y0 + 8, 10, extra),
      x1,
      y0,
      y1: y0 + 10,
    });
    const items: TextItem[] = [
      at('College', 93.6, 133.9, 454.6, { bold: true }),
      at('New students', 213.4, 286.1, 454.6, { bold: true }),
      at('Graduating', 333.1, 392.1, 454.6, { bold: true }),
      at('Change', 452.7, 491.9, 454.6, { bold: true }),
      at('students', 311.6, 358.4, 467.4, { bold: true }),
      at('Undergraduate', 213.4, 286.5, 482.4, { italic: true }),
    ];
    const body = [
      ['Cedar University', '110', '103', '+7'],
      ['Oak Institute', '202', '210', '-8'],
      ['Elm College', '43', '53', '-10'],
      ['Total', '998', '908', '90'],
    ];
    body.forEach((r, i) => {
      const y = 494.9 + i * 22.7;
      items.push(at(r[0]!, 93.6, 93.6 + r[0]!.length * 5, y));
      [210.5, 330.3, 449.1].forEach((right, k) => items.push(at(r[k + 1]!, right - r[k + 1]!.length * 6, right, y)));
    });
    const md = markdownOf([page(items)]);
    expect(md).toContain('| **College** | **New students** | **Graduating students** | **Change** |');
    expect(md).toContain('|  | *Undergraduate* |  |  |');
    expect(md).toContain('| Oak Institute | 202 | 210 | -8 |');
  });

  it('a shaded table whose heads are centred over figures set flush right has no empty column between them, and the running head over it is no head of it', () => {
    // A working paper's page (LibreOffice, 9 pt): the running head, then a table of shaded cells
    // 98 pt wide, each head centred in its cell over two lines, the figures flush right: the space
    // between a head and its figures runs down every row; once the heads go over their figures,
    // the column that space made holds nothing.
    const at = (text: string, x0: number, x1: number, y0: number, bold = false): TextItem => ({
      ...item(text, x0, y0 + 7.2, 9, { bold }),
      x1,
      y0,
      y1: y0 + 9,
    });
    const items: TextItem[] = [at('Working Paper No. 17', 60.1, 139.8, 58), at('2', 547.6, 552.2, 58)];
    const heads: Array<[string, number, number, number]> = [
      ['Bank size', 61.8, 96.2, 82],
      ['Cash', 198.9, 216.5, 82],
      ['reserve', 193.8, 221.5, 93],
      ['Loan', 297.2, 314.9, 82],
      ['book', 296.7, 315.5, 93],
      ['Credit', 393.2, 415.7, 82],
      ['lines', 395.8, 413.2, 93],
      ['Tax', 496.8, 509, 82],
      ['provision', 485.6, 520.2, 93],
    ];
    for (const [t, a, b, y] of heads) items.push(at(t, a, b, y, true));
    const body = [
      ['1 to 5 bn', '753', '9061', '1232', '2123'],
      ['5 to 20 bn', '3427', '4504', '1367', '6758'],
      ['20 to 50 bn', '6878', '4185', '4810', '2991'],
      ['50 to 100 bn', '1944', '4508', '7249', '3374'],
      ['Over 100 bn', '7174', '5420', '2963', '9052'],
    ];
    body.forEach((r, i) =>
      r.forEach((c, k) => {
        const y = 107.5 + i * 14.4;
        if (k === 0) items.push(at(c, 61.8, 61.8 + c.length * 4.6, y));
        else {
          const right = [0, 255.2, 353.6, 452, 550.4][k]!;
          items.push(at(c, right - c.length * 4.55, right, y));
        }
      }),
    );
    // The head row and every other body row shaded, cell by cell.
    const rects = [
      [78.4, 103.8],
      [103.8, 118.2],
      [132.6, 147],
      [161.4, 175.8],
    ].flatMap(([y0, y1]) =>
      [0, 1, 2, 3, 4].map((k) => ({
        x0: 60 + k * 98.4,
        y0: y0!,
        x1: 158.4 + k * 98.4,
        y1: y1!,
        filled: true,
        stroked: false,
      })),
    );
    const md = markdownOf([page(items, { rects })]);
    expect(md).toContain('| **Bank size** | **Cash reserve** | **Loan book** | **Credit lines** | **Tax provision** |');
    expect(md).toContain('| 1 to 5 bn | 753 | 9061 | 1232 | 2123 |');
    expect(md).toContain('| Over 100 bn | 7174 | 5420 | 2963 | 9052 |');
    expect(md).not.toContain('Working Paper');
  });
});

describe('figures at the start of a wrapped line', () => {
  it('a decimal figure that a sentence wrapped onto the next line goes on with the paragraph; a numbered section after a full stop starts its own', () => {
    const lines = [
      // (Lines of one length, as justified text sets them.)
      'The saline group was observed through the season, and for the nutrient-poor',
      'group of sites the seasonal nitrogen budget stabilised from 1.1 to',
      '13.8 over the trial period, as the regional agency reported in its study.',
      '2.1 Methods of the survey',
    ];
    const md = markdownOf([
      page(lines.map((t, k) => ({ ...item(t, 72, 100 + k * 12), ...(k < 3 ? { x1: 442 } : {}) }))),
    ]);
    expect(md).toContain('stabilised from 1.1 to 13.8 over the trial period');
    expect(md).toMatch(/\n\n2\.1 Methods of the survey/);
  });
});

describe('tables in a column of a two-column page', () => {
  it('a table in the left column keeps its head and first row where lines of the right column fall between its rows, under an abstract whose short last line crosses the gutter', () => {
    const items: TextItem[] = [item('Plant Cover on Restored Saltmarsh', 180, 64, 16)];
    // The abstract across both columns; its last line ends past the gutter's start.
    for (let k = 0; k < 3; k++)
      items.push({
        ...item(
          `Abstract line ${k + 1} of the paper set across the whole width of the page in one face.`,
          82,
          112 + k * 11,
        ),
        x1: 513,
      });
    items.push({ ...item('managed group the canopy gap doubled from 59 to 76 over the trial.', 82, 145), x1: 348 });
    // Left column: a paragraph, then the table; right column: text at its own spacing.
    for (let k = 0; k < 12; k++)
      items.push({
        ...item(`Left column line ${k + 1} of running text in the paper body here.`, 52, 180 + k * 12),
        x1: 288,
      });
    const table = [
      ['Model', 'Params', 'Acc.', 'F1'],
      ['Linear', '77M', '79.8', '81.1'],
      ['Tree', '49M', '93.2', '74.1'],
      ['Forest', '82M', '77.3', '52.8'],
      ['Boosted', '64M', '92.4', '66.2'],
      ['Ensemble', '31M', '97.3', '69.9'],
    ];
    const xs = [57, 100, 139, 164];
    table.forEach((r, i) =>
      r.forEach((c, k) => items.push({ ...item(c, xs[k]!, 340 + i * 14.5), x1: xs[k]! + c.length * 4.5 })),
    );
    for (let k = 0; k < 40; k++)
      items.push({ ...item(`Right column line ${k + 1} of running text in the body.`, 306, 180 + k * 12.2), x1: 543 });
    const md = markdownOf([page(items)]);
    expect(md).toContain('| Model | Params | Acc. | F1 |');
    expect(md).toContain('| Linear | 77M | 79.8 | 81.1 |');
    expect(md).toContain('| Ensemble | 31M | 97.3 | 69.9 |');
    expect(md.indexOf('Left column line 12')).toBeLessThan(md.indexOf('Right column line 1 '));
  });
});

describe('ruled tables with wrapped cells', () => {
  it('a requirement wrapped onto a second line beside an empty reference cell stays in its row; separate rows in a ruled group still split', () => {
    const at = (text: string, x0: number, y0: number): TextItem => ({
      ...item(text, x0, y0 + 7.2, 9),
      x1: x0 + text.length * 4.4,
      y0,
      y1: y0 + 9,
    });
    const xs = [64, 132, 374, 481, 548];
    const ys = [263.6, 277.9, 301.9, 325.9, 350.2];
    const lines = [
      ...ys.map((y) => ({ x0: xs[0]!, y0: y, x1: xs[4]!, y1: y, width: 0.7 })),
      ...xs.map((x) => ({ x0: x, y0: ys[0]!, x1: x, y1: ys[4]!, width: 0.7 })),
    ];
    const items: TextItem[] = [
      at('Ref.', 69.5, 265.5),
      at('Requirement', 137.2, 265.5),
      at('Owner', 379.1, 265.5),
      at('Due', 485.5, 265.5),
      at('A-01', 69.5, 279.7),
      at('Replace the worn guard rails on the loading bay and', 137.2, 279.7),
      at('Facilities and Estates', 379.1, 279.7),
      at('March', 485.5, 279.7),
      at('record the inspection in the site log', 137.2, 289.5),
      at('Team', 379.1, 289.5),
      at('A-02', 69.5, 303.7),
      at('Train every forklift driver on the revised reversing', 137.2, 303.7),
      at('Operations Manager', 379.1, 303.7),
      at('April', 485.5, 303.7),
      at('procedure', 137.2, 313.5),
      // A ruled group of two rows: each starts in the first column.
      at('B-01', 69.5, 327.7),
      at('Sweep', 137.2, 327.7),
      at('Porter', 379.1, 327.7),
      at('May', 485.5, 327.7),
      at('B-02', 69.5, 337.5),
      at('Mop', 137.2, 337.5),
      at('Cleaner', 379.1, 337.5),
      at('June', 485.5, 337.5),
    ];
    const md = markdownOf([page(items, { lines })]);
    expect(md).toContain(
      '| A-01 | Replace the worn guard rails on the loading bay and record the inspection in the site log | Facilities and Estates Team | March |',
    );
    expect(md).toContain(
      '| A-02 | Train every forklift driver on the revised reversing procedure | Operations Manager | April |',
    );
    expect(md).toContain('| B-01 | Sweep | Porter | May |\n| B-02 | Mop | Cleaner | June |');
  });
});

describe('notes under a table', () => {
  it('a note opening with an asterisk on a page whose figures carry asterisks is a note, not a bullet; a lettered note after it is its own', () => {
    const rows = [
      ['Method', 'Dev', 'Test'],
      ['Rules', '73.8', '72.2*'],
      ['Ranker', '78.6', '77.5*'],
      ['Joint', '80.3', '79.1*'],
    ];
    const items = rows.flatMap((r, i) => r.map((c, k) => item(c, 72 + k * 90, 100 + i * 14, 10, { bold: i === 0 })));
    items.push(item('* Significant at p < 0.05.', 72, 170, 7.6), item('a Trained on half of the data.', 72, 180, 7.6));
    const md = markdownOf([page(items)]);
    expect(md).toContain('| Rules | 73.8 | 72.2* |');
    expect(md).toContain('\n\\* Significant at p < 0.05.\n\na Trained on half of the data.');
    expect(md).not.toMatch(/^- Significant/m);
  });

  it('an asterisk bullet on a page without asterisk marks is still a bullet', () => {
    const md = markdownOf([
      page([
        item('Items to bring:', 72, 100),
        item('* A torch for the tunnel.', 72, 114),
        item('* Water for the walk.', 72, 128),
      ]),
    ]);
    expect(md).toContain('- A torch for the tunnel.\n- Water for the walk.');
  });
});

describe('sentence tails at the head of columns', () => {
  it('the last words of sentences broken by the page and by the column are read with their columns, not as a head across the page', () => {
    // Page 3 of a two-column paper: the left column opens with the end of a sentence from page 2,
    // the right one with the end of the left column's last sentence.
    const items: TextItem[] = [item('Working Paper No. 17', 60, 60, 9), item('3', 548, 60, 9)];
    items.push(item('since.', 60, 88), item('18.5 over the survey period.', 310, 88));
    items.push(item('5. Conclusion', 60, 116, 12, { bold: true }));
    for (let k = 0; k < 20; k++)
      items.push({ ...item(`left line ${k + 1} of the conclusion set in its column here`, 60, 135 + k * 14), x1: 300 });
    items[items.length - 1]!.text = 'For the adjusted group the capital outlay deteriorated from 2.2 to';
    for (let k = 0; k < 22; k++)
      items.push({
        ...item(`right line ${k + 1} of the text that goes on in this column`, 310, 107 + k * 14),
        x1: 551,
      });
    const md = markdownOf([page(items)]);
    expect(md.indexOf('since.')).toBeLessThan(md.indexOf('5. Conclusion'));
    expect(md).toContain('deteriorated from 2.2 to 18.5 over the survey period.');
    expect(md.indexOf('18.5 over the survey period.')).toBeLessThan(md.indexOf('right line 1 '));
  });
});

describe('a heading under columns', () => {
  it('a heading alone at the foot of the left column, over text across the page, is read after both columns', () => {
    const items: TextItem[] = [];
    for (let k = 0; k < 6; k++)
      items.push({ ...item(`Left item ${k + 1} of the first list here.`, 80, 200 + k * 14), x1: 290 });
    for (let k = 0; k < 6; k++)
      items.push({ ...item(`Right item ${k + 1} of the second list here.`, 322, 200 + k * 14), x1: 540 });
    items.push(item('Fares and passes', 66, 300, 14, { bold: true }));
    for (let k = 0; k < 3; k++)
      items.push({
        ...item(`Full line ${k + 1} of the text that runs across the whole page under the heading.`, 66, 322 + k * 14),
        x1: 540,
      });
    const md = markdownOf([page(items)]);
    expect(md.indexOf('Right item 6')).toBeLessThan(md.indexOf('Fares and passes'));
    expect(md.indexOf('Fares and passes')).toBeLessThan(md.indexOf('Full line 1'));
  });

  it('a heading in a column with its text under it in the same column stays in the column', () => {
    const items: TextItem[] = [];
    for (let k = 0; k < 6; k++)
      items.push({ ...item(`Left line ${k + 1} of the first module text.`, 66, 200 + k * 14), x1: 290 });
    items.push(item('Module Two', 66, 300, 12, { bold: true }));
    for (let k = 0; k < 4; k++)
      items.push({ ...item(`Left line ${k + 1} of the second module text.`, 66, 318 + k * 14), x1: 290 });
    for (let k = 0; k < 8; k++)
      items.push({ ...item(`Right line ${k + 1} of the third module text.`, 322, 200 + k * 14), x1: 540 });
    const md = markdownOf([page(items)]);
    expect(md.indexOf('Module Two')).toBeLessThan(md.indexOf('Right line 1 '));
  });
});

describe('prose under a masthead', () => {
  it('a line of sentences in the top margin is text even when it says "Issue"; a short issue line is running text', () => {
    const body = column('b', 72, 200, 30, 10);
    const md = markdownOf([
      page([
        item('The Harbourside Wheel', 130, 50, 24),
        item(
          'Issue 42, June 2024. The subsidised commuter flow at Carrow contracted by 57 percent between May and June.',
          56,
          86,
          9,
        ),
        ...body,
      ]),
    ]);
    expect(md).toContain(
      'Issue 42, June 2024. The subsidised commuter flow at Carrow contracted by 57 percent between May and June.',
    );
    const md2 = markdownOf([page([item('Harbourside Wheel, Issue 42', 56, 60, 8), ...body])]);
    expect(md2).not.toContain('Issue 42');
  });
});

describe('rules drawn cell by cell', () => {
  it('a rule under each row drawn as one piece per cell is one rule, not rules under heads that span columns', () => {
    const at = (text: string, x0: number, x1: number, y0: number, bold = false): TextItem => ({
      ...item(text, x0, y0 + 6.5, 8.1, { bold }),
      x1,
      y0,
      y1: y0 + 8.1,
    });
    const rows = [
      ['Depot', 'Q1', 'Q2', 'Q3', 'Q4'],
      ['Ashby', '14', '', '9', '11'],
      ['Barton', '', '7', '', '12'],
      ['Corby', '21', '18', '16', ''],
      ['Daventry', '5', '', '', '8'],
    ];
    const rights = [0, 128.7, 151.2, 173.7, 196.2];
    const items: TextItem[] = [];
    rows.forEach((r, i) =>
      r.forEach((c, k) => {
        if (!c) return;
        const y = 551 + i * 14;
        items.push(
          k === 0
            ? at(c, 68.7, 68.7 + c.length * 4.3, y, i === 0)
            : at(c, rights[k]! - c.length * 4.6, rights[k]!, y, i === 0),
        );
      }),
    );
    // Under every row, one piece of rule per cell, end to end.
    const cuts = [63.7, 111, 133.5, 156, 178.5, 201];
    const lines = rows.flatMap((_, i) =>
      cuts.slice(1).map((x1, k) => ({ x0: cuts[k]!, x1, y0: 562.9 + i * 14, y1: 562.9 + i * 14, width: 0.7 })),
    );
    const md = markdownOf([page(items, { lines })]);
    expect(md).toContain('| Ashby | 14 |  | 9 | 11 |');
    expect(md).toContain('| Barton |  | 7 |  | 12 |');
  });
});

describe('labels of row groups', () => {
  it('bold labels flush with the head, over rows set in from them, are rows of the table; a heading after the table is not', () => {
    const at = (text: string, x0: number, x1: number, y0: number, bold = false): TextItem => ({
      ...item(text, x0, y0 + 8, 10, { bold }),
      x1,
      y0,
      y1: y0 + 10,
    });
    const items: TextItem[] = [
      at('Expense', 65.8, 99.5, 619.2 - 200, true),
      at('Budget', 266.9, 295.8, 419.2, true),
      at('Actual', 385.8, 412.7, 419.2, true),
      at('Variance', 493.4, 529.4, 419.2, true),
    ];
    const body: Array<string | string[]> = [
      'Staff costs',
      ['Salaries', '390', '788', '260'],
      ['Pension contributions', '856', '558', '463'],
      ['Training', '19', '560', '775'],
      'Premises',
      ['Rent', '291', '116', '217'],
      ['Utilities', '699', '522', '305'],
    ];
    body.forEach((r, i) => {
      const y = 433.6 + i * 14.35;
      if (typeof r === 'string') {
        items.push(at(r, 65.8, 65.8 + r.length * 5, y, true));
        return;
      }
      items.push(at(r[0]!, 76.3, 76.3 + r[0]!.length * 5, y));
      [295.9, 412.6, 529.4].forEach((right, k) => items.push(at(r[k + 1]!, right - r[k + 1]!.length * 4.8, right, y)));
    });
    items.push(at('3. Results', 60, 110, 560, true));
    for (let k = 0; k < 3; k++)
      items.push({
        ...at(`Results line ${k + 1} of the text under the heading after the table here.`, 60, 530, 580 + k * 14),
      });
    const md = markdownOf([page(items)]);
    expect(md).toContain(
      '| **Expense** | **Budget** | **Actual** | **Variance** |\n| --- | --- | --- | --- |\n| **Staff costs** |  |  |  |\n| Salaries | 390 | 788 | 260 |',
    );
    expect(md).toContain('| Training | 19 | 560 | 775 |\n| **Premises** |  |  |  |\n| Rent | 291 | 116 | 217 |');
    expect(md).not.toMatch(/\| \*\*3\. Results\*\*/);
  });
});

describe('one column of mixed alignment', () => {
  it('figures flush right and words flush left under one head are one column', () => {
    const at = (text: string, x0: number, y: number, bold = false): TextItem => ({
      ...item(text, x0, y, 9, { bold }),
      x1: x0 + text.length * 4.6,
    });
    const right = (text: string, x1: number, y: number): TextItem => ({
      ...item(text, x1 - text.length * 4.6, y, 9),
      x1,
    });
    const rows: Array<[string, string, string | null, string | null, string]> = [
      ['timeout_ms', 'integer', null, '30000', 'How long a request may wait'],
      ['max_retries', 'integer', null, '3', 'Attempts after the first one'],
      ['tls_verify', 'boolean', 'true', null, 'Whether the certificate is checked'],
      ['proxy_url', 'string', null, null, 'Address of an outbound proxy'],
    ];
    const items: TextItem[] = [
      at('Setting', 70, 100, true),
      at('Type', 150, 100, true),
      at('Default', 210, 100, true),
      at('Description', 300, 100, true),
    ];
    rows.forEach(([a, b, word, fig, d], i) => {
      const y = 116 + i * 14;
      items.push(at(a, 70, y), at(b, 150, y), at(d, 300, y));
      if (word) items.push(at(word, 210, y));
      if (fig) items.push(right(fig, 270, y));
    });
    const md = markdownOf([page(items)]);
    expect(md).toContain('| **Setting** | **Type** | **Default** | **Description** |');
    expect(md).toContain('| timeout_ms | integer | 30000 | How long a request may wait |');
    expect(md).toContain('| tls_verify | boolean | true | Whether the certificate is checked |');
    expect(md).toContain('| proxy_url | string |  | Address of an outbound proxy |');
  });
});

describe('a running head over a table on a page of its own', () => {
  it('a plain running head over a bold head row is no row of the table, even where its right part stands over the last column', () => {
    const at = (text: string, x0: number, x1: number, y0: number, bold = false): TextItem => ({
      ...item(text, x0, y0 + 8, 10, { bold }),
      x1,
      y0,
      y1: y0 + 10,
    });
    const items: TextItem[] = [at('Northgate Trust', 64.1, 117.6, 64.4), at('Annual Review 2024', 458.9, 531.1, 64.4)];
    const rows = [
      ['Expense', 'Budget', 'Actual', 'Variance'],
      ['Staff', '2,410', '2,380', '30'],
      ['Premises', '1,120', '1,305', '-185'],
      ['Total expenses', '6,124', '4,624', '515'],
    ];
    const rights = [0, 295.8, 412.7, 529.4];
    rows.forEach((r, i) =>
      r.forEach((c, k) => {
        const y = 87.2 + i * 14.3;
        items.push(
          k === 0
            ? at(c, 65.8, 65.8 + c.length * 5, y, i === 0)
            : at(c, rights[k]! - c.length * 5, rights[k]!, y, i === 0),
        );
      }),
    );
    for (let k = 0; k < 3; k++)
      items.push(
        at(
          `Body line ${k + 1} of the text after the table, set across the page in the body face.`,
          64.1,
          530,
          160 + k * 14,
        ),
      );
    const md = markdownOf([page(items)], false);
    expect(md).toContain(
      '| **Expense** | **Budget** | **Actual** | **Variance** |\n| --- | --- | --- | --- |\n| Staff | 2,410 | 2,380 | 30 |',
    );
    expect(md).not.toMatch(/\| Northgate Trust/);
  });
});

describe('ruled tables with a rule under every row', () => {
  // A rule under every row leaves each ruled row a single line, too little to show columns alone;
  // the head's two lines do show some (its group heads set over pairs of columns), and those must not
  // keep the body's rivers, which run down all its rows, from splitting it.
  const rule = (y: number) => ({ x0: 36, y0: y, x1: 576, y1: y, width: 0.5 });
  const figure = (text: string, right: number, y: number) => item(text, right - text.length * 5, y);
  const rows: Array<[string, string, string, string, string]> = [
    ['Avon', '1,234,567', '12,345', '9,876,543', '45,678'],
    ['Berks', '98,765', '2,345,678', '123,456', '7,654,321'],
    ['Cumbria', '4,567,890', '345,678', '56,789', '1,234'],
    ['Dorset', '23,456', '4,321', '3,456,789', '654,321'],
    ['Essex', '765,432', '87,654', '2,109', '3,210,987'],
  ];
  const items: TextItem[] = [
    item('State', 40, 112),
    item('Revenue spending', 190, 112),
    item('Capital spending', 410, 112),
    item('name', 40, 124),
    item('this year', 205, 124),
    item('this year', 425, 124),
  ];
  const lines = [rule(100), rule(130)];
  rows.forEach(([name, ...figs], k) => {
    const y = 146 + k * 20;
    items.push(item(name, 40, y), ...figs.map((f, c) => figure(f, [230, 320, 450, 540][c]!, y)));
    lines.push(rule(y + 6));
  });
  // The frame's sides.
  lines.push({ x0: 36, y0: 100, x1: 36, y1: 232, width: 0.5 }, { x0: 576, y0: 100, x1: 576, y1: 232, width: 0.5 });

  it('splits the body at the whitespace running down all its rows', () => {
    const md = markdownOf([page(items, { lines })]);
    expect(md).toContain('| Avon | 1,234,567 | 12,345 | 9,876,543 | 45,678 |');
    expect(md).toContain('| Essex | 765,432 | 87,654 | 2,109 | 3,210,987 |');
  });
});
