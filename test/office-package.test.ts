/**
 * The Office package base: the one XML reader's named options (what each caller forgives and keeps),
 * the one OPC relationships reader's readings, and the OpenDocument inline reader, each checked on
 * small parts written here.
 */
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ZipPackage } from '../src/containers/zip.js';
import { ParseError } from '../src/errors.js';
import { LOCAL_NAMES, RESOLVED_NAMES } from '../src/office/odf/names.js';
import { readInlines } from '../src/office/odf/text.js';
import { attr, child, textOf, WELL_FORMED_PARTS } from '../src/office/package/local-names.js';
import { presentationRels, readRels, type RelsReading } from '../src/office/package/relationships.js';
import { OFFICE_NAMESPACES, parseXml, parseXmlRoot, textContent, type XmlOptions } from '../src/office/package/xml.js';

function codeOf(read: () => unknown): string {
  try {
    read();
    return 'read';
  } catch (err) {
    return err instanceof ParseError ? err.code : String(err);
  }
}

const nested = (depth: number): string => '<a>'.repeat(depth) + '</a>'.repeat(depth);

describe('XML reader options', () => {
  it('onBadTag: tolerate reads around a damaged start tag, fail refuses the part', () => {
    const damaged = '<r><p x=1 y="2">one</p><p>two<!-- open';
    expect(textContent(parseXml(damaged, { onBadTag: 'tolerate' }))).toBe('onetwo');
    expect(attr(child(parseXmlRoot(damaged, { onBadTag: 'tolerate' }), 'p'), 'x')).toBe('1');
    expect(codeOf(() => parseXml(damaged, { onBadTag: 'fail' }))).toBe('MALFORMED');
    expect(codeOf(() => parseXml('<r><p>one</p><!-- open', { onBadTag: 'fail' }))).toBe('MALFORMED');
    // Unclosed elements are tolerated either way.
    expect(textOf(parseXmlRoot('<r><p>one', { onBadTag: 'fail' }))).toBe('one');
  });

  it('invalidCharRefs: replace shows U+FFFD, drop leaves nothing', () => {
    const xml = '<t>a&#x110000;b&#xD800;c&#0;d&#65;</t>';
    expect(textContent(parseXml(xml, { invalidCharRefs: 'replace' }))).toBe('a\ufffdb\ufffdc\u0000dA');
    expect(textContent(parseXml(xml, { invalidCharRefs: 'drop' }))).toBe('ab\ud800cdA');
  });

  it('keeps white-space-only text where asked: by name, by local name, everywhere', () => {
    const xml = '<w:r xmlns:w="urn:x"><w:t> </w:t><x:t xmlns:x="urn:y"> </x:t> </w:r>';
    const texts = (options: XmlOptions): string => JSON.stringify(textContent(parseXml(xml, options)));
    expect(texts({})).toBe('""');
    expect(texts({ keepWhitespaceIn: new Set(['w:t']) })).toBe('" "');
    expect(texts({ keepWhitespaceInLocal: new Set(['t']) })).toBe('"  "');
    expect(texts({ keepAllWhitespace: true })).toBe('"   "');
  });

  it('maxDepth bounds nesting: 256 by default, 511 for well-formed parts', () => {
    expect(codeOf(() => parseXml(nested(256)))).toBe('read');
    expect(codeOf(() => parseXml(nested(257)))).toBe('RESOURCE_LIMIT');
    expect(codeOf(() => parseXmlRoot(nested(511), WELL_FORMED_PARTS))).toBe('read');
    expect(codeOf(() => parseXmlRoot(nested(512), WELL_FORMED_PARTS))).toBe('RESOURCE_LIMIT');
  });

  it('refuses entity declarations whatever else is asked', () => {
    const bomb = '<!DOCTYPE r [<!ENTITY a "aaaa">]><r>&a;</r>';
    expect(codeOf(() => parseXml(bomb))).toBe('RESOURCE_LIMIT');
    expect(codeOf(() => parseXmlRoot(bomb, WELL_FORMED_PARTS))).toBe('RESOURCE_LIMIT');
  });

  it('names the part in its errors', () => {
    expect(() => parseXmlRoot('<r><', { ...WELL_FORMED_PARTS, part: 'part ppt/slides/slide1.xml' })).toThrow(
      /part ppt\/slides\/slide1\.xml is not well-formed XML/,
    );
    expect(() => parseXmlRoot('just text', WELL_FORMED_PARTS)).toThrow(/no root element/);
  });

  it('resolves namespaces to canonical prefixes for element and attribute names', () => {
    const root = parseXmlRoot(
      '<q:document xmlns:q="http://purl.oclc.org/ooxml/wordprocessingml/main"><q:p q:rsid="1"/></q:document>',
      { namespaces: OFFICE_NAMESPACES },
    );
    expect(root.name).toBe('w:document');
    expect(root.local).toBe('document');
    expect(child(root, 'p')?.attrs).toEqual({ 'w:rsid': '1' });
  });
});

