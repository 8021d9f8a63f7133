/**
 * The one definition of "confirmed" (src/reports/confirmation.ts), given/when/then: given what is
 * known when a hit is found (name similarity, dates of birth, identifiers, the name's rarity), when
 * assessed, then its assessment, what confirmed it, and the sentence the explanation carries.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  assessIdentity,
  confirmationOf,
  dobEvidence,
  hitStatusOf,
  identifierEvidence,
  standingOf,
  type IdentityEvidence,
} from '../../../src/reports/confirmation';
import type { BirthDate } from '../../../src/screening/model';

describe('a date of birth against the listed ones', () => {
  const cases: [string, BirthDate[], string | undefined][] = [
    ['1952-10-07', [{ date: '1952-10-07', raw: '07/10/1952' }], 'exact'],
    ['1952-10-07', [{ year: 1952 }], 'within_range'],
    ['1952-10-07', [{ date: '1952-10' }], 'within_range'],
    ['1952-10-07', [{ fromYear: 1950, toYear: 1955, raw: 'BETWEEN 1950 AND 1955' }], 'within_range'],
    ['1952', [{ date: '1952-10-07' }], 'consistent'],
    ['1952-07-10', [{ date: '1952-10-07' }], 'consistent'],
    ['1953-01-01', [{ year: 1952, approximate: true }], 'consistent'],
    ['1952-03-15', [{ date: '1952-10-07' }], 'conflict'],
    ['1990-03-15', [{ date: '1977-06-16' }], 'conflict'],
    ['1990-03-15', [{ date: '1952-09-16' }, { year: 1960 }], 'conflict'],
    ['1990-03-15', [{ date: '1952-09-16' }, { fromYear: 1988, toYear: 1992 }], 'within_range'],
    ['1990-03-15', [], undefined],
    ['not a date', [{ year: 1990 }], undefined],
  ];
  for (const [dob, listed, relation] of cases) {
    it(`${dob} against ${JSON.stringify(listed)}: ${relation ?? 'unknown'}`, () => {
      assert.equal(dobEvidence(dob, listed)?.relation, relation);
    });
  }
  it('a conflict with several listed dates names them all', () => {
    assert.match(dobEvidence('1990-03-15', [{ raw: '16 Sep 1952', date: '1952-09-16' }, { year: 1960 }])!.detail, /agrees with none of the listed 16 Sep 1952, 1960/);
  });
});

describe('identifiers', () => {
  it('equal once spaces, dashes and case are set aside', () => {
    assert.match(identifierEvidence([{ type: 'passport', value: 'ab-123 456' }], [{ type: 'passport', value: 'AB123456', country: 'KP' }])!.detail, /passport ab-123 456 equals listed passport AB123456 \(KP\)/);
  });
  it('short or digit-free values identify nobody', () => {
    assert.equal(identifierEvidence([{ type: 'other', value: '1234' }], [{ type: 'other', value: '1234' }]), undefined);
    assert.equal(identifierEvidence([{ type: 'other', value: 'UNKNOWN' }], [{ type: 'other', value: 'unknown' }]), undefined);
  });
  it('an e-mail address is an identifier', () => {
    assert.ok(identifierEvidence([{ type: 'email', value: 'Boss@Example.com' }], [{ type: 'email', value: 'boss@example.com' }]));
  });
});

describe('the machine\'s assessment of a hit', () => {
  const exact = { nameSimilarity: 1, score: 0.95 };
  const common = { distinctive: false, reason: 'common name: about 360,000 expected bearers among Chinese names', commonIn: [{ label: 'Chinese', countries: ['CN', 'TW'] }] };
  const rare = { distinctive: true, reason: 'distinctive name: about 4 expected bearer(s) world-wide' };
  const given = (e: IdentityEvidence) => assessIdentity(e);

  it('given an exact common name and nothing else, then a strong name match: name only, needs an identity fact', () => {
    const r = given({ ...exact, rarity: common });
    assert.deepEqual([r.assessment, r.confirmation], ['strong_name_match', undefined]);
    assert.equal(r.note, 'name only: common name: about 360,000 expected bearers among Chinese names; needs an identity fact (date of birth or identifier)');
  });
  it('given an exact distinctive name, then corroborated by the name alone', () => {
    const r = given({ ...exact, rarity: rare });
    assert.deepEqual([r.assessment, r.confirmation?.basis], ['identity_corroborated', 'distinctive_name']);
  });
  it('given a distinctive name that other listed entities also carry, then not confirmed: namesakes on the lists themselves', () => {
    const r = given({ ...exact, rarity: rare, namesakesOnLists: 1 });
    assert.equal(r.assessment, 'strong_name_match');
    assert.match(r.note, /the lists themselves carry 2 different entities of this name/);
  });
  it('given a distinctive name matched only partly, then not confirmed', () => {
    assert.equal(given({ nameSimilarity: 0.96, score: 0.91, rarity: rare }).assessment, 'name_match');
  });
  it('given an agreeing date of birth, then confirmed by it; given a close name too (a missing patronymic)', () => {
    const dob = dobEvidence('1952-10-07', [{ date: '1952-10-07', raw: '07/10/1952' }]);
    assert.deepEqual([given({ ...exact, rarity: common, dob }).confirmation], [{ basis: 'date_of_birth', detail: 'date of birth 1952-10-07 equals listed 07/10/1952' }]);
    assert.equal(given({ nameSimilarity: 0.946, score: 0.95, rarity: common, dob }).assessment, 'identity_corroborated');
    assert.equal(given({ nameSimilarity: 0.85, score: 0.86, rarity: common, dob }).assessment, 'name_match', 'a date does not confirm another name');
  });
  it('given a date of birth that contradicts every listed one, then contradicted, even on a distinctive exact name', () => {
    const r = given({ ...exact, rarity: rare, dob: dobEvidence('1990-03-15', [{ date: '1952-10-07' }]) });
    assert.equal(r.assessment, 'identity_contradicted');
    assert.match(r.note, /^identity contradicted: date of birth 1990-03-15 is outside listed 1952-10-07, so this is most likely a namesake$/);
  });
  it('given an agreeing identifier, then confirmed by it, whatever the date of birth says', () => {
    const r = given({ ...exact, rarity: common, identifier: { detail: 'passport X1 equals listed passport X1' }, dob: dobEvidence('1990-03-15', [{ date: '1952-10-07' }]) });
    assert.deepEqual([r.assessment, r.confirmation?.basis], ['identity_corroborated', 'identifier']);
  });
  it('given only a birth year that agrees, then not confirmed: a full date is needed', () => {
    const r = given({ ...exact, rarity: common, dob: dobEvidence('1952', [{ date: '1952-10-07' }]) });
    assert.equal(r.assessment, 'strong_name_match');
    assert.match(r.note, /birth year 1952 agrees .* but a full date is needed to confirm/);
  });
  it('given nationality agreement on a name common in that country, then the note says it is weak evidence', () => {
    assert.match(given({ ...exact, rarity: common, countryAgrees: 'CN' }).note, /country CN agrees, but the name is common among Chinese names there: weak evidence/);
    assert.doesNotMatch(given({ ...exact, rarity: common, countryAgrees: 'FR' }).note, /weak evidence/);
  });
});

describe('standing: the machine\'s assessment with the analyst\'s decision', () => {
  const by = { by: 'analyst@bank.test', at: '2026-11-20T10:00:00.000Z' };
  it('a true match confirms, by the analyst; a false positive dismisses; "needs more information" changes nothing', () => {
    const hit = { score: 0.9, assessment: 'name_match' as const };
    assert.equal(standingOf({ ...hit, disposition: { decision: 'true_match', ...by } }), 'analyst_confirmed');
    assert.deepEqual(confirmationOf({ ...hit, disposition: { decision: 'true_match', ...by } }), { basis: 'analyst', detail: 'marked a true match by analyst@bank.test on 2026-11-20' });
    assert.equal(standingOf({ ...hit, disposition: { decision: 'false_positive', ...by } }), 'dismissed');
    assert.equal(standingOf({ ...hit, disposition: { decision: 'needs_more_information', ...by } }), 'name_match');
    assert.equal(hitStatusOf({ ...hit, disposition: { decision: 'needs_more_information', ...by } }), 'potential');
  });
});
