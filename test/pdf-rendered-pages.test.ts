/**
 * Pages rendered by the tools real documents come from (LibreOffice, Chromium, groff: see
 * fixtures/pdf/rendered/render.sh and its sources), each showing one case of structure: headings told
 * by their numbering at body size, the levels their numbering gives, symbol-font glyphs written as
 * private-use codes, headings named by the outline, tables continued over page breaks, running heads
 * and page numbers on a page alone, a manual page's definition list, stacked fractions, two columns of
 * Chinese text, three narrow justified columns, a paper's columns around a figure, the tables of a report (one table with its heads over two lines and its group labels, no
 * table of the prose and the list around it; a ruled table read from its rules). Needs `npm run build`
 * first: the text pool loads its worker from dist/workers.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createParser } from '../src/parser.js';
import { REPO_ROOT } from '../test-support/corpus.js';

// The first page parsed starts the text pool's worker, slow on a loaded machine.
vi.setConfig({ testTimeout: 60_000 });

const parser = createParser();
afterAll(() => parser.close());

async function markdownOf(name: string): Promise<string> {
  const bytes = readFileSync(path.join(REPO_ROOT, 'fixtures', 'pdf', 'rendered', name));
  const doc = await parser.parseFile(
    bytes,
    { onlyMainContent: true, parsers: [{ type: 'pdf' as const, mode: 'fast' as const }] },
    { filename: name },
  );
  return doc.markdown ?? '';
}

const headings = (md: string): string[] => md.split('\n').filter((l) => /^#{1,6} /.test(l));

describe('headings told by numbering (Chromium page, no outline)', () => {
  it('makes a numbered line at body size a heading, bold or not, its level from its depth', async () => {
    const md = await markdownOf('numbered.pdf');
    expect(headings(md)).toEqual([
      '# 1 Introduction',
      '## 1.1 Scope',
      '## 1.2 Terms used',
      '# 2 Results',
      '## 2.1 Field data',
      '# A. Appendix',
    ]);
  });
});

describe('headings of a report (LibreOffice page)', () => {
  it('sets "5.1" (bold) and "5.2" (plain) at one level, "A." (plain) beside "IV." (bold)', async () => {
    const h = headings(await markdownOf('report.pdf'));
    expect(h[0]).toBe('# Groundwater Survey of the Lower Valley');
    const level = (text: string): number => (h.find((l) => l.endsWith(` ${text}`)) ?? '').indexOf(' ');
    expect(level('5.2 Sampling errors')).toBeGreaterThan(0);
    expect(level('5.2 Sampling errors')).toBe(level('5.1 Results'));
    expect(level('5.1 Results')).toBe(level('5 Methods') + 1);
    expect(level('A. Station list')).toBe(level('IV. Discussion'));
    expect(level('A. Station list')).toBeGreaterThan(0);
  });
});

describe('symbol-font glyphs (LibreOffice page, Symbol characters drawn with OpenSymbol)', () => {
  it('writes the characters the glyphs draw, not their private-use codes', async () => {
    const md = await markdownOf('symbols.pdf');
    expect(md).toContain('from hot → cold');
    expect(md).toContain('the angle α is at most π/2');
    expect(md).toContain('for ∀ x ∈ S, with error ≤ 0.5');
    expect(md).not.toMatch(/[\uf020-\uf0e5]/);
  });
});

describe('code listing (Chromium page, a <pre> in DejaVu Sans Mono)', () => {
  it('keeps the listing one fence with its indentation, blank lines and tokens as set', async () => {
    const md = await markdownOf('code.pdf');
    const fences = md.match(/```[^\n]*\n[\s\S]*?\n```/g) ?? [];
    expect(fences).toHaveLength(1);
    expect(fences[0]).toContain('    return x * x + 1\n\n\ndef main(args):');
    expect(fences[0]).toContain('        print(f(x))\n    return {"done": True, "n": len(args)}\n```');
  });
});

describe('headings from the outline (LibreOffice page, headings set like the body text)', () => {
  it('makes the lines the bookmarks name headings of their depth, on their pages only', async () => {
    const md = await markdownOf('outline.pdf');
    expect(headings(md)).toEqual([
      '# Groundwater Survey of the Lower Valley',
      '## Contents',
      '## Background',
      '### Site conditions',
      '## Findings',
      '### Wells in the north',
    ]);
    // The contents page names the same sections; its lines are not the ones the bookmarks point to.
    expect(md).toContain('\n\nBackground\n\nSite conditions\n\nFindings\n\n');
  });
});

describe('tables continued over a page break (Chromium page)', () => {
  const tableRows = (md: string): string[] => md.split('\n').filter((l) => l.startsWith('| '));
  it('joins a table whose head is repeated on the next page, the head once', async () => {
    const md = await markdownOf('continued.pdf');
    const rows = tableRows(md);
    const wells = rows.filter((r) => /^\| W-\d+ /.test(r));
    expect(wells).toHaveLength(48);
    expect(rows.filter((r) => r.includes('**Well**'))).toHaveLength(1);
    // One table: the rows of page 2 follow those of page 1 with no head or gap between them.
    const tables = md.split('\n\n').filter((p) => p.startsWith('| '));
    expect(tables).toHaveLength(2);
    expect(tables[0]!.split('\n').filter((r) => /^\| W-\d+ /.test(r))).toHaveLength(48);
  });
  it('joins a table without a repeated head that runs from the foot of one page to the head of the next', async () => {
    const md = await markdownOf('continued.pdf');
    const tables = md.split('\n\n').filter((p) => p.startsWith('| '));
    const quarters = tables[1]!.split('\n').filter((r) => /^\| 20\d\d Q[1-4] /.test(r));
    expect(quarters).toHaveLength(56);
    expect(quarters[0]).toMatch(/^\| 2010 Q1 /);
    expect(quarters.at(-1)).toMatch(/^\| 2023 Q4 /);
  });
});

describe('page furniture (LibreOffice and groff pages)', () => {
  it("keeps a first page's title that the running head repeats in a smaller face", async () => {
    const md = await markdownOf('paper.pdf');
    expect(md.startsWith('# Short Notes on Sampling\n\n1. Measurements')).toBe(true);
    expect(md.match(/Short Notes on Sampling/g)).toHaveLength(1);
    expect(md).not.toMatch(/^\d+$/m);
  });
  it('takes the running head and the bare page number off a single page, not its last line', async () => {
    const md = await markdownOf('note.pdf');
    expect(md).not.toContain('Groundwater Notes, Volume 3');
    expect(md.startsWith('# Field Note on Well Depths\n\n')).toBe(true);
    // The body's own last line is a bare number too; it stays, the page number under it goes.
    expect(md.trimEnd().endsWith('The deepest well of the network reached\n\n42')).toBe(true);
    expect(md.match(/^\d+$/gm)).toEqual(['42']);
  });
  it("takes a manual page's head set in three parts across the page off, a page alone", async () => {
    const md = await markdownOf('defs.pdf');
    expect(md).not.toContain('DEMO(1)');
    expect(md).not.toContain('User Commands');
    expect(md.startsWith('# NAME\n\n')).toBe(true);
  });
});

describe('definition lists (groff -man page)', () => {
  it('keeps each description under its term, a term beside its description too', async () => {
    const md = await markdownOf('defs.pdf');
    const options = md.slice(md.indexOf('# OPTIONS'), md.indexOf('# EXIT STATUS'));
    expect(options.split('\n\n').slice(1, -1)).toEqual([
      '**-v, --verbose**',
      'Print each file name as it is processed, and a summary of the work done at the end.',
      '**-o** *file*',
      'Write the output to *file* instead of the standard output; the file is created if it does not exist.',
      '**-q**',
      'Quiet.',
      '**--level=*n***',
      'Set the compression level to n, from 1 (fastest) to 9 (smallest output). The default is 6, which is a good balance between speed and size for most inputs.',
    ]);
  });
});

describe("a cover's title first (Chromium page)", () => {
  it('puts the largest line first, the series line set over it and the subtitle after it', async () => {
    const md = await markdownOf('cover.pdf');
    expect(headings(md).slice(0, 3)).toEqual([
      '# Groundwater Survey of the Lower Valley',
      '## Hydrology Unit · Technical Report 4',
      '## Annual Report for the Monitoring Network',
    ]);
    expect(md.indexOf('Prepared by the Hydrology Unit')).toBeGreaterThan(md.indexOf('Annual Report'));
  });
});

describe('stacked fractions (groff -man page, numerators raised and denominators lowered by half an em)', () => {
  it('keeps each fraction inside its sentence, full size or smaller, and finds no table', async () => {
    const md = await markdownOf('fractions.pdf');
    expect(md).not.toContain('|');
    const paragraphs = md.split('\n\n').filter((p) => !p.startsWith('#'));
    expect(paragraphs).toHaveLength(3);
    expect(paragraphs[0]).toContain('Drill a pilot hole 1⁄8 inch smaller than the screw');
    expect(paragraphs[0]).toContain('sits 1/16 inch below the surface of the board.');
    expect(paragraphs[0]).toContain('longer than 2 1⁄2 inches need');
    expect(paragraphs[1]).toContain('about <sup>3</sup>⁄<sub>4</sub> inch from the edge');
    expect(paragraphs[1]).toContain('a gap of <sup>3</sup>/<sub>16</sub> inch between planks');
  });
});

describe('two columns of Chinese text (Chromium page, Noto Serif CJK SC)', () => {
  it('reads each column as paragraphs in order, no table, footnotes apart, ideographs not radicals', async () => {
    const md = await markdownOf('columns-cjk.pdf');
    expect(md).not.toContain('|');
    // Chromium names some glyphs by the radical of the same shape ("⾕" U+2F95 for "谷").
    expect(md).not.toMatch(/[\u2E80-\u2EFF\u2F00-\u2FD5]/u);
    expect(headings(md)).toEqual([
      '# 下游河谷地下水调查报告',
      '## 第一节 调查范围',
      '## 第二节 采样方法',
      '## 第三节 主要结果',
      '## 第四节 建议',
    ]);
    const paragraphs = md.split('\n\n').filter((p) => !p.startsWith('#'));
    // Lines join without spaces; full-width punctuation stays as set.
    expect(paragraphs[0]).toMatch(/^本次调查覆盖下游河谷的全部观测井，共计四十二口。每口井在整个季节内/u);
    expect(paragraphs[0]).toContain('没有任何读数被舍弃。<sup>1</sup>调查人员同时记录了');
    // The paragraph goes on over the column break, a note mark at the head of the next column.
    expect(paragraphs[2]).toContain('电导率、硝酸盐和总硬度。<sup>2</sup>所有样品都按照同一套操作规程处理');
    expect(paragraphs.filter((p) => /^<sup>\d<\/sup> /.test(p))).toHaveLength(4);
    expect(paragraphs.at(-1)?.trim()).toBe('<sup>4</sup> 海岸地带指距离海岸线五公里以内的区域。');
  });
});

describe('three narrow justified columns (Chromium page)', () => {
  it('keeps lines whole whose stretched spaces are wider than the gutters, every paragraph as set', async () => {
    const md = await markdownOf('three-columns.pdf');
    const source = readFileSync(
      path.join(REPO_ROOT, 'fixtures', 'pdf', 'rendered', 'sources', 'three-columns.html.in'),
      'utf8',
    );
    const html = (s: string) => s.replace(/&#39;/g, "'").replace(/\s+/g, ' ');
    const expected = [...source.matchAll(/<(h3|p)>(.*?)<\/\1>/g)].map(([, tag, text]) =>
      tag === 'h3' ? `## ${html(text!)}` : html(text!),
    );
    const blocks = md.split('\n\n').map((b) => b.trim());
    // Title and subtitle first, then every heading and paragraph of the three columns in order.
    expect(blocks.slice(0, 2)).toEqual(['# Harbour Notes', "*A quarterly letter from the river pilots' association*"]);
    expect(blocks.slice(2)).toEqual(expected);
  });
});

describe('a paper in two columns with a figure in the first (pdfTeX page, the second column ends early)', () => {
  it('reads the first column to its foot, figure and all, before the second; a number quad-spaced from its heading', async () => {
    const md = await markdownOf('figure-column.pdf');
    expect(headings(md).filter((h) => !h.startsWith('####'))).toEqual([
      '# Soil Moisture Sensing on Small Farms',
      '## 1 Introduction',
      '## 2 Method',
      '### 2.1 Calibration',
      '## 3 Results',
      '## 4 Conclusion',
    ]);
    // The authors, side by side under the title, come before the columns.
    expect(md.indexOf('Martin Ode')).toBeLessThan(md.indexOf('## 1 Introduction'));
    const at = (s: string): number => md.indexOf(s);
    expect(at('This paper reports such a test.')).toBeLessThan(at('Figure 1: A sensor buried at root depth'));
    expect(at('Figure 1: A sensor buried at root depth')).toBeLessThan(at('## 2 Method'));
    expect(at('with a formula fitted to the samples of each farm.')).toBeLessThan(at('## 3 Results'));
  });
});

/** The pipe tables of a page's markdown, each as its rows of cells (the separator row left out). */
function pipeTables(md: string): string[][][] {
  return md
    .split('\n\n')
    .filter((p) => p.startsWith('| '))
    .map((t) =>
      t
        .split('\n')
        .filter((r) => !/^\|(?: ?-+ ?\|)+$/.test(r))
        .map((r) =>
          r
            .slice(2, -2)
            .split(' | ')
            .map((c) => c.trim()),
        ),
    );
}

