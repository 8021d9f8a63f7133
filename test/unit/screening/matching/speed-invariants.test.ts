/**
 * What the matcher's speed work must not change: the candidates kept when a common word brings more
 * names than the limit (chosen without sorting them all), and the hits when listed names repeat
 * across lists (each distinct name compared once per query) and the spelling memo is kept across
 * queries.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ScreeningEngine } from '../../../../src/screening/engine';
import type { ListEntity } from '../../../../src/screening/model';
import { compareNames, SimilarityMemo, type SpellingMemo } from '../../../../src/screening/matching/compare';
import { NameIndex, type Candidate } from '../../../../src/screening/matching/name-index';
import { prepareName } from '../../../../src/screening/matching/prepare';
import * as F from './fixtures';

const GIVEN = ['Jose', 'Juan', 'Maria', 'Luis', 'Carlos', 'Ana', 'Pedro', 'Rosa', 'Diego', 'Elena'];
const OTHER = ['Perez', 'Lopez', 'Gomez', 'Diaz', 'Ruiz', 'Torres', 'Vargas', 'Castro', 'Ortiz', 'Rojas', 'Silva', 'Reyes'];

/** Hundreds of names sharing "Garcia" (many with equal candidate weight), of 2 to 4 words. */
function garcias(): ListEntity[] {
  const out: ListEntity[] = [];
  for (let i = 0; i < 420; i++) {
    const words = [GIVEN[i % GIVEN.length], 'Garcia'];
    if (i % 3 > 0) words.push(OTHER[i % OTHER.length]);
    if (i % 7 === 0) words.push(OTHER[(i * 5) % OTHER.length]);
    if (i % 11 === 0) words.splice(1, 0, 'Maria');
    out.push(F.entity({ primaryName: words.join(' '), sourceId: `garcia-${i}` }));
  }
  return out;
}

/** Reference: every candidate (no limit); over the limit, stably sorted by weight then length gap and cut. */
function reference(index: NameIndex, query: string, limit: number): Candidate[] {
  const q = prepareName(query, 'person');
  const all = index.candidates(q, Number.MAX_SAFE_INTEGER, 0.5);
  if (all.length <= limit) return all;
  const gap = (c: Candidate) => Math.abs(index.names[c.nameIndex].prepared.tokens.length - q.tokens.length);
  return [...all].sort((a, b) => b.weight - a.weight || gap(a) - gap(b)).slice(0, limit);
}

describe('matcher speed invariants', () => {
  it('keeps the same candidates, in the same order, as a full stable sort when a common word brings more than the limit', () => {
    const index = NameIndex.build(garcias());
    let truncated = 0;
    for (const query of ['Garcia', 'Jose Garcia', 'Maria Garcia Perez', 'Juan Carlos Garcia', 'Ana Garcia Lopez Torres', 'Garcia Diaz']) {
      for (const limit of [5, 40, 150]) {
        const q = prepareName(query, 'person');
        const all = index.candidates(q, Number.MAX_SAFE_INTEGER, 0.5);
        if (all.length > limit) truncated++;
        assert.deepEqual(index.candidates(q, limit, 0.5), reference(index, query, limit), `${query} / ${limit}`);
      }
    }
    assert.ok(truncated >= 10, `the limit was reached ${truncated} times`);
  });

  it('gives the same hits when a listed name repeats across lists as each list alone, and keeps doing so across queries', () => {
    const lists = ['ofac_sdn', 'us_csl', 'un_sc'] as const;
    const copies = lists.flatMap((source) => F.ALL.map((e) => ({ ...e, id: `${source}:${e.sourceId}`, source })));
    const together = ScreeningEngine.build(copies, []);
    const alone = new Map(lists.map((source) => [source, ScreeningEngine.build(copies.filter((e) => e.source === source), [])]));
    const queries = ['Vladimir Putin', 'PUTIN Vladimir', 'Kim Jong Un', 'Saddam Hussein', 'Usama bin Laden', 'Prigozhin', 'George Habbash'];
    let hits = 0;
    for (let round = 0; round < 2; round++) {
      for (const name of queries) {
        const all = together.screen({ name }, { limit: 1000 });
        for (const source of lists) {
          const mine = all.filter((h) => h.entity.source === source);
          const own = alone.get(source)!.screen({ name }, { limit: 1000 });
          assert.deepEqual(
            mine.map((h) => [h.entity.sourceId, h.score, h.explanation]),
            own.map((h) => [h.entity.sourceId, h.score, h.explanation]),
            `${name} in ${source}`,
          );
          hits += own.length;
        }
      }
    }
    assert.ok(hits > 20, `${hits} hits compared`);
  });

  it('a spelling memo shared by many queries gives what no memo gives', () => {
    const memo: SpellingMemo = new SimilarityMemo(12);
    const listed = F.ALL.flatMap((e) => [e.primaryName, ...(e.names ?? []).map((n) => n.value)]);
    for (const query of ['Ali Hassan', 'Vladimir Putin', 'Vladimir Putina', 'Kim Jong Un', 'Abdulrahman Hasan', 'Saddam Husayn', 'Usama Ladin']) {
      const q = prepareName(query, 'person');
      for (const name of listed) {
        const c = prepareName(name, 'person');
        assert.deepEqual(compareNames(q, c, () => 1, true, memo), compareNames(q, c, () => 1, true), `${query} / ${name}`);
      }
    }
    assert.ok(memo.size >= 7);
  });

  it('finds the same candidates, weights and order when the lookup skips names that cannot reach the share', () => {
    const index = NameIndex.build([...garcias(), ...F.ALL]);
    const queries = [
      'Garcia', 'Jose Garcia', 'Garcia Jose', 'Maria Garcia Perez', 'Perez Maria Garcia', 'Juan Carlos Garcia', 'Ana Garcia Lopez Torres',
      'Garcia Diaz', 'Jose Xyzzy', 'Xyzzy Garcia', 'Garsia Lopes', 'J. Garcia Ortiz', 'Maria Jose Garcia Rojas Silva', 'Vladimir Putin',
      'Putin Vladimir Vladimirovich', 'Poetin', 'Kim Jong Un', 'Kimjong Un', 'Sea Star 2', 'Islamic Resistance Movement', 'Hamas',
      'Osama bin Laden', 'Abdulrahman Garcia', 'Juan Garcia (ex-Pedro Castro)', 'Emma Daniels', 'Daniels Emma',
    ];
    for (const query of queries) {
      for (const schema of ['person', 'organization', undefined] as const) {
        const q = prepareName(query, schema);
        for (const [limit, share] of [[150, 0.5], [150, 0.25], [5, 0.5], [40, 0.35]] as const) {
          index.pruneLookup = false;
          const full = index.candidates(q, limit, share);
          index.pruneLookup = true;
          const fast = index.candidates(q, limit, share);
          assert.deepEqual(fast, full, `${query} / ${schema} / ${limit} / ${share}`);
        }
      }
    }
    const pruned = index.prunedLookups;
    assert.ok(pruned >= 10, `the lookup skipped names in ${pruned} lookups`);
  });
});
