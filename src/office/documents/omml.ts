/**
 * Office Math (OMML, `m:` elements in Word documents) to LaTeX. Covers the constructs Word's
 * equation editor produces: fractions, scripts, radicals, n-ary operators, delimiters, functions,
 * accents, bars, limits, matrices, equation arrays, boxes and pre-scripts. Unknown elements fall back
 * to their content, so that no text is lost.
 */
import { child, children, type XmlElement } from '../package/xml.js';

const SYMBOLS: Record<string, string> = {
  α: '\\alpha',
  β: '\\beta',
  γ: '\\gamma',
  δ: '\\delta',
  ε: '\\epsilon',
  ϵ: '\\epsilon',
  ζ: '\\zeta',
  η: '\\eta',
  θ: '\\theta',
  ϑ: '\\vartheta',
  ι: '\\iota',
  κ: '\\kappa',
  λ: '\\lambda',
  μ: '\\mu',
  ν: '\\nu',
  ξ: '\\xi',
  π: '\\pi',
  ϖ: '\\varpi',
  ρ: '\\rho',
  ϱ: '\\varrho',
  σ: '\\sigma',
  ς: '\\varsigma',
  τ: '\\tau',
  υ: '\\upsilon',
  φ: '\\phi',
  ϕ: '\\phi',
  χ: '\\chi',
  ψ: '\\psi',
  ω: '\\omega',
  Γ: '\\Gamma',
  Δ: '\\Delta',
  Θ: '\\Theta',
  Λ: '\\Lambda',
  Ξ: '\\Xi',
  Π: '\\Pi',
  Σ: '\\Sigma',
  Υ: '\\Upsilon',
  Φ: '\\Phi',
  Ψ: '\\Psi',
  Ω: '\\Omega',
  '∞': '\\infty',
  '±': '\\pm',
  '∓': '\\mp',
  '×': '\\times',
  '÷': '\\div',
  '·': '\\cdot',
  '⋅': '\\cdot',
  '∘': '\\circ',
  '≤': '\\leq',
  '≥': '\\geq',
  '≠': '\\neq',
  '≈': '\\approx',
  '≡': '\\equiv',
  '∼': '\\sim',
  '≃': '\\simeq',
  '≅': '\\cong',
  '∝': '\\propto',
  '≪': '\\ll',
  '≫': '\\gg',
  '∈': '\\in',
  '∉': '\\notin',
  '∋': '\\ni',
  '⊂': '\\subset',
  '⊃': '\\supset',
  '⊆': '\\subseteq',
  '⊇': '\\supseteq',
  '∪': '\\cup',
  '∩': '\\cap',
  '∅': '\\emptyset',
  '∀': '\\forall',
  '∃': '\\exists',
  '¬': '\\neg',
  '∧': '\\wedge',
  '∨': '\\vee',
  '→': '\\rightarrow',
  '←': '\\leftarrow',
  '↔': '\\leftrightarrow',
  '⇒': '\\Rightarrow',
  '⇐': '\\Leftarrow',
  '⇔': '\\Leftrightarrow',
  '↦': '\\mapsto',
  '↑': '\\uparrow',
  '↓': '\\downarrow',
  '∂': '\\partial',
  '∇': '\\nabla',
  '′': "'",
  '″': "''",
  '…': '\\ldots',
  '⋯': '\\cdots',
  '⋮': '\\vdots',
  '⋱': '\\ddots',
  ℏ: '\\hbar',
  ℓ: '\\ell',
  ℜ: '\\Re',
  ℑ: '\\Im',
  '℘': '\\wp',
  ℵ: '\\aleph',
  '⊥': '\\perp',
  '∥': '\\parallel',
  '∠': '\\angle',
  '°': '^{\\circ}',
  '⊕': '\\oplus',
  '⊗': '\\otimes',
  '⊙': '\\odot',
  '†': '\\dagger',
  '∗': '\\ast',
  '⟨': '\\langle',
  '⟩': '\\rangle',
  '⌈': '\\lceil',
  '⌉': '\\rceil',
  '⌊': '\\lfloor',
  '⌋': '\\rfloor',
  '−': '-',
  '∣': '\\mid',
  '∑': '\\sum',
  '∏': '\\prod',
  '∐': '\\coprod',
  '∫': '\\int',
  '∬': '\\iint',
  '∭': '\\iiint',
  '∮': '\\oint',
  '⋃': '\\bigcup',
  '⋂': '\\bigcap',
  '⋁': '\\bigvee',
  '⋀': '\\bigwedge',
  '\u2061': '',
  '\u2062': '',
  '\u2063': ',',
  '\u200b': '',
};

