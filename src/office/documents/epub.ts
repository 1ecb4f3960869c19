/**
 * EPUB (2 and 3) → document model. Chapters are read in spine order (the navigation document
 * itself is left out) and converted through the shared HTML-to-markdown path. A chapter without a
 * heading of its own gets its table-of-contents title as a level-1 heading. Title, creators,
 * language, description and publisher go into metadata, and a short block at the top of the
 * markdown names title, authors, language and description.
 */
import { ParseError } from '../../errors.js';
import { htmlToMarkdown } from '../../markdown/html-to-markdown.js';
import { inlinesText, type DocBlock, type DocModel, type Inline } from '../../model/document.js';
import type { ReaderContext } from '../../readers/reader.js';
import { ZipPackage } from '../../containers/zip.js';
import { decodeUriSafe, dirOf, resolvePart } from '../package/part-path.js';
import { children, OFFICE_NAMESPACES, parseXml, textContent, type XmlElement } from '../package/xml.js';
import { imageSrc, mimeOf } from './common.js';
import { xhtmlToNodes, type ClassStyle } from './xhtml.js';

/** Package documents (OPF, NCX, container) are read as far as they go. */
function parse(text: string): XmlElement {
  return parseXml(text, { namespaces: OFFICE_NAMESPACES, onBadTag: 'tolerate', invalidCharRefs: 'replace' });
}

/** An href (its fragment dropped, percent-decoded) resolved against the directory `baseDir`. */
function resolveHref(baseDir: string, href: string): string {
  return resolvePart(baseDir, decodeUriSafe(href.split('#')[0]!));
}

/** Local name of an element whatever its namespace prefix (OPF files use several conventions). */
function local(el: XmlElement): string {
  const i = el.name.indexOf(':');
  return i < 0 ? el.name : el.name.slice(i + 1);
}

function childLocal(el: XmlElement | undefined, name: string): XmlElement | undefined {
  return children(el).find((c) => local(c) === name);
}

function childrenLocal(el: XmlElement | undefined, name: string): XmlElement[] {
  return children(el).filter((c) => local(c) === name);
}

function descendantsLocal(el: XmlElement | undefined, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const c of children(el)) {
    if (local(c) === name) out.push(c);
    descendantsLocal(c, name, out);
  }
  return out;
}

/** Chapter titles by package path, from the EPUB 3 navigation document or the EPUB 2 NCX. */
function tocTitles(
  zip: ZipPackage,
  opfDir: string,
  manifest: Map<string, { href: string; type: string; props: string }>,
  ncxId: string | undefined,
): Map<string, string> {
  const titles = new Map<string, string>();
  const nav = [...manifest.values()].find((m) => m.props.split(/\s+/).includes('nav'));
  if (nav) {
    const path = resolveHref(opfDir, nav.href);
    const text = zip.text(path);
    if (text) {
      try {
        for (const a of descendantsLocal(parse(text), 'a')) {
          const href = a.attrs['href'];
          const t = textContent(a).replace(/\s+/g, ' ').trim();
          if (href && t) {
            const target = resolveHref(dirOf(path), href);
            if (!titles.has(target)) titles.set(target, t);
          }
        }
      } catch (err) {
        if (err instanceof ParseError && err.code === 'RESOURCE_LIMIT') throw err;
      }
    }
  }
  const ncx = ncxId ? manifest.get(ncxId) : [...manifest.values()].find((m) => m.type === 'application/x-dtbncx+xml');
  if (ncx && titles.size === 0) {
    const path = resolveHref(opfDir, ncx.href);
    const text = zip.text(path);
    if (text) {
      for (const np of descendantsLocal(parse(text), 'navPoint')) {
        const label = textContent(childLocal(childLocal(np, 'navLabel'), 'text'))
          .replace(/\s+/g, ' ')
          .trim();
        const src = childLocal(np, 'content')?.attrs['src'];
        if (label && src) {
          const target = resolveHref(dirOf(path), src);
          if (!titles.has(target)) titles.set(target, label);
        }
      }
    }
  }
  return titles;
}

