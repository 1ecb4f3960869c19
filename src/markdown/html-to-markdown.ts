/**
 * The one HTML-to-markdown path. Every HTML-shaped input (HTML files, mammoth's output for Word
 * documents, EPUB chapters) is converted here, so that tables, links, images and escaping follow
 * the same conventions everywhere:
 *
 * - ATX headings, fenced code, `-` bullets, `*` emphasis, `**` strong, `~~` strike;
 * - GFM tables: the first row is the header whether or not the source marks one; row and column
 *   spans are expanded (text in the first slot); pipes escaped; line breaks in cells become `<br>`;
 *   layout tables (a single cell, or a table holding another table) are unwrapped into blocks;
 * - links and images resolved against `baseUrl` when one is given; `javascript:` links dropped;
 * - inline image data (`data:` URLs) replaced by `<Base64-Image-Removed>` when asked;
 * - escaping limited to what would otherwise change the meaning of ordinary text.
 */
import TurndownService from 'turndown';
import { ParseError } from '../errors.js';
import { BASE64_IMAGE_PLACEHOLDER } from '../formats/base64-images.js';
import { VOID_ELEMENTS } from '../html/void-elements.js';

export interface HtmlToMarkdownOptions {
  /** Absolute URL that relative links and image sources are resolved against. */
  baseUrl?: string;
  /** Replace inline image data (data: URLs) by a placeholder, keeping the alt text. */
  removeBase64Images?: boolean;
}

/** What a `data:` image source becomes when inline images are removed: one placeholder for every format. */
export { BASE64_IMAGE_PLACEHOLDER };

// The subset of the DOM interface (domino's, inside turndown) the rules use.
interface DomNode {
  nodeName: string;
  nodeType: number;
  nodeValue: string | null;
  textContent: string | null;
  parentNode: DomNode | null;
  childNodes: ArrayLike<DomNode>;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  getElementsByTagName(name: string): ArrayLike<DomNode>;
}

type Replacement = (content: string, node: DomNode, options: TurndownService.Options) => string;

// Private-use characters that delimit table cells and rows while turndown assembles a table.
const CELL_OPEN = '\uE000';
const CELL_SEP = '\uE001';
const CELL_CLOSE = '\uE002';
const ROW_OPEN = '\uE003';
const ROW_CLOSE = '\uE004';
const SENTINELS = /[\uE000-\uE004]/g;

// ---------------------------------------------------------------- escaping

/**
 * Escapes running text only where markdown would read it as syntax; ordinary prose, snake_case,
 * arithmetic and brackets that cannot form a link stay as they are.
 */
