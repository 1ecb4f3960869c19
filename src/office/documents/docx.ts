/**
 * Word (.docx, .docm, Transitional and Strict OOXML) → document model, read directly from the
 * WordprocessingML parts.
 *
 * Placement of what is not body text:
 * - headers come first, footers after the body (each distinct header/footer part once, in section order);
 * - footnotes and endnotes are GFM notes: `[^n]` where they are referenced, their text at the end;
 * - comments are notes too (`[^comment-n]` where the commented range ends), after the foot/endnotes,
 *   each starting with its author in bold;
 * - text boxes and shapes with text come right after the paragraph that anchors them;
 * - equations are LaTeX (`$...$` inline, `$$...$$` for display equations).
 */
import { ParseError } from '../../errors.js';
import type { DocBlock, DocModel } from '../../model/document.js';
import type { ReaderContext } from '../../readers/reader.js';
import { ZipPackage } from '../../containers/zip.js';
import { child, children, OFFICE_NAMESPACES, parseXml, type XmlElement } from '../package/xml.js';
import { BlockSink } from './common.js';
import { type PartCtx, DocxConverter } from './docx/converter.js';
import { coreMetadata } from './docx/metadata.js';
import { Numbering } from './docx/numbering.js';
import {
  KEEP_WS,
  IGNORE,
  parse,
  type Rel,
  tolerantText,
  withPartWarnings,
  readRels,
  relOfType,
  attr,
} from './docx/package.js';
import { Styles } from './docx/styles.js';

export function readDocx(ctx: ReaderContext): DocModel {
  const warnings: string[] = [];
  return withPartWarnings(warnings, () => readDocxParts(ctx, warnings));
}

function readDocxParts(ctx: ReaderContext, warnings: string[]): DocModel {
  const zip = ZipPackage.open(ctx.bytes);
  const pkgRels = readRels(zip, '');
  const mainRel = relOfType(pkgRels, 'officeDocument');
  const mainPart = mainRel?.target ?? (zip.has('word/document.xml') ? 'word/document.xml' : undefined);
  const mainText = mainPart ? zip.text(mainPart) : undefined;
  if (!mainPart || mainText === undefined) {
    throw new ParseError('MALFORMED', 'The Word package has no main document part (word/document.xml).');
  }
  const rels = readRels(zip, mainPart);
  const partXml = (rel: Rel | undefined): XmlElement | undefined => {
    if (!rel || rel.external) return undefined;
    const t = tolerantText(zip, rel.target);
    return t === undefined ? undefined : parse(t);
  };
  const styles = new Styles(partXml(relOfType(rels, 'styles')));
  const numbering = new Numbering(partXml(relOfType(rels, 'numbering')), styles);
  const conv = new DocxConverter(zip, styles, numbering, ctx.options.removeBase64Images, ctx.deadline);
  conv.loadNotes('footnote', relOfType(rels, 'footnotes'));
  conv.loadNotes('endnote', relOfType(rels, 'endnotes'));
  conv.loadNotes('comment', relOfType(rels, 'comments'));

  const mainCtx: PartCtx = { part: mainPart, rels };
  const bodySink = new BlockSink();
  const sectPrs: XmlElement[] = [];
  // The body is converted element by element as the parser completes them, so that a long document
  // is never held whole as a tree.
  const holder: XmlElement = { name: '#', local: '#', attrs: {}, children: [] };
  const doc = parseXml(mainText, {
    namespaces: OFFICE_NAMESPACES,
    keepWhitespaceIn: KEEP_WS,
    ignore: IGNORE,
    // Word files from odd writers are read as far as they go; a bad character reference shows as U+FFFD.
    onBadTag: 'tolerate',
    invalidCharRefs: 'replace',
    stream: {
      depth: 3,
      onElement: (el, parent) => {
        if (parent.name !== 'w:body') {
          parent.children.push(el);
          return;
        }
        if (el.name === 'w:sectPr') sectPrs.push(el);
        else if (el.name === 'w:p') {
          const sp = child(child(el, 'w:pPr'), 'w:sectPr');
          if (sp) sectPrs.push(sp);
        }
        holder.children[0] = el;
        conv.blocks(holder, bodySink, mainCtx);
      },
    },
  });
  if (!child(child(doc, 'w:document'), 'w:body'))
    throw new ParseError('MALFORMED', 'The Word document part has no body.');

  // Headers and footers referenced by the sections, each distinct part once.
  const furniture = (kind: 'header' | 'footer'): DocBlock[] => {
    const seen = new Set<string>();
    const seenText = new Set<string>();
    const out: DocBlock[] = [];
    for (const sp of sectPrs) {
      const refs = children(sp, `w:${kind}Reference`).sort(
        (a, b) => typeRank(attr(a, 'w:type')) - typeRank(attr(b, 'w:type')),
      );
      for (const ref of refs) {
        const rel = rels.get(attr(ref, 'r:id') ?? '');
        if (!rel || rel.external || seen.has(rel.target)) continue;
        seen.add(rel.target);
        const root = partXml(rel);
        const sink = new BlockSink();
        conv.blocks(
          child(root, kind === 'header' ? 'w:hdr' : 'w:ftr'),
          sink,
          { part: rel.target, rels: readRels(zip, rel.target) },
          kind === 'header' ? 'page_header' : 'page_footer',
        );
        const key = JSON.stringify(sink.nodes());
        if (sink.blocks.length === 0 || seenText.has(key)) continue;
        seenText.add(key);
        out.push(...sink.blocks);
      }
    }
    return out;
  };
  const headers = furniture('header');
  const footers = furniture('footer');
  const notes = conv.noteBlocks();

  const meta = coreMetadata(zip, pkgRels);
  const metadata: DocModel['metadata'] = { ...meta };
  return {
    contentType: ctx.contentType,
    pages: [
      {
        pageNumber: 1,
        width: null,
        height: null,
        status: warnings.length ? 'partial' : 'ok',
        blocks: [...headers, ...bodySink.blocks, ...footers, ...notes],
      },
    ],
    metadata,
    warnings: [...warnings, ...conv.warnings],
    links: conv.links,
    images: conv.images,
  };
}

function typeRank(t: string | undefined): number {
  return t === 'first' ? 0 : t === 'default' || t === undefined ? 1 : 2;
}
