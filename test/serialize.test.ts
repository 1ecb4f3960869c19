import { describe, expect, it } from 'vitest';
import { renderInlines, renderNode, serialize } from '../src/markdown/serialize.js';
import { text, type DocModel, type DocPage } from '../src/model/document.js';

describe('inlines', () => {
  it('merges runs with the same marks and keeps spaces outside emphasis markers', () => {
    expect(renderInlines([text('Hello '), text('bold ', { bold: true }), text('words', { bold: true }), text(' and '), text('slanted', { italic: true })]))
      .toBe('Hello **bold words** and *slanted*');
  });

  it('escapes characters that would start markdown syntax, but not intraword underscores', () => {
    expect(renderInlines([text('a *star*, snake_case, _under_ and [x](y) <b>')])).toBe('a \\*star\\*, snake_case, \\_under\\_ and \\[x\\](y) \\<b>');
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
      kind: 'list', ordered: true, start: 3,
      items: [
        { content: [text('first')], children: [{ kind: 'list', ordered: false, items: [{ content: [text('inner')] }] }] },
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
  const page = (n: number, blocks: DocPage['blocks']): DocPage => ({ pageNumber: n, width: 612, height: 792, status: 'ok', blocks });
  const doc: DocModel = {
    contentType: 'application/pdf',
    metadata: {},
    warnings: [],
    pages: [
      page(1, [
        { node: { kind: 'paragraph', content: [text('Running head')] }, type: 'page_header', furniture: true, bbox: [0.1, 0.02, 0.9, 0.05] },
        { node: { kind: 'heading', level: 1, content: [text('Title')] }, type: 'title', bbox: [0.1, 0.1, 0.9, 0.15] },
        { node: { kind: 'list', ordered: false, items: [{ content: [text('one')] }] } },
        { node: { kind: 'list', ordered: false, items: [{ content: [text('two')] }] } },
      ]),
      page(2, [{ node: { kind: 'paragraph', content: [text('Body *text*')] }, source: 'native_text', confidence: { layout: 0.9, ocr: null } }]),
    ],
  };

  it('joins blocks, continues lists across list blocks and leaves furniture out under onlyMainContent', () => {
    const s = serialize(doc, { onlyMainContent: true });
    expect(s.markdown).toBe('# Title\n\n- one\n- two\n\nBody \\*text\\*\n');
    expect(s.pages).toEqual([{ pageNumber: 1, markdown: '# Title\n\n- one\n- two' }, { pageNumber: 2, markdown: 'Body \\*text\\*' }]);
  });

  it('keeps furniture when onlyMainContent is false', () => {
    expect(serialize(doc, { onlyMainContent: false }).markdown.startsWith('Running head\n\n# Title')).toBe(true);
  });

  it('joins a paragraph broken by a page break in the document, not in its pages, and not across furniture kept', () => {
    const broken: DocModel = {
      ...doc,
      pages: [
        page(1, [{ node: { kind: 'paragraph', content: [text('The sentence goes')] }, runsOn: true }, { node: { kind: 'paragraph', content: [text('3')] }, type: 'page_number', furniture: true }]),
        page(2, [{ node: { kind: 'paragraph', content: [text('Head')] }, type: 'page_header', furniture: true }, { node: { kind: 'paragraph', content: [text('on here.')] }, continues: true }]),
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
        page(1, [{ node: { kind: 'paragraph', content: [text('The sentence goes')] }, runsOn: true }, { node: { kind: 'paragraph', content: [text('* A note.')] }, label: 'footnote' }]),
        page(2, [{ node: { kind: 'paragraph', content: [text('on here.')] }, continues: true }, { node: { kind: 'paragraph', content: [text('Next.')] } }]),
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
        page(1, [{ node: { kind: 'paragraph', content: [text('It began')] }, runsOn: true }, { node: { kind: 'paragraph', content: [text('A sidebar.')] } }, { node: { kind: 'heading', level: 2, content: [text('Figure')] } }]),
        page(2, [{ node: { kind: 'paragraph', content: [text('and went on')] }, continues: true, runsOn: true }]),
        page(3, [{ node: { kind: 'paragraph', content: [text('to the end.')] }, continues: true }, { node: { kind: 'paragraph', content: [text('Next.')] } }]),
      ],
    };
    const s = serialize(long, { onlyMainContent: true });
    expect(s.markdown).toBe('It began and went on to the end.\n\nA sidebar.\n\n## Figure\n\nNext.\n');
    for (const p of s.layout) for (const b of p.items) expect(s.markdown.slice(...b.markdownSpan!)).toBe(b.content);
    expect(s.pages.map((p) => p.markdown)).toEqual(['It began\n\nA sidebar.\n\n## Figure', 'and went on', 'to the end.\n\nNext.']);
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
