/**
 * Builds the PDF bench set: documents of several producers at 1, 10, 100 and 1,000+ pages, made from
 * tools a Debian machine installs, plus the corpus's Word-made and scanner-made PDFs, into
 * bench/.cache/pdfs/ (git ignores it; nothing made here or read from the corpus goes into git).
 *
 *   node bench/make-pdfs.ts [--force]
 *
 * Debian packages: groff ghostscript man-db manpages manpages-dev (groff family), libreoffice-writer-nogui
 * (LibreOffice), chromium (Chromium prints), texlive-latex-base (pdfTeX), pandoc (pandoc → pdfTeX), qpdf
 * (page selection and concatenation), fonts-dejavu-core fonts-liberation. A family whose tool is
 * missing is skipped with a message. Each family is made once at about 100 pages (or from its sources);
 * the 1- and 10-page documents are its first pages, the 1,000+ page one is concatenated with qpdf.
 *
 * Writes bench/.cache/pdfs/manifest.json: [{ family, band, pages, file, heldOut, producer }].
 * HELD_OUT names the family that is never tuned on: the bench reports it apart.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CACHE = path.join(ROOT, 'bench', '.cache', 'pdfs');
const CORPUS =
  process.env['DOCMILL_CORPUS'] ??
  [path.resolve(ROOT, '..', 'shared', 'corpus'), path.resolve(ROOT, '..', '..', 'shared', 'corpus')].find(existsSync) ??
  path.resolve(ROOT, '..', 'shared', 'corpus');
/** The family no heuristic may be tuned on; reported on its own. */
export const HELD_OUT = 'libreoffice';
const FORCE = process.argv.includes('--force');
/** `--only groff,chromium`: make these families again, keep the others of the manifest. */
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1]?.split(',') : undefined;
const BANDS = [1, 10, 100, 1000] as const;

export interface BenchPdf {
  family: string;
  band: number;
  pages: number;
  file: string;
  heldOut: boolean;
  producer: string;
}

function has(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
}

