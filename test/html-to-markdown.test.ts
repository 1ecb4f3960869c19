import { describe, expect, it } from 'vitest';
import {
  expandSelfClosing,
  htmlToMarkdown,
  markdownDestination,
  unwrapRedirect,
} from '../src/markdown/html-to-markdown.js';
import { markdownBlocks } from '../src/markdown/html-blocks.js';
import { renderNode } from '../src/markdown/serialize.js';

describe('htmlToMarkdown: blocks', () => {
  it('writes ATX headings, emphasis, strike and fenced code', () => {
    const md = htmlToMarkdown(
      '<h2>Title <small>v2</small></h2><p><b>bold</b>, <i>italic</i>, <s>gone</s></p><pre><code class="language-ts">let a = 1;\nlet b = a * 2;</code></pre>',
    );
    expect(md).toBe('## Title v2\n\n**bold**, *italic*, ~~gone~~\n\n```ts\nlet a = 1;\nlet b = a * 2;\n```');
  });

  it('does not keep bold markers around a whole heading, keeps them around part of one', () => {
    expect(htmlToMarkdown('<h1><b>Tables</b></h1><h2><strong>Multi</strong> level</h2>')).toBe(
      '# Tables\n\n## **Multi** level',
    );
  });

  it('writes MathML as TeX when the page carries its source', () => {
    expect(
      htmlToMarkdown('<p>Area <math alttext="\\pi r^2"><mi>π</mi><msup><mi>r</mi><mn>2</mn></msup></math>.</p>'),
    ).toBe('Area $\\pi r^2$.');
    expect(
      htmlToMarkdown(
        '<math display="block"><semantics><mi>x</mi><annotation encoding="application/x-tex">x_1</annotation></semantics></math>',
      ),
    ).toBe('$$\nx_1\n$$');
  });

  it('writes keyboard input as code without escapes', () => {
    expect(htmlToMarkdown('<p>Press <kbd>Ctrl</kbd>+<kbd>*</kbd> or <code>a_b*</code></p>')).toBe(
      'Press `Ctrl`+`*` or `a_b*`',
    );
  });

  it('keeps <br> line breaks inside preformatted text', () => {
    expect(htmlToMarkdown('<pre><code><span>a = 1</span><br><span>b = 2</span></code></pre>')).toBe(
      '```\na = 1\nb = 2\n```',
    );
  });

  it('fences code that contains backticks with a longer fence', () => {
    expect(htmlToMarkdown('<pre>use ``` to fence</pre>')).toBe('````\nuse ``` to fence\n````');
  });

  it('nests lists with "-" bullets and keeps ordered list numbering', () => {
    const md = htmlToMarkdown(
      '<ul><li>a<ul><li>a1</li><li>a2<ol start="7"><li>x</li><li>y</li></ol></li></ul></li><li>b</li></ul>',
    );
    expect(md).toBe('- a\n  - a1\n  - a2\n    7. x\n    8. y\n- b');
  });

  it('numbers items from <li value>, starting a new list (other delimiter) where the count jumps', () => {
    // Calibre's EPUBs and Word's HTML continue a list interrupted by other blocks with value on its first item.
    expect(htmlToMarkdown('<ol><li value="3">We now resume</li><li>Four</li></ol>')).toBe('3. We now resume\n4. Four');
    // Markdown numbers a list from its first item only: a different delimiter starts a list of its own.
    expect(htmlToMarkdown('<ol><li>One</li><li value="5">Five</li><li>Six</li><li value="9">Nine</li></ol>')).toBe(
      '1. One\n5) Five\n6) Six\n9. Nine',
    );
    expect(htmlToMarkdown('<ol start="2"><li>Two</li><li value="3">Three</li></ol>')).toBe('2. Two\n3. Three');
    expect(htmlToMarkdown('<ul><li>a<ol><li>x</li><li value="7">y</li></ol></li></ul>')).toBe('- a\n  1. x\n  7) y');
    // Values markdown cannot write (negative, not a number) leave the count as it was; value means nothing in <ul>.
    expect(
      htmlToMarkdown('<ol><li>a</li><li value="-2">b</li><li value="x">c</li></ol><ul><li value="4">d</li></ul>'),
    ).toBe('1. a\n2. b\n3. c\n\n- d');
  });

  it('keeps multi-paragraph list items together (indented continuation)', () => {
    expect(htmlToMarkdown('<ol><li><p>one</p><p>more</p></li><li>two</li></ol>')).toBe('1. one\n\n   more\n2. two');
  });

  it('uses the first row as the header of a table without thead and expands spans', () => {
    const md = htmlToMarkdown(
      '<table><tr><td>a</td><td>b</td></tr><tr><td colspan="2">wide</td></tr><tr><td rowspan="2">r</td><td>1</td></tr><tr><td>2</td></tr></table>',
    );
    expect(md).toBe('| a | b |\n| --- | --- |\n| wide |  |\n| r | 1 |\n|  | 2 |');
  });

  it('escapes pipes and turns line breaks into <br> inside cells', () => {
    const md = htmlToMarkdown(
      '<table><tr><th>k</th><th>v</th></tr><tr><td>a|b</td><td>x<br>y<p>z</p></td></tr></table>',
    );
    expect(md).toBe('| k | v |\n| --- | --- |\n| a\\|b | x<br>y<br>z |');
  });

  it('unwraps layout tables (one cell, or holding another table)', () => {
    expect(htmlToMarkdown('<table><tr><td><h1>Hi</h1><p>text</p></td></tr></table>')).toBe('# Hi\n\ntext');
    const nested = htmlToMarkdown(
      '<table><tr><td><p>left</p></td><td><table><tr><th>h</th></tr><tr><td>v</td></tr></table></td></tr></table>',
    );
    expect(nested).toBe('left\n\n| h |\n| --- |\n| v |');
  });

  it('drops empty spacer columns and empty tables', () => {
    expect(
      htmlToMarkdown('<table><tr><td>a</td><td></td><td>b</td></tr><tr><td>1</td><td> </td><td>2</td></tr></table>'),
    ).toBe('| a | b |\n| --- | --- |\n| 1 | 2 |');
    expect(htmlToMarkdown('<table><tr><td></td><td></td></tr></table>')).toBe('');
  });

  it('converts frameset documents (their noframes text) instead of failing', () => {
    expect(
      htmlToMarkdown('<html><frameset><frame src="a.html"><noframes><p>No frames</p></noframes></frameset></html>'),
    ).toBe('No frames');
  });

  it('drops scripts, styles, hidden elements and form controls', () => {
    expect(
      htmlToMarkdown(
        '<p>a</p><script>x()</script><style>p{}</style><p hidden>h</p><div style="display:none">n</div><select><option>o</option></select><p>b</p>',
      ),
    ).toBe('a\n\nb');
  });

  it('treats <br><br> as a paragraph break and drops a trailing <br>', () => {
    expect(htmlToMarkdown('<p>one<br><br>two<br></p>')).toBe('one\n\ntwo');
    expect(htmlToMarkdown('<p>one<br>two</p>')).toBe('one\\\ntwo');
  });
});

