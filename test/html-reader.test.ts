import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { ParseError } from '../src/errors.js';
import { decodeText } from '../src/html/charset.js';
import { largestSrcset, parseSrcset } from '../src/html/clean.js';
import { convertHtml } from '../src/html/convert.js';
import { HTML_WORKER_FILE, HTML_WORKER_MIN_BYTES } from '../src/html/reader.js';
import { createParser } from '../src/parser.js';
import type { ParseOptions } from '../src/options/schema.js';
import { REPO_ROOT } from '../test-support/corpus.js';

const parser = createParser();
afterAll(() => parser.close());

const fixture = (name: string): Buffer => readFileSync(path.join(REPO_ROOT, 'fixtures', 'html', name));
const parse = (html: string | Uint8Array, options?: ParseOptions, filename = 'page.html') =>
  parser.parseFile(typeof html === 'string' ? Buffer.from(html, 'utf8') : html, options, { filename });

async function errorOf(p: Promise<unknown>): Promise<ParseError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ParseError);
    return err as ParseError;
  }
  throw new Error('expected the parse to fail');
}

const PAGE = `<!DOCTYPE html><html lang="en"><head><title>T</title></head><body>
<header><h1>Site name</h1><nav><a href="/a">A</a></nav></header>
<div class="cookie-notice">Cookies!</div>
<main><h1>Story</h1><p>Main text.</p><aside>Related stuff</aside><div class="social">Share</div></main>
<footer>Footer text</footer></body></html>`;

describe('HTML: onlyMainContent', () => {
  it('keeps the main landmark and drops chrome inside and around it', async () => {
    const doc = await parse(PAGE);
    expect(doc.markdown).toBe('# Story\n\nMain text.\n');
  });

  it('keeps everything when off', async () => {
    const doc = await parse(PAGE, { onlyMainContent: false });
    for (const s of ['Site name', 'Cookies!', 'Story', 'Related stuff', 'Share', 'Footer text'])
      expect(doc.markdown).toContain(s);
  });

  it('keeps all articles of a listing page, not only the first', async () => {
    const doc = await parse(
      '<body><nav>Menu</nav><article><h2>One</h2><p>1</p></article><article><h2>Two</h2><p>2</p></article></body>',
    );
    expect(doc.markdown).toBe('## One\n\n1\n\n## Two\n\n2\n');
  });

  it('keeps the article header (title, byline) while dropping the page header', async () => {
    const doc = await parse(
      '<body><header>Logo</header><article><header><h1>Title</h1><p>by X</p></header><p>Body.</p></article></body>',
    );
    expect(doc.markdown).toBe('# Title\n\nby X\n\nBody.\n');
  });

  it('falls back to the whole body rather than returning nothing', async () => {
    const doc = await parse('<body><nav><p>Only navigation text here</p></nav></body>');
    expect(doc.markdown).toBe('Only navigation text here\n');
  });
});

