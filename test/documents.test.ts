/**
 * Text documents (Word, legacy Word, ODT, RTF, EPUB): behaviour on the project's own fixtures and on
 * documents built here, byte by byte, for the safety rules (entity expansion, nesting, encryption,
 * damage).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import CFB from 'cfb';
import { strToU8, zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { ParseError } from '../src/errors.js';
import { parseXml, textContent, OFFICE_NAMESPACES } from '../src/office/package/xml.js';
import { createParser } from '../src/parser.js';
import { REPO_ROOT } from '../test-support/corpus.js';

const parser = createParser();
afterAll(() => parser.close());

const fixture = (name: string): Buffer => readFileSync(path.join(REPO_ROOT, 'fixtures', 'documents', name));

async function md(
  bytes: Uint8Array,
  filename: string,
  options?: Parameters<typeof parser.parseFile>[1],
): Promise<string> {
  return (await parser.parseFile(bytes, options, { filename })).markdown ?? '';
}

async function codeOf(bytes: Uint8Array, filename: string): Promise<string> {
  try {
    await parser.parseFile(bytes, undefined, { filename });
    return 'OK';
  } catch (err) {
    return err instanceof ParseError ? err.code : `not a ParseError: ${String(err)}`;
  }
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

function docx(documentXml: string, extra: Record<string, string> = {}): Uint8Array {
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    '_rels/.rels': strToU8(
      '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    'word/document.xml': strToU8(documentXml),
  };
  for (const [k, v] of Object.entries(extra)) files[k] = strToU8(v);
  return zipSync(files);
}

const ODT_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/"';

function odt(body: string, automaticStyles = '', fontFaces = ''): Uint8Array {
  return zipSync({
    mimetype: [strToU8('application/vnd.oasis.opendocument.text'), { level: 0 }],
    'content.xml': strToU8(
      `<?xml version="1.0"?><office:document-content ${ODT_NS}><office:font-face-decls>${fontFaces}</office:font-face-decls><office:automatic-styles>${automaticStyles}</office:automatic-styles><office:body><office:text>${body}</office:text></office:body></office:document-content>`,
    ),
  });
}

/** The .doc fixture with its WordDocument stream changed by `patch`. */
function patchedDoc(patch: (wordDocument: Buffer) => void): Buffer {
  const container = CFB.read(fixture('field-report.doc'), { type: 'buffer' });
  const entry = CFB.find(container, 'WordDocument')!;
  const content = Buffer.from(entry.content as Uint8Array);
  patch(content);
  entry.content = content;
  return CFB.write(container, { type: 'buffer' }) as Buffer;
}

/**
 * The .doc fixture `name` with list override `lfo` (1-based) restarting level 0 at `start`: a new
 * PlfLfo (the same LFOs, that one with an LFOLVL whose fStartAt is set) appended to the table
 * stream, and the FIB pointed at it.
 */
function docWithListRestart(name: string, lfo: number, start: number): Buffer {
  const container = CFB.read(fixture(name), { type: 'buffer' });
  const wordEntry = CFB.find(container, 'WordDocument')!;
  const word = Buffer.from(wordEntry.content as Uint8Array);
  const tableEntry = CFB.find(container, word.readUInt16LE(0x0a) & 0x0200 ? '1Table' : '0Table')!;
  const table = Buffer.from(tableEntry.content as Uint8Array);
  const csw = word.readUInt16LE(32);
  const cslw = word.readUInt16LE(34 + csw * 2);
  const fcAt = 34 + csw * 2 + 2 + cslw * 4 + 2 + 74 * 8;
  const fc = word.readUInt32LE(fcAt);
  const count = table.readInt32LE(fc);
  const lfos = Buffer.from(table.subarray(fc, fc + 4 + count * 16));
  lfos[4 + (lfo - 1) * 16 + 12] = 1;
  const data: Buffer[] = [];
  for (let k = 0; k < count; k++) {
    data.push(Buffer.from([0xff, 0xff, 0xff, 0xff]));
    if (k === lfo - 1) {
      const level = Buffer.alloc(8);
      level.writeInt32LE(start, 0);
      level.writeUInt32LE(0x10, 4);
      data.push(level);
    }
  }
  const plf = Buffer.concat([lfos, ...data]);
  word.writeUInt32LE(table.length, fcAt);
  word.writeUInt32LE(plf.length, fcAt + 4);
  tableEntry.content = Buffer.concat([table, plf]);
  wordEntry.content = word;
  return CFB.write(container, { type: 'buffer' }) as Buffer;
}

