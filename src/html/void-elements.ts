/**
 * HTML's void elements: they have no end tag and no content (HTML Living Standard, 13.1.2). Shared by
 * the nesting guard, which must not count them as open, and by the markdown converter, which must not
 * give them an end tag when it rewrites self-closed XHTML tags.
 */
export const VOID_ELEMENTS: ReadonlySet<string> = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