describe('a statistical table of a report (Chromium page: rules over and under the heads only)', () => {
  it('keeps the table one table: heads over two lines one row, group labels rows of it', async () => {
    const md = await markdownOf('stats.pdf');
    const tables = pipeTables(md);
    const water = tables.filter((t) => t.some((r) => r[0] === 'Industry'));
    expect(water).toHaveLength(1);
    const rows = water[0]!;
    expect(rows[0]).toEqual([
      'Sector of use',
      'Licensed volume',
      'Abstracted volume',
      'Share of licence (%)',
      'Change on 2021 (%)',
    ]);
    // Each label of a group of rows is a row of its own, over its group, in the table.
    const labels = rows.filter((r) => r.slice(1).every((c) => c === '')).map((r) => r[0]);
    expect(labels).toEqual(['*Northern region*', '*Southern region*', '*Coastal region*']);
    // A first cell wrapped over two lines is one cell.
    expect(rows).toContainEqual([
      'Public water supply and drinking water networks',
      '41,200',
      '35,870',
      '87.1',
      '-2.4',
    ]);
    expect(rows).toContainEqual([
      'Electricity generation (cooling water returned to rivers)',
      '22,100',
      '19,480',
      '88.1',
      '3.2',
    ]);
    expect(rows).toHaveLength(1 + 3 + 10 + 1);
    expect(rows.at(-1)).toEqual(['All regions', '188,040', '156,950', '83.5', '2.0']);
  });
  it('makes no table of the bulleted list or the paragraphs around the table', async () => {
    const md = await markdownOf('stats.pdf');
    expect(md).toContain('\n- Public supply took 63 per cent of all water abstracted.\n- Spray irrigation rose most');
    const cells = pipeTables(md).flat(2).join('\n');
    expect(cells).not.toMatch(/per cent|The survey counts|next release|Source:/);
  });
});

