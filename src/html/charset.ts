/**
 * Text decoding for HTML and CSV: byte-order mark first, then what the document declares
 * (`<meta charset>`, `http-equiv` Content-Type, XML declaration), then sniffing (UTF-16 without
 * a BOM, valid UTF-8, statistical detection for legacy code pages such as cp1252 and Shift-JIS).
 */
import chardet from 'chardet';
import iconv from 'iconv-lite';

export interface Decoded {
  text: string;
  /** Canonical name of the encoding used. */
  encoding: string;
  /** How the encoding was chosen. */
  from: 'bom' | 'declared' | 'hint' | 'sniffed' | 'default';
}

/** WHATWG treats these labels as windows-1252, which is what such pages really contain. */
const ALIASES: Record<string, string> = {
  'iso-8859-1': 'windows-1252',
  'iso8859-1': 'windows-1252',
  latin1: 'windows-1252',
  'us-ascii': 'windows-1252',
  ascii: 'windows-1252',
  'x-sjis': 'shift_jis',
  'shift-jis': 'shift_jis',
  sjis: 'shift_jis',
  'ms_kanji': 'shift_jis',
  'windows-31j': 'shift_jis',
  'x-cp1252': 'windows-1252',
  'utf8': 'utf-8',
  'unicode': 'utf-16le',
  'utf-16': 'utf-16le',
  'ucs-2': 'utf-16le',
};

/** A supported encoding name for `label`, or undefined when the label is unknown. */
export function normalizeEncoding(label: string): string | undefined {
  const l = label.trim().toLowerCase().replace(/^["']|["']$/g, '');
  const name = ALIASES[l] ?? l;
  return iconv.encodingExists(name) ? name : undefined;
}

function bomEncoding(bytes: Uint8Array): { encoding: string; length: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return undefined;
}

/** UTF-16 without a BOM: ASCII text shows up as every other byte zero. */
function sniffUtf16(bytes: Uint8Array): string | undefined {
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 4) return undefined;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZero++;
    if (bytes[i + 1] === 0) oddZero++;
  }
  const pairs = n / 2;
  if (oddZero > pairs * 0.4 && evenZero < pairs * 0.05) return 'utf-16le';
  if (evenZero > pairs * 0.4 && oddZero < pairs * 0.05) return 'utf-16be';
  return undefined;
}

/** The charset the document declares within its first bytes, for HTML and XML. */
export function declaredCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 8192)).toString('latin1');
  const xml = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/i.exec(head);
  if (xml) return xml[1];
  // Both `<meta charset=x>` and `<meta http-equiv=Content-Type content="text/html; charset=x">`.
  const meta = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head);
  if (meta) return meta[1];
  return undefined;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

function isUtf8(bytes: Uint8Array): boolean {
  try {
    fatalUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function decodeWith(bytes: Uint8Array, encoding: string): string {
  return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), encoding);
}

export interface DecodeOptions {
  /** Look for a declaration in HTML/XML markup. */
  markup?: boolean;
  /** An encoding named outside the bytes (a Content-Type charset parameter). */
  hint?: string;
}

/** Decodes text bytes, choosing the encoding as browsers do. The BOM is not part of the text. */
export function decodeText(bytes: Uint8Array, opts: DecodeOptions = {}): Decoded {
  const bom = bomEncoding(bytes);
  if (bom) return { text: decodeWith(bytes.subarray(bom.length), bom.encoding), encoding: bom.encoding, from: 'bom' };

  const utf16 = sniffUtf16(bytes);
  if (utf16) return { text: decodeWith(bytes, utf16), encoding: utf16, from: 'sniffed' };

  const hint = opts.hint ? normalizeEncoding(opts.hint) : undefined;
  if (hint && !hint.startsWith('utf-16')) return { text: decodeWith(bytes, hint), encoding: hint, from: 'hint' };

  if (opts.markup) {
    const label = declaredCharset(bytes);
    let declared = label ? normalizeEncoding(label) : undefined;
    // A document that declares UTF-16 but was read as bytes without zeros cannot be UTF-16.
    if (declared?.startsWith('utf-16')) declared = 'utf-8';
    // Declared UTF-8 that does not decode is a mislabelled legacy page: sniff instead.
    if (declared && !(declared === 'utf-8' && !isUtf8(bytes))) {
      return { text: decodeWith(bytes, declared), encoding: declared, from: 'declared' };
    }
  }

  if (isUtf8(bytes)) return { text: new TextDecoder('utf-8').decode(bytes), encoding: 'utf-8', from: 'sniffed' };

  const sample = bytes.subarray(0, Math.min(bytes.length, 256 * 1024));
  const ranked = chardet.analyse(sample);
  const cjk = cjkEncoding(sample, ranked.map((m) => m.name.toLowerCase()));
  if (cjk) return { text: decodeWith(bytes, cjk), encoding: cjk, from: 'sniffed' };
  const guess = ranked[0]?.name;
  let encoding = guess ? normalizeEncoding(guess) : undefined;
  // UTF-8 was ruled out above; multibyte guesses that failed the CJK check are noise on short input.
  if (!encoding || encoding.startsWith('utf') || CJK_ENCODINGS.includes(encoding)) encoding = 'windows-1252';
  if (LATIN_FAMILY.includes(encoding)) encoding = bestLatin(sample, encoding);
  return { text: decodeWith(bytes, encoding), encoding, from: guess ? 'sniffed' : 'default' };
}