describe('htmlToMarkdown: XHTML', () => {
  it('closes self-closing elements so that they do not swallow or wrap what follows', () => {
    const body = '<body><p><a href="#p1"/>Text after.</p><p>x</p><textarea/><p>y<br/>z</p></body></html>';
    expect(
      htmlToMarkdown(`<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml">${body}`),
    ).toBe('Text after.\n\nx\n\ny\\\nz');
    // Read as HTML, the same markup means something else: the empty link wraps the text, the textarea swallows the rest.
    expect(htmlToMarkdown(`<html>${body}`)).toBe('[Text after.](#p1)\n\n[x](#p1)');
  });

  it('leaves void elements and plain HTML alone', () => {
    expect(expandSelfClosing('<p a="1/>">x<br/><img src="a.png"/><span class=\'q\'/></p>')).toBe(
      '<p a="1/>">x<br/><img src="a.png"/><span class=\'q\'></span></p>',
    );
  });
});

describe('htmlToMarkdown: links and images', () => {
  it('keeps relative URLs without a base and resolves them with one', () => {
    const html = '<p><a href="/wiki/Bill_Gates" title="Bill Gates">Bill Gates</a> <img src="img/a.png" alt="A"></p>';
    expect(htmlToMarkdown(html)).toBe('[Bill Gates](/wiki/Bill_Gates "Bill Gates") ![A](img/a.png)');
    expect(htmlToMarkdown(html, { baseUrl: 'https://example.org/x/y.html' })).toBe(
      '[Bill Gates](https://example.org/wiki/Bill_Gates "Bill Gates") ![A](https://example.org/x/img/a.png)',
    );
  });

  it('drops javascript: links but keeps their text, keeps mailto:, drops empty links', () => {
    expect(
      htmlToMarkdown(
        '<p><a href="javascript:go()">Go</a> <a href="mailto:a@b.org">mail</a> <a href="#x">\u200b</a></p>',
      ),
    ).toBe('Go [mail](mailto:a@b.org)');
  });

  it('replaces inline image data when asked, keeps it otherwise', () => {
    const html = '<p><img src="data:image/png;base64,iVBORw0KGgo=" alt="logo"></p>';
    expect(htmlToMarkdown(html, { removeBase64Images: true })).toBe('![logo](<Base64-Image-Removed>)');
    expect(htmlToMarkdown(html)).toBe('![logo](data:image/png;base64,iVBORw0KGgo=)');
  });

  it('links each block of a link that wraps blocks (a card), keeping headings as headings', () => {
    expect(htmlToMarkdown('<a href="/post"><h3>Title</h3><p>Summary of the post.</p></a>')).toBe(
      '### [Title](/post)\n\n[Summary of the post.](/post)',
    );
  });

  it('escapes unbalanced brackets in link text', () => {
    expect(htmlToMarkdown('<a href="/x">a] b</a> <a href="/y">[1]</a>')).toBe('[a\\] b](/x) [[1]](/y)');
  });

  it('escapes only brackets and backslashes in alt text', () => {
    expect(htmlToMarkdown('<img src="a.png" alt="logo[1] a\\b *x*">')).toBe('![logo\\[1\\] a\\\\b *x*](a.png)');
  });

  it('writes destinations markdown reads back unchanged', () => {
    expect(markdownDestination('/wiki/Foo_(bar)')).toBe('/wiki/Foo_(bar)');
    expect(markdownDestination('/a b')).toBe('/a%20b');
    expect(markdownDestination('/odd)')).toBe('/odd\\)');
  });

  it('unwraps search-engine click-tracking redirects', () => {
    const target = 'https://en.wikipedia.org/wiki/Microsoft';
    const bing = `https://www.bing.com/ck/a?!&&p=abc&u=a1${Buffer.from(target).toString('base64url')}&ntb=1`;
    expect(unwrapRedirect(bing)).toBe(target);
    expect(unwrapRedirect(`https://www.google.com/url?q=${encodeURIComponent(target)}&sa=U`)).toBe(target);
    expect(unwrapRedirect(`https://duckduckgo.com/l/?uddg=${encodeURIComponent(target)}`)).toBe(target);
    expect(unwrapRedirect('https://example.org/search?q=cats')).toBe('https://example.org/search?q=cats');
    expect(htmlToMarkdown(`<a href="${bing.replace(/&/g, '&amp;')}">MS</a>`)).toBe(`[MS](${target})`);
  });
});

