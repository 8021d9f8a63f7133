/**
 * Rewrites the issue-27 section of RESULTS.md from figures already measured (no re-measuring):
 * `npx tsx bench/screening/precision-section.ts DIR` with DIR/precision-before.json and
 * DIR/precision-after.json as `run.ts --baseline B --figures-dir DIR` writes them. Used when the read
 * alerts (innocents/alerts-read.tsv) change after a run: reading 50 alerts comes after measuring them.
 * `--sample` prints the 50 held-back name-only alerts to read (precision-report.ts alertSample) instead.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PrecisionFigures } from './precision';
import { alertSample, precisionSection } from './precision-report';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = path.resolve(process.argv[2] ?? '.');
const read = (f: string) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as PrecisionFigures;
const after = read('precision-after.json');
if (process.argv.includes('--sample')) {
  for (const a of alertSample(after.alerts)) console.log([a.name, a.hit, a.score, a.level ?? '', a.exact ? 'exact' : '', a.list, a.detail].join('\t'));
} else {
  const file = path.join(here, 'RESULTS.md');
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf('## Multicultural innocents');
  const end = text.indexOf('\n## ', start + 1);
  if (start < 0 || end < 0) throw new Error('RESULTS.md has no issue-27 section to replace');
  const section = precisionSection(after, read('precision-before.json')).join('\n');
  writeFileSync(file, text.slice(0, start) + section + '\n' + text.slice(end + 1));
  console.log(`rewrote the issue-27 section of ${file}`);
}