describe('Word (.docx)', () => {
  it('reads headings, lists, tables, notes and comments of the fixture the same way as its ODT twin', async () => {
    const fromDocx = await md(fixture('field-report.docx'), 'field-report.docx');
    const fromOdt = await md(fixture('field-report.odt'), 'field-report.odt');
    expect(fromDocx).toContain('# Field Report: River Survey');
    expect(fromDocx).toContain(
      '1. Calibrate the probe at the base camp.\n2. At each site:\n   1. record the time and weather;',
    );
    expect(fromDocx).toContain('[^comment-1]: **A. Reviewer:** Same day may not be possible at remote sites.');
    // Same text apart from the picture, whose alt text and data differ between the two exports.
    const strip = (s: string): string => s.replace(/!\[[^\]]*\]\([^)]*\)/g, '![]()');
    expect(strip(fromDocx)).toEqual(strip(fromOdt));
  });

  it('puts header text before the body and footer text after it', async () => {
    const out = await md(fixture('field-report.docx'), 'field-report.docx');
    const header = out.indexOf('Hydrology Unit, internal draft');
    const body = out.indexOf('# Field Report');
    const footer = out.indexOf('Prepared for the regional water board');
    expect(header).toBeGreaterThanOrEqual(0);
    expect(header).toBeLessThan(body);
    expect(footer).toBeGreaterThan(out.indexOf('Next survey'));
  });

  it('keeps image data only when removeBase64Images is false', async () => {
    const removed = await md(fixture('field-report.docx'), 'field-report.docx');
    expect(removed).toContain('![](<Base64-Image-Removed>)');
    expect(removed).not.toContain('data:');
    const kept = await md(fixture('field-report.docx'), 'field-report.docx', { removeBase64Images: false });
    expect(kept).toMatch(/!\[\]\(data:image\/png;base64,iVBORw0KGgo[A-Za-z0-9+/=]+\)/);
  });

  it("takes a picture's title as its alt text when its description is empty", async () => {
    const drawing = (docPr: string): string =>
      `<w:p><w:r><w:drawing><wp:inline><wp:docPr id="1" name="P" ${docPr}/><a:graphic><a:graphicData><pic:pic><pic:blipFill><a:blip r:link="rId9"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
    const ns = `xmlns:w="${W}" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;
    const bytes = docx(
      `<w:document ${ns}><w:body>${drawing('descr="" title="Site map"')}${drawing('descr="A chart" title="Ignored"')}</w:body></w:document>`,
      {
        'word/_rels/document.xml.rels':
          '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="https://example.com/map.png" TargetMode="External"/></Relationships>',
      },
    );
    expect(await md(bytes, 'alt.docx')).toBe(
      '![Site map](https://example.com/map.png)\n\n![A chart](https://example.com/map.png)\n',
    );
  });

  it('numbers the nums of one abstract definition as one sequence, restarted where a startOverride first applies', async () => {
    const item = (numId: number, text: string): string =>
      `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="${numId}"/></w:numPr></w:pPr><w:r><w:t>${text}</w:t></w:r></w:p>`;
    const body = [item(1, 'one'), item(1, 'two'), item(2, 'eight'), item(1, 'nine'), item(3, 'ten')].join('');
    const numbering =
      `<w:numbering xmlns:w="${W}"><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl></w:abstractNum>` +
      '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>' +
      '<w:num w:numId="2"><w:abstractNumId w:val="0"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="8"/></w:lvlOverride></w:num>' +
      '<w:num w:numId="3"><w:abstractNumId w:val="0"/></w:num></w:numbering>';
    const bytes = docx(`<w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`, {
      'word/_rels/document.xml.rels':
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/></Relationships>',
      'word/numbering.xml': numbering,
    });
    expect(await md(bytes, 'num.docx')).toBe('1. one\n2. two\n8. eight\n9. nine\n10. ten\n');
  });

  it('reads Strict OOXML like Transitional', async () => {
    expect(await md(fixture('strict-outline.docx'), 'strict-outline.docx')).toEqual(
      await md(fixture('equations-and-boxes.docx'), 'equations-and-boxes.docx'),
    );
  });

  it('turns OMML equations into LaTeX', async () => {
    const out = await md(fixture('equations-and-boxes.docx'), 'equations-and-boxes.docx');
    expect(out).toContain('$\\sin \\theta=\\frac{\\lambda}{a}$');
    expect(out).toContain('$$\nI^{2}=\\sqrt{x+1}+\\sum_{i=1}^{n} x_{i}\n$$');
  });

  it('reads a text box once even with a VML fallback', async () => {
    const out = await md(fixture('equations-and-boxes.docx'), 'equations-and-boxes.docx');
    expect(out.split('Safety: never look into the beam.').length).toBe(2);
  });

  it('leaves out hidden and deleted text and keeps insertions', async () => {
    const out = await md(fixture('equations-and-boxes.docx'), 'equations-and-boxes.docx');
    expect(out).not.toContain('Hidden draft text');
    expect(out).not.toContain('gone');
    expect(out).toContain('**Bold** and not bold, deleted: inserted text.');
  });

  it('refuses a DOCTYPE that declares entities (billion laughs) with RESOURCE_LIMIT', async () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>&c;</w:t></w:r></w:p></w:body></w:document>`;
    expect(await codeOf(docx(bomb), 'bomb.docx')).toBe('RESOURCE_LIMIT');
  });

  it('refuses external entities with RESOURCE_LIMIT', async () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY x SYSTEM "file:///etc/passwd">]><w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>&x;</w:t></w:r></w:p></w:body></w:document>`;
    expect(await codeOf(docx(xxe), 'xxe.docx')).toBe('RESOURCE_LIMIT');
  });

  it('refuses absurdly deep nesting with RESOURCE_LIMIT', async () => {
    const deep = `<w:document xmlns:w="${W}"><w:body>${'<w:sdt><w:sdtContent>'.repeat(400)}<w:p/>${'</w:sdtContent></w:sdt>'.repeat(400)}</w:body></w:document>`;
    expect(await codeOf(docx(deep), 'deep.docx')).toBe('RESOURCE_LIMIT');
  });

  it('reports a package without a main document as MALFORMED', async () => {
    const zip = zipSync({
      '[Content_Types].xml': strToU8(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
      'word/other.xml': strToU8('<x/>'),
    });
    expect(await codeOf(zip, 'empty.docx')).toBe('MALFORMED');
  });

  it('leaves out a damaged optional part with a warning and keeps the text', async () => {
    const body = `<w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>Still here</w:t></w:r></w:p></w:body></w:document>`;
    const styles = `<w:styles xmlns:w="${W}">${'<w:style w:styleId="x"><w:name w:val="x"/></w:style>'.repeat(200)}</w:styles>`;
    const zip = Buffer.from(
      docx(body, {
        'word/_rels/document.xml.rels':
          '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
        'word/styles.xml': styles,
      }),
    );
    // Overwrite the compressed data of styles.xml (after its local header) with bytes that cannot inflate.
    const at = zip.indexOf('word/styles.xml');
    const start = at + 'word/styles.xml'.length + zip.readUInt16LE(at - 2);
    zip.fill(0xff, start, start + 16);
    const doc = await parser.parseFile(zip, undefined, { filename: 'damaged.docx' });
    expect(doc.markdown).toBe('Still here\n');
    expect(doc.warning).toMatch(/word\/styles\.xml is damaged/);
  });

  it('reports a truncated package as MALFORMED', async () => {
    const bytes = fixture('field-report.docx');
    expect(await codeOf(bytes.subarray(0, Math.floor(bytes.length / 2)), 'cut.docx')).toBe('MALFORMED');
  });

  it('reads hyperlinks from fields, keeps page numbers out and merges cells', async () => {
    const body =
      `<w:document xmlns:w="${W}"><w:body>` +
      `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> HYPERLINK "https://example.com/a" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>site</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:t xml:space="preserve"> page </w:t></w:r><w:fldSimple w:instr=" PAGE "><w:r><w:t>7</w:t></w:r></w:fldSimple></w:p>` +
      `<w:tbl><w:tr><w:tc><w:tcPr><w:gridSpan w:val="2"/></w:tcPr><w:p><w:r><w:t>wide</w:t></w:r></w:p></w:tc></w:tr><w:tr><w:tc><w:p><w:r><w:t>a</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>b</w:t></w:r></w:p></w:tc></w:tr></w:tbl>` +
      `</w:body></w:document>`;
    const out = await md(docx(body), 'f.docx');
    expect(out).toBe('[site](https://example.com/a) page\n\n| wide |  |\n| --- | --- |\n| a | b |\n');
  });

  it('keeps the words around a page or column break apart: the text after it starts a new line', async () => {
    const run = (t: string): string => `<w:r><w:t>${t}</w:t></w:r>`;
    const body =
      `<w:document xmlns:w="${W}"><w:body>` +
      `<w:p>${run('End of page one.')}<w:r><w:br w:type="page"/></w:r>${run('Start of page two.')}</w:p>` +
      `<w:p>${run('Col A')}<w:r><w:br w:type="column"/></w:r>${run('Col B')}</w:p>` +
      `<w:p><w:r><w:br w:type="page"/></w:r>${run('Next page')}</w:p>` +
      `</w:body></w:document>`;
    expect(await md(docx(body), 'b.docx')).toBe(
      'End of page one.\\\nStart of page two.\n\nCol A\\\nCol B\n\nNext page\n',
    );
  });

  it('maps Symbol and Wingdings characters (w:sym) to Unicode and drops typed soft hyphens', async () => {
    const sym = (font: string, char: string): string => `<w:r><w:sym w:font="${font}" w:char="${char}"/></w:r>`;
    const body =
      `<w:document xmlns:w="${W}"><w:body><w:p>` +
      `<w:r><w:t xml:space="preserve">x </w:t></w:r>${sym('Symbol', 'F0B1')}${sym('Symbol', 'F061')}<w:r><w:t xml:space="preserve"> </w:t></w:r>` +
      `${sym('Symbol', 'F0A3')}${sym('Symbol', 'F0A5')}${sym('Symbol', 'F0E5')}${sym('Symbol', 'F0D6')}<w:r><w:t xml:space="preserve"> </w:t></w:r>` +
      `${sym('Wingdings', 'F0FC')}${sym('Wingdings', 'F0FE')}${sym('MS Gothic', '2610')}${sym('Webdings', 'F061')}` +
      `<w:r><w:t xml:space="preserve"> hy\u00adphen </w:t></w:r>` +
      `<w:r><w:rPr><w:rFonts w:ascii="Symbol" w:hAnsi="Symbol"/></w:rPr><w:t>abg\uf0b3</w:t></w:r>` +
      `</w:p></w:body></w:document>`;
    expect(await md(docx(body), 's.docx')).toBe('x ±α ≤∞∑√ ✓☑☐ hyphen αβγ≥\n');
  });
});

