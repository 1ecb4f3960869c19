/**
 * The html format of inputs that are not HTML (PDF, office documents, CSV), written from the document
 * model rather than from its markdown: tables keep their merged cells (colspan, rowspan), which GFM
 * tables cannot say, and the blocks are the ones the markdown holds (running headers and footers left
 * out under `onlyMainContent`, as there).
 */
import { createRequire } from 'node:module';
import type { marked as Marked } from 'marked';
import type { DocModel, Inline, ListNode, Node, TableNode, TextInline } from '../model/document.js';

let markedModule: typeof Marked | undefined;
/** marked, loaded when the html format is first asked for. */
function marked(): typeof Marked {
  return (markedModule ??= (createRequire(import.meta.url)('marked') as typeof import('marked')).marked);
}

export interface DocumentHtmlOptions {
  /** Leave page headers, footers and page numbers out, as the markdown does. */
  onlyMainContent: boolean;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

function esc(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ENTITIES[c]!);
}

/** Footnote labels as element ids: letters, digits and hyphens. */
function noteId(label: string): string {
  return `fn-${label.replace(/[^\p{L}\p{N}]+/gu, '-') || 'note'}`;
}

function run(t: TextInline): string {
  let s = esc(t.text).replace(/\r?\n/g, '<br>');
  if (t.code) s = `<code>${s}</code>`;
  if (t.superscript) s = `<sup>${s}</sup>`;
  if (t.subscript) s = `<sub>${s}</sub>`;
  if (t.underline && !t.href) s = `<u>${s}</u>`;
  if (t.strike) s = `<del>${s}</del>`;
  if (t.italic) s = `<em>${s}</em>`;
  if (t.bold) s = `<strong>${s}</strong>`;
  if (t.href) s = `<a href="${esc(t.href)}">${s.trim() ? s : esc(t.href)}</a>`;
  return s;
}

export function inlinesHtml(inlines: readonly Inline[]): string {
  let out = '';
  for (const i of inlines) {
    if (i.type === 'text') out += run(i);
    else if (i.type === 'break') out += '<br>';
    else if (i.type === 'image') out += `<img src="${esc(i.src ?? '')}" alt="${esc(i.alt)}">`;
    else if (i.type === 'math') out += `<span class="math">${esc(i.latex)}</span>`;
    else out += `<sup><a href="#${noteId(i.label)}">${esc(i.label)}</a></sup>`;
  }
  return out.trim();
}

function listHtml(list: ListNode): string {
  const tag = list.ordered ? 'ol' : 'ul';
  const start = list.ordered && list.start !== undefined && list.start !== 1 ? ` start="${list.start}"` : '';
  const items = list.items.map((item) => {
    const box = item.checked === undefined ? '' : `<input type="checkbox" disabled${item.checked ? ' checked' : ''}> `;
    const children = (item.children ?? []).map(nodeHtml).filter(Boolean).join('\n');
    return `<li>${box}${inlinesHtml(item.content)}${children ? `\n${children}\n` : ''}</li>`;
  });
  return `<${tag}${start}>\n${items.join('\n')}\n</${tag}>`;
}

/** The first row is the head, as in the markdown; merged cells keep their spans. */
function tableHtml(table: TableNode): string {
  const rows = table.rows.filter((r) => r.length > 0);
  if (!rows.length) return '';
  const row = (cells: TableNode['rows'][number], tag: 'th' | 'td'): string =>
    `<tr>\n${cells
      .map((c) => {
        const cs = Math.max(1, c.colSpan ?? 1),
          rs = Math.max(1, c.rowSpan ?? 1);
        return `<${tag}${cs > 1 ? ` colspan="${cs}"` : ''}${rs > 1 ? ` rowspan="${rs}"` : ''}>${inlinesHtml(c.content)}</${tag}>`;
      })
      .join('\n')}\n</tr>`;
  const body = rows
    .slice(1)
    .map((r) => row(r, 'td'))
    .join('\n');
  return `<table>\n<thead>\n${row(rows[0]!, 'th')}\n</thead>${body ? `\n<tbody>\n${body}\n</tbody>` : ''}\n</table>`;
}

export function nodeHtml(node: Node): string {
  switch (node.kind) {
    case 'heading': {
      const body = inlinesHtml(node.content).replace(/<br>/g, ' ');
      return body ? `<h${node.level}>${body}</h${node.level}>` : '';
    }
    case 'paragraph': {
      const body = inlinesHtml(node.content);
      return body ? `<p>${body}</p>` : '';
    }
    case 'list':
      return listHtml(node);
    case 'table':
      return tableHtml(node);
    case 'figure':
      if (!node.src && !node.alt.trim()) return '';
      return `<figure><img src="${esc(node.src ?? '')}" alt="${esc(node.alt)}"></figure>`;
    case 'code':
      return `<pre><code${node.language ? ` class="language-${esc(node.language)}"` : ''}>${esc(node.text.replace(/\n$/, ''))}</code></pre>`;
    case 'formula':
      return `<div class="math">${esc(node.latex.trim())}</div>`;
    case 'quote':
      return `<blockquote>\n${node.children.map(nodeHtml).filter(Boolean).join('\n')}\n</blockquote>`;
    case 'rule':
      return '<hr>';
    case 'markdown':
      return marked().parse(node.markdown, { async: false, gfm: true }).trim();
    case 'note':
      return `<div class="footnote" id="${noteId(node.label)}">\n<sup>${esc(node.label)}</sup>\n${node.children.map(nodeHtml).filter(Boolean).join('\n')}\n</div>`;
  }
}

/** The document's blocks as HTML, in reading order; consecutive list blocks of one kind are one list. */
export function htmlFromDocument(doc: DocModel, options: DocumentHtmlOptions): string {
  const nodes: Node[] = [];
  // The first half of a paragraph broken by a page break (a block marked runsOn), as in the markdown.
  let joinAt = -1;
  for (const page of doc.pages) {
    let first = true;
    for (const block of page.blocks) {
      if (block.furniture && options.onlyMainContent) continue;
      const prev = nodes[nodes.length - 1];
      const node = block.node;
      const joined = joinAt >= 0 ? nodes[joinAt] : undefined;
      if (block.continues && first && joined?.kind === 'paragraph' && node.kind === 'paragraph') {
        // The second half of a paragraph broken by a page break goes on in the first's <p>.
        nodes[joinAt] = { ...joined, content: [...joined.content, { type: 'text', text: ' ' }, ...node.content] };
        if (!block.runsOn) joinAt = -1;
      } else if (prev?.kind === 'list' && node.kind === 'list' && prev.ordered === node.ordered) {
        // A PDF reader emits one list block per item: they continue one list, as in the markdown.
        nodes[nodes.length - 1] = { ...prev, items: [...prev.items, ...node.items] };
        if (first) joinAt = -1;
      } else {
        nodes.push(node);
        if (block.runsOn && node.kind === 'paragraph') joinAt = nodes.length - 1;
        else if (block.furniture || first) joinAt = -1;
      }
      first = false;
    }
  }
  const parts = nodes.map(nodeHtml).filter(Boolean);
  return parts.length ? `${parts.join('\n')}\n` : '';
}
