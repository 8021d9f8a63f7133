/**
 * The issue-27 section of RESULTS.md: the multicultural innocents and the pair classes, before (the
 * baseline checkout) and after (this one), from precision.ts's figures. run.ts calls it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rng } from './devsets';
import { CULTURES } from './innocents/multicultural';
import type { Alert, PairCounts, PrecisionFigures, Rate } from './precision';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The baseline's figures as last measured with `run.ts --baseline DIR` (kept so a plain run.ts still shows them). */
export const BASELINE_FILE = path.join(here, 'precision-before.json');
/** The 50 held-back name-only alerts read by hand (name, hit, score, verdict, why). */
export const READ_FILE = path.join(here, 'innocents/alerts-read.tsv');

const per100 = (r: Rate | undefined, k: 'flagged' | 'sanctions' | 'other' | 'exact' | 'critical' | 'high' = 'flagged') =>
  r && r.n && r[k] !== undefined ? ((100 * r[k]!) / r.n).toFixed(2) : 'n/a';
/** Flagged innocents whose whole name is not a listed name (the alerts the name-part rules can act on). */
const notExact = (r: Rate | undefined) => (r && r.n && r.exact !== undefined ? ((100 * (r.flagged - r.exact)) / r.n).toFixed(2) : 'n/a');
/** Per 10,000 (the issue's unit for critical). */
const per10k = (r: Rate | undefined) => (r && r.n && r.critical !== undefined ? ((10000 * r.critical) / r.n).toFixed(1) : 'n/a');
const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');
const recall = (c?: PairCounts) => (c && c.tp + c.fn ? f3(c.tp / (c.tp + c.fn)) : 'n/a');
const f1 = (c?: PairCounts) => {
  if (!c) return 'n/a';
  const p = c.tp / (c.tp + c.fp);
  const r = c.tp / (c.tp + c.fn);
  return f3((2 * p * r) / (p + r));
};
const falseAlerts = (c?: PairCounts) => (c && c.fp + c.tn ? `${c.fp}/${c.fp + c.tn}` : 'n/a');

/** The held-back alerts to read: 50 drawn with a fixed seed from the name-only alerts of the held-back half. */
export function alertSample(alerts: Alert[], n = 50): Alert[] {
  const held = alerts.filter((a) => a.half === 'held_back');
  const rand = rng(50);
  for (let i = held.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [held[i], held[j]] = [held[j], held[i]];
  }
  return held.slice(0, n);
}

/** Keep what the committed baseline needs: the figures and a small sample of its alerts. */
export function trimmed(f: PrecisionFigures): PrecisionFigures {
  return { ...f, alerts: alertSample(f.alerts, 50) };
}

export function loadBaseline(): PrecisionFigures | undefined {
  return existsSync(BASELINE_FILE) ? (JSON.parse(readFileSync(BASELINE_FILE, 'utf8')) as PrecisionFigures) : undefined;
}

