import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ScreeningEngine } from '../../../src/screening/engine';
import type { ListEntity } from '../../../src/screening/model';
import { createPersonListAgent } from '../../../src/agents/person/list-agents';
import { buildFindings, corroborationOf, severityOf } from '../../../src/agents/person/corroboration';
import { standardise } from '../../../src/agents/person/standardise';
import type { SourceRecord } from '../../../src/agents/person/types';

function entity(id: string, name: string, extra: Partial<ListEntity> = {}): ListEntity {
  return {
    id: `ofac_sdn:${id}`,
    source: 'ofac_sdn',
    sourceId: id,
    listVersion: 'ofac_sdn@test',
    topics: ['sanctions'],
    schema: 'person',
    primaryName: name,
    names: [{ value: name, kind: 'primary' }],
    birthDates: [],
    birthPlaces: [],
    nationalities: [],
    countries: [],
    addresses: [],
    identifiers: [],
    programs: ['TEST'],
    ...extra,
  };
}

const engine = ScreeningEngine.build(
  [
    entity('1', 'PETROV, Aleksandr Ivanovich', { birthDates: [{ date: '1961-03-14', raw: '14 Mar 1961' }], nationalities: ['RU'] }),
    entity('2', 'HARTLEY, William James', { birthDates: [{ date: '1975-06-01', raw: '01 Jun 1975' }], addresses: [{ city: 'Miami', region: 'Florida', country: 'US' }] }),
    entity('3', 'MORENO, Margaret', { nationalities: ['MX'] }),
  ],
  [],
);
const agent = createPersonListAgent(
  { name: 'sanctions_list', phase: 3, label: 'test lists', groups: [{ topics: ['sanctions'], category: 'sanctions' }] },
  () => engine,
);
const ctx = { signal: new AbortController().signal, now: () => new Date('2026-11-22T12:00:00.000Z') };

async function check(input: Parameters<typeof standardise>[0]) {
  const { subject } = standardise(input);
  const outcome = await agent.run(subject, ctx);
  assert.equal(outcome.queried, true);
  return buildFindings(outcome.queried ? outcome.records : [], subject.nameOrigins);
}

test('a listed person is found under a nickname, tied by name and date of birth: red flag', async () => {
  const findings = await check({ personCheckId: 'SVC-00000001-P', purpose: 'employment', fullName: 'Sasha Petrov', dateOfBirth: '1961-03-14' });
  assert.equal(findings.length, 1);
  const finding = findings[0]!;
  assert.equal(finding.source.entityId, 'ofac_sdn:1');
  assert.equal(finding.corroboration, 'name_dob');
  assert.equal(finding.severity, 'red_flag');
  assert.equal(finding.category, 'sanctions');
  assert.match(finding.why, /variant of the given name "Sasha"/);
  assert.match(finding.why, /date of birth 1961-\*\*-\*\* equals listed 14 Mar 1961/);
  assert.equal(finding.source.retrievedAt, '2026-11-22T12:00:00.000Z');
  assert.equal(finding.source.name, 'OFAC SDN List');
});

test('a same-name person with a different date of birth is reported name-only and is not a red flag', async () => {
  const findings = await check({ personCheckId: 'SVC-00000002-P', purpose: 'employment', fullName: 'William James Hartley', dateOfBirth: '1990-02-02', locations: ['Florida'] });
  assert.equal(findings.length, 1);
  assert.equal(findings[0]!.corroboration, 'name_only', 'a DOB conflict outweighs the location match');
  assert.equal(findings[0]!.severity, 'info');
  assert.match(findings[0]!.why, /most likely a different person/);
});

test('name and US-state address corroborate when no date of birth is given', async () => {
  const findings = await check({ personCheckId: 'SVC-00000003-P', purpose: 'employment', fullName: 'Bill Hartley', locations: ['FL'] });
  assert.equal(findings[0]?.corroboration, 'name_location');
  assert.equal(findings[0]?.severity, 'warning');
});

test('name and country corroborate; a name alone on a sanctions list is a warning only when the name is a confirmed match', async () => {
  const byCountry = await check({ personCheckId: 'SVC-00000004-P', purpose: 'business_due_diligence', fullName: 'Peggy Moreno', locations: ['Mexico'] });
  assert.equal(byCountry[0]?.corroboration, 'name_location');
  const nameOnly = await check({ personCheckId: 'SVC-00000005-P', purpose: 'business_due_diligence', fullName: 'Margaret Moreno' });
  assert.equal(nameOnly[0]?.corroboration, 'name_only');
  assert.equal(nameOnly[0]?.severity, 'warning');
});

test('an innocent name finds nothing', async () => {
  assert.deepEqual(await check({ personCheckId: 'SVC-00000006-P', purpose: 'employment', fullName: 'Theodora Quillfeather' }), []);
});

const base: SourceRecord = {
  category: 'criminal', sourceName: 's', retrievedAt: 't', searchedName: 'a', matchedName: 'a', nameScore: 0.96, nameWhy: 'w', dob: 'unknown', location: 'unknown', title: 't',
};

test('severity table by category and corroboration', () => {
  const sev = (r: Partial<SourceRecord>) => {
    const rec = { ...base, ...r };
    return severityOf(rec, corroborationOf(rec));
  };
  assert.equal(sev({ category: 'criminal', dob: 'match' }), 'red_flag');
  assert.equal(sev({ category: 'criminal', location: 'match' }), 'warning');
  assert.equal(sev({ category: 'criminal' }), 'info');
  assert.equal(sev({ category: 'pep', dob: 'year_match' }), 'warning');
  assert.equal(sev({ category: 'pep' }), 'info');
  assert.equal(sev({ category: 'sanctions', nameScore: 0.85 }), 'info');
  assert.equal(sev({ category: 'sanctions', dob: 'conflict', location: 'match' }), 'info');
  assert.equal(sev({ category: 'adverse_media', adverse: true, location: 'match' }), 'warning');
  assert.equal(sev({ category: 'adverse_media', adverse: true }), 'info');
  assert.equal(sev({ category: 'corporate_role', dob: 'match' }), 'info');
});

test('the same record found under several names is one finding, with the best corroboration', () => {
  const findings = buildFindings([
    { ...base, category: 'sanctions', entityId: 'x:1', searchedName: 'Bill X', dob: 'unknown' },
    { ...base, category: 'sanctions', entityId: 'x:1', searchedName: 'William X', dob: 'match', dobDetail: 'equal' },
  ]);
  assert.equal(findings.length, 1);
  assert.equal(findings[0]!.corroboration, 'name_dob');
  assert.equal(findings[0]!.id, 'F1');
});