const CJK_ENCODINGS = ['shift_jis', 'euc-jp', 'gb18030', 'gbk', 'big5', 'euc-kr'];

/** Characters East Asian text consists of beyond ASCII: CJK ideographs and punctuation, kana, Hangul, full-width forms. */
const CJK_CHAR = /[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff01-\uff60\uffe0-\uffe6]/u;

/**
 * Statistical detectors are unreliable on short CJK input (a few table cells). A multibyte
 * encoding is taken when the bytes decode under it without errors and every non-ASCII character
 * comes out as East Asian script; among several that do, the detector's ranking decides.
 */
function cjkEncoding(sample: Uint8Array, ranking: string[]): string | undefined {
  let high = 0;
  for (const b of sample) if (b >= 0x80) high++;
  if (high < 2) return undefined;
  const passing: string[] = [];
  for (const enc of CJK_ENCODINGS) {
    const text = decodeWith(sample, enc).replace(/\uFFFD$/, '');
    if (text.includes('\uFFFD')) continue;
    let nonAscii = 0;
    let good = 0;
    for (const ch of text) {
      if (ch.charCodeAt(0) < 0x80) continue;
      nonAscii++;
      if (CJK_CHAR.test(ch)) good++;
    }
    if (nonAscii > 0 && good / nonAscii >= 0.95) passing.push(enc);
  }
  if (passing.length === 0) return undefined;
  const rank = (enc: string): number => {
    const aliases = enc === 'gb18030' || enc === 'gbk' ? ['gb18030', 'gbk', 'gb2312'] : [enc, enc.replace('_', '-')];
    const i = ranking.findIndex((r) => aliases.includes(r));
    return i < 0 ? ranking.length : i;
  };
  return [...passing].sort((a, b) => rank(a) - rank(b) || CJK_ENCODINGS.indexOf(a) - CJK_ENCODINGS.indexOf(b))[0];
}

/** Single-byte code pages for Latin scripts, which statistical detectors confuse on short text. */
const LATIN_FAMILY = ['windows-1252', 'windows-1250', 'windows-1257', 'windows-1254', 'iso-8859-2', 'iso-8859-9', 'iso-8859-13', 'iso-8859-15'];

/**
 * Among the Latin code pages, the one whose decoding puts the fewest symbols (¿ ³ ¹ ¶ ...) or C1
 * controls inside words: the wrong page turns letters into such symbols. Ties go to windows-1252, the
 * commonest legacy encoding, then to the detector's guess.
 */
function bestLatin(sample: Uint8Array, guess: string): string {
  const candidates = [...new Set(['windows-1252', guess, 'windows-1250', 'windows-1257', 'windows-1254'])];
  let best = 'windows-1252';
  let bestPenalty = Number.POSITIVE_INFINITY;
  for (const enc of candidates) {
    const text = decodeWith(sample, enc);
    // Only between two letters: ¡ and ¿ open Spanish sentences, « and ° follow spaces and digits.
    const penalty = [...text.matchAll(/(?<=\p{L})[\u0080-\u009f\u00a1-\u00bf\u00d7\u00f7\ufffd](?=\p{L})/gu)].length;
    if (penalty < bestPenalty) {
      best = enc;
      bestPenalty = penalty;
    }
  }
  return best;
}