describe('legacy Word (.doc)', () => {
  it('reads the fixture like its .docx twin, the comment author included', async () => {
    expect(await md(fixture('field-report.doc'), 'field-report.doc')).toEqual(
      await md(fixture('field-report.docx'), 'field-report.docx'),
    );
  });

  it('reads the memo like its .docx twin: Title heading, nested table, list in a cell, quotation, code', async () => {
    const fromDoc = await md(fixture('quarterly-memo.doc'), 'quarterly-memo.doc');
    expect(fromDoc).toEqual(await md(fixture('quarterly-memo.docx'), 'quarterly-memo.docx'));
    expect(fromDoc).toContain('# Quarterly Operations Memo');
    expect(fromDoc).toContain('| Travel | 300<br>incl. taxis | air rail<br>120 80<br>by mode |');
    expect(fromDoc).toContain('| Notes | - first note<br>- second note |  |');
    expect(fromDoc).toContain('> The review covered all sites[^comment-1] and two depots.');
    expect(fromDoc).toContain('```\ntotal = energy + travel\nprint(total)\n```');
  });

  it("reads the revisions fixture like its .docx twin: a floating picture at its anchor, no text from the header document's guard", async () => {
    const fromDoc = await md(fixture('revisions.doc'), 'revisions.doc');
    expect(fromDoc).toEqual(await md(fixture('revisions.docx'), 'revisions.docx'));
    expect(fromDoc).toContain('![](<Base64-Image-Removed>)A paragraph with a floating picture beside it.');
  });

  it('restarts a list where its override (LFOLVL fStartAt) first numbers the level', async () => {
    // Override 2 of the memo numbers the "Goals" list.
    const out = await md(docWithListRestart('quarterly-memo.doc', 2, 7), 'restart.doc');
    expect(out).toContain('7. Reduce costs\n   1. Energy');
    expect(out).toContain('8. Grow revenue');
  });

  it('ends a paragraph at an end-of-section mark and breaks the line at a page break', async () => {
    const plain = await md(fixture('field-report.doc'), 'field-report.doc');
    // "Calibrate the probe at the base camp." ends with a paragraph mark; as a section mark (0x0C)
    // it still ends the paragraph, whose properties end there.
    const sectionEnd = patchedDoc((wd) => {
      const at = wd.indexOf(Buffer.from('at the base camp.', 'utf16le')) + 'at the base camp.'.length * 2;
      expect(wd.readUInt16LE(at)).toBe(0x0d);
      wd.writeUInt16LE(0x0c, at);
    });
    expect(await md(sectionEnd, 'section.doc')).toBe(plain);
    // A page break inside a paragraph: the text after it starts a new line.
    const pageBreak = patchedDoc((wd) => {
      const at = wd.indexOf(Buffer.from('The survey covered', 'utf16le')) + 'The survey'.length * 2;
      wd.writeUInt16LE(0x0c, at);
    });
    expect(await md(pageBreak, 'page.doc')).toBe(plain.replace('The survey covered', 'The survey\\\ncovered'));
  });

  it('shows an inserted symbol (sprmCSymbol) as its Unicode character', async () => {
    const plain = await md(fixture('field-report.doc'), 'field-report.doc');
    // The site map picture becomes a Symbol-font "a" (F061): its special character 0x01 turns into
    // 0x28 and its picture location sprm (0x6A03) into sprmCSymbol (0x6A09: font 1, Symbol).
    const symbol = patchedDoc((wd) => {
      const chpx = wd.indexOf(Buffer.from([0x55, 0x08, 0x01, 0x03, 0x6a, 0xc8, 0x00, 0x00, 0x00]));
      expect(chpx).toBeGreaterThan(0);
      Buffer.from([0x09, 0x6a, 0x01, 0x00, 0x61, 0xf0]).copy(wd, chpx + 3);
      const ch = wd.indexOf(Buffer.from('\u0001\rNotice board', 'utf16le'));
      wd.writeUInt16LE(0x28, ch);
    });
    expect(await md(symbol, 'symbol.doc')).toBe(plain.replace('Site map: ![](<Base64-Image-Removed>)', 'Site map: α'));
  });

  it('reports a document with the encryption flag as ENCRYPTED', async () => {
    const container = CFB.read(fixture('field-report.doc'), { type: 'buffer' });
    const entry = CFB.find(container, 'WordDocument')!;
    const content = Buffer.from(entry.content as Uint8Array);
    content.writeUInt16LE(content.readUInt16LE(0x0a) | 0x0100, 0x0a);
    entry.content = content;
    const bytes = CFB.write(container, { type: 'buffer' }) as Buffer;
    expect(await codeOf(bytes, 'locked.doc')).toBe('ENCRYPTED');
  });
});