const FUNCTIONS = new Set([
  'sin',
  'cos',
  'tan',
  'cot',
  'sec',
  'csc',
  'arcsin',
  'arccos',
  'arctan',
  'sinh',
  'cosh',
  'tanh',
  'coth',
  'log',
  'ln',
  'lg',
  'exp',
  'lim',
  'max',
  'min',
  'sup',
  'inf',
  'det',
  'dim',
  'ker',
  'deg',
  'gcd',
  'arg',
  'Pr',
]);

const ACCENTS: Record<string, string> = {
  '\u0302': '\\hat',
  '\u0303': '\\tilde',
  '\u0304': '\\bar',
  '\u0305': '\\overline',
  '\u0307': '\\dot',
  '\u0308': '\\ddot',
  '\u20d7': '\\vec',
  '\u0301': '\\acute',
  '\u0300': '\\grave',
  '\u0306': '\\breve',
  '\u030c': '\\check',
  '^': '\\hat',
  '~': '\\tilde',
  '\u20d6': '\\overleftarrow',
  '\u20e1': '\\overleftrightarrow',
};

const DELIMS: Record<string, string> = {
  '(': '(',
  ')': ')',
  '[': '[',
  ']': ']',
  '{': '\\{',
  '}': '\\}',
  '|': '|',
  '‖': '\\|',
  '⟨': '\\langle',
  '⟩': '\\rangle',
  '〈': '\\langle',
  '〉': '\\rangle',
  '⌈': '\\lceil',
  '⌉': '\\rceil',
  '⌊': '\\lfloor',
  '⌋': '\\rfloor',
  '': '.',
};

function val(el: XmlElement | undefined, fallback?: string): string | undefined {
  if (!el) return fallback;
  return el.attrs['m:val'] ?? el.attrs['w:val'] ?? el.attrs['val'] ?? fallback;
}

function prop(el: XmlElement, prName: string, name: string): string | undefined {
  return val(child(child(el, prName), name));
}

function escapeChar(ch: string): string {
  const sym = SYMBOLS[ch];
  if (sym !== undefined) return sym;
  if (ch === '{' || ch === '}' || ch === '%' || ch === '#' || ch === '&' || ch === '$' || ch === '_') return `\\${ch}`;
  if (ch === '\\') return '\\backslash ';
  return ch;
}

function textToLatex(text: string): string {
  let out = '';
  for (const ch of text) {
    const e = escapeChar(ch);
    // A command followed by a letter needs a separating space.
    if (/\\[A-Za-z]+$/.test(out) && /^[A-Za-z]/.test(e)) out += ' ';
    out += e;
  }
  return out;
}

function group(s: string): string {
  return s.length === 1 ? s : `{${s}}`;
}

/** Content of a container element (`m:e`, `m:num`, ...). */
function content(el: XmlElement | undefined): string {
  if (!el) return '';
  let out = '';
  for (const c of children(el)) {
    const s = convert(c);
    if (!s) continue;
    if (/\\[A-Za-z]+$/.test(out) && /^[A-Za-z]/.test(s)) out += ' ';
    out += s;
  }
  return out;
}

