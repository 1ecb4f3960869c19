/**
 * The read-back check's shortcut (src/markdown/emphasis-check.ts readsAsMeant): on runs the CommonMark
 * checks pass, a run the shortcut settles must be one marked reads as meant. Compared with marked's own
 * reading (markedMismatches) on generated runs: words of inert characters and of characters that are
 * not, spans of bold and italic placed at word edges, inside words, around spaces and punctuation.
 */
import { describe, expect, it } from 'vitest';
import { markedMismatches, mismatches, readsAsMeant } from '../src/markdown/emphasis-check.js';
import type { Mark, Tok } from '../src/markdown/tokens.js';
import { seededRandom } from '../test-support/random.js';

const next = seededRandom(7);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;

const INERT = [...'abcXYZ019', 'é', 'ß', 'Ω', '中', 'д', '٣', ...` ,;'"()?%+=-`];
const OTHER = [...'*_~`\\<>&[]!|:@/.#\n', '  \n'];

function word(): string {
  const n = 1 + Math.floor(next() * 5);
  let w = '';
  for (let i = 0; i < n; i++) w += next() < 0.97 ? pick(INERT) : pick(OTHER);
  return w;
}

/** Text pieces with one or two spans of bold or italic (rarely strike) placed between them. */
function run(): Tok[] {
  const pieces = Array.from({ length: 1 + Math.floor(next() * 6) }, word);
  const toks: Tok[] = pieces.map((s) => ({ t: 'text', s, label: false }));
  const spans = next() < 0.85 ? 1 : next() < 0.5 ? 0 : 2;
  let id = 0;
  for (let k = 0; k < spans; k++) {
    const m: Mark = next() < 0.05 ? 'strike' : next() < 0.5 ? 'bold' : 'italic';
    const texts = toks.map((t, i) => (t.t === 'text' ? i : -1)).filter((i) => i >= 0);
    const a = pick(texts);
    const b = pick(texts.filter((i) => i >= a));
    toks.splice(b + 1, 0, { t: 'mark', m, open: false, id });
    toks.splice(a, 0, { t: 'mark', m, open: true, id });
    id++;
  }
  return toks;
}

describe('read-back shortcut', () => {
  it('settles only runs marked reads as meant (30,000 generated runs)', () => {
    let settled = 0;
    let checked = 0;
    for (let i = 0; i < 30000; i++) {
      const toks = run();
      const cheap = mismatches(toks, false).count + mismatches(toks, true).count;
      if (cheap !== 0) continue;
      checked++;
      if (!readsAsMeant(toks)) continue;
      settled++;
      for (const options of [
        { pipes: false, lineStarts: true },
        { pipes: true, lineStarts: false },
      ])
        expect(markedMismatches(toks, options), JSON.stringify(toks)).toEqual({ count: 0, first: -1 });
    }
    // Both sides of the shortcut are reached.
    expect(settled).toBeGreaterThan(3000);
    expect(checked - settled).toBeGreaterThan(1000);
  });

  it('leaves runs with literal markdown, strike or more than one span to marked', () => {
    const text = (s: string): Tok => ({ t: 'text', s, label: false });
    const mark = (m: Mark, open: boolean, id = 0): Tok => ({ t: 'mark', m, open, id });
    expect(readsAsMeant([mark('bold', true), text('Total'), mark('bold', false), text(' 12')])).toBe(true);
    expect(readsAsMeant([mark('bold', true), text('a_b'), mark('bold', false)])).toBe(false);
    expect(readsAsMeant([mark('strike', true), text('gone'), mark('strike', false)])).toBe(false);
    expect(readsAsMeant([{ t: 'raw', s: '`x`' }, mark('italic', true), text('y'), mark('italic', false)])).toBe(false);
    expect(
      readsAsMeant([
        mark('bold', true),
        text('a'),
        mark('bold', false),
        text(' '),
        mark('italic', true, 1),
        text('b'),
        mark('italic', false, 1),
      ]),
    ).toBe(false);
  });
});