export function readEpub(ctx: ReaderContext): DocModel {
  const zip = ZipPackage.open(ctx.bytes);
  const container = zip.text('META-INF/container.xml');
  let opfPath: string | undefined;
  if (container) {
    const rootfile = descendantsLocal(parse(container), 'rootfile')[0];
    opfPath = rootfile?.attrs['full-path'];
  }
  opfPath ??= zip.names().find((n) => n.toLowerCase().endsWith('.opf'));
  const opfText = opfPath ? zip.text(opfPath) : undefined;
  if (!opfPath || opfText === undefined) throw new ParseError('MALFORMED', 'The EPUB has no package document (.opf).');
  const opfDir = dirOf(opfPath);
  const pkg = children(parse(opfText)).find((c) => local(c) === 'package');
  if (!pkg) throw new ParseError('MALFORMED', 'The EPUB package document has no <package> element.');

  // Metadata (Dublin Core).
  const meta = childLocal(pkg, 'metadata');
  const dc = (name: string): string[] =>
    childrenLocal(meta, name)
      .map((e) => textContent(e).replace(/\s+/g, ' ').trim())
      .filter(Boolean);
  const title = dc('title');
  const creators = dc('creator');
  const language = dc('language');
  const description = dc('description').map((d) => d.replace(/<[^>]+>/g, '').trim());
  const publisher = dc('publisher');
  const date = dc('date');
  const subjects = dc('subject');
  const metadata: DocModel['metadata'] = {};
  const one = (v: string[]): string | string[] => (v.length === 1 ? v[0]! : v);
  if (title.length) metadata.title = title[0]!;
  if (creators.length) {
    metadata.author = one(creators);
    metadata.creator = one(creators);
  }
  if (language.length) metadata.language = one(language);
  if (description.length) metadata.description = description[0]!;
  if (publisher.length) metadata.publisher = one(publisher);
  if (date.length) metadata.date = date[0]!;
  if (subjects.length) metadata.keywords = subjects.join(', ');

  const manifest = new Map<string, { href: string; type: string; props: string }>();
  for (const item of childrenLocal(childLocal(pkg, 'manifest'), 'item')) {
    const id = item.attrs['id'];
    if (id)
      manifest.set(id, {
        href: item.attrs['href'] ?? '',
        type: item.attrs['media-type'] ?? '',
        props: item.attrs['properties'] ?? '',
      });
  }
  const spine = childLocal(pkg, 'spine');
  const titles = tocTitles(zip, opfDir, manifest, spine?.attrs['toc']);

  const blocks: DocBlock[] = [];
  const head: Inline[] = [];
  const line = (label: string, value: string): void => {
    if (head.length) head.push({ type: 'break' });
    head.push({ type: 'text', text: `${label}:`, bold: true }, { type: 'text', text: ` ${value}` });
  };
  if (title.length) line('Title', title[0]!);
  if (creators.length) line('Authors', creators.join(', '));
  if (language.length) line('Language', language.join(', '));
  if (description.length) line('Description', description[0]!);
  if (head.length) blocks.push({ node: { kind: 'paragraph', content: head } });

  const warnings: string[] = [];
  const cssCache = new Map<string, Map<string, ClassStyle>>();
  const usedNoteLabels = new Set<string>();
  const itemrefs = childrenLocal(spine, 'itemref');
  for (const ref of itemrefs) {
    if (Date.now() > ctx.deadline)
      throw new ParseError('TIMEOUT', 'The EPUB could not be converted within the time limit.');
    const item = manifest.get(ref.attrs['idref'] ?? '');
    if (!item || item.props.split(/\s+/).includes('nav')) continue;
    if (!/x?html|xml/.test(item.type)) continue;
    const path = resolveHref(opfDir, item.href);
    let html: string | undefined;
    try {
      html = zip.text(path);
    } catch (err) {
      if (err instanceof ParseError && err.code !== 'MALFORMED') throw err;
      warnings.push(`Chapter ${path} could not be read: ${(err as Error).message}`);
      continue;
    }
    if (html === undefined) {
      warnings.push(`Chapter ${path} is listed in the spine but missing from the package.`);
      continue;
    }
    if (/<!ENTITY/i.test(html.slice(0, 65536))) {
      throw new ParseError('RESOURCE_LIMIT', `Chapter ${path} declares XML entities, which are never expanded.`);
    }
    const tocTitle = titles.get(path);
    if (isXhtml(html)) {
      // Well-formed XHTML (the EPUB rule): read directly into the model.
      const baseDir = dirOf(path);
      const classes = classStyles(zip, baseDir, html, cssCache);
      const nodes = xhtmlToNodes(
        parseXml(html, { keepAllWhitespace: true, onBadTag: 'tolerate', invalidCharRefs: 'replace' }),
        {
          image: (src) => chapterImage(zip, baseDir, src, ctx.options.removeBase64Images),
          link: (href) => (/^(https?|mailto|ftp):/i.test(href) ? href : undefined),
          classMarks: (c) => classes.get(c),
          usedNoteLabels,
        },
      );
      if (nodes.length === 0) continue;
      if (tocTitle && !nodes.some((n) => n.kind === 'heading')) {
        // A chapter styled without heading elements often opens with its title as a paragraph:
        // that paragraph becomes the heading instead of repeating the title.
        const first = nodes[0];
        const firstText = first?.kind === 'paragraph' ? inlinesText(first.content).trim() : '';
        if (
          first?.kind === 'paragraph' &&
          firstText &&
          tocTitle.replace(/\s+/g, ' ').startsWith(firstText.replace(/\s+/g, ' '))
        ) {
          nodes[0] = {
            kind: 'heading',
            level: 1,
            content: first.content.map((i) => (i.type === 'text' && i.bold ? { ...i, bold: false } : i)),
          };
        } else
          blocks.push({
            node: { kind: 'heading', level: 1, content: [{ type: 'text', text: tocTitle }] },
            source: path,
          });
      }
      for (const node of nodes) blocks.push({ node, source: path });
      continue;
    }
    html = inlineImages(html, zip, dirOf(path), ctx.options.removeBase64Images);
    const md = htmlToMarkdown(html, { removeBase64Images: ctx.options.removeBase64Images }).trim();
    if (!md) continue;
    if (tocTitle && !/^#{1,6} /m.test(md))
      blocks.push({ node: { kind: 'heading', level: 1, content: [{ type: 'text', text: tocTitle }] } });
    blocks.push({ node: { kind: 'markdown', markdown: md }, source: path });
  }
  if (itemrefs.length === 0) warnings.push('The EPUB spine lists no chapters.');
  return {
    contentType: ctx.contentType,
    pages: [{ pageNumber: 1, width: null, height: null, status: 'ok', blocks }],
    metadata,
    warnings,
  };
}

/**
 * Emphasis by class from the chapter's style sheets (linked and inline): simple class selectors
 * (`.c`, `span.c`) that set a bold or normal weight, an italic or normal style, or line-through.
 */
function classStyles(
  zip: ZipPackage,
  baseDir: string,
  html: string,
  cache: Map<string, Map<string, ClassStyle>>,
): Map<string, ClassStyle> {
  const out = new Map<string, ClassStyle>();
  const sheets: string[] = [];
  for (const m of html.slice(0, 65536).matchAll(/<link\b[^>]*>/gi)) {
    if (!/stylesheet/i.test(m[0])) continue;
    const href = /href\s*=\s*["']([^"']+)["']/i.exec(m[0])?.[1];
    if (!href || /^[a-z][a-z0-9+.-]*:/i.test(href)) continue;
    const path = resolveHref(baseDir, href);
    let parsed = cache.get(path);
    if (!parsed) {
      let css = '';
      try {
        css = zip.has(path) ? (zip.text(path) ?? '') : '';
      } catch {
        css = '';
      }
      parsed = parseClassCss(css);
      cache.set(path, parsed);
    }
    for (const [k, v] of parsed) out.set(k, { ...out.get(k), ...v });
  }
  for (const m of html.slice(0, 65536).matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)) sheets.push(m[1]!);
  for (const css of sheets) for (const [k, v] of parseClassCss(css)) out.set(k, { ...out.get(k), ...v });
  return out;
}

