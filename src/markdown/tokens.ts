/** The vocabulary of inline markdown tokens: text, literal markdown and emphasis markers. */

// ---------------------------------------------------------------- inline tokens
//
// A run of inline content is laid out as a flat list of tokens: text (escaped last, with its
// context in view), literal markdown (code spans, links' brackets and destinations, images, breaks)
// and the emphasis markers around spans of text. The markers are placed with a stack over the
// runs, moved off white space, then checked the way a CommonMark reader pairs them; a span whose
// markers would not pair is left out, since plain text reads better than literal asterisks.

export type Mark = 'bold' | 'italic' | 'strike';
/** Outermost first where two marks start and end together. */
export const MARKS: readonly Mark[] = ['bold', 'italic', 'strike'];
export const MARKER: Record<Mark, string> = { bold: '**', italic: '*', strike: '~~' };

export type Tok =
  | { t: 'text'; s: string; label: boolean }
  | {
      t: 'raw';
      s: string;
      link?: 'open' | 'close';
      /** Read as plain text (math, note references without their extensions). */ literal?: boolean;
    }
  | { t: 'mark'; m: Mark; open: boolean; id: number };

export interface Item {
  /** The marks the item carries; a flexible item's are resolved from its neighbours. */
  marks: Set<Mark>;
  /** White space, breaks, images and the like: inside a span only when both neighbours are. */
  flexible: boolean;
  toks: Tok[];
  /** A link: its label's items, which carry the marks the link itself does not. */
  link?: { label: Item[]; href: string };
}

/** A span of one mark over items, as laid out; leaving it out takes the mark off those items. */
export interface Span {
  m: Mark;
  items: Item[];
}

export const tokString = (tok: Tok): string => (tok.t === 'mark' ? MARKER[tok.m] : tok.s);
