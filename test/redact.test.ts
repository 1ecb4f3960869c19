/**
 * PII redaction: each entity, style and mode, no false alarms on ordinary numbers and words, markdown
 * structure kept, and exact block spans in a redacted response document.
 */
import { marked, type Token } from 'marked';
import { describe, expect, it } from 'vitest';
import type { DocModel } from '../src/model/document.js';
import { text } from '../src/model/document.js';
import { serialize } from '../src/markdown/serialize.js';
import { PII_ENTITIES, normalizeOptions, type PiiEntity, type RedactMode } from '../src/options/schema.js';
import { redactDocument } from '../src/redact/apply.js';
import { abaValid, ibanValid, luhnValid, ssnValid } from '../src/redact/checksums.js';
import { detect, resolve, segments } from '../src/redact/detect.js';
import { findNamesAndPlaces } from '../src/redact/names.js';
import { mentionsPostal } from '../src/redact/addresses.js';
import type { Detection } from '../src/redact/types.js';
import { project, redactMarkdown } from '../src/redact/markdown.js';
import type { ParseDocument } from '../src/types.js';

const ALL = [...PII_ENTITIES];
const MODES: RedactMode[] = ['fast', 'accurate', 'aggressive'];

/** The texts the detector found for one entity. */
function found(input: string, entity: PiiEntity, mode: RedactMode = 'accurate'): string[] {
  return detect(input, { mode, entities: ALL })
    .filter((d) => d.entity === entity)
    .map((d) => input.slice(d.start, d.end));
}

const redact = (
  md: string,
  mode: RedactMode = 'accurate',
  style: 'tag' | 'mask' | 'remove' = 'tag',
  entities: PiiEntity[] = ALL,
): string => redactMarkdown(md, { mode, entities }, style).markdown;

describe('checksums', () => {
  it('Luhn accepts real test card numbers and rejects a changed digit', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('378282246310005')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
  });
  it('IBAN mod 97 and country length', () => {
    expect(ibanValid('GB82WEST12345698765432')).toBe(true);
    expect(ibanValid('DE89370400440532013000')).toBe(true);
    expect(ibanValid('GB82WEST12345698765433')).toBe(false);
    expect(ibanValid('DE8937040044053201300')).toBe(false);
  });
  it('SSN validity rules', () => {
    expect(ssnValid('536', '22', '1234')).toBe(true);
    expect(ssnValid('000', '22', '1234')).toBe(false);
    expect(ssnValid('666', '22', '1234')).toBe(false);
    expect(ssnValid('936', '22', '1234')).toBe(false);
    expect(ssnValid('536', '00', '1234')).toBe(false);
    expect(ssnValid('536', '22', '0000')).toBe(false);
  });
  it('ABA routing checksum', () => {
    expect(abaValid('021000021')).toBe(true);
    expect(abaValid('011000015')).toBe(true);
    expect(abaValid('021000022')).toBe(false);
  });
});

