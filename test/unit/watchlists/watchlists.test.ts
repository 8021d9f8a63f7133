/** Internal watchlists: the first match policy, import reading and the scorer's severity rows (issue 21). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NAME_WEIGHT, scoreWatchlistCandidate } from '../../../src/screening/watchlists/match-policy';
import type { WatchlistEntry } from '../../../src/screening/watchlists/model';
import { detectColumn, mapRecord, normaliseDob } from '../../../src/app/watchlists/import-parser';
import { computeRiskScore } from '../../../src/reports/risk-score';
import { HIT_THRESHOLD } from '../../../src/agents/lists/list-agents';
import { internalQueryNames } from '../../../src/agents/lists/internal-lists';

const robert: WatchlistEntry = {
  entryId: 'e-1',
  entityType: 'person',
  primaryName: 'Robert Smith',
  aliases: [],
  datesOfBirth: ['1971-04-03'],
  nationalities: ['GB'],
  addresses: [{ line: '12 Baker Street', city: 'London', postalCode: 'NW1 6XE', country: 'GB' }],
  identifiers: [{ kind: 'passport', value: '123456789' }, { kind: 'phone', value: '+44 20 7946 0000' }],
  reason: 'fraud',
  addedBy: 'u',
  addedAt: '2026-01-01T00:00:00.000Z',
};
const exact = { nameScore: 1, matchedName: 'Robert Smith', exact: true };

// (the tuned policy replaced the first version: these cases assert its answers; more in test/unit/screening/watchlists)
describe('scoreWatchlistCandidate', () => {
  it('a name alone never reaches the hit threshold; DOB and address lift it; a conflicting DOB sinks it', () => {
    assert.equal(NAME_WEIGHT < HIT_THRESHOLD, true);
    assert.ok(scoreWatchlistCandidate({ name: 'Robert Smith' }, robert, exact).score < HIT_THRESHOLD);
    const dob = scoreWatchlistCandidate({ name: 'Robert Smith', birthDate: '1971-04-03' }, robert, exact);
    assert.ok(dob.score >= HIT_THRESHOLD && dob.score < 0.95, String(dob.score));
    const both = scoreWatchlistCandidate({ name: 'Robert Smith', birthDate: '1971-04-03', address: { line: '12 baker street', postalCode: 'nw16xe' } }, robert, exact);
    assert.equal(both.score, 1);
    assert.deepEqual(both.qualifiers.map((q) => q.kind), ['dob_exact', 'address_same_address', 'policy_band']);
    const other = scoreWatchlistCandidate({ name: 'Robert Smith', birthDate: '1980-01-01', address: { line: '12 Baker Street', city: 'London' } }, robert, exact);
    assert.ok(other.score < HIT_THRESHOLD, String(other.score));
    assert.match(other.summary, /differs from listed 1971-04-03/);
  });

  it('an agreeing phone (written another way) lifts a name to a potential hit, the same passport confirms; another passport does not confirm', () => {
    const phone = scoreWatchlistCandidate({ name: 'Robert Smith', identifiers: [{ type: 'phone', value: '0044 20 7946 0000' }] }, robert, exact);
    assert.equal(phone.strength, 'potential');
    assert.ok(phone.score >= HIT_THRESHOLD && phone.score < 0.95, String(phone.score));
    assert.equal(scoreWatchlistCandidate({ name: 'Robert Smith', identifiers: [{ type: 'passport', value: '1234 56789' }] }, robert, exact).score, 1);
    const other = scoreWatchlistCandidate({ name: 'Robert Smith', birthDate: '1971-04-03', identifiers: [{ type: 'passport', value: '999888777' }] }, robert, exact);
    assert.notEqual(other.strength, 'confirmed');
  });

  it('the subject is also tried in its nickname forms', () => {
    const names = internalQueryNames({ name: 'Bob Smith', entityType: 'individual' });
    assert.ok(names.some((n) => n.name === 'Robert Smith' && n.variant === 'nickname Bob → Robert'), JSON.stringify(names));
    assert.deepEqual(internalQueryNames({ name: 'Bob Holdings', entityType: 'company' }).map((n) => n.name), ['Bob Holdings']);
  });
});

describe('import reading', () => {
  it('reads dates of birth in several forms; refuses impossible ones', () => {
    const cases: [string, string | undefined][] = [
      ['1971', '1971'],
      ['1971-4', '1971-04'],
      ['1971/04/03', '1971-04-03'],
      ['03/04/1971', '1971-04-03'],
      ['13/04/1971', '1971-04-13'],
      ['04/13/1971', '1971-04-13'],
      ['3 April 1971', '1971-04-03'],
      ['April 3, 1971', '1971-04-03'],
      ['Apr 1971', '1971-04'],
      ['31/02/1971', undefined],
      ['yesterday', undefined],
    ];
    for (const [raw, want] of cases) assert.equal(normaliseDob(raw), want, raw);
    assert.equal(normaliseDob('03/04/1971', 'mdy'), '1971-03-04');
  });

  it('recognises common headers and maps a record, naming each unreadable field', () => {
    assert.deepEqual(['Full Name', 'Surname', 'D.O.B.', 'Post Code', 'E-mail Address', 'Passport No', 'Shoe'].map(detectColumn), ['full_name', 'last_name', 'date_of_birth', 'postal_code', 'email', 'passport', undefined]);
    const ok = mapRecord(
      [
        { column: 'First', target: 'first_name', value: 'Ann' },
        { column: 'Last', target: 'last_name', value: 'Example' },
        { column: 'Nat', target: 'nationality', value: 'France; DE' },
        { column: 'Aka', target: 'alias', value: 'Annie|A. Example' },
      ],
      7,
      {},
    );
    assert.deepEqual([ok.row?.entry.primaryName, ok.row?.entry.nationalities, ok.row?.entry.aliases.map((a) => a.name)], ['Ann Example', ['FR', 'DE'], ['Annie', 'A. Example']]);
    assert.match(ok.row!.entryId, /^row-[0-9a-f]{16}$/);
    const bad = mapRecord([{ column: 'DOB', target: 'date_of_birth', value: '1971-13-01' }, { column: 'Country', target: 'country', value: 'Atlantis' }], 9, {});
    assert.deepEqual(bad.errors.map((e) => [e.line, e.field]), [[9, 'date_of_birth'], [9, 'country'], [9, 'full_name']]);
    assert.equal(bad.row, undefined);
  });
});

describe('risk scorer: internal-list hits count by the list severity', () => {
  const hit = (severity: 'block' | 'review' | 'note', score: number) => ({
    hitId: `sanctions:internal_list:x:${severity}`,
    category: 'sanctions' as const,
    source: 'internal_list',
    score,
    entityName: 'Robert Smith',
    internalList: { watchlistId: 'x', name: 'Exits', version: 2, severity, entryId: 'e-1', reason: '' },
    // The policy confirms on identity evidence (the agent records it as the hit's confirmation), never on the score.
    ...(score >= 0.95 ? { assessment: 'identity_corroborated' as const, confirmation: { basis: 'date_of_birth' as const, detail: "the internal-list policy's evidence: same date of birth and address" } } : {}),
  });
  it('block ⇒ critical when confirmed, high when potential; review ⇒ high; note ⇒ medium', () => {
    const level = (severity: 'block' | 'review' | 'note', score: number) => computeRiskScore({ hits: { sanctions: [hit(severity, score)] } }).riskLevel;
    assert.deepEqual(
      [level('block', 1), level('block', 0.87), level('review', 0.97), level('review', 0.85), level('note', 0.96), level('note', 0.85)],
      ['critical', 'high', 'high', 'medium', 'medium', 'low'],
    );
    const assessment = computeRiskScore({ hits: { sanctions: [hit('block', 1)] } });
    assert.ok(assessment.breakdown.some((b) => b.rule === 'internal_list.block.confirmed' && b.points === 15));
    assert.ok(!assessment.breakdown.some((b) => b.rule.startsWith('sanctions.')), 'not counted as an official designation');
  });
});
