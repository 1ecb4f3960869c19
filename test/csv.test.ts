import { readFileSync } from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_CSV_COLUMNS, MAX_CSV_ROWS, parseCsv, separatorHint, sniffDelimiter } from '../src/csv/reader.js';
import { createParser } from '../src/parser.js';
import { REPO_ROOT } from '../test-support/corpus.js';

const parser = createParser();
afterAll(() => parser.close());

const fixture = (name: string): Buffer => readFileSync(path.join(REPO_ROOT, 'fixtures', 'csv', name));
const convert = async (data: string | Uint8Array): Promise<string> =>
  (await parser.parseFile(typeof data === 'string' ? Buffer.from(data) : data, undefined, { filename: 'data.csv' }))
    .markdown ?? '';

describe('CSV: delimiters', () => {
  it('sniffs comma, semicolon, tab and pipe', () => {
    expect(sniffDelimiter('a,b\n1,2\n')).toBe(',');
    expect(sniffDelimiter('a;b;c\n1,5;2;3\n')).toBe(';');
    expect(sniffDelimiter('a\tb\n1\t2\n')).toBe('\t');
    expect(sniffDelimiter('a|b\n1|2\n\n')).toBe('|');
  });

  it('prefers the delimiter that splits rows consistently over one that merely occurs', () => {
    // Commas inside values, semicolons between them (corpus: semicolon-delimited.csv has this shape).
    expect(sniffDelimiter('Lorem, ipsum; dolor; amet\nconsectetur; adipiscing; elit\nsed, do; eiusmod; tempor\n')).toBe(
      ';',
    );
  });

  it('converts a pipe-delimited file to a table of its fields', async () => {
    expect(await convert(fixture('pipes.csv'))).toBe('| key | value |\n| --- | --- |\n| alpha | 1 |\n| beta | 2 |\n');
  });
});

describe('CSV: content', () => {
  it('keeps quoted commas, quotes and newlines; escapes pipes and markdown-like text', async () => {
    expect(await convert(fixture('quoted.csv'))).toBe(
      [
        '| id | name | notes |',
        '| --- | --- | --- |',
        '| 1 | Smith, Jane | Said "hello" |',
        '| 2 | Lee | first line<br>second line |',
        '| 3 | Pipe \\| inside | \\*\\*not bold\\*\\* and \\_not italic\\_ |',
        '',
      ].join('\n'),
    );
  });

  it('pads ragged rows and trims empty trailing rows and columns', () => {
    const t = parseCsv(fixture('ragged.csv'));
    expect(t.rows).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', ''],
      ['3', '4', '5'],
      ['6', '', ''],
    ]);
  });

  it('warns about a quoted field that is never closed', async () => {
    const doc = await parser.parseFile(Buffer.from('a,b\n1,"open\n2,3\n'), undefined, { filename: 'q.csv' });
    expect(doc.markdown).toBe('| a | b |\n| --- | --- |\n| 1 | open<br>2,3 |\n');
    expect(doc.warning).toContain('never closed (record 2)');
  });

  it('gives an empty document for an empty table, without failing', async () => {
    expect(await convert(',,\n,,\n')).toBe('');
  });

  it('caps very wide files with a warning', async () => {
    const header = Array.from({ length: MAX_CSV_COLUMNS + 50 }, (_, i) => `c${i}`).join(',');
    const doc = await parser.parseFile(Buffer.from(`${header}\n${header}\n`), undefined, { filename: 'wide.csv' });
    const first = doc.markdown!.split('\n', 1)[0]!;
    expect(first.split(' | ').length).toBe(MAX_CSV_COLUMNS);
    expect(doc.warning).toContain(`${MAX_CSV_COLUMNS} columns`);
  });

  it('caps very long files with a warning', async () => {
    const lines = ['n,square'];
    for (let i = 0; i < MAX_CSV_ROWS + 10; i++) lines.push(`${i},${i * i}`);
    const doc = await parser.parseFile(Buffer.from(lines.join('\n')), undefined, { filename: 'big.csv' });
    const rows = doc.markdown!.trimEnd().split('\n');
    expect(rows.length).toBe(MAX_CSV_ROWS + 2);
    expect(rows[rows.length - 1]).toBe(`| ${MAX_CSV_ROWS - 1} | ${(MAX_CSV_ROWS - 1) ** 2} |`);
    expect(doc.warning).toContain(`${MAX_CSV_ROWS}`);
  });
});