describe.each(MODES)('entities in %s mode', (mode) => {
  it('EMAIL', () => {
    expect(found('Write to jane.doe+news@mail.example.co.uk today.', 'EMAIL', mode)).toEqual([
      'jane.doe+news@mail.example.co.uk',
    ]);
  });
  it('PHONE in international and national formats', () => {
    const t = 'Call +44 20 7946 0958, or (415) 555-0132, or +49 30 901820 from Berlin. Fax: 020 7946 0000.';
    const phones = found(t, 'PHONE', mode);
    expect(phones).toContain('+44 20 7946 0958');
    expect(phones.some((p) => p.includes('415') && p.includes('555-0132'))).toBe(true);
    expect(phones).toContain('+49 30 901820');
    expect(phones).toContain('020 7946 0000');
  });
  it('FINANCIAL: cards, IBAN, SSN, routing and account numbers', () => {
    const t =
      'Card 4111 1111 1111 1111 and 378282246310005. IBAN: DE89 3704 0044 0532 0130 00. SSN 536-22-1234. Routing number 021000021, account number 12345678901.';
    const fin = found(t, 'FINANCIAL', mode);
    expect(fin).toEqual([
      '4111 1111 1111 1111',
      '378282246310005',
      'DE89 3704 0044 0532 0130 00',
      '536-22-1234',
      '021000021',
      '12345678901',
    ]);
  });
  it('SECRET: provider keys, key blocks, JWTs, assignments, connection strings', () => {
    const key = [
      '-----BEGIN RSA PRIVATE KEY-----',
      'MIIEpAIBAAKCAQEA1c7+9z5Pad7OejecsQ0bu3aumpYx',
      '-----END RSA PRIVATE KEY-----',
    ].join('\n');
    const t = [
      'aws_access_key_id = AKIAIOSFODNN7EXAMPLE',
      'token: ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8',
      'slack xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx',
      'stripe sk_live_' + '4eC39HqLyjWDarjtT1zdp7dc',
      'google AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY',
      'openai sk-proj-' + 'Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78',
      'jwt eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
      'DB_PASSWORD="correct horse battery"',
      'mongodb://admin:Pa55w0rd2024@cluster0.example.net/db',
      key,
    ].join('\n');
    const s = found(t, 'SECRET', mode);
    expect(s).toContain('AKIAIOSFODNN7EXAMPLE');
    expect(s.some((x) => x.startsWith('ghp_'))).toBe(true);
    expect(s.some((x) => x.startsWith('xoxb-'))).toBe(true);
    expect(s.some((x) => x.startsWith('sk_live_'))).toBe(true);
    expect(s).toContain('AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY');
    expect(s.some((x) => x.startsWith('sk-proj-'))).toBe(true);
    expect(s.some((x) => x.startsWith('eyJhbGci'))).toBe(true);
    expect(s).toContain('correct horse battery');
    expect(s).toContain('Pa55w0rd2024');
    expect(s).toContain(key);
  });
  it('PERSON', () => {
    expect(found('Yesterday Mrs. Schwarz met Angela Lundström in the lobby.', 'PERSON', mode)).toEqual([
      'Schwarz',
      'Angela Lundström',
    ]);
    expect(found('My name is Rubija Kovačević and I need help.', 'PERSON', mode)).toEqual(['Rubija Kovačević']);
  });
  it("PERSON: the signature under a letter's closing line", () => {
    expect(found('Thanks for the shipment.\n\nBest Regards,\n\nMallori', 'PERSON', mode)).toEqual(['Mallori']);
  });
  it('LOCATION: street addresses, cities, countries, postal codes', () => {
    const t = 'Please ship it to 221 Baker Street, London. We moved here from New Zealand. My zip code is 94107.';
    const loc = found(t, 'LOCATION', mode);
    expect(loc.some((l) => l.startsWith('221 Baker Street'))).toBe(true);
    expect(loc.join('|')).toContain('London');
    expect(loc).toContain('New Zealand');
    expect(loc).toContain('94107');
  });
  it('LOCATION: an address runs on over unit numbers, multi-word countries and place names, not into the next sentence', () => {
    expect(found('Scott had given Belle his address: 975 3968 Bay Street, Toronto', 'LOCATION', mode)).toEqual([
      '975 3968 Bay Street, Toronto',
    ]);
    expect(found('Send it to 12/345 Main Street, Perth', 'LOCATION', mode)).toEqual(['12/345 Main Street, Perth']);
    // A year before a house number is the sentence's, not the address's.
    expect(found('In 2019 45 Baker Street was sold.', 'LOCATION', mode)).toEqual(['45 Baker Street']);
    // The street ends on its type word when a sentence goes on after it.
    expect(found('He lives at 45 Baker Street with his wife.', 'LOCATION', mode)).toEqual(['45 Baker Street']);
    const lines = 'Harry Sheppard\n\n385 Gemsbok St\n Apt. 460\n Pietersburg\n South Africa 89082\n085 175 7641-Office';
    expect(found(lines, 'LOCATION', mode)).toEqual(['385 Gemsbok St\n Apt. 460\n Pietersburg\n South Africa 89082']);
    const czech = '4596 Tylova 285\n Suite 578\n Ostrov nad Ohří\n Czech Republic 56655';
    expect(found(czech, 'LOCATION', mode)).toEqual([czech]);
    expect(found('217 Lovers Lane\nSuite 680\nPort Whangarei\nNew Zealand 15896', 'LOCATION', mode)).toEqual([
      '217 Lovers Lane\nSuite 680\nPort Whangarei\nNew Zealand 15896',
    ]);
    // Kind-of-place words alone are no place; a sentence after a question mark is not the address.
    expect(found('12 Baker Street\nNew Station\nwas opened.', 'LOCATION', mode)).toEqual(['12 Baker Street']);
    expect(
      found('071 Ditscheinergasse 80 Suite 000 Hundshagen Upper Austria? I am in town', 'LOCATION', mode).join('|'),
    ).not.toContain('I am');
  });
});

