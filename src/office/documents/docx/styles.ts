/** The style sheet (styles.xml): paragraph and character styles, their inheritance, headings and numbering. */
import { child, children, type XmlElement } from '../../package/xml.js';
import { headingLevelOfStyleName } from '../common.js';
import { symbolFontOf, type SymbolFont } from '../symbol-fonts.js';
import { attr, wval, onOff } from './package.js';

// ---------------------------------------------------------------- styles and numbering

export interface RunProps {
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  underline?: boolean;
  vertAlign?: string;
  hidden?: boolean;
  /** Symbol fonts (Symbol, Wingdings) the run's ASCII and other text is set in, from w:rFonts. */
  symAscii?: SymbolFont | undefined;
  symOther?: SymbolFont | undefined;
}

export interface StyleDef {
  id: string;
  name: string;
  type: string;
  basedOn?: string;
  outlineLvl?: number;
  numId?: string;
  ilvl?: number;
  run: RunProps;
}

export function runPropsOf(rPr: XmlElement | undefined): RunProps {
  const p: RunProps = {};
  if (!rPr) return p;
  // One pass over the properties (this runs for every run of the document).
  for (const c of rPr.children) {
    if (typeof c === 'string') continue;
    switch (c.name) {
      case 'w:b':
        p.bold = onOff(c)!;
        break;
      case 'w:i':
        p.italic = onOff(c)!;
        break;
      case 'w:strike':
      case 'w:dstrike':
        p.strike = !!p.strike || onOff(c)!;
        break;
      case 'w:u':
        p.underline = wval(c) !== 'none';
        break;
      case 'w:vertAlign': {
        const va = wval(c);
        if (va) p.vertAlign = va;
        break;
      }
      case 'w:vanish':
        p.hidden = onOff(c)!;
        break;
      case 'w:webHidden':
        if (p.hidden === undefined) p.hidden = onOff(c)!;
        break;
      case 'w:rFonts': {
        // Set even when not a symbol font: a run's own font replaces its style's.
        const ascii = c.attrs['w:ascii'];
        const other = c.attrs['w:hAnsi'];
        if (ascii !== undefined) p.symAscii = symbolFontOf(ascii);
        if (other !== undefined) p.symOther = symbolFontOf(other);
        break;
      }
      default:
        break;
    }
  }
  return p;
}

export class Styles {
  private readonly byId = new Map<string, StyleDef>();
  defaultParagraph: string | undefined;

  constructor(root: XmlElement | undefined) {
    for (const s of children(child(root, 'w:styles'), 'w:style')) {
      const id = attr(s, 'w:styleId') ?? '';
      const pPr = child(s, 'w:pPr');
      const numPr = child(pPr, 'w:numPr');
      const def: StyleDef = {
        id,
        name: (wval(child(s, 'w:name')) ?? id).toLowerCase(),
        type: attr(s, 'w:type') ?? 'paragraph',
        run: runPropsOf(child(s, 'w:rPr')),
      };
      const based = wval(child(s, 'w:basedOn'));
      if (based) def.basedOn = based;
      const ol = wval(child(pPr, 'w:outlineLvl'));
      if (ol !== undefined) def.outlineLvl = Number(ol);
      const numId = wval(child(numPr, 'w:numId'));
      if (numId !== undefined) def.numId = numId;
      const ilvl = wval(child(numPr, 'w:ilvl'));
      if (ilvl !== undefined) def.ilvl = Number(ilvl);
      this.byId.set(id, def);
      if (
        def.type === 'paragraph' &&
        onOff(s.attrs['w:default'] !== undefined ? s : undefined) &&
        (s.attrs['w:default'] === '1' || s.attrs['w:default'] === 'true')
      ) {
        this.defaultParagraph = id;
      }
    }
  }

  get(id: string | undefined): StyleDef | undefined {
    return id === undefined ? undefined : this.byId.get(id);
  }

  /** Walks the basedOn chain (cycle-safe). */
  chain(id: string | undefined): StyleDef[] {
    const out: StyleDef[] = [];
    const seen = new Set<string>();
    let cur = this.get(id);
    while (cur && !seen.has(cur.id) && out.length < 20) {
      seen.add(cur.id);
      out.push(cur);
      cur = this.get(cur.basedOn);
    }
    return out;
  }

  private readonly headingCache = new Map<string | undefined, number | undefined>();

  /** Heading level from the style's name or its outline level. */
  headingLevel(id: string | undefined): number | undefined {
    if (this.headingCache.has(id)) return this.headingCache.get(id);
    const level = this.findHeadingLevel(id);
    this.headingCache.set(id, level);
    return level;
  }

  private findHeadingLevel(id: string | undefined): number | undefined {
    // A style referenced but not defined (no styles part): its id may still say what it is.
    if (id !== undefined && !this.byId.has(id)) {
      const m = /^heading\s*(\d)$/i.exec(id);
      return m ? Number(m[1]) : /^title$/i.test(id) ? 1 : undefined;
    }
    for (const s of this.chain(id)) {
      const level = headingLevelOfStyleName(s.name);
      if (level !== undefined) return level;
      if (s.outlineLvl !== undefined && s.outlineLvl < 9) return s.outlineLvl + 1;
    }
    return undefined;
  }

  private readonly numCache = new Map<string | undefined, { numId: string; ilvl?: number } | undefined>();

  numPr(id: string | undefined): { numId: string; ilvl?: number } | undefined {
    if (this.numCache.has(id)) return this.numCache.get(id);
    const found = this.findNumPr(id);
    this.numCache.set(id, found);
    return found;
  }

  private findNumPr(id: string | undefined): { numId: string; ilvl?: number } | undefined {
    for (const s of this.chain(id))
      if (s.numId !== undefined) return s.ilvl === undefined ? { numId: s.numId } : { numId: s.numId, ilvl: s.ilvl };
    return undefined;
  }

  private readonly runCache = new Map<string | undefined, RunProps>();

  runProps(id: string | undefined): RunProps {
    let p = this.runCache.get(id);
    if (!p) {
      const chain = this.chain(id).reverse();
      p = Object.assign({}, ...chain.map((s) => s.run)) as RunProps;
      this.runCache.set(id, p);
    }
    return p;
  }

  name(id: string | undefined): string {
    return this.get(id)?.name ?? '';
  }
}
