/**
 * The list agents' share of a screening, in process (a script, not a test): npx tsx bench/list-agents.ts
 *
 * On the bundled lists with the engine as the service builds it (recent queries kept), for the names
 * bench/http.ts screens, typed as individuals (as its load is): the four list agents' rows
 * (screenRows: the typed query and the type-mismatch pass) the two-pass way they were computed before
 * (the reference below: the untyped query in full) against now (the other kinds asked first), and the
 * whole agents (rows, grouping, hits). Alternating rounds in one process; the baseline is the bare
 * matcher (one typed query, no topic filter) measured in the same rounds. The machine is shared:
 * read the ratios. Prints JSON.
 */
import os from 'node:os';
import { createListAgents, expectedSchema, HIT_THRESHOLD, queriesFor, screenRows, TYPE_MISMATCH_THRESHOLD, type NameScreener } from '../src/agents/lists/list-agents';
import type { AgentSubject } from '../src/agents/runtime/agent';
import { ScreeningEngine } from '../src/screening/engine';
import { BUNDLED_LISTS_DIR, listsFromRoot, loadAllLists } from '../src/screening/lists/index';
import type { EntitySchema, ListTopic, MatchOptions, MatchResult } from '../src/screening/model';

const names = ['Vladimir Putin', 'John Smithers', 'Kim Jong Un', 'Acme Trading Ltd', 'Margaret Thistlewood', 'Rosneft', 'Banco Nacional de Cuba', 'Ali Hassan'];
const TOPICS: ListTopic[][] = [['sanctions'], ['pep'], ['offshore_leaks'], ['debarment', 'export_control']];

const sameKind = (expected: EntitySchema, listed: EntitySchema) =>
  listed === 'unknown' || expected === 'unknown' ? true : expected === 'person' ? listed === 'person' : listed !== 'person';

/** The rows as computed before: the typed query, then the whole untyped query at confirmed strength. */
function twoPassRows(engine: NameScreener, subject: AgentSubject, options: MatchOptions): number {
  const expected = expectedSchema(subject);
  const best = new Map<string, MatchResult>();
  for (const query of queriesFor(subject)) {
    for (const result of engine.screen(query, { ...options, limit: 80 })) best.set(result.entity.id, result);
    const { schema: _typed, ...untyped } = query;
    for (const result of engine.screen(untyped, { ...options, threshold: Math.max(TYPE_MISMATCH_THRESHOLD, options.threshold ?? 0), limit: 80 })) {
      if (!sameKind(expected.schema, result.entity.schema) && !best.has(result.entity.id)) best.set(result.entity.id, result);
    }
  }
  return best.size;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

async function main() {
  const load = await loadAllLists({ lists: listsFromRoot(BUNDLED_LISTS_DIR) }, { progressBar: false });
  const engine = ScreeningEngine.build(load.entities, load.versions, { recentQueries: 256 });
  const agents = createListAgents(() => engine);
  const signal = new AbortController().signal;
  const subject = (i: number): AgentSubject => ({ workflow: 'bench', name: names[i % names.length]!, entityType: 'individual' });
  const timed: Record<string, number[]> = { bare: [], rows_before: [], rows_now: [], agents_now: [] };
  const measure = async (label: string, work: (i: number) => unknown) => {
    for (let i = 0; i < names.length * 25; i++) {
      const t0 = performance.now();
      await work(i);
      timed[label]!.push(performance.now() - t0);
    }
  };
  const rounds = Number(process.env.BENCH_ROUNDS ?? 8);
  for (let r = 0; r < rounds + 1; r++) {
    const order = r % 2 === 0 ? ['bare', 'rows_before', 'rows_now', 'agents_now'] : ['agents_now', 'rows_now', 'rows_before', 'bare'];
    for (const label of order) {
      await measure(label, (i) => {
        if (label === 'bare') return engine.screen({ name: names[i % names.length]!, schema: 'person' }, { threshold: 0.8 });
        if (label === 'rows_before') return TOPICS.map((topics) => twoPassRows(engine, subject(i), { topics, threshold: HIT_THRESHOLD }));
        if (label === 'rows_now') return TOPICS.map((topics) => screenRows(engine, subject(i), { topics, threshold: HIT_THRESHOLD }).rows.length);
        return Promise.all(agents.map((agent) => agent.run(subject(i), { signal })));
      });
      if (r === 0) timed[label] = []; // the first round warms up
    }
  }
  const bare = median(timed.bare!);
  const result = {
    machine: `${os.cpus()[0]?.model ?? 'cpu'}, ${os.cpus().length} cores, Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
    entities: load.entities.length,
    per_screening_median_ms: Object.fromEntries(Object.entries(timed).map(([k, v]) => [k, round(median(v))])),
    ratio_to_bare_matcher: Object.fromEntries(Object.entries(timed).map(([k, v]) => [k, round(median(v) / bare, 2)])),
    rows_before_over_now: round(median(timed.rows_before!) / median(timed.rows_now!), 2),
  };
  console.log(JSON.stringify(result, null, 2));
}

await main();