describe('no false alarms on ordinary text', () => {
  const ordinary = [
    'Version 2.14.3 was released on 2024-01-31 (build 20240131).',
    'ISBN 978-3-16-148410-0 and ISBN 0-306-40615-2 are books.',
    'Order #4111111111111111 shipped; invoice 1234567890123 is paid.',
    'It costs $1,299.99 or €4,500,000.00 in total, a 12.5% rise since 1990-2000.',
    'Capitalized words like Wisdom and Discipline are often mistaken with names.',
    'The Committee will Review the Budget on Monday in the Main Hall.',
    'Table 3 shows 1 200 000 units across 15 regions, page 12 of 40.',
    'Use the API key from your dashboard; the password must have 12 characters.',
    'Commit 3f786850e387550fdab836ed7e6dc881de23001b fixed the build.',
    'See Data in Brief 22 (2019) 451-465 and J. Appl. Phys. 12 (2020) 100-110.',
    'The office opened in June 2021; from Eq. 36 the rate follows (134 Stat. 3388, 4144 (2021)).',
    'Take Vitamin D Supplements with food; Plan B Team meets in Building C Annex.',
  ];
  it.each(MODES)('finds nothing in %s mode', (mode) => {
    for (const line of ordinary) {
      const dets = detect(line, { mode, entities: ALL }).filter((d) => mode !== 'aggressive' || d.entity !== 'PERSON');
      expect(
        dets.map((d) => `${d.entity}:${line.slice(d.start, d.end)}`),
        line,
      ).toEqual([]);
    }
  });
  it('numbers that pass Luhn are not cards in an order or ISBN context', () => {
    expect(found('order number 4111111111111111', 'FINANCIAL')).toEqual([]);
    expect(found('ISBN 9780306406157', 'FINANCIAL')).toEqual([]);
  });
});