describe('HTML: onlyMainContent keeps content that looks like chrome', () => {
  it('keeps the questions of an accordion, which sit in buttons', async () => {
    const doc = await parse(`<body><nav><button class="navbar-toggler">Menu</button></nav><main><h1>FAQ</h1>
<div class="accordion-item"><h2 class="accordion-header"><button class="accordion-button" type="button">How do I reset my password?</button></h2>
<div class="accordion-collapse collapse show"><div class="accordion-body">Use the login page.</div></div></div></main></body>`);
    expect(doc.markdown).toBe('# FAQ\n\n## How do I reset my password?\n\nUse the login page.\n');
  });

  it('keeps a button in a heading and drops a stray one when there is no main element', async () => {
    const doc = await parse(
      '<body><h1>FAQ</h1><h2><button>Can I pay later?</button></h2><p>Yes, within 30 days.</p><button class="back-to-top">Top</button></body>',
    );
    expect(doc.markdown).toBe('# FAQ\n\n## Can I pay later?\n\nYes, within 30 days.\n');
  });

  it('keeps page-builder sections classed "widget" inside the article, drops the sidebar outside it', async () => {
    const doc = await parse(`<body><header class="site-header"><p>Acme</p><nav><a href="/">Home</a></nav></header>
<main id="main"><article><header class="entry-header"><h1>Our Services</h1></header><div class="entry-content">
<div class="so-panel widget widget_sow-editor"><h3 class="widget-title">Consulting</h3><p>Expert consulting in many areas.</p></div>
<div class="so-panel widget widget_sow-editor"><h3 class="widget-title">Training</h3><p>Hands-on training for your staff.</p></div>
<p>Contact us today.</p></div></article></main>
<aside id="secondary" class="widget-area"><section class="widget"><h2>Recent Posts</h2></section></aside><footer><p>© Acme</p></footer></body>`);
    expect(doc.markdown).toBe(
      '# Our Services\n\n### Consulting\n\nExpert consulting in many areas.\n\n### Training\n\nHands-on training for your staff.\n\nContact us today.\n',
    );
  });

  const blogger = (mainId: string): string => `<body><div class="content-outer">
<div class="header-outer"><div class="header section" id="header"><div class="widget Header"><h1 class="title">My Blog</h1><p>Notes and thoughts</p></div></div></div>
<div class="main section" id="${mainId}"><div class="widget Blog" id="Blog1"><h3 class="post-title">The Real Post Title</h3>
<div class="post-body"><p>This is the actual content of the blog post, which is long and important.</p><p>Second paragraph of the post.</p></div></div></div>
<div class="sidebar section"><div class="widget Profile"><h2>About Me</h2><p>I am a blogger.</p></div></div>
<div class="footer-outer"><p>Powered by Blogger.</p></div></div></body>`;

  it('keeps a Blogger post, which sits in a "widget Blog" container', async () => {
    expect((await parse(blogger('main'))).markdown).toBe(
      '### The Real Post Title\n\nThis is the actual content of the blog post, which is long and important.\n\nSecond paragraph of the post.\n',
    );
    // Without a main element the page's title stays (its only h1, in the header) and the sidebar goes.
    const md = (await parse(blogger('column'))).markdown;
    expect(md).toContain('# My Blog\n\n### The Real Post Title\n\nThis is the actual content');
    expect(md).not.toContain('Notes and thoughts');
    expect(md).not.toContain('About Me');
  });

  it('never removes table header rows, headings, callouts or words for their class names', async () => {
    const doc =
      await parse(`<body><div class="site-header"><a href="/">Logo</a> <a href="/about">About</a></div><div id="content">
<h1>Real Title</h1><aside class="note"><p>Important callout: do not skip this step.</p></aside>
<table class="tablesorter"><thead><tr><th class="header">Name</th><th class="header">Score</th></tr></thead><tbody><tr><td>Ann</td><td>10</td></tr></tbody></table>
<table><tr class="header"><td>Col A</td><td>Col B</td></tr><tr><td>1</td><td>2</td></tr></table>
<p>Text about <span class="side">side effects</span> of the drug.</p><h2 class="header">Section Two</h2><p>Para.</p></div><footer>Copyright</footer></body>`);
    expect(doc.markdown).toBe(
      '# Real Title\n\nImportant callout: do not skip this step.\n\n| Name | Score |\n| --- | --- |\n| Ann | 10 |\n\n| Col A | Col B |\n| --- | --- |\n| 1 | 2 |\n\nText about side effects of the drug.\n\n## Section Two\n\nPara.\n',
    );
  });

  it('keeps the only h1 of a page-level header, a menu that is not navigation and a cell classed "ad"', async () => {
    const doc =
      await parse(`<body><header><h1>Article Title Here</h1><p class="byline">By Jane</p><nav><a href="/">Home</a></nav></header>
<div class="post"><p>Body paragraph one.</p><div class="menu"><h3>Lunch menu</h3><ul><li>Soup 5 EUR</li></ul></div>
<table><tr><td class="ad">Ad-hoc value</td><td>x</td></tr><tr><td>1</td><td>2</td></tr></table></div><nav><a href="/a">A</a></nav></body>`);
    expect(doc.markdown).toBe(
      '# Article Title Here\n\nBody paragraph one.\n\n### Lunch menu\n\n- Soup 5 EUR\n\n| Ad-hoc value | x |\n| --- | --- |\n| 1 | 2 |\n',
    );
  });

  it('keeps a header and an aside that belong to a section', async () => {
    const doc = await parse(`<body><section id="page"><header><a href="/">Logo</a><p>Just another site</p></header>
<section><header><h2>Latest features</h2></header><p>Exports to many formats, markdown included, are now supported.</p><aside>Tip: exports run in the background.</aside></section>
<section><h2>Pricing</h2><p>Plans start at five dollars per month for individual users.</p></section><footer><p>© 2024 Acme</p></footer></section></body>`);
    expect(doc.markdown).toBe(
      '## Latest features\n\nExports to many formats, markdown included, are now supported.\n\nTip: exports run in the background.\n\n## Pricing\n\nPlans start at five dollars per month for individual users.\n',
    );
  });

  it('matches class names as whole tokens: "ad" is not "shadow" or "header"', async () => {
    const doc = await parse(
      '<body><main><h1>T</h1><div class="shadow">Shadowed box text.</div><div class="ad">Buy now!</div><div class="card-header">Card head</div><p>End.</p></main></body>',
    );
    expect(doc.markdown).toBe('# T\n\nShadowed box text.\n\nCard head\n\nEnd.\n');
  });

  it('refuses a class-based removal that would take most of the text', async () => {
    const doc = await parse(
      '<body><main><div class="share"><p>This long paragraph is the article, whatever its container is called by the theme.</p></div><p>Short.</p></main></body>',
    );
    expect(doc.markdown).toContain('This long paragraph is the article');
  });

  it('still drops navigation inside the main content: nav, link lists classed as menus or sidebars, navboxes', async () => {
    const doc = await parse(`<body><main><h1>Title</h1><p>Body text of the page.</p>
<ul class="menu"><li><a href="/a">Alpha</a></li><li><a href="/b">Beta</a></li></ul>
<table class="sidebar"><tr><td>Part of a series on <a href="/x">X</a></td></tr><tr><td><a href="/y">Y history</a> <a href="/z">Z people</a></td></tr></table>
<div class="navbox" role="navigation"><a href="/n">Navbox link</a></div><div class="sidebar"><p>A boxed note in prose, classed sidebar.</p></div>
<p>Edit<span class="mw-editsection">[<a href="/e">edit</a>]</span>.</p><nav><a href="/next">Next post</a></nav></main></body>`);
    expect(doc.markdown).toBe(
      '# Title\n\nBody text of the page.\n\nA boxed note in prose, classed sidebar.\n\nEdit.\n',
    );
  });

  it('keeps everything when onlyMainContent is off', async () => {
    const doc = await parse(
      `<body><header><h1>Site</h1><nav><a href="/">Home</a></nav></header><main><h2><button>Question?</button></h2>
<div class="widget Blog"><p>Post.</p></div><aside>Related</aside><div class="cookie-banner">Cookies</div></main><footer>Foot</footer></body>`,
      { onlyMainContent: false },
    );
    for (const s of ['Site', 'Home', 'Question?', 'Post.', 'Related', 'Cookies', 'Foot'])
      expect(doc.markdown).toContain(s);
  });
});

