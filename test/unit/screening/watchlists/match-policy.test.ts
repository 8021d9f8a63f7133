import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { scoreWatchlistCandidate, type WatchlistEntryLike } from '../../../../src/screening/watchlists/match-policy';

const robert: WatchlistEntryLike = {
  primaryName: 'Robert Smith',
  entityType: 'person',
  datesOfBirth: ['1980-04-03'],
  nationalities: ['GB'],
  addresses: [{ line: '12 High Street', city: 'London', postalCode: 'SW1A 1AA', country: 'GB' }],
  identifiers: [
    { kind: 'phone', value: '07700 900123', country: 'GB' },
    { kind: 'email', value: 'rob.smith@example.com' },
    { kind: 'national_id', value: 'QQ123456C', country: 'GB' },
  ],
};
const sameHome = { line: '12 High St.', city: 'London', postalCode: 'sw1a1aa', country: 'GB' };

describe('internal-list matching policy', () => {
  it('confirms "Bob Smith" with the same date of birth and address, and says why in words', () => {
    const r = scoreWatchlistCandidate({ name: 'Bob Smith', birthDate: '1980-04-03', address: sameHome }, robert);
    assert.equal(r.strength, 'confirmed');
    assert.ok(r.score >= 0.9, String(r.score));
    assert.match(r.summary, /"bob" is a short form of "robert"/);
    assert.match(r.summary, /date of birth 1980-04-03 equals listed 1980-04-03/);
    assert.match(r.summary, /same dwelling/);
    assert.deepEqual(r.agreed.map((f) => f.kind), ['dob', 'address']);
    assert.equal(r.differed.length, 0);
  });

  it('does not alert on a namesake "Robert Smith" born elsewhere in time and living elsewhere', () => {
    const r = scoreWatchlistCandidate(
      { name: 'Robert Smith', birthDate: '1975-09-21', addresses: [{ line: '4 Mill Lane', city: 'Leeds', postalCode: 'LS1 4AB', country: 'GB' }] },
      robert,
    );
    assert.equal(r.strength, 'none');
    assert.equal(r.nameScore, 1);
    assert.match(r.summary, /Differed: date of birth 1975-09-21 differs from listed 1980-04-03/);
    assert.ok(r.score < 0.7 * r.nameScore, 'the differing details pull the score below what the name alone gives');
  });

  it('a namesake with the same date of birth is only potential, and a swapped or mistyped date is weaker than exact', () => {
    const exact = scoreWatchlistCandidate({ name: 'Robert Smith', birthDate: '1980-04-03' }, robert);
    const swapped = scoreWatchlistCandidate({ name: 'Robert Smith', birthDate: '1980-03-04' }, robert);
    const typo = scoreWatchlistCandidate({ name: 'Robert Smith', birthDate: '1980-04-08' }, robert);
    assert.equal(exact.strength, 'potential');
    assert.equal(swapped.strength, 'potential');
    assert.ok(exact.score > swapped.score && swapped.score > typo.score, `${exact.score} > ${swapped.score} > ${typo.score}`);
    assert.match(swapped.summary, /day and month swapped/);
    assert.match(typo.summary, /one digit away/);
  });

  it('a mistyped date plus the same address is still a hit', () => {
    const r = scoreWatchlistCandidate({ name: 'Bob Smith', birthDate: '1980-04-08', address: sameHome }, robert);
    assert.equal(r.strength, 'confirmed');
  });

  it('a shared phone or e-mail corroborates', () => {
    const phone = scoreWatchlistCandidate({ name: 'Bobby Smith', identifiers: [{ type: 'phone', value: '+44 7700 900 123' }] }, robert);
    assert.equal(phone.strength, 'potential');
    assert.match(phone.summary, /phone \+44 7700 900 123 is the same number as listed 07700 900123/);
    const both = scoreWatchlistCandidate(
      { name: 'Bobby Smith', birthDate: '1980-04-03', identifiers: [{ type: 'email', value: 'ROB.SMITH@example.com' }] },
      robert,
    );
    assert.equal(both.strength, 'confirmed');
  });

  it('the same national id under another surname is worth a review (a married name), another id number sinks a match', () => {
    const renamed = scoreWatchlistCandidate({ name: 'Robert Jones', identifiers: [{ type: 'national_id', value: 'QQ 12 34 56 C', country: 'GB' }] }, robert);
    assert.equal(renamed.strength, 'potential');
    const otherId = scoreWatchlistCandidate(
      { name: 'Robert Smith', birthDate: '1980-04-03', address: sameHome, identifiers: [{ type: 'national_id', value: 'AB987654D', country: 'GB' }] },
      robert,
    );
    assert.notEqual(otherId.strength, 'confirmed');
    assert.match(otherId.summary, /another number of the same kind and country/);
  });

  it('another given name is another person, even at the same address', () => {
    const r = scoreWatchlistCandidate({ name: 'Jane Smith', address: sameHome }, robert);
    assert.equal(r.strength, 'none');
    assert.match(r.summary, /No match: the names are different/);
  });

  it('a name alone never alerts, exact or by nickname, and the score stays below the hit threshold', () => {
    const exact = scoreWatchlistCandidate({ name: 'Robert Smith' }, robert, { nameScore: 1, matchedName: 'Robert Smith', exact: true });
    assert.equal(exact.strength, 'none');
    assert.equal(exact.score, 0.7);
    assert.match(exact.summary, /a name alone is not enough on an internal list/);
    assert.match(exact.summary, /Not compared: date of birth \(none given for the subject\); address \(none given for the subject\); identifiers/);
    assert.equal(scoreWatchlistCandidate({ name: 'Bob Smith' }, robert).strength, 'none');
  });

  it('matches through an alias and reports the alias', () => {
    const entry: WatchlistEntryLike = { ...robert, primaryName: 'Robert Smith', aliases: [{ name: 'Robert Brown' }] };
    const r = scoreWatchlistCandidate({ name: 'Bob Brown', birthDate: '1980-04-03', address: sameHome }, entry);
    assert.equal(r.strength, 'confirmed');
    assert.equal(r.matchedName, 'Robert Brown');
  });

  it('a person never matches an organisation entry', () => {
    const r = scoreWatchlistCandidate({ name: 'Robert Smith', entityType: 'person' }, { primaryName: 'Robert Smith', entityType: 'organization' });
    assert.equal(r.strength, 'none');
    assert.equal(r.score, 0);
  });

  it('organisations use the screening matcher\'s name score and their registration number', () => {
    const entry: WatchlistEntryLike = {
      primaryName: 'Acme Trading Ltd',
      entityType: 'organization',
      identifiers: [{ kind: 'registration_number', value: '01234567', country: 'GB' }],
    };
    const withNumber = scoreWatchlistCandidate(
      { name: 'ACME Trading Limited', entityType: 'organization', identifiers: [{ type: 'registration_number', value: '0123 4567', country: 'GB' }] },
      entry,
      { nameScore: 1, matchedName: 'Acme Trading Ltd' },
    );
    assert.equal(withNumber.strength, 'confirmed');
    const nameOnly = scoreWatchlistCandidate({ name: 'ACME Trading Limited', entityType: 'organization' }, entry, { nameScore: 1, matchedName: 'Acme Trading Ltd' });
    assert.equal(nameOnly.strength, 'none', 'a name alone never alerts, for organisations either');
    const otherNumber = scoreWatchlistCandidate(
      { name: 'ACME Trading Limited', entityType: 'organization', identifiers: [{ type: 'registration_number', value: '99999999', country: 'GB' }] },
      entry,
      { nameScore: 1, matchedName: 'Acme Trading Ltd' },
    );
    assert.equal(otherNumber.strength, 'none');
  });
});

