/**
 * The words around a name or a place that tell which it is ("Mr.", "my name is", "lives in", "said",
 * "'s"), and the cheap tests that say whether a context pattern can match at all before it is run.
 */
import { classes } from './word-flags.js';
import { wordPattern, wordSet } from './word-lists.js';

export const TITLES = (): ReadonlySet<string> => wordSet('titles');

export const ORG_WORDS = (): ReadonlySet<string> => wordSet('orgWords');

export const PLACE_BEFORE = (): RegExp => wordPattern('placeBefore');

export const PERSON_BEFORE = (): RegExp => wordPattern('personBefore');

export const PERSON_BEFORE_STRONG = (): RegExp => wordPattern('personBeforeStrong');

export const TITLE_BEFORE =
  /\b(?:mr|mrs|ms|miss|mx|dr|prof|sir|madam|dame|lord|lady|rev|capt|mister|mme|mlle|herr|frau|sr|sra|srta)\.?\s+$/;

/** Labels at a line's start after which what follows is a name. */
export const NAME_LABELS = 'name|full name|first name|last name|surname|patient|employee|attn|attendee';

// (Or a relative or friend of the writer's or someone's, named right after: "my kid Dzhambek".)
export const PERSON_BEFORE_VERY_STRONG = (): RegExp => wordPattern('personBeforeVeryStrong');

export const PERSON_AFTER_STRONG =
  /^(?:'s\b|’s\b|\s*(?:said|says|told|asked|shouted|replied|wrote|explained|lives|lived|works|worked|spent|began|joined|flew|had given|is a very|is very|is so|will be talking|is from|from (?:the )?\p{Lu}|speak|, can [iI]|, the \w+, said|\(born))/u;

export const PERSON_AFTER =
  /^(?:'s\b|’s\b|\s*(?:said|says|told|asked|shouted|replied|wrote|explained|added|noted|lives|lived|works|worked|is a|is an|was a|was an|is very|is so|has|had|will|would|and (?:his|her) |who\b|himself|herself|spent|began|joined|left|flew|arrived|moved|is from|from\b|\(born|, who|, the|, a |:\s*["“]|:\s*\S))/;

/** Contexts that announce a place more surely than a bare "in" or "from" (which also precede products and firms). */
export const PLACE_STRONG = (): RegExp => wordPattern('placeStrong');

/** Share of capitalised words around a position: headings and titles ("Supposed To Hate") capitalise everything. */
/** Last words of the context patterns (PERSON_BEFORE*, PLACE_BEFORE, TITLE_BEFORE). */
const TRIGGER_WORDS = (): ReadonlySet<string> => wordSet('triggerWords');

const AFTER_WORDS = (): ReadonlySet<string> => wordSet('afterWords');

/** Whether the text after a name can match PERSON_AFTER*: a possessive, a colon, a comma, a bracket or a known verb. */
export function afterTrigger(text: string, e: number): boolean {
  const c = text.charCodeAt(e);
  if (c === 39 || c === 0x2019 || c === 58 || c === 44 || c === 40) return true;
  if (c !== 32) return false;
  if (text.charCodeAt(e + 1) === 40) return true;
  let j = e + 1;
  while (j < text.length && j - e < 12) {
    const ch = text.charCodeAt(j);
    if (ch < 97 || ch > 122) break;
    j++;
  }
  return j > e + 1 && AFTER_WORDS().has(text.slice(e + 1, j));
}

/** Whether the end of a context can match a context pattern: its last word is a trigger, or it ends a line or a field. */
export function contextTrigger(ctx: string): boolean {
  return contextTriggerAt(ctx, ctx.length);
}

const SIGN_OFF =
  /(?:^|\n)[ \t>]*(?:(?:best|kind|warm|warmest|many|with)\s+)?(?:regards|wishes|thanks|thank you|sincerely|yours(?: (?:truly|sincerely|faithfully))?|cheers|respectfully|cordially|best|love|signed|sent by|from)[ \t]*[,.!:]?[ \t]*\n(?:[ \t]*\n)?$/i;

/** A letter's closing line ("Best Regards,") right before: the next line is the writer's name. */
export function signOffBefore(text: string, at: number): boolean {
  // The pattern ends with a line break: most names are not at the start of a line, and go without it.
  return text.charCodeAt(at - 1) === 10 && SIGN_OFF.test(text.slice(Math.max(0, at - 40), at));
}

/** contextTrigger for the text before offset `at`, without copying it. */
export function contextTriggerAt(text: string, at: number): boolean {
  const cls = classes();
  let j = at;
  while (j > 0 && (text.charCodeAt(j - 1) === 32 || text.charCodeAt(j - 1) === 9)) j--;
  // The start of a text or a line is no context by itself (a speaker line is seen from the colon after).
  if (j === 0) return false;
  const last = text.charCodeAt(j - 1);
  // , : & ? >  — lists, labels, questions, quoted lines
  if (last === 44 || last === 58 || last === 38 || last === 63 || last === 62) return true;
  if (last === 10) return signOffBefore(text, j);
  if (last === 46) {
    // "Mr. X": a title's dot; any other dot ends a sentence, and a sentence opening is no context.
    let k = j - 1;
    while (k > 0 && j - 1 - k < 6 && cls[text.charCodeAt(k - 1)]! !== 0) k--;
    return TITLES().has(text.slice(k, j - 1).toLowerCase());
  }
  let k = j;
  while (k > 0 && j - k < 20 && (cls[text.charCodeAt(k - 1)]! !== 0 || text.charCodeAt(k - 1) === 39)) k--;
  if (k === j) return false;
  return TRIGGER_WORDS().has(text.slice(k, j).toLowerCase());
}
