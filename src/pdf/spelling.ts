/**
 * Does a page's text spell like a language written in Latin letters? A font whose ToUnicode map
 * names other letters than the glyphs it draws (a subset re-indexed without its map being fixed, a
 * deliberately scrambled map) gives text that is all letters, so the checks for broken characters
 * and symbols pass it, yet it is not what the page shows.
 *
 * Three properties of Latin-script languages survive any subject matter and fail under a letter
 * substitution:
 * - vowels (a e i o u y, accents folded) are 30–50% of the letters (English and German about 38%,
 *   French about 45%, Finnish about 50%; 958 pages of the corpus' PDFs: 31–46%);
 * - vowels and consonants alternate: adjacent letters of a word differ in kind more often than
 *   chance would pair them (1.37–1.66 times as often in nine languages' text, at least 1.29 on
 *   those corpus pages, 1.35 even in a lockfile of URLs and hashes), where a substitution leaves the
 *   letters that now count as vowels strewn at random (0.85–1.05);
 * - a lower-case word of three letters or more nearly always has a vowel ("rhythm" has y; Czech
 *   "prst" and Welsh "cwm" are the rare exceptions).
 *
 * This only flags a page: auto mode then recognises it and keeps the native text when the two
 * agree (src/pdf/reader.ts), so a page of legitimate oddities costs one recognition, not its text.
 */

/** Latin letters a page needs before its spelling is judged: a heading or a caption proves nothing. */
const MIN_LETTERS = 150;
/** Lower-case words of three letters or more needed before their share without vowels counts. */
const MIN_WORDS = 20;
/** Below this alternation of vowels and consonants the letters are not a language's (see above). */
const MIN_ALTERNATION = 1.15;

export interface SpellingStats {
  /** Latin letters (accents folded). */
  letters: number;
  /** Share of them that are vowels. */
  vowels: number;
  /** Lower-case words of three or more Latin letters. */
  words: number;
  /** Share of those words without a vowel. */
  vowelless: number;
  /** Share of all letters that are Latin. */
  latinShare: number;
  /**
   * Adjacent letters of a word that differ in kind (vowel and consonant), over the share chance
   * would give (2v(1−v)); 1 when the kinds are strewn at random.
   */
  alternation: number;
}

export function spellingStats(text: string): SpellingStats {
  let letters = 0;
  let vowels = 0;
  let allLetters = 0;
  let words = 0;
  let vowelless = 0;
  // Current word: its length, whether it has a vowel, whether it is all lower case Latin.
  let len = 0;
  let hasVowel = false;
  let lower = true;
  // Kind of the previous Latin letter of the word (0 none, 1 consonant, 2 vowel), and pair counts.
  let prev = 0;
  let pairs = 0;
  let mixed = 0;
  const endWord = (): void => {
    if (len >= 3 && lower) {
      words++;
      if (!hasVowel) vowelless++;
    }
    len = 0;
    hasVowel = false;
    lower = true;
    prev = 0;
  };
  // NFD splits accented letters into the base letter and a combining mark, which is skipped.
  for (const ch of text.normalize('NFD')) {
    const c = ch.codePointAt(0)!;
    if (c >= 0x300 && c <= 0x36f) continue;
    const isUpper = c >= 0x41 && c <= 0x5a;
    const isLower = c >= 0x61 && c <= 0x7a;
    if (isUpper || isLower) {
      allLetters++;
      letters++;
      len++;
      if (isUpper) lower = false;
      const l = c | 0x20;
      const vowel = l === 0x61 || l === 0x65 || l === 0x69 || l === 0x6f || l === 0x75 || l === 0x79;
      if (vowel) {
        vowels++;
        hasVowel = true;
      }
      const kind = vowel ? 2 : 1;
      if (prev) {
        pairs++;
        if (prev !== kind) mixed++;
      }
      prev = kind;
      continue;
    }
    if (c > 0x7f && /\p{L}/u.test(ch)) {
      // A letter of another script (or ß, æ, ø): counted for the script share, and it ends the word
      // as far as the Latin tests go.
      allLetters++;
      lower = false;
      len++;
      prev = 0;
      continue;
    }
    endWord();
  }
  endWord();
  const v = letters ? vowels / letters : 0;
  const chance = 2 * v * (1 - v);
  return {
    letters,
    vowels: v,
    alternation: pairs && chance ? mixed / pairs / chance : 0,
    words,
    vowelless: words ? vowelless / words : 0,
    latinShare: allLetters ? letters / allLetters : 0,
  };
}

/** True when a page's text is long enough, Latin, and spells like no language. */
export function implausibleSpelling(text: string): boolean {
  const s = spellingStats(text);
  if (s.letters < MIN_LETTERS || s.latinShare < 0.8) return false;
  if (s.vowels < 0.22 || s.vowels > 0.65) return true;
  if (s.alternation < MIN_ALTERNATION) return true;
  return s.words >= MIN_WORDS && s.vowelless > 0.2;
}
