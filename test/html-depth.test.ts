import { describe, expect, it } from 'vitest';
import { limitTagNesting } from '../src/html/depth.js';
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