describe('HTML: includeTags and excludeTags', () => {
  const html =
    '<body><div id="a"><p class="x">first</p></div><p class="y">second</p><div class="x"><p class="x">third</p><span>t2</span></div></body>';

  it('keeps only matching elements, each once, in document order', async () => {
    const doc = await parse(html, { includeTags: ['.y', '.x'] });
    expect(doc.markdown).toBe('first\n\nsecond\n\nthird\n\nt2\n');
  });

  it('removes excluded elements, also from the html format', async () => {
    const doc = await parse(html, { excludeTags: ['div.x', '#a'], formats: ['markdown', 'html'] });
    expect(doc.markdown).toBe('second\n');
    expect(doc.html).not.toContain('third');
  });

  it('refuses an invalid selector with BAD_REQUEST naming the option', async () => {
    const err = await errorOf(parse(html, { includeTags: ['p', 'div[[['] }));
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toContain('options.includeTags[1]');
    const err2 = await errorOf(parse(html, { excludeTags: [':nope('] }));
    expect(err2.message).toContain('options.excludeTags[0]');
  });
});

describe('HTML: html, rawHtml, links and images formats', () => {
  const raw = `<!DOCTYPE html>
<html><head><base href="https://example.org/dir/page.html"><meta charset="utf-8"><title>x</title>
<script>var s = 1;</script><style>p { color: red }</style></head>
<body><noscript>no js</noscript>
<main><p><a href="other.html">rel</a> <a href="/root">root</a> <a href="other.html">dup</a> <a href="javascript:void(0)">js</a>
<a href="mailto:x@example.org">mail</a> <a href="#frag">frag</a></p>
<img src="small.jpg" srcset="small.jpg 1x, big.jpg 2x" alt="pic">
<img src="data:image/png;base64,iVBORw0KGgo=" alt="inline"></main></body></html>`;

  it('returns rawHtml exactly and a cleaned html with absolute URLs and the largest srcset candidate', async () => {
    const doc = await parse(raw, { formats: ['markdown', 'html', 'rawHtml'] });
    expect(doc.rawHtml).toBe(raw);
    for (const gone of ['<script', '<style', '<noscript', '<meta', '<head', 'srcset'])
      expect(doc.html).not.toContain(gone);
    expect(doc.html).toContain('href="https://example.org/dir/other.html"');
    expect(doc.html).toContain('src="https://example.org/dir/big.jpg"');
  });

  it('lists links absolute, deduplicated and in document order, without javascript:', async () => {
    const doc = await parse(raw, { formats: ['links'] });
    expect(doc.links).toEqual([
      'https://example.org/dir/other.html',
      'https://example.org/root',
      'mailto:x@example.org',
      'https://example.org/dir/page.html#frag',
    ]);
  });

  it('lists images, leaving out inline data unless removeBase64Images is off', async () => {
    expect((await parse(raw, { formats: ['images'] })).images).toEqual(['https://example.org/dir/big.jpg']);
    const kept = await parse(raw, { formats: ['images', 'markdown'], removeBase64Images: false });
    expect(kept.images).toEqual(['https://example.org/dir/big.jpg', 'data:image/png;base64,iVBORw0KGgo=']);
    expect(kept.markdown).toContain('![inline](data:image/png;base64,iVBORw0KGgo=)');
  });

  it('replaces inline images in markdown by default, keeping the alt text', async () => {
    const doc = await parse(raw);
    expect(doc.markdown).toContain('![inline](<Base64-Image-Removed>)');
    expect(doc.markdown).toContain('![pic](https://example.org/dir/big.jpg)');
    expect(doc.markdown).not.toContain('base64,');
  });

  it('leaves URLs relative when there is no base', async () => {
    const doc = await parse('<body><a href="a/b.html">x</a><img src="i.png" alt=""></body>', {
      formats: ['markdown', 'links', 'images', 'html'],
    });
    expect(doc.links).toEqual(['a/b.html']);
    expect(doc.images).toEqual(['i.png']);
    expect(doc.markdown).toBe('[x](a/b.html)![](i.png)\n');
  });
});