describe('CSV: encodings', () => {
  it('reads a UTF-8 BOM without leaking it into the first cell', async () => {
    expect(await convert(fixture('utf8-bom.csv'))).toBe('| naïve | café |\n| --- | --- |\n| yes | no |\n');
  });

  it('reads UTF-16 with a BOM', async () => {
    expect(await convert(fixture('utf16le-bom.csv'))).toContain('| Maple Leafs | 13 |');
  });

  it('reads UTF-16 without a BOM', async () => {
    expect(await convert(iconv.encode('x,y\nvalue,\u00e9t\u00e9\n', 'utf-16le'))).toBe(
      '| x | y |\n| --- | --- |\n| value | \u00e9t\u00e9 |\n',
    );
  });

  it('sniffs windows-1252 and Shift-JIS', async () => {
    expect(await convert(fixture('cp1252.csv'))).toContain('| Crème brûlée | 5 € |');
    expect(await convert(fixture('shift-jis.csv'))).toContain('| 東京 | 1400万 |');
  });

  it('reads Shift-JIS with the symbols of Japanese business data (○ × △ ※ ℃ ㈱ ① Ⅱ ㎡) as Shift-JIS, not GBK', async () => {
    const texts = [
      '氏名,出席,備考\n佐藤太郎,○,遅刻あり\n鈴木花子,×,欠席連絡済\n高橋一郎,○,\n田中次郎,△,早退\n伊藤三郎,○,※要確認\n',
      '日付,気温,天気\n2024/1/1,5℃,晴れ\n2024/1/2,7℃,晴れ\n',
      '名前,会社,番号\n佐藤,㈱テスト,①\n鈴木,株式会社サンプル,Ⅱ\n',
      '名前,住所\n髙橋,東京①\n',
      '項目,値\n面積,25㎡\n重量,3㎏\n',
      '評価\n◎\n○\n△\n×\n',
      'コード,フリガナ,金額\n001,ﾔﾏﾀﾞ ﾀﾛｳ,1000\n002,ｽｽﾞｷ ﾊﾅｺ,2000\n',
    ];
    for (const text of texts) {
      const t = parseCsv(iconv.encode(text, 'shift_jis'));
      expect(t.encoding, text).toBe('shift_jis');
      expect(t.rows, text).toEqual(parseCsv(Buffer.from(text)).rows);
    }
  });

  it('still reads short GBK, Big5, EUC-KR and EUC-JP samples, with and without those symbols', () => {
    const cases: [string, string][] = [
      ['姓名,城市,备注\n张三,北京,无\n李四,上海,有\n', 'gbk'],
      ['城市,气温,备注\n北京,25℃,※晴\n上海,30℃,①多云\n', 'gbk'],
      ['序号,内容,状态\n1,检查设备,○\n2,更新系统,×\n3,培训人员,△\n', 'gbk'],
      ['中国', 'gbk'],
      ['姓名,城市,備註\n張三,臺北,無\n李四,高雄,有\n', 'big5'],
      ['項目,溫度,說明\n甲,25℃,※注意\n乙,30℃,①優先\n', 'big5'],
      ['이름,도시\n김철수,서울\n이영희,부산\n', 'euc-kr'],
      ['제품,온도,비고\n가,25℃,※주의\n나,30℃,①우선\n', 'euc-kr'],
      ['서울', 'euc-kr'],
      ['日本語のテキストです。', 'euc-jp'],
      ['氏名,出席,備考\n佐藤太郎,○,遅刻あり\n鈴木花子,×,欠席連絡済\n', 'euc-jp'],
    ];
    for (const [text, encoding] of cases) {
      const bytes = iconv.encode(text, encoding);
      expect(iconv.decode(bytes, encoding), `${encoding} round trip`).toBe(text);
      expect(parseCsv(bytes).rows, `${encoding}: ${text}`).toEqual(parseCsv(Buffer.from(text)).rows);
    }
  });

  it('decodes an HTML page without a charset declaration the same way', async () => {
    const html =
      '<html><head><title>出欠</title></head><body><p>佐藤太郎 ○ 遅刻あり、鈴木花子 × 欠席、気温 5℃、㈱テスト ①</p></body></html>';
    const doc = await parser.parseFile(iconv.encode(html, 'shift_jis'), undefined, { filename: 'page.html' });
    expect(doc.markdown).toContain('佐藤太郎 ○ 遅刻あり、鈴木花子 × 欠席、気温 5℃、㈱テスト ①');
  });
});

describe("CSV: Excel's sep= line", () => {
  it('takes the delimiter it names and leaves the line out of the table', async () => {
    expect(await convert('sep=;\nA;B\n1,5;2\n')).toBe('| A | B |\n| --- | --- |\n| 1,5 | 2 |\n');
    expect(await convert('\ufeffsep=,\r\nA,B\r\n1;2,3\r\n')).toBe('| A | B |\n| --- | --- |\n| 1;2 | 3 |\n');
    expect(await convert('sep=\t\nA\tB\n1\t2\n')).toBe('| A | B |\n| --- | --- |\n| 1 | 2 |\n');
    expect(parseCsv(Buffer.from('SEP=|\na|b\n')).delimiter).toBe('|');
  });

  it('keeps a first line that only starts like one', () => {
    expect(parseCsv(Buffer.from('sep=x,y\n1,2\n')).rows).toEqual([
      ['sep=x', 'y'],
      ['1', '2'],
    ]);
    expect(separatorHint('sep=;;\n')).toBeUndefined();
  });
});
