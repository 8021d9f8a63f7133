/**
 * Deterministic batch input for bench/batch/run.ts: a customer book of `n` rows, about 1 in 10 a
 * name taken from the bundled OFAC SDN list (natural order, some with a typo), the rest innocent
 * names drawn from the US given-name and surname tables in bench/data. Some rows carry a DOB, a
 * country or an entity type, as a real book would; none is malformed (the bench measures speed).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { rng } from '../screening/devsets';

const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'RU', 'IR', 'CN', 'AE', 'TR', 'Mexico', 'Brazil', 'India'];

function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function column(file: string, index: number): string[] {
  const rows: string[][] = parse(readFileSync(file, 'utf8'), { relax_column_count: true, relax_quotes: true });
  return rows.map((r) => (r[index] ?? '').trim()).filter((v) => v && v !== 'name' && v !== '-0-');
}

function typo(word: string, rand: () => number): string {
  if (word.length < 5) return word;
  const p = 1 + Math.floor(rand() * (word.length - 2));
  return word.slice(0, p) + word[p + 1] + word[p] + word.slice(p + 2);
}

export function batchInput(n: number, seed = 20): string {
  const rand = rng(seed);
  const listed = column('lists/ofac_sdn/sdn.csv', 1).filter((s) => /^[\x20-\x7e]+$/.test(s));
  const given = column('bench/data/us_given_names.csv', 0);
  const surnames = column('bench/data/us_surnames.csv', 0);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const lines = ['name,entity_type,dob,country'];
  for (let i = 0; i < n; i++) {
    let name: string;
    let type = '';
    if (rand() < 0.1) {
      name = pick(listed);
      const comma = name.indexOf(',');
      if (comma > 0) name = `${name.slice(comma + 1).trim()} ${name.slice(0, comma).trim()}`;
      if (rand() < 0.3) name = name.split(' ').map((w) => (rand() < 0.3 ? typo(w, rand) : w)).join(' ');
    } else {
      name = `${pick(given)} ${rand() < 0.3 ? `${pick(given)} ` : ''}${pick(surnames)}`;
      if (rand() < 0.5) type = 'person';
    }
    const dob = rand() < 0.3 ? `${1940 + Math.floor(rand() * 60)}${rand() < 0.5 ? `-0${1 + Math.floor(rand() * 9)}-1${Math.floor(rand() * 9)}` : ''}` : '';
    const country = rand() < 0.3 ? pick(COUNTRIES) : '';
    lines.push([name, type, dob, country].map(csvField).join(','));
  }
  return `${lines.join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const n = Number(process.argv[2] ?? 50_000);
  const out = process.argv[3] ?? `/tmp/batch-${n}.csv`;
  writeFileSync(out, batchInput(n));
  process.stdout.write(`wrote ${n} rows to ${out}\n`);
}