function convert(el: XmlElement): string {
  switch (el.name) {
    case 'm:r': {
      let text = '';
      for (const t of children(el, 'm:t')) text += t.children.filter((c) => typeof c === 'string').join('');
      for (const t of children(el, 'w:t')) text += t.children.filter((c) => typeof c === 'string').join('');
      const trimmed = text.trim();
      const nor = child(child(el, 'm:rPr'), 'm:nor');
      if (trimmed && FUNCTIONS.has(trimmed)) return `\\${trimmed}`;
      if (nor && /[A-Za-z]{2,}/.test(text)) return `\\text{${text}}`;
      // Function names typed as plain letters ("sinθ") are set as operators.
      return textToLatex(text).replace(
        /(?<![A-Za-z\\])(sin|cos|tan|cot|sec|csc|sinh|cosh|tanh|log|ln|exp|det|lim)(?![A-Za-z])(?=(\d)?)/g,
        (_m, f: string, digit?: string) => `\\${f}${digit ? ' ' : ''}`,
      );
    }
    case 'm:f': {
      const type = prop(el, 'm:fPr', 'm:type');
      const num = content(child(el, 'm:num'));
      const den = content(child(el, 'm:den'));
      if (type === 'lin') return `${group(num)}/${group(den)}`;
      if (type === 'noBar') return `\\genfrac{}{}{0pt}{}{${num}}{${den}}`;
      return `\\frac{${num}}{${den}}`;
    }
    case 'm:sSup':
      return `${group(content(child(el, 'm:e')))}^{${content(child(el, 'm:sup'))}}`;
    case 'm:sSub':
      return `${group(content(child(el, 'm:e')))}_{${content(child(el, 'm:sub'))}}`;
    case 'm:sSubSup':
      return `${group(content(child(el, 'm:e')))}_{${content(child(el, 'm:sub'))}}^{${content(child(el, 'm:sup'))}}`;
    case 'm:sPre':
      return `{}_{${content(child(el, 'm:sub'))}}^{${content(child(el, 'm:sup'))}}${content(child(el, 'm:e'))}`;
    case 'm:rad': {
      const deg = content(child(el, 'm:deg'));
      const e = content(child(el, 'm:e'));
      return deg && prop(el, 'm:radPr', 'm:degHide') !== '1' ? `\\sqrt[${deg}]{${e}}` : `\\sqrt{${e}}`;
    }
    case 'm:nary': {
      const chr = prop(el, 'm:naryPr', 'm:chr') ?? '∫';
      let op = SYMBOLS[chr] ?? chr;
      const sub = content(child(el, 'm:sub'));
      const sup = content(child(el, 'm:sup'));
      if (sub) op += `_{${sub}}`;
      if (sup) op += `^{${sup}}`;
      return `${op} ${content(child(el, 'm:e'))}`.trimEnd();
    }
    case 'm:d': {
      const pr = child(el, 'm:dPr');
      const beg = val(child(pr, 'm:begChr'), '(')!;
      const end = val(child(pr, 'm:endChr'), ')')!;
      const sep = val(child(pr, 'm:sepChr'), '|')!;
      const parts = children(el, 'm:e').map(content);
      const open = DELIMS[beg] ?? textToLatex(beg);
      const close = DELIMS[end] ?? textToLatex(end);
      return `\\left${open}${parts.join(sep === '|' ? '\\mid ' : textToLatex(sep))}\\right${close}`;
    }
    case 'm:func': {
      const name = content(child(el, 'm:fName'));
      const arg = content(child(el, 'm:e'));
      const fname = FUNCTIONS.has(name) ? `\\${name}` : name;
      return `${fname}${/^[\\A-Za-z]/.test(arg) ? ' ' : ''}${arg}`;
    }
    case 'm:acc': {
      const chr = prop(el, 'm:accPr', 'm:chr') ?? '\u0302';
      const cmd = ACCENTS[chr] ?? '\\hat';
      return `${cmd}{${content(child(el, 'm:e'))}}`;
    }
    case 'm:bar': {
      const pos = prop(el, 'm:barPr', 'm:pos');
      return `${pos === 'bot' ? '\\underline' : '\\overline'}{${content(child(el, 'm:e'))}}`;
    }
    case 'm:groupChr': {
      const chr = prop(el, 'm:groupChrPr', 'm:chr') ?? '\u23df';
      const pos = prop(el, 'm:groupChrPr', 'm:pos');
      const e = content(child(el, 'm:e'));
      if (chr === '\u23de' || pos === 'top') return `\\overbrace{${e}}`;
      return `\\underbrace{${e}}`;
    }
    case 'm:limLow':
      return `${group(content(child(el, 'm:e')))}_{${content(child(el, 'm:lim'))}}`;
    case 'm:limUpp':
      return `${group(content(child(el, 'm:e')))}^{${content(child(el, 'm:lim'))}}`;
    case 'm:m': {
      const rows = children(el, 'm:mr').map((r) => children(r, 'm:e').map(content).join(' & '));
      return `\\begin{matrix}${rows.join(' \\\\ ')}\\end{matrix}`;
    }
    case 'm:eqArr': {
      const rows = children(el, 'm:e').map(content);
      return `\\begin{array}{l}${rows.join(' \\\\ ')}\\end{array}`;
    }
    case 'm:box':
    case 'm:borderBox':
    case 'm:phant':
      return content(child(el, 'm:e'));
    case 'm:oMath':
    case 'm:e':
    case 'm:num':
    case 'm:den':
    case 'm:sub':
    case 'm:sup':
    case 'm:lim':
    case 'm:deg':
    case 'm:fName':
      return content(el);
    case 'w:r':
    case 'w:ins':
    case 'w:smartTag':
      return content(el);
    default:
      // Properties carry no text; anything else is unwrapped.
      if (el.name.endsWith('Pr') || el.name === 'w:rPr' || el.name === 'w:del') return '';
      return content(el);
  }
}

/** Converts an `m:oMath` element to LaTeX. */
export function ommlToLatex(oMath: XmlElement): string {
  return content(oMath).replace(/\s+/g, ' ').trim();
}