describe('HTML: metadata', () => {
  it('reads title, description, keywords, language, Open Graph, Twitter and other meta tags', async () => {
    const doc = await parse(fixture('article.html'));
    const m = doc.metadata;
    expect(m.title).toBe('Field notes: tidal pools');
    expect(m.description).toBe('What lives in a tidal pool, and when to look.');
    expect(m.keywords).toBe('tides, ecology');
    expect(m.language).toBe('en-GB');
    expect(m['og:title']).toBe('Tidal pools');
    expect(m['ogTitle']).toBe('Tidal pools');
    expect(m['og:locale']).toBe('en_GB');
    expect(m.ogLocaleAlternate).toEqual(['fr_FR', 'de_DE']);
    expect(m['twitter:card']).toBe('summary');
    expect(m['author']).toEqual(['R. Shore', 'K. Reef']);
    expect(m.contentType).toBe('text/html');
    expect(m.sourceURL).toBe('page.html');
  });

  it('never lets a meta tag overwrite what describes the parse', async () => {
    const doc = await parse(
      '<head><meta name="contentType" content="evil"><meta name="sourceURL" content="evil"></head><body>x</body>',
    );
    expect(doc.metadata.contentType).toBe('text/html');
    expect(doc.metadata.sourceURL).toBe('page.html');
  });
});