describe('internal-list matching policy: a changed surname', () => {
  it('the same given name, birth date and dwelling under another surname is worth a review', () => {
    const r = scoreWatchlistCandidate({ name: 'Rob Jones', birthDate: '1980-04-03', address: sameHome }, robert);
    assert.equal(r.strength, 'potential');
    assert.match(r.summary, /surname differs/);
  });
  it('but not with only the birth date, nor with only the address', () => {
    assert.equal(scoreWatchlistCandidate({ name: 'Rob Jones', birthDate: '1980-04-03' }, robert).strength, 'none');
    assert.equal(scoreWatchlistCandidate({ name: 'Rob Jones', birthDate: '1981-04-03', address: sameHome }, robert).strength, 'none');
  });
});

describe('internal-list matching policy: the score the list agent reads', () => {
  const cases = [
    { name: 'Bob Smith', birthDate: '1980-04-03', address: sameHome },
    { name: 'Robert Smith', birthDate: '1980-04-03', address: sameHome },
    { name: 'Robert Smith', birthDate: '1980-03-04' },
    { name: 'Robert Smith', birthDate: '1975-09-21' },
    { name: 'Robert Smith' },
    { name: 'Jane Smith', address: sameHome },
    { name: 'Robert Smith', birthDate: '1980-04-03', address: sameHome, identifiers: [{ type: 'national_id', value: 'XX000000A', country: 'GB' }] },
  ];
  it('bands the score by strength: confirmed ≥ 0.95, potential 0.80–0.94, none below 0.80', () => {
    for (const s of cases) {
      const r = scoreWatchlistCandidate(s, robert);
      const [lo, hi] = r.strength === 'confirmed' ? [0.95, 1] : r.strength === 'potential' ? [0.8, 0.94] : [0, 0.79];
      assert.ok(r.score >= lo && r.score <= hi, `${s.name}: ${r.strength} ${r.score}`);
    }
    assert.equal(scoreWatchlistCandidate(cases[1]!, robert).score, 1, 'exact name, nothing differing, confirmed');
  });
  it('the qualifiers add up to the score (name weight × name score + effects)', () => {
    for (const s of cases) {
      const r = scoreWatchlistCandidate(s, robert);
      const sum = 0.7 * r.nameScore + r.qualifiers.reduce((a, q) => a + q.effect, 0);
      assert.ok(Math.abs(sum - r.score) < 0.002, `${s.name}: ${sum} vs ${r.score}`);
    }
    const nick = scoreWatchlistCandidate(cases[0]!, robert);
    assert.deepEqual(nick.qualifiers.map((q) => q.kind), ['name_variant', 'dob_exact', 'address_same_address', 'policy_band']);
  });
  it('takes the screening matcher\'s name score when it is the better one, and says how the name was found', () => {
    const r = scoreWatchlistCandidate({ name: 'Rbt Smith', birthDate: '1980-04-03', address: sameHome }, robert, { nameScore: 0.9, matchedName: 'Robert Smith', variant: 'abbreviation Rbt → Robert' });
    assert.equal(r.nameScore, 0.9);
    assert.equal(r.strength, 'confirmed');
    assert.match(r.summary, /found as abbreviation Rbt → Robert/);
  });
});

describe('internal-list matching policy: the screening matcher cannot overrule the given-name table', () => {
  const listed: WatchlistEntryLike = { primaryName: 'Stephanie A Patterson', entityType: 'person', addresses: [{ line: '453 East Cedar Lane, San Diego CA 92105' }] };
  it('Steven at Stephanie\'s address is her husband, whatever the matcher scores the names', () => {
    const r = scoreWatchlistCandidate({ name: 'Steven James Patterson', address: { line: '453 E Cedar Ln, San Diego, CA 92105' } }, listed, { nameScore: 0.89, matchedName: 'Stephanie A Patterson', variant: 'nickname Steven → Stephen' });
    assert.equal(r.strength, 'none');
    assert.ok(r.nameScore <= 0.55);
  });
  it('a short form the table lacks is still read as the start of the given name (Kim / Kimberly)', () => {
    const r = scoreWatchlistCandidate({ name: 'Kim Tucker', birthDate: '1995-12-10' }, { primaryName: 'Kimberly Tucker', datesOfBirth: ['1995-12-10'] });
    assert.equal(r.strength, 'potential');
    assert.match(r.summary, /"kim" \/ "kimberly": one given name is the start of the other/);
  });
});
