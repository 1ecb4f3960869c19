/**
 * Hostile text formats: HTML, CSV and RTF with huge lines, deep nesting, bad encodings and NUL bytes,
 * plus inputs that are nothing at all.
 */
import { concat, enc, latin1, randomBytes, rng, type Variant } from './util.js';

export function syntheticText(): Variant[] {
  const v = (
    family: Variant['family'],
    name: string,
    filename: string,
    recipe: string,
    make: () => Uint8Array,
  ): Variant => ({ id: `${family}/synthetic/${name}`, family, filename, recipe, make });
  const html = (body: string): string =>
    `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;
  return [
    v('html', 'baseline', 'a.html', 'a valid small HTML page (control)', () =>
      enc(html('<h1>Hostile</h1><p>input survives</p>')),
    ),
    v('html', 'deep-divs-1M', 'a.html', 'one million nested divs', () =>
      enc(html(`${'<div>'.repeat(1_000_000)}x${'</div>'.repeat(1_000_000)}`)),
    ),
    v('html', 'deep-unclosed-1M', 'a.html', 'one million unclosed <b><i> pairs', () =>
      enc(html('<b><i>'.repeat(1_000_000))),
    ),
    v('html', 'deep-tables', 'a.html', 'tables nested 20000 deep', () =>
      enc(html(`${'<table><tr><td>'.repeat(20000)}x${'</td></tr></table>'.repeat(20000)}`)),
    ),
    v('html', 'deep-lists', 'a.html', 'lists nested 50000 deep', () =>
      enc(html(`${'<ul><li>'.repeat(50000)}x${'</li></ul>'.repeat(50000)}`)),
    ),
    v('html', 'deep-blockquote', 'a.html', 'blockquotes nested 50000 deep', () =>
      enc(html(`${'<blockquote>'.repeat(50000)}x${'</blockquote>'.repeat(50000)}`)),
    ),
    v('html', 'huge-line-40MB', 'a.html', 'a 40 MB paragraph without a space or newline', () =>
      enc(html(`<p>${'a'.repeat(40 << 20)}</p>`)),
    ),
    v('html', 'huge-table', 'a.html', 'a table of 2000 x 500 cells', () =>
      enc(html(`<table>${`<tr>${'<td>c</td>'.repeat(500)}</tr>`.repeat(2000)}</table>`)),
    ),
    v('html', 'colspan-huge', 'a.html', 'table cells with colspan/rowspan 2147483647', () =>
      enc(
        html(
          '<table><tr><td colspan="2147483647" rowspan="2147483647">a</td><td colspan="-1">b</td></tr><tr><td colspan="65534">c</td></tr></table>',
        ),
      ),
    ),
    v('html', 'many-attributes', 'a.html', 'one element with 200000 attributes', () =>
      enc(html(`<p ${Array.from({ length: 200000 }, (_, i) => `a${i}="x"`).join(' ')}>x</p>`)),
    ),
    v('html', 'unclosed-comment', 'a.html', 'a comment opened and never closed, 10 MB long', () =>
      enc(html(`<p>a</p><!-- ${'-'.repeat(10 << 20)}`)),
    ),
    v('html', 'unclosed-script', 'a.html', 'a script opened and never closed', () =>
      enc(html(`<script>${'var a = "<p>";'.repeat(200000)}`)),
    ),
    v('html', 'invalid-utf8', 'a.html', 'HTML with invalid UTF-8 sequences everywhere', () =>
      concat([
        enc('<html><body><p>'),
        Uint8Array.from({ length: 100000 }, (_, i) => [0xc3, 0x28, 0xe2, 0x82, 0xff, 0xfe, 0xc0, 0x80][i % 8]!),
        enc('</p></body></html>'),
      ]),
    ),
    v('html', 'bogus-charset', 'a.html', 'meta charset names an unknown encoding', () =>
      enc('<html><head><meta charset="x-no-such-charset-9"></head><body><p>caf\u00e9</p></body></html>'),
    ),
    v('html', 'utf7-charset', 'a.html', 'meta charset utf-7 with +ADw-script+AD4- text', () =>
      enc(
        '<html><head><meta charset="utf-7"></head><body><p>+ADw-script+AD4-alert(1)+ADw-/script+AD4-</p></body></html>',
      ),
    ),
    v('html', 'nul-bytes', 'a.html', 'HTML with NUL bytes between every character', () =>
      enc(html('<p>hello world</p>').split('').join('\0')),
    ),
    v('html', 'utf16-odd-length', 'a.html', 'a UTF-16LE BOM followed by an odd number of bytes', () =>
      concat([Uint8Array.of(0xff, 0xfe), enc('<html><body>x</body></html>'), Uint8Array.of(0x41)]),
    ),
    v(
      'html',
      'entities-flood',
      'a.html',
      '2 million numeric character references, many invalid (&#0; &#xD800; &#99999999;)',
      () => enc(html(`<p>${'&#0;&#xD800;&#99999999;&amp;&nbsp'.repeat(400000)}</p>`)),
    ),
    v('html', 'base64-image-huge', 'a.html', 'an img with a 30 MB data: URI', () =>
      enc(html(`<img src="data:image/png;base64,${'A'.repeat(30 << 20)}">`)),
    ),
    v('html', 'links-flood', 'a.html', '300000 links', () =>
      enc(html('<a href="javascript:alert(1)">x</a>'.repeat(300000))),
    ),
    v('html', 'svg-math-junk', 'a.html', 'deep svg/math foreign content with CDATA and processing instructions', () =>
      enc(html(`${'<svg><foreignObject><math><mi>'.repeat(5000)}<![CDATA[x]]><?pi x?>`)),
    ),
    v('html', 'xml-billion-laughs', 'a.xhtml', 'XHTML with a billion-laughs DOCTYPE', () =>
      enc(
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]><html xmlns="http://www.w3.org/1999/xhtml"><body><p>&lol9;</p></body></html>',
      ),
    ),
    v('html', 'random-bytes', 'a.html', '64 KiB of random bytes named .html', () => randomBytes(rng(71), 65536)),
    v('csv', 'baseline', 'a.csv', 'a valid small CSV (control)', () => enc('a,b\n1,2\n')),
    v('csv', 'huge-line-40MB', 'a.csv', 'one 40 MB line with no delimiter', () => enc('x'.repeat(40 << 20))),
    v('csv', 'unbalanced-quote', 'a.csv', 'a quote opened on line one and never closed, 10 MB of lines after', () =>
      enc(`"a,b\n${'1,2\n'.repeat(2_500_000)}`),
    ),
    v('csv', 'many-columns', 'a.csv', 'one row of 1 million columns', () =>
      enc(`${'c,'.repeat(1_000_000)}\n${'1,'.repeat(1_000_000)}\n`),
    ),
    v('csv', 'many-rows', 'a.csv', '2 million short rows', () => enc('1,2,3\n'.repeat(2_000_000))),
    v('csv', 'nul-bytes', 'a.csv', 'CSV with NUL bytes in fields', () => enc('a,b\n1\0,\u00002\n')),
    v('csv', 'invalid-utf8', 'a.csv', 'CSV with invalid UTF-8 and lone surrogates encoded as CESU', () =>
      Uint8Array.from([0x61, 0x2c, 0x62, 0x0a, 0xff, 0xfe, 0x2c, 0xed, 0xa0, 0x80, 0x0a, 0xc0, 0xaf]),
    ),
    v('csv', 'only-delimiters', 'a.csv', '5 MB of commas, semicolons, tabs and quotes', () =>
      enc(',;\t"|'.repeat(1 << 20)),
    ),
    v('csv', 'utf16-bom-garbage', 'a.csv', 'a UTF-16BE BOM then random bytes', () =>
      concat([Uint8Array.of(0xfe, 0xff), randomBytes(rng(73), 30001)]),
    ),
    v('csv', 'formula-cells', 'a.csv', 'cells with =cmd|, +, @ prefixes and markdown/HTML injection', () =>
      enc('a,b\n=cmd|\' /C calc\'!A0,<script>alert(1)</script>\n"| --- |","[x](javascript:alert(1))"\n'),
    ),
    v('rtf', 'baseline', 'a.rtf', 'a valid small RTF (control)', () =>
      latin1('{\\rtf1\\ansi{\\fonttbl{\\f0 Times;}}\\f0 Hostile input survives\\par}'),
    ),
    v('rtf', 'deep-groups', 'a.rtf', 'groups nested 1 million deep', () =>
      latin1(`{\\rtf1 ${'{'.repeat(1_000_000)}x${'}'.repeat(1_000_000)}}`),
    ),
    v('rtf', 'unbalanced-groups', 'a.rtf', 'one million opening braces and no closing ones', () =>
      latin1(`{\\rtf1 ${'{\\b '.repeat(1_000_000)}`),
    ),
    v('rtf', 'extra-closers', 'a.rtf', 'many more closing braces than opening', () =>
      latin1(`{\\rtf1 a}${'}'.repeat(100000)}b`),
    ),
    v('rtf', 'bin-huge', 'a.rtf', '\\bin with a length of 2^31 and little data', () =>
      latin1('{\\rtf1 a\\bin2147483647 xyz}'),
    ),
    v('rtf', 'bin-negative', 'a.rtf', '\\bin-5 and \\uc-1 \\u-99999999', () =>
      latin1('{\\rtf1 \\bin-5 a\\uc-1\\u-99999999 b\\u99999999 c\\uc999999999 d}'),
    ),
    v(
      'rtf',
      'control-word-huge',
      'a.rtf',
      'a control word of 1 million letters and a parameter of 1 million digits',
      () => latin1(`{\\rtf1 \\${'a'.repeat(1_000_000)} \\fs${'9'.repeat(1_000_000)} x}`),
    ),
    v('rtf', 'hex-garbage', 'a.rtf', "\\'zz escapes and truncated hex", () =>
      latin1(`{\\rtf1 ${"\\'zz\\'4".repeat(100000)}\\'`),
    ),
    v('rtf', 'pict-garbage', 'a.rtf', 'a \\pict group with 5 MB of non-hex data', () =>
      latin1(`{\\rtf1 {\\pict\\pngblip\\picw999999999\\pich999999999 ${'zz'.repeat(2_500_000)}}x}`),
    ),
    v('rtf', 'table-junk', 'a.rtf', 'rows with \\cellx -1 and 100000 cells and no \\row', () =>
      latin1(`{\\rtf1 \\trowd\\cellx-1\\cellx99999999999 ${'a\\cell '.repeat(100000)}}`),
    ),
    v('rtf', 'fonttable-codepage', 'a.rtf', 'a font table with unknown \\fcharset and \\cpg values', () =>
      latin1(
        "{\\rtf1\\ansi\\ansicpg99999{\\fonttbl{\\f0\\fcharset255\\cpg12345 X;}{\\f1\\fcharset-1 Y;}}\\f0 \\'e9\\f1 \\'e9\\f9999 z}",
      ),
    ),
    v('rtf', 'truncated', 'a.rtf', 'an RTF header only', () => latin1('{\\rtf1')),
    v('other', 'empty', 'a.pdf', 'zero bytes named .pdf', () => new Uint8Array(0)),
    v('other', 'one-byte', 'a.docx', 'one byte named .docx', () => Uint8Array.of(0x50)),
    v('other', 'random-binary', 'a.bin', '1 MiB of random bytes', () => randomBytes(rng(79), 1 << 20)),
    v('other', 'pk-signature-only', 'a.xlsx', 'the four ZIP signature bytes', () =>
      Uint8Array.of(0x50, 0x4b, 0x03, 0x04),
    ),
    v('other', 'gzip', 'a.pdf', 'a gzip file named .pdf', () =>
      Uint8Array.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    ),
    v('other', 'over-50MB', 'a.html', '50 MiB + 1 byte of HTML (over the file size limit)', () =>
      concat([enc('<html><body>'), new Uint8Array((50 << 20) - 11).fill(0x61)]),
    ),
  ];
}