describe('HTML: character sets', () => {
  const text = 'Caf\u00e9 cr\u00e8me br\u00fbl\u00e9e \u2013 \u201cquoted\u201d \u20ac5';

  it('sniffs windows-1252 without a declaration', async () => {
    expect((await parse(fixture('cp1252-undeclared.html'))).markdown).toContain(text);
  });

  it('reads declared ISO-8859-1 as windows-1252', async () => {
    expect((await parse(fixture('latin1-declared.html'))).markdown).toContain(text);
  });

  it('reads UTF-16 with a BOM and without one', async () => {
    expect((await parse(fixture('utf16le-bom.html'))).markdown).toContain(`UTF-16 LE: ${text} \u65e5\u672c`);
    expect((await parse(fixture('utf16be-nobom.html'))).markdown).toContain(`UTF-16 BE: ${text} \u65e5\u672c`);
  });

  it('reads Shift-JIS declared in a meta tag, title included', async () => {
    const doc = await parse(fixture('shift-jis.html'));
    expect(doc.markdown).toContain('\u6771\u4eac\u306e\u5929\u6c17\u306f\u6674\u308c\u3067\u3059\u3002');
    expect(doc.metadata.title).toBe('\u304a\u77e5\u3089\u305b');
  });

  it('trusts a UTF-8 BOM over a contradicting declaration, and sniffs when declared UTF-8 is not', () => {
    const bom = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('<meta charset="windows-1252"><p>\u00e9</p>'),
    ]);
    expect(decodeText(bom, { markup: true }).text).toBe('<meta charset="windows-1252"><p>\u00e9</p>');
    const mislabelled = iconv.encode('<meta charset="utf-8"><p>d\u00e9j\u00e0 vu</p>', 'windows-1252');
    expect(decodeText(mislabelled, { markup: true }).text).toContain('d\u00e9j\u00e0 vu');
  });
});

describe('decodeText: legacy code pages without a declaration', () => {
  it('tells windows-1252 from its Central European and Cyrillic neighbours', () => {
    const cases: Array<[string, string]> = [
      ['Cr\u00e8me br\u00fbl\u00e9e, \u00a1Qu\u00e9 rico! Kvinnan \u00e5t k\u00f6ttbullar.', 'windows-1252'],
      [
        'Za\u017c\u00f3\u0142\u0107 g\u0119\u015bl\u0105 ja\u017a\u0144, przyk\u0142adowy tekst po polsku.',
        'windows-1250',
      ],
      [
        '\u041f\u0440\u0438\u0432\u0435\u0442, \u043a\u0430\u043a \u0434\u0435\u043b\u0430? \u042d\u0442\u043e \u0442\u0435\u043a\u0441\u0442 \u043d\u0430 \u0440\u0443\u0441\u0441\u043a\u043e\u043c \u044f\u0437\u044b\u043a\u0435.',
        'windows-1251',
      ],
      ['\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\u3067\u3059\u3002', 'shift_jis'],
      ['\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\u3067\u3059\u3002', 'euc-jp'],
    ];
    for (const [text, encoding] of cases) {
      const decoded = decodeText(iconv.encode(text, encoding));
      expect(decoded.text, encoding).toBe(text);
    }
  });
});

describe('HTML: XHTML', () => {
  it('closes self-closing elements instead of nesting what follows inside them', async () => {
    const doc = await parse(fixture('page.xhtml'), undefined, 'page.xhtml');
    expect(doc.markdown).toBe(
      '# Chapitre 1\n\nPremier paragraphe. Suite du texte.\n\nSecond paragraphe avec *emphase*.\\\nEt une ligne.\n',
    );
    expect(doc.metadata.language).toBe('fr');
  });
});