describe('htmlToMarkdown: escaping', () => {
  it('does not escape a dash or a number after inline content', () => {
    expect(htmlToMarkdown('<p><b>Note</b> - this, <i>step</i> 1. then - 2</p>')).toBe(
      '**Note** - this, *step* 1. then - 2',
    );
  });

  it('leaves ordinary text alone', () => {
    const text = 'snake_case_name, 2 * 3 = 6, a [note], 100% sure, C:\\Temp, e-mail - dash';
    expect(htmlToMarkdown(`<p>${text}</p>`)).toBe(text);
  });

  it('escapes what would become markdown syntax', () => {
    expect(htmlToMarkdown('<p>*not emphasis*</p>')).toBe('\\*not emphasis\\*');
    expect(htmlToMarkdown('<p># no heading</p>')).toBe('\\# no heading');
    expect(htmlToMarkdown('<p>1. no list</p>')).toBe('1\\. no list');
    expect(htmlToMarkdown('<p>- no bullet</p>')).toBe('\\- no bullet');
    expect(htmlToMarkdown('<p>&lt;b&gt; not html</p>')).toBe('\\<b> not html');
    expect(htmlToMarkdown('<p>[a](b) not a link</p>')).toBe('\\[a](b) not a link');
    expect(htmlToMarkdown('<p>_under_</p>')).toBe('\\_under\\_');
    // Every underscore of a blank or a dunder name, not every other one.
    expect(htmlToMarkdown('<p>Sign: ____ __init__</p>')).toBe('Sign: \\_\\_\\_\\_ \\_\\_init\\_\\_');
  });
});

describe('markdownBlocks', () => {
  it('splits at blank lines outside fences and loose list items, and joins back to the same markdown', () => {
    const md = '# T\n\ntext\n\n```\na\n\nb\n```\n\n1. one\n\n   more\n2. two\n\n| a |\n| --- |\n| 1 |\n\n![x](y.png)';
    const blocks = markdownBlocks(md);
    expect(blocks.map((b) => b.type)).toEqual(['title', 'text', 'code', 'list_item', 'table', 'figure']);
    expect(blocks.map((b) => renderNode(b.node)).join('\n\n')).toBe(md);
  });
});
