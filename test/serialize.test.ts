import { describe, expect, it } from 'vitest';
import { linksFromMarkdown } from '../src/formats/derived.js';
import { renderInlines, renderNode, serialize } from '../src/markdown/serialize.js';
import { text, type DocModel, type DocPage } from '../src/model/document.js';
import { seededRandom } from '../test-support/random.js';

describe('inlines', () => {
  it('merges runs with the same marks and keeps spaces outside emphasis markers', () => {
    expect(
      renderInlines([
        text('Hello '),
        text('bold ', { bold: true }),
        text('words', { bold: true }),
        text(' and '),
        text('slanted', { italic: true }),
      ]),
    ).toBe('Hello **bold words** and *slanted*');
  });

  it('escapes characters that would start markdown syntax, but not intraword underscores', () => {
    expect(renderInlines([text('a *star*, snake_case, _under_ and [x](y) <b>')])).toBe(
      'a \\*star\\*, snake_case, \\_under\\_ and [x\\](y) \\<b>',
    );
    expect(renderInlines([text('# not a heading')])).toBe('\\# not a heading');
    expect(renderInlines([text('1. not a list')])).toBe('1\\. not a list');
    expect(renderInlines([text('- not a bullet')])).toBe('\\- not a bullet');
  });

  it('keeps runs of underscores literal: fill-in blanks, rules, dunder names', async () => {
    const { marked } = await import('marked');
    for (const t of ['For deposit only to ________.', 'Name: ______ Date: ___', '__init__ and ___', '_x_']) {
      const html = await marked.parseInline(renderInlines([text(t)]));
      expect(html).not.toMatch(/<em>|<strong>/);
      expect(html.replace(/&amp;/g, '&')).toBe(t);
    }
  });

  it('escapes only what a reader would take as markdown', async () => {
    const { marked } = await import('marked');
    const same = [
      'C:\\Users\\bob', // a backslash before a letter is literal
      'format [h]:mm:ss', // brackets that cannot close a link nor start a definition
      'Revenue* (see note)', // a star that can only close, with nothing before it to open
      '2*3 = 6 and a * b',
      '_TextFrame.text', // an underscore that can only open, with nothing after it to close
      'For deposit only to ________.',
      'x <and so on', // no > after it: no tag, no autolink
      'costs ~5 to ~10',
    ];
    for (const t of same) expect(renderInlines([text(t)])).toBe(t);
    const cases: [string, string][] = [
      ['~~x~~ and H~2~O', '\\~\\~x\\~\\~ and H\\~2\\~O'],
      ['a\\*b and c\\', 'a\\\\*b and c\\'],
      ['[x][y] and [x](y) and ![i](j)', '[x\\][y] and [x\\](y) and ![i\\](j)'],
      ['[h]:mm:ss', '\\[h]:mm:ss'], // a reference definition at the start of a line
      ['x [^1] y', 'x \\[^1] y'],
      ['&amp; and &#38; and AT&T', '\\&amp; and \\&#38; and AT&T'],
      ['<b> and <https://e.x>', '\\<b> and \\<https://e.x>'],
      ['* one', '\\* one'],
      ['***', '\\***'],
      ['___', '\\___'],
      ['~~~', '\\~~~'],
      ['a\n=', 'a\n\\='],
    ];
    for (const [t, md] of cases) {
      expect(renderInlines([text(t)])).toBe(md);
      const html = await marked.parse(md);
      expect(
        html
          .replace(/<[^>]+>/g, '')
          .replace(/&amp;/g, '&')
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"')
          .trim(),
      ).toBe(t);
    }
  });

  it('opens and closes only the marks that change between runs, the longest-lasting outermost', async () => {
    const { marked } = await import('marked');
    const tips = renderInlines([
      text('Practice Tips', { bold: true, italic: true }),
      text(':', { italic: true }),
      text(' Keep records.'),
    ]);
    expect(tips).toBe('***Practice Tips**:* Keep records.');
    expect(marked.parseInline(tips)).toBe('<em><strong>Practice Tips</strong>:</em> Keep records.');
    // White space takes the marks both neighbours share.
    expect(renderInlines([text('one', { bold: true }), text(' '), text('two', { bold: true })])).toBe('**one two**');
    expect(
      renderInlines([
        text('a '),
        text('bold ', { bold: true }),
        text('and both', { bold: true, italic: true }),
        text(' end'),
      ]),
    ).toBe('a **bold *and both*** end');
    expect(renderInlines([text('gone ', { strike: true }), text('too', { strike: true, bold: true })])).toBe(
      '~~gone **too**~~',
    );
  });

  it('leaves out emphasis whose markers could not work where they stand', async () => {
    const { marked } = await import('marked');
    // A closer after punctuation before a letter, an opener after a letter before punctuation.
    expect(renderInlines([text('Note:', { bold: true }), text('The text')])).toBe('Note:The text');
    expect(renderInlines([text('word'), text('(paren)', { italic: true }), text('word')])).toBe('word(paren)word');
    // Only the span in the way goes: here the strike, whose tildes would stand between the stars and the word.
    const md = renderInlines([
      text('see '),
      text('this', { bold: true }),
      text('a', { bold: true, italic: true, strike: true }),
      text('b'),
    ]);
    expect(marked.parseInline(md)).not.toMatch(/[*~]/);
    expect(marked.parseInline(md)).toContain('<strong>this<em>a</em></strong>b');
  });

  it('writes one link for consecutive runs with one address, its label carrying the inner emphasis', () => {
    expect(
      renderInlines([
        text('see '),
        text('the ', { href: 'https://e.x' }),
        text('site', { href: 'https://e.x', bold: true }),
        text('.'),
      ]),
    ).toBe('see [the **site**](https://e.x).');
    expect(
      renderInlines([
        text('see ', { bold: true }),
        text('the site', { href: 'https://e.x', bold: true }),
        text(' now', { bold: true }),
      ]),
    ).toBe('**see [the site](https://e.x) now**');
    expect(renderInlines([text('a '), text('link ', { href: 'https://e.x' }), text('b')])).toBe(
      'a [link](https://e.x) b',
    );
    expect(renderInlines([text('[1]', { href: '#n1' }), text(' and '), text('a [b', { href: '#n2' })])).toBe(
      '[[1]](#n1) and [a \\[b](#n2)',
    );
  });

  it('writes a link whose label is its own address as an autolink, and lists it among the links', async () => {
    const { marked } = await import('marked');
    const md = renderInlines([
      text('Code at '),
      text('https://e.x/a_b*c', { href: 'https://e.x/a_b*c' }),
      text(', the site '),
      text('https://e.x', { href: 'https://e.x/', bold: true }),
      text(', mail '),
      text('me@e.x', { href: 'mailto:me@e.x' }),
      text(' or '),
      text('ask us', { href: 'mailto:us@e.x' }),
      text('.'),
    ]);
    expect(md).toBe(
      'Code at <https://e.x/a_b*c>, the site **<https://e.x/>**, mail <me@e.x> or [ask us](mailto:us@e.x).',
    );
    const html = await marked.parseInline(md);
    expect(html).toContain('<a href="https://e.x/a_b*c">https://e.x/a_b*c</a>');
    expect(html).toContain('<strong><a href="https://e.x/">https://e.x/</a></strong>');
    expect(linksFromMarkdown(`${md}\n\n\\<https://not.a.link> [again](https://e.x/a_b*c)`)).toEqual([
      'https://e.x/a_b*c',
      'https://e.x/',
      'mailto:me@e.x',
      'mailto:us@e.x',
    ]);
    // A label that is not the address stays a label; so does an address with a pipe in a table cell.
    expect(renderInlines([text('e.x/a', { href: 'https://e.x/a' })])).toBe('[e.x/a](https://e.x/a)');
    expect(renderInlines([text('https://e.x/a|b', { href: 'https://e.x/a|b' })], true)).toMatch(/^\[https/);
  });

  it('keeps table cells on one line, escaping pipes in text and code', () => {
    expect(
      renderInlines(
        [text('a|b', { bold: true }), text('\nnext'), { type: 'break' }, text('x|y', { code: true })],
        true,
      ),
    ).toBe('**a\\|b**<br>next<br>`x\\|y`');
    expect(renderInlines([text('[h]:mm:ss')], true)).toBe('[h]:mm:ss');
  });

  it('never leaves a literal marker: random runs read back with marked have the marks meant or none', async () => {
    const { marked } = await import('marked');
    const random = seededRandom(7);
    const alphabet = 'aaabb   .,:()!?*_~';
    const decode = (s: string): string =>
      s
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&');
    let meant = 0;
    let kept = 0;
    for (let n = 0; n < 400; n++) {
      const runs = Array.from({ length: 1 + Math.floor(random() * 5) }, () => {
        let t = '';
        for (let i = 1 + Math.floor(random() * 6); i > 0; i--) t += alphabet[Math.floor(random() * alphabet.length)];
        return text(/\S/.test(t) ? t : `${t}a`, {
          bold: random() < 0.4,
          italic: random() < 0.4,
          strike: random() < 0.2,
          ...(random() < 0.1 ? { href: 'https://e.x' } : {}),
        });
      });
      const html = marked.parseInline(renderInlines(runs)) as string;
      const read: { c: string; tags: string[] }[] = [];
      const open: string[] = [];
      for (const m of html.matchAll(/<(\/?)(em|strong|del|a)\b[^>]*>|([^<]+)/g)) {
        if (m[2]) {
          if (m[1]) open.splice(open.lastIndexOf(m[2]), 1);
          else open.push(m[2]);
        } else for (const c of decode(m[3]!)) read.push({ c, tags: [...open] });
      }
      const source = runs.flatMap((r) =>
        [...r.text].map((c) => ({
          c,
          tags: [r.bold && 'strong', r.italic && 'em', r.strike && 'del', r.href && 'a'].filter(Boolean) as string[],
        })),
      );
      const start = source.findIndex((s) => /\S/.test(s.c));
      expect(read.map((r) => r.c).join('')).toBe(
        source
          .map((s) => s.c)
          .join('')
          .trim(),
      );
      read.forEach((r, i) => {
        if (/\s/.test(r.c)) return;
        const want = source[start + i]!.tags;
        for (const tag of r.tags) expect(want).toContain(tag);
        meant += want.length;
        kept += r.tags.length;
      });
    }
    // Marks are left out only where they cannot be written (intraword changes next to punctuation).
    expect(kept / meant).toBeGreaterThan(0.8);
  });

  it('writes links, code, strike, images and hard breaks', () => {
    expect(renderInlines([text('site', { href: 'https://e.x/a b' })])).toBe('[site](<https://e.x/a b>)');
    expect(renderInlines([text('a`b', { code: true })])).toBe('``a`b``');
    expect(renderInlines([text('gone', { strike: true })])).toBe('~~gone~~');
    expect(renderInlines([{ type: 'image', alt: 'logo', src: 'l.png' }])).toBe('![logo](l.png)');
    expect(renderInlines([text('one'), { type: 'break' }, text('two')])).toBe('one\\\ntwo');
  });
});

describe('blocks', () => {
  it('writes nested, numbered lists', () => {
    const md = renderNode({
      kind: 'list',
      ordered: true,
      start: 3,
      items: [
        {
          content: [text('first')],
          children: [{ kind: 'list', ordered: false, items: [{ content: [text('inner')] }] }],
        },
        { content: [text('second')] },
      ],
    });
    expect(md).toBe('3. first\n   - inner\n4. second');
  });

  it('writes GFM tables with merged cells spread and pipes escaped', () => {
    const md = renderNode({
      kind: 'table',
      rows: [
        [{ content: [text('Name')] }, { content: [text('Score')], colSpan: 2 }],
        [{ content: [text('a|b')], rowSpan: 2 }, { content: [text('1')] }, { content: [text('2')] }],
        [{ content: [text('3')] }, { content: [text('line'), { type: 'break' }, text('two')] }],
      ],
    });
    expect(md).toBe('| Name | Score |  |\n| --- | --- | --- |\n| a\\|b | 1 | 2 |\n|  | 3 | line<br>two |');
  });

  it('leaves out rows and columns of a table that are empty from end to end', () => {
    // A calendar as word processors lay it out: a title over every column, narrow spacer columns
    // between the days, blank rows between the weeks.
    const cell = (t: string) => ({ content: t ? [text(t)] : [] });
    const md = renderNode({
      kind: 'table',
      rows: [
        [{ content: [text('May')], colSpan: 5 }],
        ['Mon', '', 'Tue', '', 'Wed'].map(cell),
        ['', '', '', '', ''].map(cell),
        ['1', '', '2', '', ''].map(cell),
      ],
    });
    expect(md).toBe('| May |  |  |\n| --- | --- | --- |\n| Mon | Tue | Wed |\n| 1 | 2 |  |');
  });

  it('fences code with a fence longer than any backtick run inside', () => {
    expect(renderNode({ kind: 'code', text: 'a ``` b', language: 'js' })).toBe('````js\na ``` b\n````');
  });

  it('writes headings, quotes, formulas and figures', () => {
    expect(renderNode({ kind: 'heading', level: 2, content: [text('Intro')] })).toBe('## Intro');
    expect(renderNode({ kind: 'quote', children: [{ kind: 'paragraph', content: [text('said')] }] })).toBe('> said');
    expect(renderNode({ kind: 'formula', latex: 'E = mc^2' })).toBe('$$\nE = mc^2\n$$');
    expect(renderNode({ kind: 'figure', alt: 'chart', src: 'c.png' })).toBe('![chart](c.png)');
  });
});

describe('document', () => {
  const page = (n: number, blocks: DocPage['blocks']): DocPage => ({
    pageNumber: n,
    width: 612,
    height: 792,
    status: 'ok',
    blocks,
  });
  const doc: DocModel = {
    contentType: 'application/pdf',
    metadata: {},
    warnings: [],
    pages: [
      page(1, [
        {
          node: { kind: 'paragraph', content: [text('Running head')] },
          type: 'page_header',
          furniture: true,
          bbox: [0.1, 0.02, 0.9, 0.05],
        },
        { node: { kind: 'heading', level: 1, content: [text('Title')] }, type: 'title', bbox: [0.1, 0.1, 0.9, 0.15] },
        { node: { kind: 'list', ordered: false, items: [{ content: [text('one')] }] } },
        { node: { kind: 'list', ordered: false, items: [{ content: [text('two')] }] } },
      ]),
      page(2, [
        {
          node: { kind: 'paragraph', content: [text('Body *text*')] },
          source: 'native_text',
          confidence: { layout: 0.9, ocr: null },
        },
      ]),
    ],
  };

  it('joins blocks, continues lists across list blocks and leaves furniture out under onlyMainContent', () => {
    const s = serialize(doc, { onlyMainContent: true });
    expect(s.markdown).toBe('# Title\n\n- one\n- two\n\nBody \\*text\\*\n');
    expect(s.pages).toEqual([
      { pageNumber: 1, markdown: '# Title\n\n- one\n- two' },
      { pageNumber: 2, markdown: 'Body \\*text\\*' },
    ]);
  });

  it('keeps furniture when onlyMainContent is false', () => {
    expect(serialize(doc, { onlyMainContent: false }).markdown.startsWith('Running head\n\n# Title')).toBe(true);
  });

  it('joins a paragraph broken by a page break in the document, not in its pages, and not across furniture kept', () => {
    const broken: DocModel = {
      ...doc,
      pages: [
        page(1, [
          { node: { kind: 'paragraph', content: [text('The sentence goes')] }, runsOn: true },
          { node: { kind: 'paragraph', content: [text('3')] }, type: 'page_number', furniture: true },
        ]),
        page(2, [
          { node: { kind: 'paragraph', content: [text('Head')] }, type: 'page_header', furniture: true },
          { node: { kind: 'paragraph', content: [text('on here.')] }, continues: true },
        ]),
      ],
    };
    const s = serialize(broken, { onlyMainContent: true });
    expect(s.markdown).toBe('The sentence goes on here.\n');
    expect(s.pages.map((p) => p.markdown)).toEqual(['The sentence goes', 'on here.']);
    expect(s.markdown.slice(...s.layout[1]!.items[1]!.markdownSpan!)).toBe('on here.');
    expect(serialize(broken, { onlyMainContent: false }).markdown).toBe('The sentence goes\n\n3\n\nHead\n\non here.\n');
  });

  it('goes on over the footnotes of the page before, which follow the joined paragraph', () => {
    const noted: DocModel = {
      ...doc,
      pages: [
        page(1, [
          { node: { kind: 'paragraph', content: [text('The sentence goes')] }, runsOn: true },
          { node: { kind: 'paragraph', content: [text('* A note.')] }, label: 'footnote' },
        ]),
        page(2, [
          { node: { kind: 'paragraph', content: [text('on here.')] }, continues: true },
          { node: { kind: 'paragraph', content: [text('Next.')] } },
        ]),
      ],
    };
    const s = serialize(noted, { onlyMainContent: true });
    expect(s.markdown).toBe('The sentence goes on here.\n\n\\* A note.\n\nNext.\n');
    for (const p of s.layout) for (const b of p.items) expect(s.markdown.slice(...b.markdownSpan!)).toBe(b.content);
  });

  it('goes on over a sidebar read after the first half, and over three pages', () => {
    const long: DocModel = {
      ...doc,
      pages: [
        page(1, [
          { node: { kind: 'paragraph', content: [text('It began')] }, runsOn: true },
          { node: { kind: 'paragraph', content: [text('A sidebar.')] } },
          { node: { kind: 'heading', level: 2, content: [text('Figure')] } },
        ]),
        page(2, [{ node: { kind: 'paragraph', content: [text('and went on')] }, continues: true, runsOn: true }]),
        page(3, [
          { node: { kind: 'paragraph', content: [text('to the end.')] }, continues: true },
          { node: { kind: 'paragraph', content: [text('Next.')] } },
        ]),
      ],
    };
    const s = serialize(long, { onlyMainContent: true });
    expect(s.markdown).toBe('It began and went on to the end.\n\nA sidebar.\n\n## Figure\n\nNext.\n');
    for (const p of s.layout) for (const b of p.items) expect(s.markdown.slice(...b.markdownSpan!)).toBe(b.content);
    expect(s.pages.map((p) => p.markdown)).toEqual([
      'It began\n\nA sidebar.\n\n## Figure',
      'and went on',
      'to the end.\n\nNext.',
    ]);
  });

  it('writes the same markdown without per-page markdown and layout blocks, and then lists none', () => {
    const long: DocModel = {
      ...doc,
      pages: [
        page(1, [
          { node: { kind: 'paragraph', content: [text('Head')] }, type: 'page_header', furniture: true },
          { node: { kind: 'paragraph', content: [text('It began')] }, runsOn: true },
          { node: { kind: 'paragraph', content: [text('A sidebar.')] } },
        ]),
        page(2, [
          { node: { kind: 'paragraph', content: [text('Head')] }, type: 'page_header', furniture: true },
          { node: { kind: 'paragraph', content: [text('and went on.')] }, continues: true },
          { node: { kind: 'list', ordered: false, items: [{ content: [text('one')] }] } },
          { node: { kind: 'list', ordered: false, items: [{ content: [text('two')] }] } },
        ]),
      ],
    };
    for (const onlyMainContent of [true, false]) {
      const whole = serialize(long, { onlyMainContent });
      expect(whole.pages).toHaveLength(2);
      expect(whole.layout).toHaveLength(2);
      for (const pages of [true, false])
        for (const blocks of [true, false]) {
          const s = serialize(long, { onlyMainContent, pages, blocks });
          expect(s.markdown).toBe(whole.markdown);
          expect(s.pages).toEqual(pages ? whole.pages : []);
          expect(s.layout).toEqual(blocks ? whole.layout : []);
        }
    }
  });

  it('records exact spans, ids, contiguous reading order and types', () => {
    const s = serialize(doc, { onlyMainContent: true });
    for (const p of s.layout) {
      p.items.forEach((b, i) => {
        expect(b.id).toBe(`p${p.pageNumber}.b${i}`);
        expect(b.readingOrder).toBe(i);
        if (b.markdownSpan) expect(s.markdown.slice(...b.markdownSpan)).toBe(b.content);
      });
    }
    const first = s.layout[0]!.items;
    expect(first.map((b) => b.type)).toEqual(['page_header', 'title', 'list_item', 'list_item']);
    expect(first[0]!.markdownSpan).toBeNull();
    expect(first[0]!.content).toBe('Running head');
    expect(s.layout[1]!.items[0]!.confidence).toEqual({ layout: 0.9, ocr: null });
    expect(s.layout[1]!.items[0]!.source).toBe('native_text');
  });
});