describe('HTML: blocks', () => {
  it('reports one layout block per top-level markdown block, with spans into the markdown', async () => {
    const doc = await parse(
      '<h1>T</h1><p>para</p><ul><li>a</li><li>b</li></ul><table><tr><td>h</td></tr><tr><td>v</td></tr></table>',
      { parsers: [{ type: 'pdf', blocks: true }] },
    );
    const items = doc.blocks![0]!.items;
    expect(items.map((b) => b.type)).toEqual(['title', 'text', 'list_item', 'table']);
    for (const b of items) expect(doc.markdown!.slice(b.markdownSpan![0], b.markdownSpan![1])).toBe(b.content);
  });
});

describe('HTML: hostile structure', () => {
  it('converts a page nested far deeper than any real page, keeping its text, with a warning', async () => {
    const n = 20000;
    const doc = await parse(
      `<html><body><p>top</p>${'<div>'.repeat(n)}deep <b>text</b>${'</div>'.repeat(n)}</body></html>`,
    );
    expect(doc.markdown).toBe('top\n\ndeep text\n');
    expect(doc.warning).toContain('nests elements more than');
  });

  it('reads a frameset page from its noframes fallback', async () => {
    const doc = await parse(
      '<html><head><title>F</title></head><frameset cols="50%,50%"><frame src="a.html"><noframes><p>Use a browser with <b>frames</b>.</p></noframes></frameset></html>',
    );
    expect(doc.markdown).toBe('Use a browser with **frames**.\n');
  });

  it('converts a page of nothing but markup to empty markdown', async () => {
    const doc = await parse('<html><head><title>Empty</title></head><body><script>x</script></body></html>');
    expect(doc.markdown).toBe('');
    expect(doc.metadata.title).toBe('Empty');
  });
});

describe.skipIf(!existsSync(HTML_WORKER_FILE))('HTML: large pages on the worker pool (needs npm run build)', () => {
  const big = (): Buffer => {
    let h = '<!DOCTYPE html><html><head><title>Big</title></head><body><nav>menu</nav><main>';
    for (let i = 0; i < 13000; i++)
      h += `<h2>Section ${i}</h2><p>Paragraph ${i} with <a href="/x/${i}">a link</a> and <b>bold</b>.</p>`;
    return Buffer.from(`${h}</main></body></html>`);
  };

  it('gives the same document as the conversion on the calling thread, without blocking it', async () => {
    const bytes = big();
    expect(bytes.byteLength).toBeGreaterThanOrEqual(HTML_WORKER_MIN_BYTES);
    let timerFired = false;
    const timer = setTimeout(() => {
      timerFired = true;
    }, 1);
    const doc = await parse(bytes, { formats: ['markdown', 'links'] }, 'big.html');
    clearTimeout(timer);
    // Converted inline, the synchronous work would finish before any timer could run.
    expect(timerFired).toBe(true);
    const inline = convertHtml(
      bytes,
      { filename: 'big.html', contentType: 'text/html' },
      { onlyMainContent: true, includeTags: [], excludeTags: [], removeBase64Images: true },
    );
    expect(doc.markdown).toBe(
      `${inline.pages[0]!.blocks.map((b) => (b.node as { markdown: string }).markdown).join('\n\n')}\n`,
    );
    expect(doc.links).toEqual(inline.links);
    expect(doc.markdown).not.toContain('menu');
  });

  it('stops with TIMEOUT when the timeout passes, and reports worker-side errors as ParseErrors', async () => {
    const err = await errorOf(parse(big(), { timeout: 1 }, 'big.html'));
    expect(err.code).toBe('TIMEOUT');
    const bad = await errorOf(parse(big(), { includeTags: ['p[['] }, 'big.html'));
    expect(bad.code).toBe('BAD_REQUEST');
    expect(bad.message).toContain('options.includeTags[0]');
  });
});

describe('srcset', () => {
  it('parses width and density descriptors and URLs with commas', () => {
    expect(parseSrcset('a.jpg 480w, b,c.jpg 960w')).toEqual([
      { url: 'a.jpg', width: 480 },
      { url: 'b,c.jpg', width: 960 },
    ]);
    expect(largestSrcset('a.jpg, b.jpg 2x, c.jpg 1.5x')).toBe('b.jpg');
    expect(largestSrcset('s.jpg 480w, l.jpg 1600w, m.jpg 960w')).toBe('l.jpg');
    expect(largestSrcset('')).toBeUndefined();
  });
});