describe('RTF', () => {
  it('reads the fixture exactly like its .docx twin (text box, notes, comment, spans)', async () => {
    expect(await md(fixture('field-report.rtf'), 'field-report.rtf')).toEqual(
      await md(fixture('field-report.docx'), 'field-report.docx'),
    );
  });

  it('reads the memo exactly like its .docx twin: list table numbering, nested table, list in a cell', async () => {
    expect(await md(fixture('quarterly-memo.rtf'), 'quarterly-memo.rtf')).toEqual(
      await md(fixture('quarterly-memo.docx'), 'quarterly-memo.docx'),
    );
  });

  it('leaves out the deleted text of tracked changes (\\deleted) and keeps insertions', async () => {
    expect(await md(fixture('revisions.rtf'), 'revisions.rtf')).toEqual(
      await md(fixture('revisions.docx'), 'revisions.docx'),
    );
  });

  it("decodes \\u escapes, \\'hh bytes in the code page of the font, and emphasis", async () => {
    const rtf =
      String.raw`{\rtf1\ansi\ansicpg1252{\fonttbl{\f0 Arial;}{\f1\fcharset204 Arial Cyr;}{\f2\fcharset128 MS Gothic;}}` +
      String.raw`\pard\f0 Caf\'e9 \b bold\b0  \i it\i0  \strike gone\strike0  \u8364?\par` +
      String.raw`\pard\f1 \'cf\'f0\'e8\'e2\'e5\'f2\par` +
      String.raw`\pard\f2 \'93\'fa\'96\'7b\par}`;
    expect(await md(Buffer.from(rtf, 'latin1'), 'x.rtf')).toBe('Café **bold** *it* ~~gone~~ €\n\nПривет\n\n日本\n');
  });

  it('ends the paragraph at \\sect and breaks the line at \\page and \\column', async () => {
    const rtf = String.raw`{\rtf1\ansi End of page one.\page Start of page two.\par Sec end\sect Next sec\par Col A\column Col B\par Last\par\sect\sectd After\par}`;
    expect(await md(Buffer.from(rtf, 'latin1'), 'b.rtf')).toBe(
      'End of page one.\\\nStart of page two.\n\nSec end\n\nNext sec\n\nCol A\\\nCol B\n\nLast\n\nAfter\n',
    );
  });

  it('maps text in Symbol and Wingdings fonts to Unicode and drops soft hyphens', async () => {
    const rtf =
      String.raw`{\rtf1\ansi\ansicpg1252{\fonttbl{\f0 Arial;}{\f2\fnil\fcharset2 Symbol;}{\f3\fnil\fcharset2 Wingdings;}{\f4\fnil\fcharset2 Webdings;}}` +
      String.raw`\pard\f0 x{\f2 \'61\'62 abc \u-3999\'61\'b1}{\f3 \'fc}{\f4 \'61} hy\'adphen\par` +
      String.raw`{\pntext\f2\'b7\tab}{\*\pn\pnlvlblt\pnf2{\pntxtb\'b7}}\pard\f0 Old style bullet\par}`;
    expect(await md(Buffer.from(rtf, 'latin1'), 's.rtf')).toBe('xαβ αβχ α±✓ hyphen\n\n- Old style bullet\n');
  });

  it('tells bullets from numbers by the list table and numbers items as their labels show', async () => {
    // Level 0 of list 1 is decimal, level 1 a bullet ("o" in Courier New), level 2 "1.1.1." style;
    // list 2 is lower roman and continues after a plain paragraph; list 3's level shows no label.
    const rtf =
      String.raw`{\rtf1\ansi{\*\listtable` +
      String.raw`{\list{\listlevel\levelnfc0\levelstartat1{\leveltext\'02\'00.;}}{\listlevel\levelnfc23{\leveltext\'01o;}}{\listlevel\levelnfc0\levelstartat1{\leveltext\'06\'00.\'01.\'02.;}}\listid10}` +
      String.raw`{\list{\listlevel\levelnfc2\levelstartat1{\leveltext\'02\'00.;}}\listid20}` +
      String.raw`{\list{\listlevel\levelnfc255{\leveltext\'00;}}\listid30}}` +
      String.raw`{\*\listoverridetable{\listoverride\listid10\listoverridecount0\ls1}{\listoverride\listid20\listoverridecount0\ls2}{\listoverride\listid30\listoverridecount0\ls3}}` +
      String.raw`\pard{\listtext 1.\tab}\ls1\ilvl0 One\par` +
      String.raw`\pard{\listtext o\tab}\ls1\ilvl1 Sub bullet\par` +
      String.raw`\pard{\listtext 1.1.1.\tab}\ls1\ilvl2 Deep one\par` +
      String.raw`\pard{\listtext 1.1.2.\tab}\ls1\ilvl2 Deep two\par` +
      String.raw`\pard{\listtext i.\tab}\ls2\ilvl0 First\par` +
      String.raw`\pard{\listtext ii.\tab}\ls2\ilvl0 Second\par` +
      String.raw`\pard Between\par` +
      String.raw`\pard{\listtext iii.\tab}\ls2\ilvl0 Third\par` +
      String.raw`\pard{\listtext \tab}\ls3\ilvl0 Unnumbered\par}`;
    expect(await md(Buffer.from(rtf, 'latin1'), 'l.rtf')).toBe(
      '1. One\n   - Sub bullet\n     1. Deep one\n     2. Deep two\n1. First\n2. Second\n\nBetween\n\n3. Third\n\nUnnumbered\n',
    );
  });

  it('counts items without a number in their label on one count per list, restarted where an override first applies', async () => {
    const rtf =
      String.raw`{\rtf1\ansi{\*\listtable{\list{\listlevel\levelnfc0\levelstartat1}\listid10}}` +
      String.raw`{\*\listoverridetable{\listoverride\listid10\listoverridecount0\ls1}{\listoverride\listid10\listoverridecount1{\lfolevel\listoverridestartat\levelstartat5}\ls2}}` +
      String.raw`\pard\ls1\ilvl0 one\par\pard\ls1\ilvl0 two\par\pard\ls2\ilvl0 five\par\pard\ls1\ilvl0 six\par}`;
    expect(await md(Buffer.from(rtf, 'latin1'), 'c.rtf')).toBe('1. one\n2. two\n5. five\n6. six\n');
  });

  it('reads labels without a list table: multi-level, roman and lettered numbers', async () => {
    const rtf = String.raw`{\rtf1\ansi\pard{\pntext 2.3.\tab}Item\par\pard Gap\par\pard{\pntext iv)\tab}Fourth\par\pard Gap\par\pard{\pntext (c)\tab}Third\par}`;
    expect(await md(Buffer.from(rtf, 'latin1'), 'p.rtf')).toBe('3. Item\n\nGap\n\n4. Fourth\n\nGap\n\n3. Third\n');
  });

  it('reads text raised or lowered with \\up and \\dn as superscript and subscript', async () => {
    const rtf = String.raw`{\rtf1\ansi\pard E = mc{\up6 2} and H{\dn4 2}O, {\up0 level}\par}`;
    expect(await md(Buffer.from(rtf, 'latin1'), 'u.rtf')).toBe('E = mc<sup>2</sup> and H<sub>2</sub>O, level\n');
  });

  it("reads floating pictures (a shape's pib) once, and pictures' descriptions as alt text", async () => {
    const png = '89504e470d0a1a0a';
    const rtf =
      String.raw`{\rtf1\ansi\pard Before {\shp{\*\shpinst\shpleft0\shpright100{\sp{\sn shapeType}{\sv 75}}{\sp{\sn pib}{\sv {\pict\pngblip ${png}}}}` +
      String.raw`{\sp{\sn wzDescription}{\sv A floating map}}}{\shprslt{\pict\wmetafile8 0100}}}after.\par` +
      String.raw`\pard Inline {\*\shppict{\pict{\*\picprop{\sp{\sn wzDescription}{\sv Company logo}}}\pngblip ${png}}}{\nonshppict{\pict\wmetafile8 0100}} here.\par}`;
    expect(await md(Buffer.from(rtf, 'latin1'), 'pic.rtf')).toBe(
      'Before ![A floating map](<Base64-Image-Removed>)after.\n\nInline ![Company logo](<Base64-Image-Removed>) here.\n',
    );
  });

  it("does not count a paragraph style's own emphasis, written again on its text, as emphasis", async () => {
    const rtf =
      String.raw`{\rtf1\ansi{\stylesheet{\s0 Normal;}{\s2\b\i heading 2;}{\s30\i Caption;}}` +
      String.raw`\pard\plain\s2\b\i Scope\par` +
      String.raw`\pard\plain\s30\i Figure 1: a map with a {\b bold} word\par` +
      String.raw`\pard\plain\s0 Plain {\i italic}\par}`;
    expect(await md(Buffer.from(rtf, 'latin1'), 'st.rtf')).toBe(
      '## Scope\n\nFigure 1: a map with a **bold** word\n\nPlain *italic*\n',
    );
  });

  it('keeps each distinct footer whole, lines they share included', async () => {
    const rtf =
      String.raw`{\rtf1\ansi\sectd{\footer\pard Handbook page 1\par\pard Effective 2012\par}\pard One\par` +
      String.raw`\sect\sectd{\footer\pard Handbook page 2\par\pard Effective 2012\par}\pard Two\par` +
      String.raw`\sect\sectd{\footer\pard Handbook page 2\par\pard Effective 2012\par}\pard Three\par}`;
    expect(await md(Buffer.from(rtf, 'latin1'), 'f.rtf')).toBe(
      'One\n\nTwo\n\nThree\n\nHandbook page 1\n\nEffective 2012\n\nHandbook page 2\n\nEffective 2012\n',
    );
  });

  it('keeps a table in a header or footer there, apart from the tables of the body', async () => {
    const rtf =
      String.raw`{\rtf1\ansi{\header\pard Head\par}` +
      String.raw`{\footer\trowd\cellx2000\cellx4000\pard\intbl Acme\cell Memo\cell\row\pard Page foot\par}` +
      String.raw`\pard Body text\par\trowd\cellx2000\cellx4000\pard\intbl A\cell B\cell\row\pard After\par}`;
    expect(await md(Buffer.from(rtf, 'latin1'), 'h.rtf')).toBe(
      'Head\n\nBody text\n\n| A | B |\n| --- | --- |\n\nAfter\n\n| Acme | Memo |\n| --- | --- |\n\nPage foot\n',
    );
  });

  it('refuses group nesting deeper than the limit with RESOURCE_LIMIT', async () => {
    const rtf = `{\\rtf1 ${'{'.repeat(5000)}x${'}'.repeat(5000)}}`;
    expect(await codeOf(Buffer.from(rtf), 'deep.rtf')).toBe('RESOURCE_LIMIT');
  });

  it('returns what it read from a truncated file', async () => {
    const bytes = fixture('field-report.rtf');
    const out = await md(bytes.subarray(0, Math.floor(bytes.length * 0.6)), 'cut.rtf');
    expect(out).toContain('# Field Report: River Survey');
  });
});

