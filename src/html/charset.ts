/**
 * Text decoding for HTML and CSV: byte-order mark first, then what the document declares
 * (`<meta charset>`, `http-equiv` Content-Type, XML declaration), then sniffing (UTF-16 without
 * a BOM, valid UTF-8, statistical detection for legacy code pages such as cp1252 and Shift-JIS).
 */
import chardet from 'chardet';
import iconv from 'iconv-lite';
import { utf16WithoutBom } from '../detect/utf16.js';

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
  ms_kanji: 'shift_jis',
  'windows-31j': 'shift_jis',
  'x-cp1252': 'windows-1252',
  utf8: 'utf-8',
  unicode: 'utf-16le',
  'utf-16': 'utf-16le',
  'ucs-2': 'utf-16le',
};

/** A supported encoding name for `label`, or undefined when the label is unknown. */
export function normalizeEncoding(label: string): string | undefined {
  const l = label
    .trim()
    .toLowerCase()
    .replace(/^["']|["']$/g, '');
  const name = ALIASES[l] ?? l;
  return iconv.encodingExists(name) ? name : undefined;
}

function bomEncoding(bytes: Uint8Array): { encoding: string; length: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
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

  const utf16 = utf16WithoutBom(bytes);
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
  const cjk = cjkEncoding(sample, ranked);
  if (cjk) return { text: decodeWith(bytes, cjk), encoding: cjk, from: 'sniffed' };
  const guess = ranked[0]?.name;
  let encoding = guess ? normalizeEncoding(guess) : undefined;
  // UTF-8 was ruled out above; multibyte guesses that failed the CJK check are noise on short input.
  if (!encoding || encoding.startsWith('utf') || CJK_ENCODINGS.includes(encoding)) encoding = 'windows-1252';
  if (LATIN_FAMILY.includes(encoding)) encoding = bestLatin(sample, encoding);
  return { text: decodeWith(bytes, encoding), encoding, from: guess ? 'sniffed' : 'default' };
}

const CJK_ENCODINGS = ['shift_jis', 'euc-jp', 'gb18030', 'gbk', 'big5', 'euc-kr'];

/**
 * Characters East Asian text consists of beyond ASCII: CJK ideographs (with the compatibility
 * ideographs of names such as 﨑), CJK punctuation, kana (half-width too), Hangul, full-width forms.
 */
const CJK_CHAR = /[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff01-\uff9f\uffe0-\uffe6]/u;

/**
 * Symbols that every East Asian legacy encoding carries and that business data uses routinely:
 * × ÷ ° ± §, Greek letters (μ, Ω), general punctuation (※ ‥ ‰), letterlike symbols and number forms
 * (℃ № Ⅱ), arrows, mathematical operators, box drawing, geometric shapes (○ △ ■), enclosed
 * alphanumerics (①), miscellaneous symbols (★ ♪), enclosed CJK letters (㈱) and CJK units (㎝ ㍉).
 * They are plausible under any candidate, so they neither reject nor favour one.
 */
const CJK_SYMBOL = /[\u00a7\u00a8\u00b0\u00b1\u00b4\u00b6\u00d7\u00f7\u0391-\u03c9\u2010-\u2bff\u3200-\u33ff]/u;

/**
 * The share of the multibyte characters of `sample`, read as `enc`, that lie in the national
 * standard the encoding extends (JIS X 0208 with the Windows rows, GB 2312, Big5 proper, KS X 1001),
 * where nearly all real text falls. Text in another CJK encoding read this way lands mostly in the
 * extension areas: Shift-JIS kana and common kanji read as GBK are rare GBK-only ideographs, and as
 * Korean they are Hangul outside KS X 1001.
 */
function coreShare(sample: Uint8Array, enc: string): number {
  let chars = 0;
  let core = 0;
  const n = sample.length;
  for (let i = 0; i < n;) {
    const b = sample[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const t = sample[i + 1] ?? 0;
    chars++;
    switch (enc) {
      case 'shift_jis':
        // A1-DF are half-width katakana, single bytes outside JIS X 0208; F0-F9 are user-defined.
        if (b >= 0xa1 && b <= 0xdf) i++;
        else {
          if ((b >= 0x81 && b <= 0x9f) || (b >= 0xe0 && b <= 0xef) || (b >= 0xfa && b <= 0xfc)) core++;
          i += 2;
        }
        break;
      case 'euc-jp':
        // 8E is EUC-JP's own prefix for half-width katakana; 8F starts a JIS X 0212 character.
        if (b === 0x8f) i += 3;
        else {
          if ((b >= 0xa1 || b === 0x8e) && t >= 0xa1) core++;
          i += 2;
        }
        break;
      case 'gb18030':
      case 'gbk':
        if (b === 0x80) i++;
        else if (t >= 0x30 && t <= 0x39) i += 4;
        else {
          if (b >= 0xa1 && b <= 0xf7 && t >= 0xa1) core++;
          i += 2;
        }
        break;
      case 'big5':
        if (b >= 0xa1 && b <= 0xf9) core++;
        i += 2;
        break;
      default:
        if (b >= 0xa1 && t >= 0xa1) core++;
        i += 2;
    }
  }
  return chars ? core / chars : 0;
}

/**
 * The most frequent letters of each language, from the common-character lists of ICU's charset
 * detector (Shift-JIS and EUC-JP together, GB 2312, Big5, EUC-KR; punctuation left out). A wrong
 * decoding yields unrelated characters, rarely among them. This decides between candidates on
 * input too short for the detector, which rates every multibyte encoding alike there.
 */
const JAPANESE = new Set(
  'ーあいうえおかがきくけこさしすせそただちっつてでとどなにのはばまみめもやよらりるれわをんアィイウェオキクグコサシジスタッテデトドニバフブプマムメュラリルレロン事日分県行作使情新定能文報本用',
);
const COMMON: Record<string, Set<string>> = {
  shift_jis: JAPANESE,
  'euc-jp': JAPANESE,
  gb18030: new Set(
    '报备本不成出大到的点动对多发法方分份复高个公股关国过和户恢会机技价件教就据看科可来理了论们能年盘器区全人日如上生时实是市手术数天网为文我五系下现新信行性学要也业一以用有育月在这中',
  ),
  big5: new Set(
    '一了二人十三上千大子已不中之切及天心方王世以出可生亦名地在多如成有此而自行佛作利即我見言身供來其受念所於法的知者阿故是為皆若時能國得眾第這尊就無等善菩華量當經道種聞說諸薩羅願寶',
  ),
  'euc-kr': new Set(
    '가개거것게경고공과관구국권그기나내는니다대데도동되들라러력로를리마만말면무문미민법보부분비사상생서성소수스습시신아안야어없었에여오요용우원위유으은을음의이인일있자장적전정제조주중지진치터트하한할해헌화',
  ),
};
COMMON['gbk'] = COMMON['gb18030']!;

/**
 * Statistical detectors are unreliable on short CJK input (a few table cells). A multibyte
 * encoding is a candidate when the bytes decode under it without errors and (nearly) every
 * non-ASCII character comes out as East Asian script or as a symbol all these encodings share.
 * Among the candidates, those whose characters lie in the core of their standard (within a margin
 * of the best) remain; the detector's confidence decides between them, then the number of the
 * language's most frequent letters, then the detector's order.
 */
function cjkEncoding(sample: Uint8Array, ranked: { name: string; confidence: number }[]): string | undefined {
  let high = 0;
  for (const b of sample) if (b >= 0x80) high++;
  if (high < 2) return undefined;
  const passing: { enc: string; core: number; common: number; confidence: number; rank: number }[] = [];
  for (const enc of CJK_ENCODINGS) {
    const text = decodeWith(sample, enc).replace(/\uFFFD$/, '');
    if (text.includes('\uFFFD')) continue;
    let nonAscii = 0;
    let good = 0;
    let common = 0;
    const frequent = COMMON[enc]!;
    for (const ch of text) {
      if (ch.charCodeAt(0) < 0x80) continue;
      nonAscii++;
      if (CJK_CHAR.test(ch) || CJK_SYMBOL.test(ch)) good++;
      if (frequent.has(ch)) common++;
    }
    if (nonAscii === 0 || good / nonAscii < 0.95) continue;
    const aliases = enc === 'gb18030' || enc === 'gbk' ? ['gb18030', 'gbk', 'gb2312'] : [enc, enc.replace('_', '-')];
    const at = ranked.findIndex((r) => aliases.includes(r.name.toLowerCase()));
    passing.push({
      enc,
      core: coreShare(sample, enc),
      common,
      confidence: at < 0 ? 0 : ranked[at]!.confidence,
      rank: at < 0 ? ranked.length : at,
    });
  }
  if (passing.length === 0) return undefined;
  const best = Math.max(...passing.map((p) => p.core));
  return passing
    .filter((p) => p.core >= best - 0.1)
    .sort(
      (a, b) =>
        b.confidence - a.confidence ||
        b.common - a.common ||
        a.rank - b.rank ||
        CJK_ENCODINGS.indexOf(a.enc) - CJK_ENCODINGS.indexOf(b.enc),
    )[0]!.enc;
}

/** Single-byte code pages for Latin scripts, which statistical detectors confuse on short text. */
const LATIN_FAMILY = [
  'windows-1252',
  'windows-1250',
  'windows-1257',
  'windows-1254',
  'iso-8859-2',
  'iso-8859-9',
  'iso-8859-13',
  'iso-8859-15',
];

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
