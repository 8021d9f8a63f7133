/**
 * `svc screen` and `svc compare`: the operator face of the ScreeningEngine.
 *
 *   svc screen "Vladimir Putin" --dob 1952 --country RU [--type person] [--threshold 0.8] [--limit 10] [--json]
 *   svc screen --file names.csv --out results.csv     (columns: name, optional entity_type, dob, country)
 *   svc compare "Name one" "Name two" [--schema Person]
 *   svc compare --file pairs.csv --out scored.csv     (columns: name1, name2, optional schema)
 *
 * The integrator registers these on the root program; the engine comes from deps.loadEngine().
 */
import { createWriteStream, readFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { parse } from 'csv-parse/sync';
import { toEntitySchema, type ScreeningEngine } from '../screening/engine';
import type { ListTopic, MatchResult, ScreeningQuery } from '../screening/model';

export interface ScreenCommandDeps {
  loadEngine: () => Promise<ScreeningEngine>;
  /** Where human output goes (default process.stdout). */
  stdout?: Writable;
  /** Where progress goes (default process.stderr); a bar is drawn only when it is a TTY. */
  stderr?: Writable & { isTTY?: boolean };
}

/** RFC 4180 field: quoted when it holds a comma, quote or line break. */
export function csvField(v: unknown): string {
  const s = v === undefined || v === null ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function csvLine(values: unknown[]): string {
  return `${values.map(csvField).join(',')}\n`;
}

function readCsv(file: string, required: string[]): Record<string, string>[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`cannot read ${file}: ${(e as Error).message}`);
  }
  let rows: Record<string, string>[];
  try {
    rows = parse(text, { columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()), skip_empty_lines: true, bom: true, trim: true, relax_column_count: true });
  } catch (e) {
    throw new Error(`${file}: not a valid CSV: ${(e as Error).message}`);
  }
  const header = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0].toLowerCase();
  for (const col of required) {
    if (!header.split(',').map((c) => c.trim().replace(/^"|"$/g, '')).includes(col)) {
      throw new Error(`${file}: header must have a "${col}" column (found: ${header || 'empty file'})`);
    }
  }
  return rows;
}