/**
 * Superscript or subscript by a declaration block: vertical-align super or sub, or (LibreOffice's
 * way) smaller text moved up or down from a relative position ("font-size: 0.58em; position:
 * relative; top: -0.33em").
 */
function scriptShift(body: string): 'super' | 'sub' | undefined {
  const align = /vertical-align\s*:\s*(super|sub)\b/.exec(body)?.[1];
  if (align) return align as 'super' | 'sub';
  if (!/position\s*:\s*relative/.test(body)) return undefined;
  const size = /font-size\s*:\s*([\d.]+)(em|%)/.exec(body);
  const smaller = size ? Number(size[1]) < (size[2] === '%' ? 100 : 1) : false;
  const top = /(?:^|[;\s])top\s*:\s*(-?[\d.]+)em/.exec(body);
  if (!smaller || !top || Number(top[1]) === 0) return undefined;
  return Number(top[1]) < 0 ? 'super' : 'sub';
}

function parseClassCss(css: string): Map<string, ClassStyle> {
  const out = new Map<string, ClassStyle>();
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '').slice(0, 1_000_000);
  for (const m of text.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const body = m[2]!.toLowerCase();
    const marks: ClassStyle = {};
    const weight = /font-weight\s*:\s*([a-z0-9]+)/.exec(body)?.[1];
    if (weight) marks.bold = weight === 'bold' || weight === 'bolder' || Number(weight) >= 600;
    const style = /font-style\s*:\s*([a-z]+)/.exec(body)?.[1];
    if (style) marks.italic = style === 'italic' || style === 'oblique';
    if (/text-decoration[a-z-]*\s*:[^;]*line-through/.test(body)) marks.strike = true;
    const shift = scriptShift(body);
    if (shift === 'super') marks.superscript = true;
    if (shift === 'sub') marks.subscript = true;
    if (/(?:^|[;\s])display\s*:\s*none\b/.test(body)) marks.hidden = true;
    if (Object.keys(marks).length === 0) continue;
    for (const sel of m[1]!.split(',')) {
      const cls = /^\s*[a-z0-9]*\.([A-Za-z0-9_-]+)\s*$/i.exec(sel)?.[1];
      if (cls) out.set(cls, { ...out.get(cls), ...marks });
    }
  }
  return out;
}