describe('EPUB', () => {
  it('reads chapters in spine order with their headings and the metadata', async () => {
    const doc = await parser.parseFile(fixture('short-stories.epub'), undefined, { filename: 'short-stories.epub' });
    const out = doc.markdown ?? '';
    expect(out.indexOf('# The Cairn')).toBeLessThan(out.indexOf('# By the Tarn'));
    expect(out.indexOf('# By the Tarn')).toBeLessThan(out.indexOf('# Home Again'));
    expect(out).not.toContain('Contents');
    expect(doc.metadata.title).toBe('Three Short Walks');
    expect(doc.metadata.creator).toEqual(['Ada Moorland', 'Ben Fell']);
    expect(doc.metadata.language).toBe('en');
  });

  it("keeps the space between inline elements and drops a note's link back to its reference", async () => {
    const chapter =
      '<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>' +
      '<h1>One</h1><p><b>bold</b> <i>italic</i> and <a href="https://example.org/">a link</a> <span>next</span><span>\u00a0</span><span>word</span>' +
      '<sup id="ref1"><a epub:type="noteref" href="#n1">1</a></sup> and more<a epub:type="noteref" id="ref2" href="#n2">2</a>.</p>' +
      '<aside epub:type="footnote" id="n1"><p><sup><a href="#ref1">1</a></sup> First note.</p></aside>' +
      '<aside epub:type="footnote" id="n2"><p>Second note. <a href="#ref2" role="doc-backlink">\u21a9</a></p></aside></body></html>';
    const epub = zipSync({
      mimetype: [strToU8('application/epub+zip'), { level: 0 }],
      'META-INF/container.xml': strToU8(
        '<container><rootfiles><rootfile full-path="content.opf"/></rootfiles></container>',
      ),
      'content.opf': strToU8(
        '<package xmlns="http://www.idpf.org/2007/opf"><metadata/><manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c"/></spine></package>',
      ),
      'c.xhtml': strToU8(chapter),
    });
    expect(await md(epub, 'spaces.epub')).toBe(
      '# One\n\n**bold** *italic* and [a link](https://example.org/) next\u00a0word[^1] and more[^2].\n\n[^1]: First note.\n\n[^2]: Second note.\n',
    );
  });

  it('reads superscripts, subscripts and hidden text that classes of the style sheet set', async () => {
    const css =
      '.up { vertical-align: super } .lo-up { font-size: 0.58em; position: relative; top: -0.33em; vertical-align: baseline }' +
      ' .lo-down { font-size: 0.58em; position: relative; top: 0.33em } .moved { position: relative; top: -1em } .gone { display: none }';
    const chapter =
      '<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><link rel="stylesheet" type="text/css" href="s.css"/></head><body>' +
      '<p>E = mc<span class="lo-up">2</span>, H<span class="lo-down">2</span>O, 21<span class="up">st</span>, <span class="moved">moved</span><span class="gone"> hidden</span>.</p></body></html>';
    const epub = zipSync({
      mimetype: [strToU8('application/epub+zip'), { level: 0 }],
      'META-INF/container.xml': strToU8(
        '<container><rootfiles><rootfile full-path="content.opf"/></rootfiles></container>',
      ),
      'content.opf': strToU8(
        '<package xmlns="http://www.idpf.org/2007/opf"><metadata/><manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/><item id="s" href="s.css" media-type="text/css"/></manifest><spine><itemref idref="c"/></spine></package>',
      ),
      'c.xhtml': strToU8(chapter),
      's.css': strToU8(css),
    });
    expect(await md(epub, 'css.epub')).toBe('E = mc<sup>2</sup>, H<sub>2</sub>O, 21<sup>st</sup>, moved.\n');
  });

  it('reports an EPUB without a package document as MALFORMED', async () => {
    const zip = zipSync({
      mimetype: [strToU8('application/epub+zip'), { level: 0 }],
      'META-INF/container.xml': strToU8(
        '<container><rootfiles><rootfile full-path="missing.opf"/></rootfiles></container>',
      ),
    });
    expect(await codeOf(zip, 'broken.epub')).toBe('MALFORMED');
  });
});

