import { describe, expect, it } from 'vitest';
import { limitTagAttributes, limitTagNesting } from '../src/html/depth.js';
import { createParser } from '../src/parser.js';

describe('nesting guard before the HTML parser', () => {
  it('leaves ordinary pages untouched, unclosed paragraphs and list items included', () => {
    const page = `<html><body>${'<p>para '.repeat(3000)}<ul>${'<li>item'.repeat(3000)}</ul><script>if (a<b) {}</script></body></html>`;
    expect(limitTagNesting(page, 64)).toEqual({ html: page, dropped: 0 });
  });

  it('drops start and end tags past the limit and keeps their text', () => {
    const deep = `${'<div>'.repeat(10)}core${'</div>'.repeat(10)}`;
    const out = limitTagNesting(deep, 4);
    expect(out.dropped).toBe(6);
    expect(out.html).toBe(`${'<div>'.repeat(4)}core${'</div>'.repeat(4)}`);
  });

  it('lets a page nested 50,000 deep convert promptly, with a warning', async () => {
    const parser = createParser();
    try {
      const html = `<html><body>${'<ul><li>x'.repeat(50000)}${'</li></ul>'.repeat(50000)}</body></html>`;
      const doc = await parser.parseFile(Buffer.from(html), { timeout: 60000 }, { filename: 'deep.html' });
      expect(doc.markdown).toContain('x');
      expect(doc.warning).toMatch(/nests elements more than/);
    } finally {
      await parser.close();
    }
  });
});

describe('attribute guard before the HTML parser', () => {
  it('leaves pages with long attribute values untouched', () => {
    const page = `<html><body><img src="data:image/png;base64,${'A'.repeat(50000)}" alt="x"><p class="a" id="b">text</p></body></html>`;
    expect(limitTagAttributes(page, 10)).toEqual({ html: page, trimmed: 0 });
  });

  it('drops the attributes of a start tag past the limit and keeps the rest of the page', () => {
    const attrs = Array.from({ length: 30 }, (_, i) => `a${i}="${i}"`).join(' ');
    const out = limitTagAttributes(`<div><p ${attrs}>kept</p><br ${attrs}/></div>`, 2);
    expect(out.trimmed).toBe(2);
    expect(out.html).toBe('<div><p a0="0" a1="1" >kept</p><br a0="0" a1="1" /></div>');
  });

  it('lets a page with one element of 200,000 attributes convert, with a warning', async () => {
    const parser = createParser();
    try {
      const html = `<html><body><p ${Array.from({ length: 200000 }, (_, i) => `a${i}="x"`).join(' ')}>the text</p></body></html>`;
      const doc = await parser.parseFile(Buffer.from(html), { timeout: 60000 }, { filename: 'attributes.html' });
      expect(doc.markdown).toContain('the text');
      expect(doc.warning).toMatch(/more than 1000 attributes/);
    } finally {
      await parser.close();
    }
  });
});