describe('a ruled table with spanning cells (Chromium page)', () => {
  it('reads the cells from the rules: a head over two columns, a cell over two rows', async () => {
    const tables = pipeTables(await markdownOf('ruled.pdf'));
    expect(tables).toHaveLength(1);
    const rows = tables[0]!;
    expect(rows[0]).toEqual(['**Grade**', '**Head count**', '', '**Full-time equivalent**', '']);
    expect(rows[1]).toEqual(['', '**Head office**', '**Regional offices**', '**Head office**', '**Regional offices**']);
    expect(rows).toContainEqual(['Senior managers and directors of the service', '48', '31', '46.5', '30.2']);
    expect(rows).toContainEqual(['Administrative and support staff', '402', '655', '361.7', '590.0']);
    expect(rows).toContainEqual(['', '17', '23', '12.5', '19.0']);
    expect(rows).toHaveLength(8);
  });
});

describe('a table of key figures in groups (Chromium page: bold labels flush with the rows, no rules)', () => {
  it('keeps the groups one table, each label a row, the last group of two rows too', async () => {
    const md = await markdownOf('keyfig.pdf');
    const tables = pipeTables(md);
    const figures = tables.filter((t) => t.some((r) => r[0] === 'Net asset value per unit'));
    expect(figures).toHaveLength(1);
    const rows = figures[0]!;
    expect(rows.filter((r) => r[1] === '').map((r) => r[0])).toEqual(['**Class B**', '**Total for the fund**']);
    expect(rows.slice(-3)).toEqual([
      ['**Total for the fund**', ''],
      ['Net asset value at 31 December', '54,256'],
      ['Number of units outstanding', '520,691'],
    ]);
    expect(rows).toHaveLength(10);
  });
  it('keeps a table under a heading set larger a table of its own', async () => {
    const md = await markdownOf('keyfig.pdf');
    const tables = pipeTables(md);
    expect(tables).toHaveLength(2);
    expect(tables[1]).toEqual([
      ['Management fee', '812'],
      ['Custody and depositary', '95'],
      ['Audit and legal', '41'],
    ]);
    expect(md).toContain('# Costs of the fund\n\nThe costs below are charged to the fund');
  });
});

describe('a price list in groups set apart by space (Chromium page)', () => {
  it('keeps the groups of the same columns one table, and the table of other columns under it apart', async () => {
    const tables = pipeTables(await markdownOf('prices.pdf'));
    expect(tables).toHaveLength(2);
    expect(tables[0]!.map((r) => r.length)).toEqual(Array(9).fill(2));
    expect(tables[0]![4]).toEqual(['**Red wines**', '**75 cl**']);
    expect(tables[1]).toEqual([
      ['**Tasting**', '**Day**', '**Time**', '**Places**'],
      ['Loire whites', 'Friday', '18:00', '12'],
      ['Southern reds', 'Saturday', '17:30', '16'],
      ['Old vintages', 'Sunday', '16:00', '8'],
    ]);
  });
});

describe('a page number under a short page (pdfTeX page)', () => {
  it('takes the centred folio off a page alone, and keeps the body’s own last line "42"', async () => {
    const md = await markdownOf('folio.pdf');
    const paragraphs = md.trim().split('\n\n');
    expect(paragraphs.at(-1)).toBe('42');
    expect(paragraphs.at(-2)).toMatch(/The deepest well of the network reached$/);
    expect(paragraphs).not.toContain('1');
  });
});