export function precisionSection(after: PrecisionFigures, before: PrecisionFigures | undefined): string[] {
  const out: string[] = [];
  const log = (s = '') => out.push(s);
  const b = (k: string) => before?.innocents[k];
  const a = (k: string) => after.innocents[k];
  const both = (k: string, what: 'flagged' | 'sanctions' | 'exact' | 'critical' | 'high' = 'flagged') => `${per100(b(k), what)} → **${per100(a(k), what)}**`;
  log('## Multicultural innocents and the name-part rules (issue 27 §1)');
  log();
  log('bench/screening/innocents/multicultural.ts: 20,800 synthetic people, 1,600 in each of 13 naming cultures (Chinese,');
  log('Korean, Japanese, Russian, Persian, Arabic, Hebrew, Greek, Turkish, Vietnamese, Hispanic, Indian, English), each written');
  log('once in the culture\'s script (or with its diacritics) or romanised, from faker\'s locale pools and pools written for');
  log('this set with Zipf weights (common names common), and a random date of birth. Even ids are the tuning half, odd ids');
  log('the held-back half (rules were tuned on the tuning half only). Each person is screened by name only (no entity type)');
  log('and with the date of birth, against every bundled list, at the default threshold: flagged = at least one hit.');
  log(`Before: commit ${before?.commit ?? 'n/a'}; after: ${after.commit}${after.commit === before?.commit ? '' : ' and the working tree'}.`);
  log('Both measured by bench/screening/precision.ts on the same people and pairs (`npx tsx bench/screening/run.ts --baseline DIR`');
  log('with a checkout of the baseline in DIR, e.g. `git archive <commit> | tar -x -C DIR` plus a COMMIT file and a node_modules link;');
  log('without --baseline, the before column is the last such measurement, precision-before.json).');
  log();
  log('Verdict levels: what the product answers for the name (and DOB) alone, computed by the measured checkout\'s own code:');
  log('its list agents (sanctions, PEP, offshore leaks, debarment: one hit per real-world entity, assessed confirmed or');
  log('potential) run over the engine for an S1 CDD subject with no entity type, and its risk scorer (src/reports/risk-score.ts,');
  log('floors included) scores their hits with nothing else known (no country, no media, no registries). An exact collision');
  log('is an innocent whose whole name equals a listed name (a hit of name similarity ≥ 0.995): no name rule can tell them');
  log('apart; only an identity fact (DOB, identifier) can, which is the verdict\'s job (issue 27 §2).');
  log();
  log('| screened | half | flagged /100 | of which exact collisions /100 | flagged, not exact /100 | critical /10,000 | high /100 |');
  log('|---|---|---|---|---|---|---|');
  for (const mode of ['name_only', 'with_dob']) {
    for (const half of ['tuning', 'held_back']) {
      const k = `${mode}|${half}|all`;
      log(
        `| ${mode === 'name_only' ? 'name only' : 'name + DOB'} | ${half.replace('_', '-')} | ${both(k)} | ${both(k, 'exact')} | ` +
          `${notExact(b(k))} → **${notExact(a(k))}** | ${per10k(b(k))} → **${per10k(a(k))}** | ${both(k, 'high')} |`,
      );
    }
  }
  log();
  log('Through a sanctions list (flagged /100, before → after): ' + ['tuning', 'held_back'].map((h) => `name only, ${h.replace('_', '-')}: ${both(`name_only|${h}|all`, 'sanctions')}`).join('; ') + '.');
  log();
  log('Per culture and written form, held-back half, name only (per 100, before → after):');
  log();
  log('| culture | n | flagged | exact collisions | high | critical | flagged with DOB |');
  log('|---|---|---|---|---|---|---|');
  for (const g of [...CULTURES, 'native', 'roman']) {
    const k = `name_only|held_back|${g}`;
    log(`| ${g} | ${a(k)?.n ?? 0} | ${both(k)} | ${both(k, 'exact')} | ${both(k, 'high')} | ${both(k, 'critical')} | ${both(`with_dob|held_back|${g}`)} |`);
  }
  log();
  log('What remains flagged is mostly a whole name equal to a listed one, in the same or another spelling (Sun Wei / SUN, Wei;');
  log('Mohammed Hassan / HASSAN, Mohamed), a listed name with a patronymic more or less (Elena Ivanova / IVANOVA, Elena');
  log('Nikolaevna: a missing patronymic stays an alert, docs/name-matching.md "Alerts on partial matches"), an Arabic name with');
  log('the article more or less (أحمد الحسن / Ahmad Hasan), and partial matches on names the name-frequency model does not take');
  log('for common (its pools hold a few hundred surnames per culture). Exact collisions are high by issue 27 §2');
  log('("a name-only match on a common name is potential: high"), so they alone keep the name-only figures above the issue\'s');
  log('targets: no name rule can lower the exact-collision share, only an identity fact can. Name-only critical verdicts need an');
  log('exact match on a distinctive name; since the name-frequency pools know the Latin spellings of names written in other');
  log('scripts (docs/name-frequency.md, "Latin readings"), no innocent of either half gets one.');
  log();
  log('### Positive classes, before → after (recall at the default threshold; F1 where the class has false pairs)');
  log();
  log('| set | class | pairs | before | after |');
  log('|---|---|---|---|---|');
  const keys = [...new Set([...Object.keys(after.pairs), ...Object.keys(before?.pairs ?? {})])].sort();
  for (const k of keys.filter((x) => x.includes(':'))) {
    const [set, cls] = k.split(':');
    const c = after.pairs[k];
    const o = before?.pairs[k];
    const n = c ? c.tp + c.fn + c.fp + c.tn : 0;
    if (c && c.tp + c.fn === 0) {
      log(`| ${set} | ${cls} (false pairs: alerts) | ${n} | ${falseAlerts(o)} | ${falseAlerts(c)} |`);
      continue;
    }
    const hasFalse = c && c.fp + c.tn > 0;
    log(`| ${set} | ${cls} | ${n} | R ${recall(o)}${hasFalse ? ` / F1 ${f1(o)}` : ''} | R ${recall(c)}${hasFalse ? ` / F1 ${f1(c)}` : ''} |`);
  }
  log(`| UN | listed persons by listed name | ${after.un.n} | ${before ? `${before.un.found}/${before.un.n}` : 'n/a'} | ${after.un.found}/${after.un.n} |`);
  log();
  log('dev = development pairs built from the lists (devsets.ts), hand = bench/data/pairs_handmade.csv, hard = dev-sets/*.tsv;');
  log('dev-alert = the true dev pairs as alerts: the first name screened alone (no type, no DOB) finds the entity the pair was');
  log('built from at the default threshold (the alert rule for partial matches on common names acts here, not on pair scores).');
  log();
  log('### The rules\' own classes (dev-sets/precision/), per half');
  log();
  log('True pairs: recall; false pairs: alerts / false pairs.');
  log();
  log('| class | half | before | after |');
  log('|---|---|---|---|');
  for (const k of keys.filter((x) => x.includes('|'))) {
    const [cls, half] = k.split('|');
    const c = after.pairs[k];
    const o = before?.pairs[k];
    const show = (x?: PairCounts) => (!x ? 'n/a' : [x.tp + x.fn ? `R ${recall(x)} (${x.tp}/${x.tp + x.fn})` : '', x.fp + x.tn ? `false alerts ${falseAlerts(x)}` : ''].filter(Boolean).join(', '));
    log(`| ${cls} | ${half.replace('_', '-')} | ${show(o)} | ${show(c)} |`);
  }
  log();
  if (existsSync(READ_FILE)) {
    // query, best hit, score, level, verdict, why, commit
    const rows = readFileSync(READ_FILE, 'utf8').trim().split('\n').slice(1).map((l) => l.split('\t'));
    const sensible = rows.filter((r) => r[4] === 'sensible').length;
    log(`### ${rows.length} random name-only alerts of the held-back half, read (after)`);
    log();
    log(`Drawn with a fixed seed (precision-report.ts alertSample) from the held-back alerts of commit ${rows[0]?.[6] ?? after.commit}; each read and marked`);
    log(`sensible (a reviewer would want to see it) or absurd (no reviewer would). **${sensible} sensible, ${rows.length - sensible} absurd.**`);
    log('Level: the product\'s verdict for the name alone (see above).');
    log();
    log('| query | best hit | score | level | verdict | why |');
    log('|---|---|---|---|---|---|');
    for (const r of rows) log(`| ${r[0]} | ${r[1]} | ${r[2]} | ${r[3]} | ${r[4]} | ${r[5]} |`);
    log();
  }
  return out;
}