function isXhtml(html: string): boolean {
  const head = html.slice(0, 2048);
  return /^\s*<\?xml/.test(head) || /xmlns\s*=\s*["']http:\/\/www\.w3\.org\/1999\/xhtml["']/.test(head);
}

/** A chapter's picture: its package path, or a data URL when inline data is wanted. */
function chapterImage(zip: ZipPackage, baseDir: string, src: string, removeBase64: boolean): string {
  if (!src || /^[a-z][a-z0-9+.-]*:/i.test(src)) return src;
  const path = resolveHref(baseDir, src);
  if (removeBase64 || !zip.has(path)) return path;
  try {
    return imageSrc(mimeOf(path), zip.read(path), false);
  } catch {
    return path;
  }
}

/** Package-relative image sources become data URLs, or their path in the package when inline data is removed. */
function inlineImages(html: string, zip: ZipPackage, baseDir: string, removeBase64: boolean): string {
  return html.replace(
    /(<(?:img|image)\b[^>]*?\s(?:src|xlink:href|href)\s*=\s*)(["'])([^"']*)\2/gi,
    (m, pre: string, q: string, src: string) => {
      if (/^[a-z][a-z0-9+.-]*:/i.test(src) || src.startsWith('#')) return m;
      const path = resolveHref(baseDir, src);
      if (!zip.has(path)) return m;
      // Without inline data the package path is the most useful address for the picture.
      if (removeBase64) return `${pre}${q}${path}${q}`;
      let bytes: Uint8Array | undefined;
      try {
        bytes = zip.read(path);
      } catch {
        return m;
      }
      return `${pre}${q}${imageSrc(mimeOf(path), bytes, false)}${q}`;
    },
  );
}