function run(cmd: string, args: string[], opts: { cwd?: string; input?: string; timeoutMs?: number } = {}): Buffer {
  return execFileSync(cmd, args, {
    cwd: opts.cwd,
    input: opts.input,
    timeout: opts.timeoutMs ?? 300_000,
    maxBuffer: 1 << 30,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

function pageCount(file: string): number {
  return Number(run('qpdf', ['--show-npages', file]).toString().trim());
}

/** Deterministic words, so every run makes the same documents. */
function words(seed: number): () => string {
  const vocab = (
    'the of and a to in is that for it as was with be by on not he this are or his from at which but have an they ' +
    'document layout reading order column table header footer paragraph heading extraction page text line word glyph ' +
    'font size bold italic measure process system value result method analysis report section figure data model ' +
    'average quarterly revenue customer service network memory thread worker stream parser output input structure'
  ).split(' ');
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return vocab[Math.floor((s / 2147483648) * vocab.length)]!;
  };
}

function sentence(next: () => string, n: number): string {
  const w = Array.from({ length: n }, next);
  w[0] = w[0]![0]!.toUpperCase() + w[0]!.slice(1);
  return `${w.join(' ')}.`;
}

/** 1, 10, 100 pages: the first pages of `base`; 1,000+: `sources` concatenated (repeated) until 1,000 pages. */
function bands(family: string, producer: string, base: string, sources: string[] = [base]): BenchPdf[] {
  const out: BenchPdf[] = [];
  const basePages = pageCount(base);
  for (const band of BANDS) {
    const file = path.join(CACHE, `${family}-${band}.pdf`);
    if (band < 1000) {
      if (basePages < band) continue;
      run('qpdf', ['--empty', '--pages', base, `1-${band}`, '--', file]);
    } else {
      const list: string[] = [];
      let n = 0;
      const counts = sources.map(pageCount);
      for (let i = 0; n < 1000; i++) {
        list.push(sources[i % sources.length]!);
        n += counts[i % sources.length]!;
      }
      run('qpdf', ['--empty', '--pages', ...list, '--', file]);
    }
    out.push({ family, band, pages: pageCount(file), file, heldOut: family === HELD_OUT, producer });
  }
  return out;
}

/** groff + ghostscript: manual pages typeset by groff (-man -Tps) and distilled by ps2pdf, in chunks. */
function groff(tmp: string): BenchPdf[] {
  if (!has('groff') || !has('ps2pdf')) return skip('groff', 'apt-get install groff ghostscript manpages manpages-dev');
  const dirs = ['/usr/share/man/man1', '/usr/share/man/man2', '/usr/share/man/man3', '/usr/share/man/man5'];
  const pages = dirs
    .filter(existsSync)
    .flatMap((d) => readdirSync(d).map((f) => path.join(d, f)))
    .filter((f) => /\.\d\w*(\.gz)?$/.test(f) && statSync(f).size > 3000)
    .sort();
  if (pages.length < 50) return skip('groff', 'too few manual pages (apt-get install manpages manpages-dev)');
  // Chunks of manual pages, each typeset by one groff run (its own fonts), until 1,000+ pages.
  const chunks: string[] = [];
  let total = 0;
  for (let c = 0; total < 1000 && c * 40 < pages.length; c++) {
    const src = pages.slice(c * 40, c * 40 + 40);
    const roff = src
      .map((f) => (f.endsWith('.gz') ? run('zcat', [f]) : readFileSync(f)).toString('utf8'))
      .filter((t) => !/^\.so /m.test(t.slice(0, 200)))
      .join('\n');
    const ps = path.join(tmp, `groff-${c}.ps`);
    // Warnings of odd manual pages (and their exit status) are not this script's business: the PostScript is.
    const typeset = spawnSync('groff', ['-k', '-man', '-Tps', '-t', '-w', 'none', '-P-pletter'], {
      input: roff,
      maxBuffer: 1 << 30,
    });
    if (!typeset.stdout?.length) throw new Error(`groff made nothing: ${typeset.stderr?.toString().slice(0, 200)}`);
    writeFileSync(ps, typeset.stdout);
    const pdf = path.join(tmp, `groff-${c}.pdf`);
    run('ps2pdf', [ps, pdf]);
    chunks.push(pdf);
    total += pageCount(pdf);
  }
  const base = path.join(tmp, 'groff-base.pdf');
  run('qpdf', ['--empty', '--pages', ...chunks, '--', base]);
  return bands('groff', 'groff -man -Tps | ps2pdf (GPL Ghostscript)', base, chunks);
}

/** Headings, paragraphs, a list and a ruled table per section, as flat OpenDocument text. */
function fodt(sections: number): string {
  const next = words(11);
  const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  let body = '';
  for (let s = 1; s <= sections; s++) {
    body += `<text:h text:style-name="Heading_20_1" text:outline-level="1">${s}. ${esc(sentence(next, 4))}</text:h>\n`;
    for (let p = 0; p < 4; p++) body += `<text:p text:style-name="Text_20_body">${esc(sentence(next, 60))}</text:p>\n`;
    body += '<text:list>';
    for (let i = 0; i < 3; i++) body += `<text:list-item><text:p>${esc(sentence(next, 10))}</text:p></text:list-item>`;
    body +=
      '</text:list>\n<table:table table:name="T' + s + '"><table:table-column table:number-columns-repeated="4"/>';
    for (let r = 0; r < 5; r++) {
      body += '<table:table-row>';
      for (let c = 0; c < 4; c++)
        body += `<table:table-cell office:value-type="string"><text:p>${r === 0 ? `Column ${c + 1}` : `${s}.${r}.${c} ${next()}`}</text:p></table:table-cell>`;
      body += '</table:table-row>';
    }
    body += '</table:table>\n';
    body += `<text:h text:style-name="Heading_20_2" text:outline-level="2">${esc(sentence(next, 3))}</text:h>\n`;
    for (let p = 0; p < 3; p++) body += `<text:p text:style-name="Text_20_body">${esc(sentence(next, 45))}</text:p>\n`;
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:body><office:text>
${body}</office:text></office:body></office:document>
`;
}

/** LibreOffice Writer: a generated flat ODT exported with --convert-to pdf. */
function libreoffice(tmp: string): BenchPdf[] {
  const soffice = ['soffice', 'libreoffice'].find(has);
  if (!soffice) return skip('libreoffice', 'apt-get install libreoffice-writer-nogui');
  const src = path.join(tmp, 'office.fodt');
  writeFileSync(src, fodt(170));
  run(
    soffice,
    [`-env:UserInstallation=file://${tmp}/lo-profile`, '--headless', '--convert-to', 'pdf', '--outdir', tmp, src],
    { timeoutMs: 300_000 },
  );
  return bands('libreoffice', 'LibreOffice Writer export', path.join(tmp, 'office.pdf'));
}

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--no-pdf-header-footer',
];

/** Chromium (Skia/PDF): generated HTML with two-column sections, tables and lists, printed headless. */
function chromium(tmp: string): BenchPdf[] {
  const bin = ['chromium', 'chromium-browser', 'google-chrome'].find(has);
  if (!bin) return skip('chromium', 'apt-get install chromium');
  const next = words(23);
  let html =
    '<!doctype html><meta charset="utf-8"><style>body{font:11pt "DejaVu Serif",serif;margin:0}' +
    '.cols{column-count:2;column-gap:24pt} table{border-collapse:collapse;margin:8pt 0} td,th{border:0.5pt solid #444;padding:2pt 6pt}' +
    'h1{font:bold 18pt "DejaVu Sans",sans-serif} h2{font:bold 13pt "DejaVu Sans",sans-serif}</style>';
  for (let s = 1; s <= 120; s++) {
    html += `<h1>${s}. ${sentence(next, 4)}</h1><p>${sentence(next, 50)}</p><div class="cols">`;
    for (let p = 0; p < 5; p++) html += `<p>${sentence(next, 55)}</p>`;
    html += `</div><h2>${sentence(next, 3)}</h2><ul>`;
    for (let i = 0; i < 4; i++) html += `<li>${sentence(next, 9)}</li>`;
    html += '</ul><table><tr><th>Item</th><th>Quarter</th><th>Value</th><th>Note</th></tr>';
    for (let r = 0; r < 6; r++)
      html += `<tr><td>${next()} ${next()}</td><td>Q${(r % 4) + 1}</td><td>${(s * 37 + r * 11) % 1000}.${r}</td><td>${next()}</td></tr>`;
    html += `</table><p>${sentence(next, 40)}</p>`;
  }
  const src = path.join(tmp, 'chromium.html');
  writeFileSync(src, html);
  const out = path.join(tmp, 'chromium.pdf');
  run(bin, [...CHROMIUM_FLAGS, `--user-data-dir=${tmp}/chromium-profile`, `--print-to-pdf=${out}`, `file://${src}`], {
    timeoutMs: 300_000,
  });
  return bands('chromium', 'Chromium --print-to-pdf (Skia/PDF)', out);
}

/** pdfTeX: generated markdown through pandoc to LaTeX, typeset by pdflatex; plain LaTeX when pandoc's template cannot be. */
function pdftex(tmp: string): BenchPdf[] {
  if (!has('pdflatex')) return skip('pdftex', 'apt-get install texlive-latex-base');
  const next = words(37);
  let md = '';
  for (let s = 1; s <= 95; s++) {
    md += `# ${sentence(next, 4).slice(0, -1)}\n\n`;
    for (let p = 0; p < 4; p++) md += `${sentence(next, 70)}\n\n`;
    md += `## ${sentence(next, 3).slice(0, -1)}\n\n`;
    for (let i = 0; i < 3; i++) md += `- ${sentence(next, 12)}\n`;
    md += `\n${sentence(next, 60)}\n\n`;
  }
  writeFileSync(path.join(tmp, 'tex.md'), md);
  let producer = 'pandoc → pdflatex (pdfTeX)';
  let made = false;
  if (has('pandoc')) {
    const r = spawnSync('pandoc', ['tex.md', '-s', '-o', 'tex.tex', '-V', 'geometry:margin=1in'], { cwd: tmp });
    if (r.status === 0) {
      const t = spawnSync('pdflatex', ['-interaction=nonstopmode', 'tex.tex'], { cwd: tmp, timeout: 300_000 });
      made = t.status === 0 && existsSync(path.join(tmp, 'tex.pdf'));
    }
  }
  if (!made) {
    // Plain LaTeX (article class only: texlive-latex-base has it) from the same text.
    producer = 'pdflatex (pdfTeX), article class';
    const tex =
      '\\documentclass[11pt]{article}\n\\begin{document}\n' +
      md
        .replace(/^# (.*)$/gm, '\\section{$1}')
        .replace(/^## (.*)$/gm, '\\subsection{$1}')
        .replace(/^- (.*)$/gm, '\\begin{itemize}\\item $1\\end{itemize}') +
      '\n\\end{document}\n';
    writeFileSync(path.join(tmp, 'tex.tex'), tex);
    run('pdflatex', ['-interaction=nonstopmode', 'tex.tex'], { cwd: tmp });
  }
  return bands('pdftex', producer, path.join(tmp, 'tex.pdf'));
}

/** Corpus PDFs of one producer kind, as they are (1-10 pages) and repeated (100, 1,000+). */
function corpus(family: string, producer: string, files: string[]): BenchPdf[] {
  const found = files.map((f) => path.join(CORPUS, f)).filter(existsSync);
  if (found.length === 0) return skip(family, `corpus not found at ${CORPUS}`);
  const tmp = path.join(CACHE, `${family}-base.pdf`);
  // Base: the files once each, then repeated until 100 pages (for the 1-, 10- and 100-page bands).
  const counts = found.map(pageCount);
  const list: string[] = [];
  for (let i = 0, n = 0; n < 100; i++) {
    list.push(found[i % found.length]!);
    n += counts[i % found.length]!;
  }
  run('qpdf', ['--empty', '--pages', ...list, '--', tmp]);
  const out = bands(family, producer, tmp, found);
  rmSync(tmp);
  return out;
}

function skip(family: string, why: string): BenchPdf[] {
  console.warn(`${family}: skipped (${why})`);
  return [];
}

function main(): void {
  if (!has('qpdf')) throw new Error('qpdf is needed: apt-get install qpdf');
  const manifest = path.join(CACHE, 'manifest.json');
  if (existsSync(manifest) && !FORCE && !ONLY) {
    console.log(`${manifest} exists (--force to make it again)`);
    return;
  }
  mkdirSync(CACHE, { recursive: true });
  const kept: BenchPdf[] =
    ONLY && existsSync(manifest)
      ? (JSON.parse(readFileSync(manifest, 'utf8')) as BenchPdf[])
          .filter((d) => !ONLY.includes(d.family))
          .map((d) => ({ ...d, file: path.join(CACHE, d.file) }))
      : [];
  const all: BenchPdf[] = [];
  const makers: Array<[string, (tmp: string) => BenchPdf[]]> = [
    ['groff', groff],
    ['libreoffice', libreoffice],
    ['chromium', chromium],
    ['pdftex', pdftex],
    [
      'word',
      () =>
        corpus('word', 'Microsoft Word (corpus: officeparser/test.pdf, camelot/health.pdf)', [
          'officeparser/test.pdf',
          'camelot/health.pdf',
        ]),
    ],
    [
      'scanner',
      () =>
        corpus(
          'scanner',
          'scanned pages, three with a recognised text layer, one image only (corpus: unstructured/pdf-with-ocr-text.pdf, unstructured/a1977-backus-p21.pdf, camelot/tabula/twotables.pdf, markitdown/MEDRPT-2024-PAT-3847_medical_report_scan.pdf)',
          [
            'unstructured/pdf-with-ocr-text.pdf',
            'unstructured/a1977-backus-p21.pdf',
            'camelot/tabula/twotables.pdf',
            'markitdown/MEDRPT-2024-PAT-3847_medical_report_scan.pdf',
          ],
        ),
    ],
  ];
  for (const [name, make] of makers) {
    if (ONLY && !ONLY.includes(name)) continue;
    const tmp = path.join(os.tmpdir(), `docmill-make-pdfs-${name}-${process.pid}`);
    mkdirSync(tmp, { recursive: true });
    const t = performance.now();
    try {
      const made = make(tmp);
      all.push(...made);
      console.log(
        `${name}: ${made.map((d) => `${d.pages}p`).join(', ')} (${((performance.now() - t) / 1000).toFixed(1)} s)`,
      );
    } catch (err) {
      console.warn(`${name}: failed: ${(err as Error).message.split('\n')[0]}`);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  all.unshift(...kept);
  const order = makers.map(([n]) => n);
  all.sort((a, b) => order.indexOf(a.family) - order.indexOf(b.family) || a.band - b.band);
  writeFileSync(
    manifest,
    JSON.stringify(
      all.map((d) => ({ ...d, file: path.relative(CACHE, d.file) })),
      null,
      1,
    ),
  );
  console.log(`${all.length} documents in ${CACHE}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
