/**
 * "Confirmed" is defined once (issue 27, src/reports/confirmation.ts). It used to be defined four
 * times (95 after rounding in the scorer, 0.95 raw in S2 and the person checks, again in the report
 * fold and the PDF), so a score of 0.946 was confirmed in one place and potential in another. This
 * test reads every source file and fails when a second definition appears: a constant named
 * *CONFIRM* set to a number, `'confirmed'` chosen by comparing a score with a number, a threshold
 * function of its own, or the old "95 or more" wording. It also checks that the places that say
 * whether a hit is confirmed import the module.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const THE_MODULE = 'src/reports/confirmation.ts';

/**
 * Lines that look like a definition but are not one, each with why. Keep this short: a new entry
 * needs a reason an auditor accepts.
 */
const ALLOWED: { file: string; contains: string; why: string }[] = [
  {
    file: 'src/screening/watchlists/match-policy.ts',
    contains: 'confirmed: [0.95, 0.99]',
    why: "the internal-list policy writes its own strength (decided by identity evidence, never the name) onto the score scale; the internal-list agent takes the hit's confirmation from that strength, not from the band",
  },
];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|mjs)$/.test(name)) out.push(full);
  }
  return out;
}

/** The code without its comments (line structure kept), so a comment explaining the old rule is not a definition. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

const DEFINITIONS: { what: string; pattern: RegExp }[] = [
  { what: 'a constant named *CONFIRM* set to a number', pattern: /\b[A-Z_]*CONFIRM[A-Z_]*\s*(?::\s*number\s*)?=\s*[\d.]+/ },
  { what: "'confirmed' chosen by comparing a score with a number", pattern: /[<>]=?\s*[\d.]+[^;\n]*\?\s*'confirmed'|'confirmed'\s*:\s*[^;\n]*[<>]=?\s*0?\.\d/ },
  { what: 'a hit-status threshold function of its own', pattern: /function\s+hitStatus\s*\(|\bhitStatus\s*=\s*\(/ },
  { what: 'the old "95 or more" wording', pattern: /95 or more/i },
  { what: 'a confirmed band written as numbers', pattern: /confirmed\s*:\s*\[\s*0?\.9/ },
];

describe('"confirmed" has one definition', () => {
  const files = sourceFiles(path.join(ROOT, 'src')).map((f) => path.relative(ROOT, f).split(path.sep).join('/'));

  it('no source file outside src/reports/confirmation.ts defines it again', () => {
    const found: string[] = [];
    for (const file of files) {
      if (file === THE_MODULE) continue;
      const lines = withoutComments(readFileSync(path.join(ROOT, file), 'utf8')).split('\n');
      lines.forEach((line, i) => {
        for (const d of DEFINITIONS) {
          if (!d.pattern.test(line)) continue;
          if (ALLOWED.some((a) => a.file === file && line.includes(a.contains))) continue;
          found.push(`${file}:${i + 1}: ${d.what}: ${line.trim().slice(0, 140)}`);
        }
      });
    }
    assert.deepEqual(found, [], `"confirmed" is defined in src/reports/confirmation.ts only:\n${found.join('\n')}`);
  });

  it('the guard itself sees a second definition (each pattern catches what it names)', () => {
    const samples = [
      'export const CONFIRMED_SCORE = 95;',
      'const CONFIRMED_NAME_SCORE = 0.95;',
      "status: d.score >= 0.95 ? 'confirmed' : 'potential',",
      'export function hitStatus(score: number) {',
      "w.field('Score', 'CONFIRMED (95 or more)');",
      'const BANDS = { confirmed: [0.95, 1] };',
    ];
    for (const sample of samples) assert.ok(DEFINITIONS.some((d) => d.pattern.test(withoutComments(sample))), sample);
    assert.ok(!DEFINITIONS.some((d) => d.pattern.test(withoutComments('// a score of 95 or more used to be confirmed'))), 'comments are not definitions');
  });

  it('every allowed exception is still there (a stale entry hides nothing)', () => {
    for (const a of ALLOWED) assert.ok(readFileSync(path.join(ROOT, a.file), 'utf8').includes(a.contains), `${a.file}: ${a.contains}`);
  });

  it('the places that say whether a hit is confirmed import the one module', () => {
    const users = [
      'src/reports/risk-score.ts',
      'src/reports/sections.ts',
      'src/agents/lists/list-agents.ts',
      'src/agents/lists/internal-lists.ts',
      'src/agents/sources/to-report.ts',
      'src/agents/person/corroboration.ts',
      'src/agents/person/verdict.ts',
      'src/commands/subject-check/assessment.ts',
      'src/projections/screening-report.ts',
      'src/app/screenings/screening-service.ts',
      'src/api/openapi/common.ts',
    ];
    for (const file of users) assert.match(readFileSync(path.join(ROOT, file), 'utf8'), /from '[./]*(\.\.\/)*reports\/confirmation'|from '\.\/confirmation'/, file);
  });
});