describe('modes', () => {
  const t = 'Rennie flew to Neupré on Friday morning. Contact: nyberg, 555-0199-7734.';
  it('aggressive finds at least what accurate finds, accurate what fast finds', () => {
    const count = (mode: RedactMode): number => detect(t, { mode, entities: ALL }).length;
    expect(count('aggressive')).toBeGreaterThanOrEqual(count('accurate'));
  });
  it('accurate uses the model: a name in no word list that the tagger recognises', () => {
    const s = 'Have you heard Nijito Asano speak yet?';
    expect(found(s, 'PERSON', 'fast')).toEqual([]);
    expect(found(s, 'PERSON', 'accurate')).toEqual(['Nijito Asano']);
  });
  it('the model modes read lower-case names in lists and after "my name is"', () => {
    const s = 'they had 3 kids: silvana, christopher and kristina. we need salt, pepper and flour.';
    expect(found(s, 'PERSON', 'fast')).toEqual([]);
    expect(found(s, 'PERSON', 'accurate')).toEqual(['silvana', 'christopher', 'kristina']);
  });
  it('aggressive adds recall: an unknown sentence-initial word before a speech verb', () => {
    const s = 'Mehrudin shouted at Todd.';
    expect(found(s, 'PERSON', 'accurate')).toEqual(['Todd']);
    expect(found(s, 'PERSON', 'aggressive')).toEqual(['Mehrudin', 'Todd']);
  });
  it('a capitalised word, a middle initial and a capitalised word in no list is a name, in every mode', () => {
    for (const mode of MODES) {
      expect(found('The minutes were taken by Orsolya K Várhelyi and approved.', 'PERSON', mode)).toEqual([
        'Orsolya K Várhelyi',
      ]);
      expect(found('Questions go to Tamsin R. Oyelaran-Hughes before noon.', 'PERSON', mode)).toEqual([
        'Tamsin R. Oyelaran-Hughes',
      ]);
      // An initial that is also a word ("I", "A") is still an initial between two names.
      expect(found('Hanne I. Kreutzmann from Can Capital is the keynote speaker.', 'PERSON', mode)).toEqual([
        'Hanne I. Kreutzmann',
      ]);
      expect(found('The award went to Torvald A Ekdahl last year.', 'PERSON', mode)).toEqual(['Torvald A Ekdahl']);
      // Between ordinary words it is no name.
      expect(found('Vitamin A Supplements are sold here.', 'PERSON', mode)).toEqual([]);
    }
  });
  it('letter and mail header labels are no speakers, and name the person after them', () => {
    for (const mode of MODES) {
      expect(found('Attn: Priyanka Raghunathan\nBcc: John Smith', 'PERSON', mode)).toEqual([
        'Priyanka Raghunathan',
        'John Smith',
      ]);
      expect(found('To: Priyanka Raghunathan\nCc: Oluwaseun Adebayo', 'PERSON', mode)).toEqual([
        'Priyanka Raghunathan',
        'Oluwaseun Adebayo',
      ]);
      // A speaker line stays a name.
      expect(found('Ella: What a wife.', 'PERSON', mode)).toEqual(['Ella']);
    }
  });
  it('the model modes take lower-case words after "my name is" or "name:" as a name, listed or not', () => {
    expect(found('hello! my name is vitoria', 'PERSON', 'accurate')).toEqual(['vitoria']);
    expect(found('name:    hyuuma t. maida\naddress: unit 4526', 'PERSON', 'accurate')).toEqual(['hyuuma t. maida']);
    expect(found('first name: dzhambek', 'PERSON', 'aggressive')).toEqual(['dzhambek']);
    // Ordinary words there are not names.
    expect(found('my name is not important', 'PERSON', 'accurate')).toEqual([]);
    expect(found('name: unknown', 'PERSON', 'accurate')).toEqual([]);
  });
  it('the model modes take the lower-case speakers of a dialogue as names; one "note:" line is no dialogue', () => {
    const chat = 'mika: "who are you?"\ntracy: "i\'m roberto\'s daughter."\nmika: "oh."';
    expect(found(chat, 'PERSON', 'accurate')).toEqual(['mika', 'tracy', 'mika']);
    expect(found('note: "bring the keys"', 'PERSON', 'accurate')).toEqual([]);
    expect(found('summary: "done"\nstatus: "open"', 'PERSON', 'accurate')).toEqual([]);
  });
  it('a relative or friend named right after "my", "her" and the like is a person, listed as a name or not; an ordinary word there is not', () => {
    for (const mode of MODES) {
      expect(found('I would like to remove my kid Dzhambek from the will.', 'PERSON', mode)).toEqual(['Dzhambek']);
      expect(found('Her neighbour Oskarsdottir called twice.', 'PERSON', mode)).toEqual(['Oskarsdottir']);
      expect(found('My friend Monday is a good day to start.', 'PERSON', mode)).toEqual([]);
    }
  });
  it('after "university of", "born in" and the like a name is a place, listed as a name or not, unless a possessive follows', () => {
    for (const mode of MODES) {
      expect(found('She studied journalism at the University of Vierhöf.', 'LOCATION', mode)).toEqual(['Vierhöf']);
      expect(found("He lives in Anna's flat.", 'LOCATION', mode)).toEqual([]);
    }
  });
  it('a name with a postal code after it, where the text says a place follows, is a place', () => {
    for (const mode of MODES) {
      expect(
        found('Looking to support MysticWeb in Quinta de São Tiago 3610-114 in its mission.', 'LOCATION', mode),
      ).toEqual(['Quinta de São Tiago 3610-114']);
      expect(found('She moved to Wolverhampton WV1 last year and then to Bexley 19073.', 'LOCATION', mode)).toContain(
        'Bexley 19073',
      );
      // Without a word for a place before it, a name and a number stay what they were.
      expect(found('Jonathan Harrison 1978 was the first entry.', 'LOCATION', mode)).toEqual([]);
      // Four digits that could be a year are a date's.
      expect(found('The office opened in Carrollton 2021 after the merger.', 'LOCATION', mode)).not.toContain(
        'Carrollton 2021',
      );
    }
  });
  it('a country named in ordinary words is a place without a word that says so', () => {
    expect(found('Ship to:\nAnna Kovacs\nDenver, CO 80202\nUnited States', 'LOCATION')).toContain('United States');
    expect(found('Brno\nCzech Republic 60200', 'LOCATION')).toContain('Czech Republic');
    // A union of countries is no place, and ordinary words alone stay words ("United Airlines").
    expect(found('Article 50 of the Treaty on European Union applies.', 'LOCATION')).toEqual([]);
    expect(found('She flew United Airlines to the meeting.', 'LOCATION')).toEqual([]);
  });
  it('entities restricts redaction to the buckets asked for', () => {
    const s = 'Mail jane@example.com or call +1 415 555 0132.';
    expect(redact(s, 'fast', 'tag', ['EMAIL'])).toBe('Mail <EMAIL> or call +1 415 555 0132.');
  });
});

