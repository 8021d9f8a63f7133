/**
 * One hit per real-world entity and entity types that do not hide a match, on the bundled lists
 * (lists/), screened by the list agents every screening, person check and subject check runs.
 * The OFAC SDN list is the May 2024 snapshot of ../shared/data when it is there (the snapshot the
 * bundle moves to; the July 2021 one predates Putin's designation), else the bundled one.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { createListAgents } from '../../../src/agents/lists/list-agents';
import type { AgentSubject } from '../../../src/agents/runtime/agent';
import type { ReportHit } from '../../../src/reports/model';
import { ScreeningEngine } from '../../../src/screening/engine';
import { BUNDLED_LISTS_DIR, listsFromRoot, loadAllLists } from '../../../src/screening/lists/index';
import { SHARED_DATA_DIR } from '../../support/shared-data';

const sdn2024 = path.join(SHARED_DATA_DIR, 'ofac_sdn_2024-05');
let engine: ScreeningEngine;

before(async () => {
  const lists = listsFromRoot(BUNDLED_LISTS_DIR).map((l) =>
    l.source === 'ofac_sdn' && existsSync(path.join(sdn2024, 'sdn.csv')) ? { source: l.source, dir: sdn2024, files: ['sdn.csv'], publishedAt: '2024-05-01' } : l,
  );
  const load = await loadAllLists({ lists }, { progressBar: false });
  assert.deepEqual(load.failures, []);
  engine = ScreeningEngine.build(load.entities, load.versions);
});

async function screen(agentName: string, subject: Omit<AgentSubject, 'workflow'>): Promise<ReportHit[]> {
  const agent = createListAgents(() => engine).find((a) => a.name === agentName)!;
  const outcome = await agent.run({ workflow: 'screening-1', ...subject }, { signal: new AbortController().signal });
  assert.equal(outcome.queried, true);
  return outcome.hits;
}

const sourcesOf = (hit: ReportHit) => new Set((hit.sources ?? []).map((s) => s.source));

describe('one hit per real-world entity (bundled lists)', () => {
  it('"Sberbank": the bank and its genuinely different subsidiaries, each once with all its list rows', async () => {
    const hits = await screen('sanctions', { name: 'Sberbank', entityType: 'company' });
    // The 2024 SDN and the UK list designate many Sberbank subsidiaries separately (since 2022): each is its
    // own hit, once; what must not happen is one entity reported once per list row.
    assert.ok(hits.length >= 2 && hits.length <= 25, `hits: ${hits.map((h) => h.entityName).join(' | ')}`);
    // the bank itself (OFAC entity number 17018), whichever of its rows matched best
    const bank = hits.find((h) => (h.sources ?? []).some((s) => /:17018$/.test(s.entityId ?? '')));
    assert.ok(bank, 'the bank itself');
    for (const s of ['ofac_cons', 'ofac_enhanced', 'us_csl']) assert.ok(sourcesOf(bank).has(s), `bank listed by ${s}`);
    // the UK designation of the same bank quotes no OFAC number: it joins by its full name (legal forms aside)
    if (existsSync(path.resolve('lists/uk_sanctions'))) assert.ok(sourcesOf(bank).has('uk_sanctions'), 'the UK row of the bank is the same hit');
    assert.ok((bank.sources ?? []).length >= 4);
    for (const s of bank.sources ?? []) {
      assert.ok(s.listVersion && s.publishedAt, `each source names its list version and date: ${JSON.stringify(s)}`);
      assert.ok(s.listAuthority === 'us' || s.listAuthority === 'uk', JSON.stringify(s));
    }
    assert.ok(bank.identifiers?.some((i) => i.type === 'swift_bic'), 'identifiers reach the hit');
    assert.ok(bank.explanation.qualifiers.some((q) => q.kind === 'merged_rows' && /OFAC entity number 17018/.test(q.detail)));
    // no list row is reported twice under two hits
    const rows = hits.flatMap((h) => (h.sources ?? []).map((s) => s.entityId));
    assert.equal(new Set(rows).size, rows.length);
    assert.equal(new Set(hits.map((h) => h.entityName)).size, hits.length, 'each hit is a different entity');
  });

  it('"Vladimir Putin": one hit naming every list that carries him, with his date of birth and nationality', async () => {
    const hits = await screen('sanctions', { name: 'Vladimir Putin', entityType: 'individual' });
    const putin = hits.filter((h) => /putin/i.test(h.entityName));
    assert.equal(putin.length, 1, JSON.stringify(hits.map((h) => [h.entityId, h.entityName])));
    const hit = putin[0]!;
    assert.ok(sourcesOf(hit).has('us_csl'));
    if (existsSync(path.join(sdn2024, 'sdn.csv'))) {
      assert.ok(sourcesOf(hit).has('ofac_sdn'), 'the 2024 SDN row and the CSL row are one entity (ent_num 35096)');
      // and the UK designation, linked by the same name and date of birth
      assert.deepEqual([...sourcesOf(hit)].sort(), ['ofac_sdn', 'uk_sanctions', 'us_csl']);
    }
    assert.ok(hit.birthDates?.includes('1952-10-07'), `DOB: ${hit.birthDates}`);
    assert.deepEqual(hit.nationalities, ['RU']);
  });
});

describe('a default entity type does not hide a match (bundled lists)', () => {
  it('"Banco Nacional de Cuba" with no type: found, read as an organisation, no mismatch', async () => {
    const hits = await screen('sanctions', { name: 'Banco Nacional de Cuba', entityType: 'individual', entityTypeDefaulted: true });
    const bank = hits.find((h) => h.entityName === 'BANCO NACIONAL DE CUBA');
    assert.ok(bank && bank.score >= 0.95 && bank.status === 'confirmed', JSON.stringify(hits.map((h) => [h.entityName, h.score])));
    assert.equal(bank.typeMismatch, undefined);
    assert.ok(sourcesOf(bank).has('ofac_sdn') && sourcesOf(bank).has('us_csl'));
  });

  it('"Banco Nacional de Cuba" as an individual: still reported at confirmed strength, marked a type mismatch', async () => {
    const hits = await screen('sanctions', { name: 'Banco Nacional de Cuba', entityType: 'individual' });
    const bank = hits.find((h) => h.entityName === 'BANCO NACIONAL DE CUBA');
    assert.ok(bank && bank.status === 'confirmed');
    assert.deepEqual(bank.typeMismatch, { expected: 'person', listed: 'organization', typeGiven: true });
    assert.ok(bank.explanation.qualifiers.some((q) => q.kind === 'type_mismatch'));
    assert.match(bank.explanation.summary, /Type mismatch/);
    // weaker matches of the other kind stay away when the caller named a type
    assert.ok(hits.every((h) => h.status === 'confirmed' || !h.typeMismatch));
  });

  it('"Banco Nacional de Cuba" as a company: a sanctions hit, no mismatch', async () => {
    const hits = await screen('sanctions', { name: 'Banco Nacional de Cuba', entityType: 'company' });
    const bank = hits.find((h) => h.entityName === 'BANCO NACIONAL DE CUBA');
    assert.ok(bank && bank.status === 'confirmed' && !bank.typeMismatch);
  });

  it('with no type, matches of another kind than the name suggests are ranked after the others, not dropped', async () => {
    const hits = await screen('sanctions', { name: 'Vladimir Putin', entityType: 'individual', entityTypeDefaulted: true });
    assert.ok(hits.some((h) => /putin/i.test(h.entityName) && !h.typeMismatch));
    const firstMismatch = hits.findIndex((h) => h.typeMismatch);
    if (firstMismatch >= 0) assert.ok(hits.slice(firstMismatch).every((h) => h.typeMismatch), 'mismatches come last');
  });
});
