/** List numbering (numbering.xml): abstract numberings, their levels and overrides, and the counters. */
import { child, children, type XmlElement } from '../../package/xml.js';
import { attr, wval } from './package.js';
import { Styles } from './styles.js';

export interface Level {
  format: string;
  start: number;
  text: string;
}

export class Numbering {
  private readonly abstracts = new Map<string, Map<number, Level>>();
  private readonly nums = new Map<string, { abstractId: string; overrides: Map<number, Partial<Level>> }>();
  private readonly counters = new Map<string, number[]>();
  /** (numId, level) pairs whose startOverride has restarted their sequence. */
  private readonly restarted = new Set<string>();
  private readonly styleLinks = new Map<string, string>();

  constructor(
    root: XmlElement | undefined,
    private readonly styles: Styles,
  ) {
    const numbering = child(root, 'w:numbering');
    for (const a of children(numbering, 'w:abstractNum')) {
      const levels = new Map<number, Level>();
      for (const l of children(a, 'w:lvl')) {
        levels.set(Number(attr(l, 'w:ilvl') ?? 0), {
          format: wval(child(l, 'w:numFmt')) ?? 'decimal',
          start: Number(wval(child(l, 'w:start')) ?? 1),
          text: wval(child(l, 'w:lvlText')) ?? '',
        });
      }
      const id = attr(a, 'w:abstractNumId') ?? '';
      this.abstracts.set(id, levels);
      const link = wval(child(a, 'w:numStyleLink'));
      if (link) this.styleLinks.set(id, link);
    }
    for (const n of children(numbering, 'w:num')) {
      const overrides = new Map<number, Partial<Level>>();
      for (const o of children(n, 'w:lvlOverride')) {
        const ov: Partial<Level> = {};
        const so = wval(child(o, 'w:startOverride'));
        if (so !== undefined) ov.start = Number(so);
        const lvl = child(o, 'w:lvl');
        if (lvl) {
          const f = wval(child(lvl, 'w:numFmt'));
          if (f) ov.format = f;
          const st = wval(child(lvl, 'w:start'));
          if (st !== undefined && ov.start === undefined) ov.start = Number(st);
        }
        overrides.set(Number(attr(o, 'w:ilvl') ?? 0), ov);
      }
      this.nums.set(attr(n, 'w:numId') ?? '', { abstractId: wval(child(n, 'w:abstractNumId')) ?? '', overrides });
    }
  }

  level(numId: string, ilvl: number, depth = 0): Level | undefined {
    const num = this.nums.get(numId);
    if (!num) return undefined;
    let levels = this.abstracts.get(num.abstractId);
    const link = this.styleLinks.get(num.abstractId);
    if (link && depth < 3 && (!levels || levels.size === 0)) {
      const linked = this.styles.numPr(link);
      if (linked && linked.numId !== numId) return this.level(linked.numId, ilvl, depth + 1);
    }
    const base = levels?.get(ilvl);
    const ov = num.overrides.get(ilvl);
    if (!base && !ov) return undefined;
    return {
      format: ov?.format ?? base?.format ?? 'decimal',
      start: ov?.start ?? base?.start ?? 1,
      text: base?.text ?? '',
    };
  }

  /**
   * Advances the counter of (numId, ilvl) and returns the item's number. As in Word, the count runs
   * on the abstract definition: every num of one abstractNum continues one sequence, and a num
   * whose level has a startOverride restarts that sequence where it first numbers that level.
   */
  next(numId: string, ilvl: number, lvl: Level): number {
    const num = this.nums.get(numId);
    const key = `a${num?.abstractId ?? numId}`;
    let c = this.counters.get(key);
    if (!c) this.counters.set(key, (c = []));
    for (let i = ilvl + 1; i < c.length; i++) c[i] = 0;
    const restart = num?.overrides.get(ilvl)?.start;
    const first = `${numId}:${ilvl}`;
    if (restart !== undefined && !this.restarted.has(first)) {
      this.restarted.add(first);
      c[ilvl] = restart;
    } else c[ilvl] = c[ilvl] ? c[ilvl]! + 1 : lvl.start;
    return c[ilvl]!;
  }
}