describe('styles', () => {
  const s = 'Mail jane@example.com now.';
  it('tag', () => expect(redact(s, 'fast', 'tag')).toBe('Mail <EMAIL> now.'));
  it('mask keeps the length', () => expect(redact(s, 'fast', 'mask')).toBe('Mail **************** now.'));
  it('remove', () => expect(redact(s, 'fast', 'remove')).toBe('Mail  now.'));
});

/**
 * The structure redaction must keep: block types, table dimensions, code languages, link destinations' schemes. */
function shape(md: string): unknown[] {
  const inlineLinks = (tokens: Token[] | undefined): string[] => {
    const out: string[] = [];
    for (const t of tokens ?? []) {
      if (t.type === 'link') out.push(/^[a-z]+:/.exec(t.href)?.[0] ?? '');
      if ('tokens' in t && Array.isArray(t.tokens)) out.push(...inlineLinks(t.tokens));
    }
    return out;
  };
  const walk = (tokens: Token[]): unknown[] =>
    tokens
      .filter((t) => t.type !== 'space')
      .map((t) => {
        if (t.type === 'table')
          return { type: 'table', header: t.header.length, rows: t.rows.map((r: unknown[]) => r.length) };
        if (t.type === 'code') return { type: 'code', lang: t.lang, lines: t.text.split('\n').length };
        if (t.type === 'list')
          return {
            type: 'list',
            items: t.items.length,
            links: t.items.flatMap((i: { tokens: Token[] }) => inlineLinks(i.tokens)),
            hr: t.items.some((i: { tokens: Token[] }) => i.tokens.some((x) => x.type === 'hr')),
          };
        if (t.type === 'blockquote') return { type: 'blockquote', children: walk(t.tokens ?? []) };
        // A line holding only a placeholder such as `<LOCATION>` lexes as inline html: it is still text.
        const type = t.type === 'html' || t.type === 'paragraph' ? 'text' : t.type;
        return { type, links: inlineLinks((t as { tokens?: Token[] }).tokens) };
      });
  return walk(marked.lexer(md));
}