const RELS = `<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
  <Relationship Id="rId1" Type="http://x/officeDocument/2006/relationships/slide" Target="slides/slide%201.xml"/>
  <Relationship Id="rId2" Type="http://x/officeDocument/2006/relationships/hyperlink" Target="https://example.com/a?b&amp;c" TargetMode="External"/>
  <Relationship Id="rId3" Type="http://x/officeDocument/2006/relationships/image" Target="/ppt/media/../media/i.png"/>
  <Relationship Id="rId4" Type="http://x/officeDocument/2006/relationships/image"/>
</Relationships>`;

describe('OPC relationships reader', () => {
  const zip = ZipPackage.open(zipSync({ 'ppt/_rels/presentation.xml.rels': strToU8(RELS) }));

  it('reads targets resolved against the part, external targets as written', () => {
    const rels = readRels('ppt/presentation.xml', presentationRels(zip));
    expect([...rels.values()].map((r) => [r.id, r.target, r.external])).toEqual([
      ['rId1', 'ppt/slides/slide 1.xml', false],
      ['rId2', 'https://example.com/a?b&c', true],
      ['rId3', 'ppt/media/i.png', false],
    ]);
  });

  it('keeps each family’s reading: targets as written, root targets left alone, an empty target kept', () => {
    const reading: RelsReading = {
      ...presentationRels(zip),
      missingTarget: 'empty',
      target: { percent: 'as-written', normalizeRoot: false },
    };
    const rels = readRels('ppt/presentation.xml', reading);
    expect(rels.get('rId1')?.target).toBe('ppt/slides/slide%201.xml');
    expect(rels.get('rId3')?.target).toBe('ppt/media/../media/i.png');
    expect(rels.get('rId4')?.target).toBe('ppt');
  });

  it('an unreadable part reads as none or refuses, as the family says', () => {
    const bad = ZipPackage.open(zipSync({ '_rels/.rels': strToU8('<Relationships><Relationship Id=') }));
    expect(readRels('', presentationRels(bad)).size).toBe(0);
    expect(codeOf(() => readRels('', { ...presentationRels(bad), unreadable: 'throw' }))).toBe('MALFORMED');
  });
});

describe('OpenDocument inline reading', () => {
  const paragraph =
    '<text:p xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0">' +
    'a<text:s text:c="3"/>b<text:tab/>c<text:line-break/>d<text:span>e<text:note><text:p>note</text:p></text:note></text:span>' +
    '<office:annotation><text:p>comment</text:p></office:annotation><text:s text:c="100000"/>|</text:p>';

  const read = (p: ReturnType<typeof parseXmlRoot>, names: typeof LOCAL_NAMES): string => {
    let s = '';
    readInlines(p, names, {
      text: (t) => (s += t),
      spaces: (run) => (s += run),
      tab: () => (s += '\t'),
      lineBreak: () => (s += '\n'),
      leftOut: ['text:note', 'office:annotation'],
    });
    return s;
  };

  it('reads text, spaces, tabs and breaks the same in both kinds of tree, leaving out what it is told', () => {
    const expected = `a   b\tc\nde${' '.repeat(100)}|`;
    expect(read(parseXmlRoot(paragraph, WELL_FORMED_PARTS), LOCAL_NAMES)).toBe(expected);
    expect(read(parseXmlRoot(paragraph, { namespaces: OFFICE_NAMESPACES }), RESOLVED_NAMES)).toBe(expected);
  });
});
