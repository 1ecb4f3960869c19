/**
 * Text layers that are not what the page shows. A font whose ToUnicode map names other letters than
 * it draws passes every character test (the text is all letters), so auto mode judges the spelling
 * (src/pdf/spelling.ts), recognises flagged pages as a check, and replaces the text layer only when
 * the recognition reads other text. fixtures/ocr/mislabelled.pdf (made by fixtures/ocr/make.mjs):
 * page 1 plain text, page 2 a text layer with every letter shifted three places, page 3 a cipher
 * exercise whose printed text really is shifted.
 * Needs `npm run build` (pools run dist/workers/*.js).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../test-support/corpus.js';
import { createParser } from '../src/parser.js';
import { cer } from '../test-support/cer.js';
import { ocrPool } from '../src/ocr/pool.js';
import { textAgreement } from '../src/ocr/text-layer.js';
import { normalizeOptions } from '../src/options/schema.js';
import { read } from '../src/pdf/reader.js';
import { implausibleSpelling, spellingStats } from '../src/pdf/spelling.js';
import { ParserRuntime } from '../src/runtime/runtime.js';
import type { ParseDocument } from '../src/types.js';

const FIX = path.join(REPO_ROOT, 'fixtures', 'ocr');
const mislabelled = readFileSync(path.join(FIX, 'mislabelled.pdf'));
const truth = JSON.parse(readFileSync(path.join(FIX, 'mislabelled.truth.json'), 'utf8')) as {
  page: number;
  text: string;
}[];

function pageText(doc: ParseDocument, page: number): string {
  return doc
    .blocks!.find((x) => x.pageNumber === page)!
    .items.map((b) => b.content.replace(/^#{1,6} /gm, ''))
    .join('\n');
}

function shift3(text: string): string {
  return text.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(base + ((c.charCodeAt(0) - base + 3) % 26));
  });
}

// Article 1 of the Universal Declaration of Human Rights: the same sentence in languages whose
// spelling differs most in its vowels, each repeated to pass the length the judgement needs.
const DECLARATION: Record<string, string> = {
  English:
    'All human beings are born free and equal in dignity and rights. They are endowed with reason and conscience and should act towards one another in a spirit of brotherhood.',
  German:
    'Alle Menschen sind frei und gleich an Würde und Rechten geboren. Sie sind mit Vernunft und Gewissen begabt und sollen einander im Geist der Brüderlichkeit begegnen.',
  French:
    'Tous les êtres humains naissent libres et égaux en dignité et en droits. Ils sont doués de raison et de conscience et doivent agir les uns envers les autres dans un esprit de fraternité.',
  Finnish:
    'Kaikki ihmiset syntyvät vapaina ja tasavertaisina arvoltaan ja oikeuksiltaan. Heille on annettu järki ja omatunto, ja heidän on toimittava toisiaan kohtaan veljeyden hengessä.',
  Czech:
    'Všichni lidé rodí se svobodní a sobě rovní co do důstojnosti a práv. Jsou nadáni rozumem a svědomím a mají spolu jednat v duchu bratrství.',
  Polish:
    'Wszyscy ludzie rodzą się wolni i równi pod względem swej godności i swych praw. Są oni obdarzeni rozumem i sumieniem i powinni postępować wobec innych w duchu braterstwa.',
  Welsh:
    "Genir pawb yn rhydd ac yn gydradd â'i gilydd mewn urddas a hawliau. Fe'u cynysgaeddir â rheswm a chydwybod, a dylai pawb ymddwyn y naill at y llall mewn ysbryd cymodlon.",
  Hungarian:
    'Minden emberi lény szabadon születik és egyenlő méltósága és joga van. Az emberek, ésszel és lelkiismerettel bírván, egymással szemben testvéri szellemben kell hogy viseltessenek.',
  Turkish:
    'Bütün insanlar hür, haysiyet ve haklar bakımından eşit doğarlar. Akıl ve vicdana sahiptirler ve birbirlerine karşı kardeşlik zihniyeti ile hareket etmelidirler.',
};

describe('spelling judgement', () => {
  for (const [language, text] of Object.entries(DECLARATION)) {
    it(`${language} spells like a language; shifted three letters on, it does not`, () => {
      const page = `${text} ${text} ${text}`;
      expect(implausibleSpelling(page), JSON.stringify(spellingStats(page))).toBe(false);
      expect(implausibleSpelling(shift3(page)), JSON.stringify(spellingStats(shift3(page)))).toBe(true);
    });
  }

  it('judges nothing short, and nothing in another script', () => {
    expect(implausibleSpelling(shift3(DECLARATION.English!))).toBe(false);
    const russian =
      'Все люди рождаются свободными и равными в своем достоинстве и правах. Они наделены разумом и совестью и должны поступать в отношении друг друга в духе братства. ';
    expect(implausibleSpelling(russian.repeat(4) + 'Wkh sdjh qxpehu')).toBe(false);
  });

  it('text agreement tells a misreading from another text', () => {
    const text = DECLARATION.English!;
    const misread = text.replace(/e/g, 'c').replace(/rn/g, 'm');
    expect(textAgreement(text, text)).toBe(1);
    expect(textAgreement(text, misread)).toBeGreaterThan(0.5);
    expect(textAgreement(text, shift3(text))).toBeLessThan(0.3);
  });
});

describe('auto mode checks text layers that spell like no language', () => {
  const parser = createParser({ ocrThreads: 2 });
  afterAll(() => parser.close());

  it('replaces the text layer that names other letters, keeps the ones that match the page', async () => {
    const doc = await parser.parseFile(mislabelled, {
      timeout: 100000,
      parsers: [{ type: 'pdf', mode: 'auto', blocks: true, pages: true }],
    });
    const fast = await parser.parseFile(mislabelled, { parsers: [{ type: 'pdf', mode: 'fast', blocks: true }] });
    const sources = doc.blocks!.map((p) => [...new Set(p.items.map((b) => b.source))]);
    expect(sources).toEqual([['native_text'], ['layout_ocr'], ['native_text']]);
    // Fast mode reads the shifted text layer of page 2; auto reads what the page shows.
    expect(cer(pageText(fast, 2), truth[1]!.text)).toBeGreaterThan(0.5);
    const rate = cer(pageText(doc, 2), truth[1]!.text);
    console.log(`mislabelled.pdf page 2 (auto, OCR): CER ${(rate * 100).toFixed(2)}%`);
    expect(rate).toBeLessThan(0.015);
    for (const b of doc.blocks![1]!.items) expect(b.confidence.ocr).toBeGreaterThan(0);
    // The cipher page was recognised too, read the same, and kept its text layer.
    expect(pageText(doc, 3)).toBe(pageText(fast, 3));
    expect(pageText(doc, 3)).toContain('Hyhub gulyhu frpsohwhg');
    expect(doc.warning).toContain('The text layer of page 2 does not match what it shows');
    expect(fast.warning ?? '').not.toContain('text layer');
  });

  /** A PDF of `count` copies of one page of mislabelled.pdf. */
  async function copies(page: number, count: number): Promise<Uint8Array> {
    const src = await PDFDocument.load(mislabelled);
    const out = await PDFDocument.create();
    for (let i = 0; i < count; i++) out.addPage((await out.copyPages(src, [page - 1]))[0]!);
    return out.save();
  }

  /** Runs the PDF reader in auto mode on its own runtime; returns the pages recognised and their sources. */
  async function readAuto(bytes: Uint8Array): Promise<{ recognised: number; sources: string[]; warnings: string[] }> {
    const runtime = new ParserRuntime({ ocrThreads: 2 });
    try {
      const options = normalizeOptions({ timeout: 100000, parsers: [{ type: 'pdf', mode: 'auto' }] });
      const model = await read({
        bytes,
        kind: 'pdf',
        contentType: 'application/pdf',
        filename: undefined,
        options,
        signal: new AbortController().signal,
        deadline: Date.now() + 100000,
        runtime,
      });
      const sources = model.pages!.map((p) => [...new Set(p.blocks.map((b) => b.source))].join(','));
      return { recognised: ocrPool(runtime).completed, sources, warnings: model.warnings ?? [] };
    } finally {
      await runtime.close();
    }
  }

  it('stops checking a document whose first flagged pages all match what they show', async () => {
    const r = await readAuto(await copies(3, 5));
    expect(r.recognised).toBe(3);
    expect(r.sources).toEqual(Array(5).fill('native_text'));
    expect(r.warnings).toEqual([]);
  });

  it('recognises every flagged page once the first ones prove the text layer wrong', async () => {
    const r = await readAuto(await copies(2, 5));
    expect(r.recognised).toBe(5);
    expect(r.sources).toEqual(Array(5).fill('layout_ocr'));
    expect(r.warnings.join('\n')).toContain('The text layer of pages 1-5 does not match what they show');
  });
});