describe('markdown stays valid', () => {
  const md = [
    '# Contact **John Smith**',
    '',
    'Write to [john.smith@example.com](mailto:john.smith@example.com) or see [the profile](https://example.com/u/john.smith@example.com).',
    '',
    '| Name | Email | Card |',
    '|---|---|---|',
    '| Mary Johnson | mary_j@corp.io | 4111 1111 1111 1111 |',
    '',
    '- Lives at 221 Baker Street',
    '- London',
    '',
    '```env',
    'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE',
    'DATABASE_URL=postgres://admin:s3cr3tPass@db.example.com:5432/app',
    '```',
    '',
    '> Call +44 20 7946 0958 after 5pm.',
    '',
  ].join('\n');

  it.each(['tag', 'mask', 'remove'] as const)('keeps links, tables, lists, quotes and code fences with %s', (style) => {
    const out = redact(md, 'accurate', style);
    expect(shape(out)).toEqual(shape(md));
    for (const secret of [
      'john.smith@example.com',
      'mary_j@corp.io',
      '4111 1111 1111 1111',
      'AKIAIOSFODNN7EXAMPLE',
      's3cr3tPass',
      '7946 0958',
      'Mary Johnson',
    ]) {
      expect(out).not.toContain(secret);
    }
  });
  it('redacts the address inside mailto: and inside a URL', () => {
    const out = redact(md, 'fast', 'tag');
    expect(out).toContain('[<EMAIL>](mailto:<EMAIL>)');
    expect(out).toContain('(https://example.com/u/<EMAIL>)');
  });
  it('the projection maps every visible character back to the same markdown character', () => {
    const p = project(md);
    let mapped = 0;
    for (let i = 0; i < p.text.length; i++) {
      const at = p.offset(i);
      if (at < 0) continue;
      mapped++;
      expect(md[at], `projection offset ${i}`).toBe(p.text[i]);
    }
    expect(mapped).toBeGreaterThan(md.length / 2);
    // Syntax is left out: no pipes of the table and no fence lines in the visible text.
    expect(p.text).not.toContain('|');
    expect(p.text).not.toContain('```');
    expect(p.text).toContain('mailto:john.smith@example.com');
  });
  it('a table row keeps its cell count', () => {
    const out = redact(md, 'accurate', 'tag');
    expect(out).toContain('| <PERSON> | <EMAIL> | <FINANCIAL> |');
  });
});

describe('redactDocument', () => {
  const model: DocModel = {
    contentType: 'application/pdf',
    metadata: {},
    warnings: [],
    pages: [
      {
        pageNumber: 1,
        width: 612,
        height: 792,
        status: 'ok',
        blocks: [
          { node: { kind: 'heading', level: 1, content: [text('Invoice for Angela Lundström')] } },
          { node: { kind: 'paragraph', content: [text('Contact angela.lundstrom@example.se or +46 8 123 456 78.')] } },
          { node: { kind: 'paragraph', content: [text('Page 1 of 2')] }, furniture: true },
        ],
      },
      {
        pageNumber: 2,
        width: 612,
        height: 792,
        status: 'ok',
        blocks: [
          { node: { kind: 'paragraph', content: [text('Nothing personal here, just totals.')] } },
          { node: { kind: 'paragraph', content: [text('Pay with card 4111 1111 1111 1111 before Friday.')] } },
        ],
      },
    ],
  };
  const serialized = serialize(model, { onlyMainContent: true });
  const doc: ParseDocument = {
    markdown: serialized.markdown,
    pages: serialized.pages,
    blocks: serialized.layout,
    summary: 'Invoice for Angela Lundström, angela.lundstrom@example.se.',
    links: ['mailto:angela.lundstrom@example.se'],
    metadata: {},
  };

  it.each(['tag', 'mask', 'remove'] as const)(
    'redacts markdown, pages, blocks and summary with exact spans (%s)',
    async (style) => {
      const out = await redactDocument(doc, { mode: 'accurate', entities: ALL, replaceStyle: style });
      const md = out.markdown!;
      for (const s of ['Angela', 'angela.lundstrom@example.se', '123 456 78', '4111 1111']) {
        expect(md).not.toContain(s);
        for (const p of out.pages!) expect(p.markdown).not.toContain(s);
        for (const b of out.blocks!.flatMap((p) => p.items)) expect(b.content).not.toContain(s);
      }
      expect(out.summary).not.toContain('Angela');
      expect(out.links![0]).not.toContain('angela');
      for (const b of out.blocks!.flatMap((p) => p.items)) {
        if (b.markdownSpan) expect(md.slice(b.markdownSpan[0], b.markdownSpan[1])).toBe(b.content);
      }
      // Unchanged blocks keep their text, later blocks moved with the edits.
      const items = out.blocks!.flatMap((p) => p.items);
      expect(items.find((b) => b.content.startsWith('Nothing personal'))!.markdownSpan).not.toBeNull();
      expect(doc.markdown).toContain('Angela'); // the input document is not modified
    },
  );

  it('redactPII: true means accurate, all entities, tag', () => {
    expect(normalizeOptions({ redactPII: true }).redactPII).toEqual({
      mode: 'accurate',
      entities: ALL,
      replaceStyle: 'tag',
    });
  });
});

