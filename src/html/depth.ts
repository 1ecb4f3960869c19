/**
 * A nesting guard that runs before the HTML parser. The HTML tree-construction algorithm walks the
 * stack of open elements for most start tags, so parse time grows with the square of nesting depth:
 * 50,000 nested lists freeze a parser for minutes, beyond any timeout. This linear scan drops start
 * tags (and their end tags) past a depth no real page reaches; the text they held is kept.
 */

import { VOID_ELEMENTS } from './void-elements.js';

const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'noscript', 'plaintext', 'template']);
/**
 * Elements whose end tag may be omitted: a new one implicitly closes an open one of these names,
 * searching no further down the stack than its boundaries (a nested list's item does not close the
 * outer item).
 */
const IMPLIED_END: Record<string, { closes: readonly string[]; boundaries: readonly string[] }> = {
  li: { closes: ['li'], boundaries: ['ul', 'ol', 'menu'] },
  dt: { closes: ['dt', 'dd'], boundaries: ['dl'] },
  dd: { closes: ['dt', 'dd'], boundaries: ['dl'] },
  td: { closes: ['td', 'th'], boundaries: ['tr', 'table'] },
  th: { closes: ['td', 'th'], boundaries: ['tr', 'table'] },
  tr: { closes: ['tr', 'td', 'th'], boundaries: ['table', 'thead', 'tbody', 'tfoot'] },
  thead: { closes: ['thead', 'tbody', 'tfoot', 'tr', 'td', 'th'], boundaries: ['table'] },
  tbody: { closes: ['thead', 'tbody', 'tfoot', 'tr', 'td', 'th'], boundaries: ['table'] },
  tfoot: { closes: ['thead', 'tbody', 'tfoot', 'tr', 'td', 'th'], boundaries: ['table'] },
  option: { closes: ['option'], boundaries: ['select', 'datalist', 'optgroup'] },
  optgroup: { closes: ['optgroup', 'option'], boundaries: ['select'] },
  rt: { closes: ['rt', 'rp'], boundaries: ['ruby'] },
  rp: { closes: ['rt', 'rp'], boundaries: ['ruby'] },
};

/** Start tags that close an open paragraph. */
const CLOSES_P = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'details',
  'div',
  'dl',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'ul',
  'li',
  'dd',
  'dt',
]);

export const PARSE_NESTING_LIMIT = 1024;

export interface NestingLimited {
  html: string;
  /** Start tags dropped for being nested too deep. */
  dropped: number;
}

const TAG = /<!--[\s\S]*?(?:-->|$)|<(\/?)([A-Za-z][A-Za-z0-9:-]*)\b(?:[^>"']|"[^"]*"|'[^']*')*?(\/?)>/g;

export function limitTagNesting(html: string, limit = PARSE_NESTING_LIMIT): NestingLimited {
  // Cheap exit: a page with fewer tags than the limit cannot nest past it.
  let lt = 0;
  for (let i = html.indexOf('<'); i !== -1 && lt <= limit; i = html.indexOf('<', i + 1)) lt++;
  if (lt <= limit) return { html, dropped: 0 };

  const stack: string[] = [];
  const droppedOpen = new Map<string, number>();
  const cuts: Array<[number, number]> = [];
  let dropped = 0;
  TAG.lastIndex = 0;
  for (let m = TAG.exec(html); m; m = TAG.exec(html)) {
    if (!m[2]) continue; // comment
    const name = m[2].toLowerCase();
    if (m[1]) {
      const pending = droppedOpen.get(name) ?? 0;
      if (pending > 0) {
        droppedOpen.set(name, pending - 1);
        cuts.push([m.index, TAG.lastIndex]);
        continue;
      }
      const at = stack.lastIndexOf(name);
      if (at !== -1) stack.length = at;
      continue;
    }
    if (VOID_ELEMENTS.has(name) || m[3]) continue;
    if (RAW_TEXT.has(name)) {
      // Skip to the end tag: what is inside is not markup.
      const endTag = new RegExp(`</${name}`, 'ig');
      endTag.lastIndex = TAG.lastIndex;
      const end = endTag.exec(html);
      TAG.lastIndex = end ? end.index : html.length;
      continue;
    }
    if (CLOSES_P.has(name) && stack[stack.length - 1] === 'p') stack.pop();
    const implied = IMPLIED_END[name];
    if (implied) {
      let cut = -1;
      for (let i = stack.length - 1; i >= 0 && !implied.boundaries.includes(stack[i]!); i--) {
        if (implied.closes.includes(stack[i]!)) cut = i;
      }
      if (cut !== -1) stack.length = cut;
    }
    if (stack.length >= limit) {
      droppedOpen.set(name, (droppedOpen.get(name) ?? 0) + 1);
      cuts.push([m.index, TAG.lastIndex]);
      dropped++;
      continue;
    }
    stack.push(name);
  }
  if (dropped === 0) return { html, dropped: 0 };
  let out = '';
  let from = 0;
  for (const [start, end] of cuts) {
    out += html.slice(from, start);
    from = end;
  }
  return { html: out + html.slice(from), dropped };
}

/**
 * Attributes one start tag may keep. The tokenizer checks each new attribute against the tag's
 * others (duplicates are dropped), so one tag with 200,000 attributes costs minutes; no real page
 * puts a thousand on one element.
 */
export const PARSE_ATTRIBUTE_LIMIT = 1000;

export interface AttributesLimited {
  html: string;
  /** Start tags whose attributes past the limit were dropped. */
  trimmed: number;
}

const ATTRIBUTE = /[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?/g;

/** Drops attributes past `limit` from every start tag that has more; a linear scan. */
export function limitTagAttributes(html: string, limit = PARSE_ATTRIBUTE_LIMIT): AttributesLimited {
  // Cheap exit: a tag with more attributes than the limit is longer than two characters each.
  let longest = 0;
  for (let i = html.indexOf('<'); i !== -1 && longest <= limit * 2;) {
    const end = html.indexOf('>', i + 1);
    if (end === -1) {
      longest = Math.max(longest, html.length - i);
      break;
    }
    longest = Math.max(longest, end - i);
    i = html.indexOf('<', end + 1);
  }
  if (longest <= limit * 2) return { html, trimmed: 0 };
  const parts: string[] = [];
  let from = 0;
  let trimmed = 0;
  TAG.lastIndex = 0;
  for (let m = TAG.exec(html); m; m = TAG.exec(html)) {
    if (!m[2] || m[1] || m[0].length <= limit * 2) continue;
    const head = m.index + 1 + m[2].length;
    const body = html.slice(head, TAG.lastIndex - 1 - m[3]!.length);
    ATTRIBUTE.lastIndex = 0;
    let kept = 0;
    let cut = -1;
    for (let a = ATTRIBUTE.exec(body); a; a = ATTRIBUTE.exec(body)) {
      if (++kept > limit) {
        cut = a.index;
        break;
      }
    }
    if (cut === -1) continue;
    parts.push(html.slice(from, head), body.slice(0, cut), m[3]!, '>');
    from = TAG.lastIndex;
    trimmed++;
  }
  if (!trimmed) return { html, trimmed: 0 };
  parts.push(html.slice(from));
  return { html: parts.join(''), trimmed };
}
