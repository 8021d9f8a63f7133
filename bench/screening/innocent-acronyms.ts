/**
 * False-alert cost of acronym matching: random 3–5 letter acronyms (seeded; an innocent company's
 * short name, such as a customer book holds) screened as organisations against the sanctions lists.
 * A hit is counted once per acronym; hits that only an acronym leaving words out produced
 * (compare.ts "may be an acronym … leaving out") are counted apart, so the cost of that rule is the
 * difference, measured in the same run.
 */
import type { ScreeningEngine } from '../../src/screening/engine';
import { rng } from './devsets';

export interface AcronymCost {
  queries: number;
  flagged: number;
  flaggedBySkipOnly: number;
  examples: string[];
}

export function innocentAcronyms(engine: ScreeningEngine, n = 1000, seed = 31): AcronymCost {
  const rand = rng(seed);
  const seen = new Set<string>();
  while (seen.size < n) {
    const len = 3 + Math.floor(rand() * 3);
    let s = '';
    for (let i = 0; i < len; i++) s += String.fromCharCode(65 + Math.floor(rand() * 26));
    seen.add(s);
  }
  let flagged = 0;
  let bySkip = 0;
  const examples: string[] = [];
  for (const q of seen) {
    const hits = engine.screen({ name: q, schema: 'organization' }, { topics: ['sanctions'], limit: 20 });
    if (!hits.length) continue;
    flagged++;
    const skipOnly = hits.every((h) => h.explanation.qualifiers.some((x) => /may be an acronym of .* leaving out/.test(x.detail)));
    if (skipOnly) bySkip++;
    if (skipOnly && examples.length < 8) examples.push(`${q} → ${hits[0].explanation.matchedName} (${hits[0].score})`);
  }
  return { queries: seen.size, flagged, flaggedBySkipOnly: bySkip, examples };
}
