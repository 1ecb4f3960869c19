import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { detectFormat, SUPPORTED_EXTENSIONS } from '../src/detect/detect.js';
import { ParseError } from '../src/errors.js';
import { corpusAvailable, readCorpus } from '../test-support/corpus.js';
import { errorCodeOfSync } from '../test-support/errors.js';

function ooxml(mainPart: string, contentType: string): Uint8Array {
  const types =
    `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    `<Default Extension="xml" ContentType="application/xml"/>` +
    `<Override PartName="/${mainPart}" ContentType="${contentType}"/></Types>`;
  return zipSync({ '[Content_Types].xml': strToU8(types), [mainPart]: strToU8('<x/>') });
}

function odf(mimetype: string): Uint8Array {
  return zipSync({
    mimetype: [strToU8(mimetype), { level: 0 }],
    'content.xml': strToU8('<x/>'),
    'META-INF/manifest.xml': strToU8('<m/>'),
  });
}

describe('detection by content', () => {
  it('finds PDFs by header, even with junk before it and whatever the name says', () => {
    expect(detectFormat(strToU8('%PDF-1.7\n...')).kind).toBe('pdf');
    expect(detectFormat(strToU8('garbage\n%PDF-1.4\n...')).kind).toBe('pdf');
    expect(detectFormat(strToU8('%PDF-1.4\n'), { filename: 'report.docx' }).kind).toBe('pdf');
  });

  it('tells OOXML packages apart by their content types, macro-enabled and binary ones included', () => {
    const wp = 'application/vnd.openxmlformats-officedocument.';
    expect(detectFormat(ooxml('word/document.xml', `${wp}wordprocessingml.document.main+xml`)).kind).toBe('docx');
    expect(
      detectFormat(ooxml('word/document.xml', 'application/vnd.ms-word.document.macroEnabled.main+xml')).kind,
    ).toBe('docm');
    expect(detectFormat(ooxml('xl/workbook.xml', `${wp}spreadsheetml.sheet.main+xml`)).kind).toBe('xlsx');
    expect(detectFormat(ooxml('xl/workbook.xml', 'application/vnd.ms-excel.sheet.macroEnabled.main+xml')).kind).toBe(
      'xlsm',
    );
    expect(detectFormat(ooxml('xl/workbook.bin', 'application/vnd.ms-excel.sheet.binary.macroEnabled.main')).kind).toBe(
      'xlsb',
    );
    expect(detectFormat(ooxml('ppt/presentation.xml', `${wp}presentationml.presentation.main+xml`)).kind).toBe('pptx');
    expect(
      detectFormat(ooxml('ppt/presentation.xml', 'application/vnd.ms-powerpoint.presentation.macroEnabled.main+xml'))
        .kind,
    ).toBe('pptm');
    expect(detectFormat(ooxml('ppt/presentation.xml', `${wp}presentationml.slideshow.main+xml`)).kind).toBe('pptx');
  });

  it('falls back to part names when the manifest says nothing useful', () => {
    const bare = zipSync({ '[Content_Types].xml': strToU8('<Types/>'), 'word/document.xml': strToU8('<x/>') });
    expect(detectFormat(bare).kind).toBe('docx');
  });

  it('tells OpenDocument and EPUB packages apart by their mimetype entry', () => {
    expect(detectFormat(odf('application/vnd.oasis.opendocument.text')).kind).toBe('odt');
    expect(detectFormat(odf('application/vnd.oasis.opendocument.spreadsheet')).kind).toBe('ods');
    expect(detectFormat(odf('application/vnd.oasis.opendocument.presentation')).kind).toBe('odp');
    expect(detectFormat(odf('application/epub+zip')).kind).toBe('epub');
    expect(errorCodeOfSync(() => detectFormat(odf('application/vnd.oasis.opendocument.graphics')))).toBe(
      'UNSUPPORTED_FILE_TYPE',
    );
  });

  it('refuses other ZIP archives and broken ones', () => {
    expect(errorCodeOfSync(() => detectFormat(zipSync({ 'a.txt': strToU8('hello') }), { filename: 'a.docx' }))).toBe(
      'UNSUPPORTED_FILE_TYPE',
    );
    const broken = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(errorCodeOfSync(() => detectFormat(broken))).toBe('MALFORMED');
  });

  it('finds RTF by its signature', () => {
    expect(detectFormat(strToU8('{\\rtf1\\ansi hello}')).kind).toBe('rtf');
  });

  it('finds HTML and XHTML by their markup, in UTF-8 or UTF-16', () => {
    expect(detectFormat(strToU8('<!DOCTYPE html><html><body>x</body></html>')).kind).toBe('html');
    expect(detectFormat(strToU8('\n  <html lang="en"><p>x</p></html>')).kind).toBe('html');
    expect(
      detectFormat(strToU8('<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>')).kind,
    ).toBe('html');
    expect(detectFormat(strToU8('<!-- saved --><div><p>fragment</p></div>')).kind).toBe('html');
    const utf16 = new Uint8Array([
      0xff,
      0xfe,
      ...new Uint8Array(Buffer.from('<html><body>hi</body></html>', 'utf16le')),
    ]);
    expect(detectFormat(utf16).kind).toBe('html');
  });

  it('reads text as CSV only when the name or content type says so', () => {
    expect(detectFormat(strToU8('a,b\n1,2\n'), { filename: 'x.csv' }).kind).toBe('csv');
    expect(detectFormat(strToU8('a;b\n1;2\n'), { contentType: 'text/csv; charset=utf-8' }).kind).toBe('csv');
    expect(errorCodeOfSync(() => detectFormat(strToU8('a,b\n1,2\n')))).toBe('UNSUPPORTED_FILE_TYPE');
    expect(errorCodeOfSync(() => detectFormat(strToU8('a,b\n1,2\n'), { filename: 'notes.txt' }))).toBe(
      'UNSUPPORTED_FILE_TYPE',
    );
  });

  it('refuses empty files and binary content, listing the supported extensions', () => {
    const err = (() => {
      try {
        detectFormat(new Uint8Array(0));
      } catch (e) {
        return e as ParseError;
      }
      throw new Error('expected an error');
    })();
    expect(err.code).toBe('UNSUPPORTED_FILE_TYPE');
    expect(err.status).toBe(415);
    for (const ext of SUPPORTED_EXTENSIONS) expect(err.message).toContain(ext);
    expect(
      errorCodeOfSync(() =>
        detectFormat(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]), { filename: 'photo.csv' }),
      ),
    ).toBe('UNSUPPORTED_FILE_TYPE');
  });

  it('reports the MIME type of what it found', () => {
    expect(detectFormat(strToU8('%PDF-1.7')).contentType).toBe('application/pdf');
    expect(detectFormat(strToU8('<html></html>')).contentType).toBe('text/html');
  });
});

describe.skipIf(!corpusAvailable)('detection of real files', () => {
  it('reads legacy Office files by their root streams', () => {
    expect(detectFormat(readCorpus('unstructured', 'fake.doc')).kind).toBe('doc');
    expect(detectFormat(readCorpus('unstructured', 'fake-power-point.ppt')).kind).toBe('ppt');
    expect(detectFormat(readCorpus('markitdown', 'test.xls')).kind).toBe('xls');
  });

  it('trusts content over the extension (a .ppt that is really a pptx)', () => {
    expect(detectFormat(readCorpus('unstructured', 'eng_spa_mult.ppt'), { filename: 'eng_spa_mult.ppt' }).kind).toBe(
      'pptx',
    );
  });

  it('reports password-protected Office packages as ENCRYPTED', () => {
    expect(errorCodeOfSync(() => detectFormat(readCorpus('unstructured', 'password_protected.xlsx')))).toBe(
      'ENCRYPTED',
    );
  });
});