describe('OpenDocument text (.odt)', () => {
  it('reports a password-protected file as ENCRYPTED', async () => {
    const zip = zipSync({
      mimetype: [strToU8('application/vnd.oasis.opendocument.text'), { level: 0 }],
      'META-INF/manifest.xml': strToU8(
        '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data/></manifest:file-entry></manifest:manifest>',
      ),
      'content.xml': strToU8('garbage'),
    });
    expect(await codeOf(zip, 'locked.odt')).toBe('ENCRYPTED');
  });

  it('reads the memo exactly like its .docx twin', async () => {
    expect(await md(fixture('quarterly-memo.odt'), 'quarterly-memo.odt')).toEqual(
      await md(fixture('quarterly-memo.docx'), 'quarterly-memo.docx'),
    );
  });

  it('keeps headings numbered through a list as headings, the items after them numbered on', async () => {
    const styles =
      '<text:list-style style:name="L"><text:list-level-style-number text:level="1" style:num-format="1"/><text:list-level-style-number text:level="2" style:num-format="1"/></text:list-style>';
    const body =
      '<text:list text:style-name="L"><text:list-item><text:h text:outline-level="1">Scope</text:h>' +
      '<text:list><text:list-item><text:h text:outline-level="2">Sites</text:h></text:list-item></text:list></text:list-item>' +
      '<text:list-item><text:p>first point</text:p></text:list-item><text:list-item><text:p>second point</text:p></text:list-item></text:list>';
    expect(await md(odt(body, styles), 'h.odt')).toBe('# Scope\n\n## Sites\n\n2. first point\n3. second point\n');
  });

  it('maps text in Symbol and Wingdings fonts to Unicode', async () => {
    const styles =
      '<style:style style:name="T1" style:family="text"><style:text-properties style:font-name="Symbol1"/></style:style>' +
      '<style:style style:name="T2" style:family="text"><style:text-properties style:font-name="Wingdings"/></style:style>';
    // Styles name font faces, which the declarations tie to font families (as LibreOffice writes them).
    const faces =
      '<style:font-face style:name="Symbol1" svg:font-family="Symbol"/><style:font-face style:name="Wingdings" svg:font-family="Wingdings"/>';
    const body =
      '<text:p>x <text:span text:style-name="T1">abg \uf0b1</text:span> <text:span text:style-name="T2">\uf0fc</text:span></text:p>';
    expect(await md(odt(body, styles, faces), 'sym.odt')).toBe('x αβγ ± ✓\n');
  });

  it('reads numbered paragraphs, keeps a written heading number and drops soft hyphens', async () => {
    const body =
      '<text:numbered-paragraph text:list-id="x" text:level="1"><text:number>1.</text:number><text:p>Numbered paragraph</text:p></text:numbered-paragraph>' +
      '<text:numbered-paragraph text:list-id="x" text:level="1"><text:number>2.</text:number><text:p>Next one</text:p></text:numbered-paragraph>' +
      '<text:h text:outline-level="1"><text:number>3.</text:number>Heading with its number</text:h>' +
      '<text:p>hy\u00adphen text</text:p>';
    expect(await md(odt(body), 'n.odt')).toBe(
      '1. Numbered paragraph\n2. Next one\n\n# 3. Heading with its number\n\nhyphen text\n',
    );
  });

  it('leaves out hidden text (text:display="none")', async () => {
    const styles =
      '<style:style style:name="H" style:family="text"><style:text-properties text:display="none"/></style:style>';
    const body = '<text:p>Shown<text:span text:style-name="H"> and hidden</text:span> text.</text:p>';
    expect(await md(odt(body, styles), 'hid.odt')).toBe('Shown text.\n');
  });

  it('references a comment on a range where the range ends, as Word does', async () => {
    const body =
      '<text:p>The review <office:annotation office:name="c1"><dc:creator>Jane Roe</dc:creator><text:p>Check this.</text:p></office:annotation>' +
      'covered all sites<office:annotation-end office:name="c1"/> and depots.<office:annotation><dc:creator>Ann</dc:creator><text:p>Point.</text:p></office:annotation></text:p>';
    expect(await md(odt(body), 'c.odt')).toBe(
      'The review covered all sites[^comment-1] and depots.[^comment-2]\n\n[^comment-1]: **Jane Roe:** Check this.\n\n[^comment-2]: **Ann:** Point.\n',
    );
  });
});

describe('XML parser (src/office/xml.ts)', () => {
  it('decodes only predefined entities and character references', () => {
    const root = parseXml('<a>&lt;&amp;&#65;&#x42;&unknown;</a>');
    expect(textContent(root)).toBe('<&AB&unknown;');
  });

  it('maps Transitional and Strict namespaces to the same prefix', () => {
    const t = parseXml(`<x:document xmlns:x="${W}"><x:body/></x:document>`, { namespaces: OFFICE_NAMESPACES });
    const s = parseXml(
      '<w:document xmlns:w="http://purl.oclc.org/ooxml/wordprocessingml/main"><w:body/></w:document>',
      { namespaces: OFFICE_NAMESPACES },
    );
    expect((t.children[0] as { name: string }).name).toBe('w:document');
    expect((s.children[0] as { name: string }).name).toBe('w:document');
  });

  it('keeps what it read from unclosed or mismatched tags', () => {
    expect(textContent(parseXml('<a><b>one</c><d>two'))).toBe('onetwo');
  });
});