describe('through the parser', () => {
  it('redactPII on an HTML page redacts markdown, html, links and summary', async () => {
    const { createParser } = await import('../src/parser.js');
    const parser = createParser();
    try {
      const html =
        '<html><head><title>Contact</title></head><body><main><h1>Contact Angela Lundström</h1>' +
        '<p>Mail <a href="mailto:angela@example.se">angela@example.se</a> or call +46 8 123 456 78 today, please.</p>' +
        '<table><tr><th>Name</th><th>Card</th></tr><tr><td>Mary Johnson</td><td>4111 1111 1111 1111</td></tr></table></main></body></html>';
      const doc = await parser.parseFile(
        new TextEncoder().encode(html),
        { formats: ['markdown', 'html', 'links', 'summary'], redactPII: true },
        { filename: 'contact.html' },
      );
      expect(doc.markdown).toContain('[<EMAIL>](mailto:<EMAIL>)');
      expect(doc.markdown).toContain('| <PERSON> | <FINANCIAL> |');
      for (const field of [doc.markdown, doc.html, doc.summary, ...(doc.links ?? [])]) {
        for (const pii of ['Angela', 'angela@example.se', '123 456 78', '4111 1111', 'Mary Johnson'])
          expect(field ?? '').not.toContain(pii);
      }
      // In HTML the placeholder is text, not a tag.
      expect(doc.html).toContain('&lt;EMAIL&gt;');
      const masked = await parser.parseFile(
        new TextEncoder().encode('name,email\nMary Johnson,mary@example.com\n'),
        { redactPII: { mode: 'fast', replaceStyle: 'mask' } },
        { filename: 'people.csv' },
      );
      expect(masked.markdown).toContain('| **** ******* | **************** |');
    } finally {
      await parser.close();
    }
  });
});

describe('secrets: what is not one', () => {
  it.each(MODES)('placeholders, code and URLs are left alone in %s mode', (mode) => {
    const t = [
      'apiKey: process.env.API_KEY',
      'password = "<your password>"',
      "const client = new Client({ apiKey: 'YOUR_API_KEY' })",
      'token: ${GITHUB_TOKEN}',
      'password: faker.internet.password()',
      'See https://github.com/org/repo/commit/3f786850e387550fdab836ed7e6dc881de23001b for the token fix.',
      'The secret sauce is patience.',
    ].join('\n');
    expect(found(t, 'SECRET', mode)).toEqual([]);
  });
  it('a high-entropy value on a credential line is a secret, a long word is not', () => {
    expect(found('export SIGNING_SECRET=9fQ2xL7vR1kP8sT4wZ6yB3nM5cJ0hD2g', 'SECRET')).toEqual([
      '9fQ2xL7vR1kP8sT4wZ6yB3nM5cJ0hD2g',
    ]);
    expect(found('The key insight is internationalization of characteristics.', 'SECRET')).toEqual([]);
  });
});

describe('html redaction', () => {
  it('rewrites text and link attributes, never tags', async () => {
    const { redactHtml } = await import('../src/redact/html.js');
    const html =
      '<p class="contact">Write to <a href="mailto:jane@example.com" title="Jane Doe">jane@example.com</a></p><script>var x = "jane@example.com";</script>';
    const out = redactHtml(html, { mode: 'fast', entities: ALL }, 'tag');
    expect(out).toBe(
      '<p class="contact">Write to <a href="mailto:&lt;EMAIL&gt;" title="Jane Doe">&lt;EMAIL&gt;</a></p><script>var x = "jane@example.com";</script>',
    );
  });
});

