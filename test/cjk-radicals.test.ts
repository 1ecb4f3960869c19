import { describe, expect, it } from 'vitest';
import { ideographsForRadicals } from '../src/layout/cjk-radicals.js';

describe('ideographsForRadicals', () => {
  it('writes Kangxi radicals and radical-supplement forms as the ideographs of the same shape', () => {
    // "⽣" U+2F63 (Kangxi), "⻋" U+2ECB and "⻓" U+2ED3 (supplement, no NFKC mapping).
    expect(ideographsForRadicals('\u2F63\u4EA7\u2ECB\u95F4\u2ED3')).toBe('生产车间长');
    expect(ideographsForRadicals('\u2EA0\u65CF')).toBe('民族');
  });
  it('leaves text without radicals, and the supplement code points without an equivalent, as they are', () => {
    expect(ideographsForRadicals('plain text 中文')).toBe('plain text 中文');
    expect(ideographsForRadicals('\u2E80')).toBe('\u2E80');
  });
});