function progress(stderr: ScreenCommandDeps['stderr'], total: number) {
  if (!stderr?.isTTY || total < 2) return { tick: () => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar({ stream: stderr as NodeJS.WriteStream, format: ' screening |{bar}| {value}/{total} {percentage}%' }, cliProgress.Presets.shades_classic);
  bar.start(total, 0);
  return { tick: () => bar.increment(), stop: () => bar.stop() };
}

function output(out: string | undefined, stdout: Writable): { write: (s: string) => void; close: () => Promise<void> } {
  if (!out) return { write: (s) => void stdout.write(s), close: async () => {} };
  const ws = createWriteStream(out);
  return {
    write: (s) => void ws.write(s),
    close: () =>
      new Promise<void>((resolve, reject) => {
        ws.on('error', reject);
        ws.end(resolve);
      }),
  };
}

function parseThreshold(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new Error(`--threshold must be a number between 0 and 1, got "${v}"`);
  return n;
}

function parseLimit(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--limit must be a positive integer, got "${v}"`);
  return n;
}

/** Human rendering of ranked hits with their explanations. */
export function formatHits(query: ScreeningQuery, hits: MatchResult[], threshold: number): string {
  const lines: string[] = [];
  const q = [query.name, query.birthDate && `dob ${query.birthDate}`, query.country && `country ${query.country}`, query.schema].filter(Boolean).join(', ');
  lines.push(`Query: ${q}`);
  if (!hits.length) {
    lines.push(`No hits at threshold ${threshold}.`);
    return `${lines.join('\n')}\n`;
  }
  hits.forEach((h, i) => {
    const e = h.entity;
    lines.push('');
    lines.push(`${i + 1}. ${h.score.toFixed(4)}  ${e.primaryName}  [${e.schema}; ${e.source} ${e.sourceId}; ${e.topics.join(', ')}${e.programs.length ? `; ${e.programs.slice(0, 3).join(', ')}` : ''}]`);
    lines.push(`   matched ${h.explanation.matchedNameKind.replace('_', ' ')}: "${h.explanation.matchedName}"  (name score ${h.explanation.nameScore})`);
    lines.push(`   tokens: ${h.explanation.alignment.map((a) => `${a.query || '∅'}→${a.candidate || '∅'} ${a.how}${a.how !== 'missing' ? ` ${a.similarity}` : ''}`).join('; ')}`);
    for (const qual of h.explanation.qualifiers) {
      lines.push(`   ${qual.kind}${qual.effect ? ` ${qual.effect > 0 ? '+' : ''}${qual.effect}` : ''}: ${qual.detail}`);
    }
    lines.push(`   ${h.explanation.summary}`);
  });
  return `${lines.join('\n')}\n`;
}

export function registerScreenCommands(program: Command, deps: ScreenCommandDeps): void {
  const stdout = deps.stdout ?? process.stdout;
  const stderr = deps.stderr ?? process.stderr;

  program
    .command('screen')
    .description('screen a name (or a CSV of names) against the loaded watch lists')
    .argument('[name]', 'name to screen')
    .option('--dob <date>', 'date or year of birth (YYYY, YYYY-MM or YYYY-MM-DD)')
    .option('--country <country>', 'country or nationality (ISO alpha-2 or name)')
    .option('--type <type>', 'entity type: person, organization, vessel, aircraft')
    .option('--id <identifier...>', 'identifier(s): passport, registration, IMO…')
    .option('--threshold <score>', 'minimum score (default: the engine default)')
    .option('--limit <n>', 'maximum hits per name', '10')
    .option('--source <sources...>', 'only these lists (ofac_sdn, un_sc, …)')
    .option('--topic <topics...>', 'only these topics (sanctions, pep, debarment, offshore_leaks, export_control)')
    .option('--json', 'print the hits as JSON')
    .option('--file <csv>', 'CSV with a header: name, optional entity_type, dob, country')
    .option('--out <csv>', 'write the CSV results here (default: stdout)')
    .action(async (name: string | undefined, o: Record<string, any>) => {
      const threshold = parseThreshold(o.threshold);
      const limit = parseLimit(o.limit);
      if (!name && !o.file) throw new Error('give a name or --file names.csv');
      if (name && o.file) throw new Error('give either a name or --file, not both');
      const rows = o.file ? readCsv(o.file, ['name']) : [];
      const engine = await deps.loadEngine();
      const filters = {
        sources: o.source as string[] | undefined,
        topics: o.topic as ListTopic[] | undefined,
      };
      if (name) {
        const query: ScreeningQuery = {
          name,
          birthDate: o.dob,
          country: o.country,
          schema: toEntitySchema(o.type),
          identifiers: (o.id as string[] | undefined)?.map((value) => ({ value })),
        };
        const t = threshold ?? engine.defaultThreshold;
        const hits = engine.screen(query, { ...filters, threshold: t, limit });
        stdout.write(o.json ? `${JSON.stringify(hits, null, 2)}\n` : formatHits(query, hits, t));
        return;
      }
      const matchAt = threshold ?? engine.defaultThreshold;
      const out = output(o.out, stdout);
      out.write(csvLine(['name', 'match', 'top_score', 'top_list', 'top_entity_id', 'top_matched_name']));
      const bar = progress(stderr, rows.length);
      let matches = 0;
      for (const row of rows) {
        const query: ScreeningQuery = { name: row.name ?? '', birthDate: row.dob || undefined, country: row.country || undefined, schema: toEntitySchema(row.entity_type || undefined) };
        // Screen low so the top score is reported even when it is no match.
        const top = query.name.trim() ? engine.screen(query, { ...filters, threshold: Math.min(0.5, matchAt), limit: 1 })[0] : undefined;
        const match = !!top && top.score >= matchAt;
        if (match) matches++;
        out.write(csvLine([row.name ?? '', match, top ? top.score : 0, top?.entity.source ?? '', top?.entity.id ?? '', top?.explanation.matchedName ?? '']));
        bar.tick();
      }
      bar.stop();
      await out.close();
      if (o.out) stderr.write(`screened ${rows.length} names, ${matches} matches at ${matchAt}; wrote ${o.out}\n`);
    });

  program
    .command('compare')
    .description('score name pairs with the screening matcher (the benchmark interface)')
    .argument('[name1]', 'first name')
    .argument('[name2]', 'second name')
    .option('--schema <schema>', 'Person, Company, Organization, LegalEntity or Vessel')
    .option('--threshold <score>', 'match threshold (default: the engine default)')
    .option('--file <csv>', 'CSV with a header: name1, name2, optional schema')
    .option('--out <csv>', 'write the scored CSV here (default: stdout)')
    .action(async (name1: string | undefined, name2: string | undefined, o: Record<string, any>) => {
      const threshold = parseThreshold(o.threshold);
      if (!o.file && (!name1 || !name2)) throw new Error('give two names or --file pairs.csv');
      const rows = o.file ? readCsv(o.file, ['name1', 'name2']) : [];
      const engine = await deps.loadEngine();
      const matchAt = threshold ?? engine.defaultThreshold;
      if (!o.file) {
        const r = engine.compare(name1!, name2!, o.schema);
        stdout.write(`${r.score.toFixed(4)} ${r.score >= matchAt ? 'match' : 'no match'} (threshold ${matchAt})\n${r.explanation.summary}\n`);
        stdout.write(`tokens: ${r.explanation.alignment.map((a) => `${a.query || '∅'}→${a.candidate || '∅'} ${a.how}`).join('; ')}\n`);
        return;
      }
      const text = readFileSync(o.file, 'utf8').replace(/^\uFEFF/, '');
      const columns: string[] = parse(text.split(/\r?\n/, 1)[0], { trim: true })[0].map((c: string) => c.toLowerCase());
      const extra = columns.filter((c) => c !== 'score' && c !== 'match');
      const out = output(o.out, stdout);
      out.write(csvLine([...extra, 'score', 'match']));
      const bar = progress(stderr, rows.length);
      let matches = 0;
      for (const row of rows) {
        const r = row.name1 && row.name2 ? engine.compare(row.name1, row.name2, row.schema || o.schema) : { score: 0 };
        const match = r.score >= matchAt;
        if (match) matches++;
        out.write(csvLine([...extra.map((c) => row[c] ?? ''), r.score, match]));
        bar.tick();
      }
      bar.stop();
      await out.close();
      if (o.out) stderr.write(`scored ${rows.length} pairs, ${matches} matches at ${matchAt}; wrote ${o.out}\n`);
    });
}