describe('blocks outside the markdown', () => {
  it('furniture left out of the markdown is redacted on its own and loses its span', async () => {
    const model: DocModel = {
      contentType: 'application/pdf',
      metadata: {},
      warnings: [],
      pages: [
        {
          pageNumber: 1,
          width: 612,
          height: 792,
          status: 'ok',
          blocks: [
            { node: { kind: 'paragraph', content: [text('Quarterly report.')] } },
            {
              node: { kind: 'paragraph', content: [text('Prepared by jane.doe@example.com')] },
              furniture: true,
              type: 'page_footer',
            },
          ],
        },
      ],
    };
    const s = serialize(model, { onlyMainContent: true });
    const out = await redactDocument(
      { markdown: s.markdown, blocks: s.layout, metadata: {} },
      { mode: 'fast', entities: ALL, replaceStyle: 'remove' },
    );
    const footer = out.blocks![0]!.items[1]!;
    expect(footer.content).toBe('Prepared by ');
    expect(footer.markdownSpan).toBeNull();
    expect(out.blocks![0]!.items[0]!.markdownSpan).toEqual(s.layout[0]!.items[0]!.markdownSpan);
  });
});

describe('deadline', () => {
  it('a redaction past the parse deadline stops with TIMEOUT', async () => {
    const doc: ParseDocument = { markdown: 'Call Angela Lundström at +46 8 123 456 78.\n'.repeat(2000), metadata: {} };
    await expect(
      redactDocument(doc, { mode: 'accurate', entities: ALL, replaceStyle: 'tag' }, { deadline: Date.now() - 1 }),
    ).rejects.toMatchObject({ code: 'TIMEOUT' });
  });
});

describe('what the whole-text passes hand to the name detectors', () => {
  // detect() finds the literals the name rules start from (" and ", "orner of") and the digit runs in
  // one pass over the whole text and hands each segment its share; findNamesAndPlaces alone searches
  // its text itself. Both must see the same things, also where a literal sits inside a secret hint
  // ("token and"), where a segment boundary cuts a digit run, and for names spread over a segment.
  const paragraph = (k: number): string =>
    [
      `Send the token and Maria Lopez will check it; Bearer and Smith, Jones and Davis LLP reviewed case ${k}.`,
      `We met at the corner of Main Street and Elm Street with Dr. Alan Reyes, who lives at ${100 + k} Baker Street, London.`,
      `The password and Karen Lee moved to Paris in 2019; call 555-${1000 + k} or write to the office.`,
      `Zip code: ${10000 + k}. Rudi, Jackson and Campos signed. ${'1234567890'.repeat(3)}`,
    ].join(' ');
  // A long stretch without spaces is cut inside it, here inside a digit run ("ab12ab12...").
  const input = [
    ...Array.from({ length: 30 }, (_, k) => paragraph(k)),
    'x'.repeat(3) + 'ab12'.repeat(1500),
    ...Array.from({ length: 30 }, (_, k) => paragraph(k + 30)),
  ].join('\n\n');

  it('names and places are the same as from a search of each segment', () => {
    const viaDetect = detect(input, { mode: 'fast', entities: ['PERSON', 'LOCATION'] }).map(
      (d) => `${d.entity} ${d.start} ${d.end}`,
    );
    const alone: Detection[] = [];
    const postal = mentionsPostal(input);
    for (const [s, e] of segments(input)) {
      const out: Detection[] = [];
      findNamesAndPlaces(input.slice(s, e), { mode: 'fast', person: true, location: true, postal }, out);
      for (const d of out) alone.push({ ...d, start: d.start + s, end: d.end + s });
    }
    const expected = resolve(alone).map((d) => `${d.entity} ${d.start} ${d.end}`);
    expect(segments(input).length).toBeGreaterThan(5);
    expect(segments(input).some(([s]) => /\d\d/.test(input.slice(s - 1, s + 1)))).toBe(true);
    expect(viaDetect.length).toBeGreaterThan(100);
    expect(viaDetect).toEqual(expected);
  });
});