export function escapeMarkdownText(s: string): string {
  return (
    s
      .replace(SENTINELS, '')
      .replace(/\\(?=[!-/:-@[-`{-~])/g, '\\\\')
      .replace(/`/g, '\\`')
      // `*` only matters when it touches a non-space on at least one side.
      .replace(/\*(?=\S)|(?<=\S)\*/g, '\\*')
      .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\_')
      .replace(/\[(?=[^\]]*\][([])/g, '\\[')
      .replace(/~~/g, '\\~\\~')
      .replace(/<(?=[A-Za-z/!?])/g, '\\<')
      // Line-start constructs: turndown has already collapsed the white space at the start of a block,
      // so a text node that begins with a space follows inline content and cannot start a line.
      .replace(/^(#{1,6})(?=\s|$)/, '\\$1')
      .replace(/^>/, '\\>')
      .replace(/^([-+])(?=\s)/, '\\$1')
      .replace(/^(\d{1,9})([.)])(?=\s|$)/, '$1\\$2')
      .replace(/^(={3,}|-{3,})\s*$/, '\\$1')
  );
}

// ---------------------------------------------------------------- URLs

function resolveUrl(url: string, baseUrl: string | undefined): string {
  const trimmed = url.trim();
  if (!baseUrl || !trimmed || /^[a-z][a-z0-9+.-]*:/i.test(trimmed) || trimmed.startsWith('#')) return trimmed;
  try {
    return new URL(trimmed, baseUrl).href;
  } catch {
    return trimmed;
  }
}

/**
 * Search engines and social sites wrap outbound links in click-tracking redirects; the reader
 * wants the destination. Returns the target of a recognised redirect, else the URL unchanged.
 */
export function unwrapRedirect(url: string): string {
  if (!/[?&](?:u|q|url|uddg)=/.test(url)) return url;
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://relative.invalid');
  } catch {
    return url;
  }
  const host = parsed.hostname === 'relative.invalid' ? '' : parsed.hostname.toLowerCase();
  const params = parsed.searchParams;
  const absolute = (candidate: string | null): string | undefined =>
    candidate && /^https?:\/\//i.test(candidate) ? candidate : undefined;
  // Bing: /ck/a?...&u=a1<base64url of the target>
  if ((host === '' || /(^|\.)bing\.com$/.test(host)) && parsed.pathname === '/ck/a') {
    const u = params.get('u');
    if (u?.startsWith('a1')) {
      const decoded = Buffer.from(u.slice(2).replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
      if (/^[a-z][a-z0-9+.-]*:/i.test(decoded)) return decoded;
      // Redirects to the engine's own pages carry a path: resolve it against the engine's origin.
      if (/^\/[^/]/.test(decoded)) return host ? new URL(decoded, parsed.origin).href : decoded;
    }
  }
  // Google: /url?q=<target> (or url=)
  if ((host === '' || /(^|\.)google\.[a-z.]+$/.test(host)) && parsed.pathname === '/url') {
    const target = absolute(params.get('q')) ?? absolute(params.get('url'));
    if (target) return target;
  }
  // DuckDuckGo: /l/?uddg=<target>
  if ((host === '' || /(^|\.)duckduckgo\.com$/.test(host)) && parsed.pathname === '/l/') {
    const target = absolute(params.get('uddg'));
    if (target) return target;
  }
  // Facebook and Instagram link shims: l.facebook.com/l.php?u=<target>
  if (/^l\.(?:facebook|instagram)\.com$/.test(host) && parsed.pathname === '/l.php') {
    const target = absolute(params.get('u'));
    if (target) return target;
  }
  return url;
}

/** Link text with unbalanced brackets would end the link early: escape them. */
function balanceBrackets(label: string): string {
  let depth = 0;
  for (const m of label.matchAll(/\\.|[[\]]/g)) {
    if (m[0] === '[') depth++;
    else if (m[0] === ']' && --depth < 0) break;
  }
  return depth === 0 ? label : label.replace(/(?<!\\)[[\]]/g, '\\$&');
}

function balancedParens(s: string): boolean {
  let depth = 0;
  for (const ch of s) {
    if (ch === '(') depth++;
    else if (ch === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

/** A link destination markdown reads back as the same URL. */
export function markdownDestination(url: string): string {
  let out = url.replace(/\s/g, (c) => encodeURIComponent(c)).replace(/[<>]/g, (c) => encodeURIComponent(c));
  if (!balancedParens(out)) out = out.replace(/[()]/g, '\\$&');
  return out;
}

function titlePart(node: DomNode): string {
  const title = (node.getAttribute('title') ?? '').replace(/\s+/g, ' ').trim();
  return title ? ` "${title.replace(/(["\\])/g, '\\$1')}"` : '';
}

// ---------------------------------------------------------------- helpers

function isElement(node: DomNode): boolean {
  return node.nodeType === 1;
}

function closest(node: DomNode, name: string): DomNode | null {
  for (let p = node.parentNode; p; p = p.parentNode) if (p.nodeName === name) return p;
  return null;
}

function hidden(node: DomNode): boolean {
  if (node.hasAttribute('hidden')) return true;
  if (node.getAttribute('aria-hidden') === 'true' && !(node.textContent ?? '').trim()) return true;
  const style = node.getAttribute('style');
  return !!style && /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\b/i.test(style);
}

function codeLanguage(node: DomNode): string {
  const cls = `${node.getAttribute('class') ?? ''} ${node.parentNode && isElement(node.parentNode) ? (node.parentNode.getAttribute('class') ?? '') : ''}`;
  const m =
    /(?:^|\s)(?:language|lang|highlight-source|highlight)-([\w+#-]+)/.exec(cls) ??
    /(?:^|\s)(?:brush:\s*)([\w+#-]+)/.exec(cls);
  return m?.[1] ?? node.getAttribute('data-lang') ?? '';
}

/** Text of a preformatted element, where `<br>` (some highlighters emit it) is a line break. */
function preText(node: DomNode): string {
  let out = '';
  const stack: DomNode[] = [node];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.nodeType === 3) out += n.nodeValue ?? '';
    else if (n.nodeName === 'BR') out += '\n';
    else if (n.nodeType === 1 || n === node)
      for (let i = n.childNodes.length - 1; i >= 0; i--) stack.push(n.childNodes[i]!);
  }
  return out;
}

function fenced(text: string, language: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `\n\n${fence}${language}\n${text.replace(/\n$/, '')}\n${fence}\n\n`;
}

// ---------------------------------------------------------------- tables

const layoutCache = new WeakMap<object, boolean>();

/** A table used for page layout rather than data: unwrap it into blocks instead of a grid. */
function isLayoutTable(table: DomNode): boolean {
  const cached = layoutCache.get(table);
  if (cached !== undefined) return cached;
  let result = false;
  if (table.getElementsByTagName('table').length > 0) result = true;
  else {
    const cells = table.getElementsByTagName('td').length + table.getElementsByTagName('th').length;
    if (cells <= 1) result = true;
  }
  layoutCache.set(table, result);
  return result;
}

function spanOf(node: DomNode, attr: string): number {
  const n = Number.parseInt(node.getAttribute(attr) ?? '1', 10);
  return Number.isFinite(n) && n > 0 ? Math.min(n, 1000) : 1;
}

function cellMarkdown(content: string): string {
  return content
    .trim()
    .replace(/\\\n/g, '<br>')
    .replace(/\n+/g, '<br>')
    .replace(/(<br>\s*)+$/g, '')
    .replace(/(?<!\\)\|/g, '\\|')
    .replace(/\s+/g, (ws) => (ws.includes('\n') ? '<br>' : ' '));
}

interface ParsedCell {
  text: string;
  colSpan: number;
  rowSpan: number;
}

function parseRows(content: string): ParsedCell[][] {
  const rows: ParsedCell[][] = [];
  for (const rowMatch of content.matchAll(/\uE003([\s\S]*?)\uE004/g)) {
    const cells: ParsedCell[] = [];
    for (const m of rowMatch[1]!.matchAll(/\uE000(\d+),(\d+)\uE001([\s\S]*?)\uE002/g)) {
      cells.push({ colSpan: Number(m[1]), rowSpan: Number(m[2]), text: cellMarkdown(m[3]!) });
    }
    if (cells.length) rows.push(cells);
  }
  return rows;
}

function gridOf(rows: ParsedCell[][]): string[][] {
  const grid: (string | undefined)[][] = [];
  rows.forEach((row, r) => {
    grid[r] ??= [];
    let c = 0;
    for (const cell of row) {
      while (grid[r]![c] !== undefined) c++;
      for (let dr = 0; dr < cell.rowSpan && r + dr < rows.length; dr++) {
        grid[r + dr] ??= [];
        for (let dc = 0; dc < cell.colSpan; dc++) grid[r + dr]![c + dc] = dr === 0 && dc === 0 ? cell.text : '';
      }
      c += cell.colSpan;
    }
  });
  const width = Math.max(0, ...grid.map((row) => row.length));
  return grid.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? ''));
}

function renderGrid(grid: string[][]): string {
  // Columns empty in every row are spacer columns of the source layout.
  const width = grid[0]?.length ?? 0;
  const keep = Array.from({ length: width }, (_, c) => grid.some((row) => row[c] !== ''));
  const rows = grid.map((row) => row.filter((_, c) => keep[c])).filter((row) => row.some((c) => c !== ''));
  if (rows.length === 0 || rows[0]!.length === 0) return '';
  if (rows.length === 1 && rows[0]!.length === 1) return rows[0]![0]!.replace(/<br>/g, '\n');
  const line = (cells: string[]): string => `| ${cells.map((c) => c || ' ').join(' | ')} |`.replace(/ {2,}\|/g, '  |');
  const out = [line(rows[0]!), `|${' --- |'.repeat(rows[0]!.length)}`];
  for (const row of rows.slice(1)) out.push(line(row));
  return out.join('\n');
}

// ---------------------------------------------------------------- the service

/** Adds a rule; rules added later take precedence (turndown tries the newest first). */
type AddRule = (key: string, filter: (node: DomNode) => boolean, replacement: Replacement) => void;

/** A filter matching elements by tag name. */
const is =
  (...names: string[]) =>
  (node: DomNode): boolean =>
    names.includes(node.nodeName);

/** Strike-through, raised and lowered text, headings, preformatted text, links and images. */
function addTextRules(add: AddRule, opts: HtmlToMarkdownOptions): void {
  add('strike', is('DEL', 'S', 'STRIKE'), (content) => (content.trim() ? wrapInline(content, '~~') : content));
  add('sup', is('SUP'), (content) => (content.trim() ? `<sup>${content.trim()}</sup>` : ''));
  add('sub', is('SUB'), (content) => (content.trim() ? `<sub>${content.trim()}</sub>` : ''));

  // Headings hold one line of inline text; block children or <br> inside would break the ATX line.
  add('heading', is('H1', 'H2', 'H3', 'H4', 'H5', 'H6'), (content, node) => {
    let text = content
      .replace(/\\\n/g, ' ')
      .replace(/\s*\n+\s*/g, ' ')
      .trim();
    // A heading that is bold all through (word processors' export) is a heading, not bold text.
    const bold = /^\*\*([^*][\s\S]*?)\*\*$/.exec(text);
    if (bold && !bold[1]!.includes('**')) text = bold[1]!.trim();
    if (!text) return '';
    return `\n\n${'#'.repeat(Number(node.nodeName.charAt(1)))} ${text.replace(/^\\(#)/, '$1')}\n\n`;
  });

  add(
    'preformatted',
    (node) => node.nodeName === 'PRE',
    (_content, node) => {
      const codeChild = Array.from(node.childNodes).find((c) => c.nodeName === 'CODE');
      const language = codeLanguage(codeChild ?? node) || codeLanguage(node);
      return fenced(preText(node), language);
    },
  );

  add(
    'link',
    (node) => node.nodeName === 'A' && node.hasAttribute('href'),
    (content, node) => {
      const href = (node.getAttribute('href') ?? '').trim();
      const text = content.trim();
      // Links without visible text (heading permalinks drawn as icons, zero-width spaces) say nothing in markdown.
      if (!text.replace(/[\u200b-\u200d\u2060\ufeff]/g, '')) return content.includes('\n') ? content : '';
      const url = unwrapRedirect(resolveUrl(href, opts.baseUrl));
      const dead = !url || /^(?:javascript|vbscript|data):/i.test(url);
      const target = dead ? '' : `(${markdownDestination(url)}${titlePart(node)})`;
      const wrap = (label: string): string => (dead ? label : `[${balanceBrackets(label)}]${target}`);
      const structured = /(?:^|\n)(?:#{1,6} |[-*+] |\d{1,9}[.)] |\||>|```)/.test(text);
      if (!structured) return wrap(text.replace(/\\\n/g, ' ').replace(/\s*\n+\s*/g, ' '));
      // Headings, lists or tables cannot sit inside link text (a card: heading and summary): link each block instead.
      const blocks = text.split(/\n\s*\n/).map((block) => {
        const b = block.trim();
        const heading = /^(#{1,6}) (.*)$/s.exec(b);
        if (heading) return `${heading[1]} ${wrap(heading[2]!.replace(/\s*\n\s*/g, ' '))}`;
        // Lists, tables, quotes and code keep their structure, unlinked.
        if (/^(?:[-*+] |\d{1,9}[.)] |\||>|```)/.test(b)) return b;
        return wrap(b.replace(/\\\n/g, ' ').replace(/\s*\n+\s*/g, ' '));
      });
      return `\n\n${blocks.filter(Boolean).join('\n\n')}\n\n`;
    },
  );

  add('image', is('IMG'), (_content, node) => {
    const src = (node.getAttribute('src') ?? node.getAttribute('data-src') ?? '').trim();
    // Alt text only needs what would end the brackets early.
    const alt = (node.getAttribute('alt') ?? '')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/[\\[\]]/g, '\\$&');
    if (!src) return '';
    // Spacer GIFs and tracking pixels.
    if (Number(node.getAttribute('width') ?? 2) <= 1 && Number(node.getAttribute('height') ?? 2) <= 1) return '';
    if (/^data:/i.test(src)) {
      if (opts.removeBase64Images) return `![${alt}](${BASE64_IMAGE_PLACEHOLDER})`;
      return `![${alt}](${src.replace(/\s/g, '')})`;
    }
    return `![${alt}](${markdownDestination(resolveUrl(src, opts.baseUrl))}${titlePart(node)})`;
  });
}

function addTableRules(add: AddRule): void {
  // Tables: cells and rows are marked with sentinels, the table rule assembles the grid.
  add('tableCell', is('TD', 'TH'), (content, node) => {
    const table = closest(node, 'TABLE');
    if (!table || isLayoutTable(table)) return `\n\n${content}\n\n`;
    return `${CELL_OPEN}${spanOf(node, 'colspan')},${spanOf(node, 'rowspan')}${CELL_SEP}${content.replace(SENTINELS, '')}${CELL_CLOSE}`;
  });
  add('tableRow', is('TR'), (content, node) => {
    const table = closest(node, 'TABLE');
    if (!table || isLayoutTable(table)) return `\n\n${content}\n\n`;
    return `${ROW_OPEN}${content}${ROW_CLOSE}`;
  });
  add('tableSection', is('THEAD', 'TBODY', 'TFOOT'), (content) => content);
  add('tableMeta', is('COLGROUP', 'COL'), () => '');
  add('caption', is('CAPTION'), (content) => `${CELL_OPEN}caption${CELL_SEP}${content.trim()}${CELL_CLOSE}`);
  add('table', is('TABLE'), (content, node) => {
    let caption = '';
    content = content.replace(/\uE000caption\uE001([\s\S]*?)\uE002/g, (_m, c: string) => {
      caption = c;
      return '';
    });
    if (isLayoutTable(node)) return `\n\n${caption}\n\n${content}\n\n`;
    const table = renderGrid(gridOf(parseRows(content)));
    return `\n\n${caption ? `${caption}\n\n` : ''}${table}\n\n`;
  });
}

/** Task list items, list items, code-like inline elements and MathML. */
function addListAndCodeRules(add: AddRule): void {
  // Task list items: `- [x] ` like GitHub.
  add(
    'checkbox',
    (node) =>
      node.nodeName === 'INPUT' && node.getAttribute('type') === 'checkbox' && node.parentNode?.nodeName === 'LI',
    (_c, node) => (node.hasAttribute('checked') ? '[x] ' : '[ ] '),
  );

  add('listItem', is('LI'), (content, node) => {
    const parent = node.parentNode;
    const position = listPosition(node);
    const prefix = parent?.nodeName === 'OL' ? `${position.number}${position.delimiter} ` : '- ';
    let body = content
      .replace(/^\s+/, '')
      .replace(/\s+$/, '')
      .replace(/^(\[[ x]\]) +/, '$1 ');
    body = body.replace(/\n/g, `\n${' '.repeat(prefix.length)}`).replace(/\n[ \t]+(?=\n)/g, '\n');
    return `${prefix}${body}${position.last ? '' : '\n'}`;
  });

  // Keyboard input, sample output and teletype text read as code, like <code>.
  add(
    'codeLike',
    (node) => ['KBD', 'SAMP', 'TT'].includes(node.nodeName) && closest(node, 'PRE') === null,
    (_content, node) => {
      const text = (node.textContent ?? '').replace(/\s+/g, ' ');
      if (!text.trim()) return text;
      const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
      const fence = '`'.repeat(longest + 1);
      const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
      return `${fence}${pad}${text}${pad}${fence}`;
    },
  );

  // MathML: its TeX source where the page gives one (alttext or a TeX annotation), else its text.
  add(
    'math',
    (node) => node.nodeName.toLowerCase() === 'math',
    (content, node) => {
      let tex = node.getAttribute('alttext')?.trim() ?? '';
      if (!tex) {
        const annotations = Array.from(node.getElementsByTagName('annotation'));
        tex = annotations.find((a) => /tex/i.test(a.getAttribute('encoding') ?? ''))?.textContent?.trim() ?? '';
      }
      if (!tex) return content;
      return node.getAttribute('display') === 'block' ? `\n\n$$\n${tex}\n$$\n\n` : `$${tex}$`;
    },
  );
}

function createService(opts: HtmlToMarkdownOptions): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    hr: '---',
    br: '\\',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    fence: '```',
    emDelimiter: '*',
    strongDelimiter: '**',
    linkStyle: 'inlined',
  });
  service.escape = escapeMarkdownText;
  const add: AddRule = (key, filter, replacement) => {
    service.addRule(key, {
      filter: filter as unknown as TurndownService.FilterFunction,
      replacement: replacement as unknown as TurndownService.ReplacementFunction,
    });
  };
  service.remove([
    'script',
    'style',
    'noscript',
    'template',
    'head',
    'title',
    'meta',
    'link',
    'svg',
    'canvas',
    'iframe',
    'object',
    'embed',
    'select',
    'input',
    'textarea',
    'dialog',
  ] as TurndownService.TagName[]);
  addTextRules(add, opts);
  addTableRules(add);
  addListAndCodeRules(add);

  // Last, so that it wins over every rule above.
  add(
    'hidden',
    (node) => isElement(node) && hidden(node),
    () => '',
  );

  return service;
}

interface ListPosition {
  last: boolean;
  /** The item's number in an ordered list: `<ol start>`, then one more per item, or the item's own `<li value>`. */
  number: number;
  /** `.`, switched to `)` and back wherever the numbering jumps, so that the item starts a new markdown list. */
  delimiter: '.' | ')';
}

const listPositions = new WeakMap<object, Map<DomNode, ListPosition>>();

/** An ordered-list number markdown can write (one to nine digits), from an HTML integer attribute. */
function listNumber(value: string | null): number | undefined {
  const m = value === null ? null : /^\s*\+?(\d{1,9})(?!\d)/.exec(value);
  return m ? Number(m[1]) : undefined;
}

/**
 * Position and number of a list item among its parent's items, computed once per list (long lists
 * stay linear). Markdown numbers a list from its first item only, so where an item's `value` breaks
 * the count (Word's HTML and Calibre's EPUBs number items that way) the item starts a new list: a
 * different delimiter is what separates two adjacent lists in CommonMark.
 */
function listPosition(node: DomNode): ListPosition {
  const parent = node.parentNode;
  if (!parent) return { last: true, number: 1, delimiter: '.' };
  let positions = listPositions.get(parent);
  if (!positions) {
    const map = new Map<DomNode, ListPosition>();
    const items = Array.from(parent.childNodes).filter((c) => c.nodeName === 'LI');
    let number = (listNumber(parent.getAttribute('start')) ?? 1) - 1;
    let delimiter: '.' | ')' = '.';
    items.forEach((item, index) => {
      const value = listNumber(item.getAttribute('value'));
      if (value !== undefined && index > 0 && value !== number + 1) delimiter = delimiter === '.' ? ')' : '.';
      number = value ?? number + 1;
      map.set(item, { last: index === items.length - 1, number, delimiter });
    });
    listPositions.set(parent, map);
    positions = map;
  }
  return positions.get(node) ?? { last: true, number: 1, delimiter: '.' };
}

function wrapInline(content: string, marker: string): string {
  const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(content)!;
  return `${m[1]}${marker}${m[2]}${marker}${m[3]}`;
}

const services = new Map<string, TurndownService>();

function serviceFor(opts: HtmlToMarkdownOptions): TurndownService {
  // Rules close over the options; one service per combination (in practice a handful).
  const key = `${opts.baseUrl ?? ''}\u0000${opts.removeBase64Images ? 1 : 0}`;
  let service = services.get(key);
  if (!service) {
    if (services.size > 64) services.clear();
    service = createService(opts);
    services.set(key, service);
  }
  return service;
}

const HARD_BREAK = /(?<!\\)(?:\\\\)*\\$/;

/**
 * Tidies what turndown leaves: trailing spaces, runs of blank lines, stray sentinels, and line
 * breaks used as paragraph spacing (`<br><br>`, a `<br>` closing a block), which become blank lines.
 */
function tidy(markdown: string): string {
  const lines = markdown.replace(SENTINELS, '').split('\n');
  const out: string[] = [];
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (/^\s*(```|~~~)/.test(raw)) inFence = !inFence;
    if (inFence || /^\s*(```|~~~)/.test(raw)) {
      out.push(raw);
      continue;
    }
    let line = raw.replace(/[ \t]+$/, '').replace(/\u00a0/g, ' ');
    if (/^\s*\\$/.test(line)) line = '';
    if (HARD_BREAK.test(line)) {
      const next = (lines[i + 1] ?? '').trim();
      if (next === '' || next === '\\') line = line.slice(0, -1).replace(/[ \t]+$/, '');
    }
    if (line === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(line);
  }
  return out.join('\n').trim();
}

/**
 * Converts HTML (a document or a fragment) to markdown. `html` may also be a DOM node of the
 * turndown parser's DOM when a caller already holds one.
 */
export function htmlToMarkdown(html: string, opts: HtmlToMarkdownOptions = {}): string {
  if (!html.trim()) return '';
  const service = serviceFor(opts);
  try {
    let source = isXhtml(html) ? expandSelfClosing(html) : html;
    // A frameset document has no body for turndown to hold its root in; frames carry no content, and
    // the noframes fallback is markup meant for the body.
    if (/<frameset\b/i.test(source)) source = source.replace(/<\/?(?:frameset|frame|noframes)\b[^>]*>/gi, '');
    return tidy(service.turndown(source));
  } catch (err) {
    // Turndown recurses over the tree; only absurd nesting exhausts the stack.
    if (err instanceof RangeError) {
      throw new ParseError('RESOURCE_LIMIT', 'The HTML nests elements too deeply to convert (thousands of levels).', {
        cause: err,
      });
    }
    if (err instanceof ParseError) throw err;
    throw new ParseError(
      'MALFORMED',
      `The HTML could not be converted to markdown: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
}

function isXhtml(html: string): boolean {
  const head = html.slice(0, 4096);
  return /^\s*<\?xml\b/i.test(head) || /\bxmlns\s*=\s*["']http:\/\/www\.w3\.org\/1999\/xhtml["']/i.test(head);
}

/**
 * XHTML (EPUB chapters, .xhtml files) closes empty elements with `/>`; an HTML parser ignores the
 * slash, so `<title/>` or `<script/>` would swallow the rest of the document and `<div/>` would
 * wrap what follows. Writing them as start and end tags makes both parsers agree.
 */
export function expandSelfClosing(xhtml: string): string {
  return xhtml.replace(
    /<([A-Za-z][\w:.-]*)((?:\s+[^\s"'>\/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)*)\s*\/>/g,
    (m, tag: string, attrs: string) => (VOID_ELEMENTS.has(tag.toLowerCase()) ? m : `<${tag}${attrs}></${tag}>`),
  );
}
