import { test } from 'node:test';
import assert from 'node:assert/strict';
import { givenNameVariants, nicknamePairCount, sameGivenName } from '../../../src/agents/person/nicknames';
import { resolveLocation } from '../../../src/agents/person/locations';
import { splitName, standardise, MAX_SEARCH_NAMES } from '../../../src/agents/person/standardise';

test('the nickname table links diminutives, spellings and foreign forms both ways', () => {
  assert.ok(sameGivenName('Bill', 'William'));
  assert.ok(sameGivenName('William', 'Bill'));
  assert.ok(sameGivenName('Peggy', 'Margaret'));
  assert.ok(sameGivenName('Sasha', 'Aleksandr'));
  assert.ok(sameGivenName('sasha', 'ALEXANDER'));
  assert.ok(sameGivenName('Bob', 'Robert'));
  assert.ok(!sameGivenName('Bill', 'Robert'));
  assert.ok(givenNameVariants('Sasha').includes('alyaksandr'), 'Belarusian form of Alexander');
  assert.ok(givenNameVariants('Sasha').includes('alexandra'), 'Sasha is also Alexandra');
  assert.deepEqual(givenNameVariants('Zebulon'), []);
  assert.ok(nicknamePairCount() >= 150, `pairs: ${nicknamePairCount()}`);
});

test('names are split in either order and suffixes dropped', () => {
  assert.deepEqual(splitName('William Henry Gates III'), { given: 'William', middle: 'Henry', family: 'Gates' });
  assert.deepEqual(splitName('Lukashenko, Sasha'), { given: 'Sasha', family: 'Lukashenko' });
  assert.deepEqual(splitName('Cher'), { given: 'Cher', family: 'Cher' });
});

test('locations: USPS codes and names are states, other names and ISO codes are countries, junk is refused', () => {
  assert.deepEqual(resolveLocation('CA'), { kind: 'state', code: 'CA', name: 'California', input: 'CA', country: 'US' });
  assert.equal(resolveLocation('new york')?.code, 'NY');
  assert.equal(resolveLocation('US-TX')?.code, 'TX');
  assert.equal(resolveLocation('Georgia')?.kind, 'state');
  assert.deepEqual(resolveLocation('Georgia (country)') && { kind: resolveLocation('Georgia (country)')!.kind, code: resolveLocation('Georgia (country)')!.code }, { kind: 'country', code: 'GE' });
  assert.equal(resolveLocation('Canada')?.code, 'CA');
  assert.equal(resolveLocation('Canada')?.kind, 'country');
  assert.equal(resolveLocation('CAN')?.code, 'CA');
  assert.equal(resolveLocation('Belarus')?.code, 'BY');
  assert.equal(resolveLocation('RU')?.code, 'RU');
  assert.equal(resolveLocation('Narnia'), undefined);
  assert.equal(resolveLocation('<script>'), undefined);
});

test('standardisation builds search names from the name, aliases and given-name variants, and resolves locations', () => {
  const { subject, unresolvedLocations } = standardise({
    personCheckId: 'SVC-0a1b2c3d-P',
    purpose: 'employment',
    fullName: 'Sasha Lukashenko',
    dateOfBirth: '1954-08-30',
    aliases: ['A. G. Lukashenko'],
    locations: ['Belarus', 'FL', 'Atlantis'],
  });
  assert.equal(subject.searchNames[0], 'Sasha Lukashenko');
  assert.ok(subject.searchNames.includes('A. G. Lukashenko'));
  assert.ok(subject.searchNames.includes('Aleksandr Lukashenko'));
  assert.ok(subject.searchNames.includes('Alexander Lukashenko'));
  assert.ok(subject.searchNames.length <= MAX_SEARCH_NAMES);
  assert.match(subject.nameOrigins['Aleksandr Lukashenko']!, /variant of the given name "Sasha"/);
  assert.equal(subject.dateOfBirth, '1954-08-30');
  assert.deepEqual(subject.locations.map((l) => `${l.kind}:${l.code}`), ['country:BY', 'state:FL']);
  assert.deepEqual(unresolvedLocations, ['Atlantis']);
});

test('portal first/middle/last names take precedence over splitting the full name', () => {
  const { subject } = standardise({ personCheckId: 'SVC-0a1b2c3d-P', purpose: 'licensing', fullName: 'Mary Ann de la Cruz', firstName: 'Mary Ann', lastName: 'de la Cruz' });
  assert.equal(subject.givenName, 'Mary Ann');
  assert.equal(subject.familyName, 'de la Cruz');
  assert.ok(subject.searchNames.includes('Mary Ann de la Cruz'));
});
