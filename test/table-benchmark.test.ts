/**
 * The instrument of bench/tables.ts: the Python literal reader, the choice of camelot's expectations
 * and the cell adjacency score.
 */
import { describe, expect, it } from 'vitest';
import { readBindings } from '../test-support/python-literals.js';
import { readCamelotExpectations } from '../test-support/camelot-expectations.js';
import { markdownTables, normaliseCell, relations, scorePage } from '../test-support/table-adjacency.js';
import { CORPUS_SKIP_MESSAGE, corpusAvailable, corpusPath } from '../test-support/corpus.js';

describe('python literal reader', () => {
  it('reads lists of strings with escapes, implicit concatenation, slices, list() and rebinding', () => {
    const env = readBindings(
      [
        '# noqa',
        'a = [',
        '    ["x\\ny", \'it\\\'s\', "\\u00e9" "!"],  # comment',
        '    [r"\\d", "", 3],',
        ']',
        'b = a[1:]',
        'c = list(a)[:-1]',
        'a = ["rebound"]',
      ].join('\n'),
    );
    expect(env.get('b')).toEqual([['\\d', '', 3]]);
    expect(env.get('c')).toEqual([['x\ny', "it's", 'é!']]);
    expect(env.get('a')).toEqual(['rebound']);
  });
});

describe('cell adjacency score', () => {
  it('pairs each non-empty cell with its nearest non-empty right and lower neighbours', () => {
    const rel = relations([
      ['A', '', 'B'],
      ['', 'C', ''],
      ['D', '', 'E'],
    ]);
    expect([...rel.keys()].map((k) => k.split('\u0000').join(' ')).sort()).toEqual([
      'A B right',
      'A D below',
      'B E below',
      'D E right',
    ]);
  });

  it('normalises markup, leader dots and whitespace', () => {
    expect(normaliseCell('**Total**<br>expenditure  . . . .')).toBe(normaliseCell('Total\nexpenditure'));
    expect(normaliseCell('a\\|b')).toBe('a|b');
    expect(normaliseCell('Preva-\nlence')).toBe(normaliseCell('Prevalence'));
    expect(normaliseCell('With-<br>drawal')).toBe('Withdrawal');
    // Right-to-left text in visual order (camelot) and in logical order (the tools) compare equal.
    expect(normaliseCell('ﺎﺒﺣﺮﻣ')).toBe(normaliseCell('مرحبا'));
  });

  it('matches expected and predicted tables one to one and counts unmatched predictions', () => {
    const expected = [
      [
        ['h1', 'h2'],
        ['1', '2'],
      ],
    ];
    const invented = [
      ['prose', 'words'],
      ['more', 'text'],
    ];
    const whole = scorePage(expected, [expected[0]!, invented], false);
    expect(whole).toMatchObject({ correct: 4, predicted: 8, expected: 4, tablesPredicted: 2, tablesRecovered: 1 });
    const partial = scorePage(expected, [invented, expected[0]!], true);
    expect(partial).toMatchObject({ correct: 4, predicted: 4, tablesPredicted: 1 });
    expect(partial.matches[0]!.predicted).toBe(1);
  });

  it('reads pipe tables, not code fences or lone delimiters', () => {
    const md = [
      '| a | b \\| c |',
      '| --- | :---: |',
      '| 1 | 2 |',
      '',
      '```',
      '| x | y |',
      '| - | - |',
      '```',
      'text',
    ].join('\n');
    expect(markdownTables(md)).toEqual([
      [
        ['a', 'b \\| c'],
        ['1', '2'],
      ],
    ]);
  });
});

describe.skipIf(!corpusAvailable)('camelot expectations', () => {
  if (!corpusAvailable) console.warn(CORPUS_SKIP_MESSAGE);
  it('ties the rows of data.py to files, pages and flavours', () => {
    const { cases, missingFiles } = readCamelotExpectations(corpusPath('camelot'));
    const byFile = new Map(cases.map((c) => [c.file, c]));
    expect(byFile.get('twotables_2.pdf')).toMatchObject({ flavour: 'lattice', pages: [1], partial: false });
    expect(byFile.get('twotables_2.pdf')!.tables.map((t) => t.data)).toEqual([
      'data_lattice_two_tables_1',
      'data_lattice_two_tables_2',
    ]);
    // health.pdf is read by stream, network and hybrid tests: the stream rows are chosen.
    expect(byFile.get('health.pdf')).toMatchObject({ flavour: 'stream', camelotFlavour: 'stream' });
    expect(byFile.get('health.pdf')!.tables[0]!.rows[0]![0]).toBe('States-A');
    // strip_text rewrites the text: the layout_kwargs call of the same file is used instead.
    expect(byFile.get('detect_vertical_false.pdf')!.tables[0]!.data).toBe('data_stream_layout_kwargs');
    // copy_text is undone: the covered slots of a row span are empty again.
    const spans = byFile.get('row_span_1.pdf')!.tables[0]!.rows;
    expect(spans[2]![0]).toBe('');
    expect(byFile.get('tabula/us-007.pdf')!.partial).toBe(true);
    expect(missingFiles).toContain('tabula/icdar2013-dataset/competition-dataset-us/us-030.pdf');
  });
});
