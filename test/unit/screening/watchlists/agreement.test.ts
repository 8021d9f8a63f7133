import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { addressAgreement, normaliseAddress, normalisePostcode } from '../../../../src/screening/watchlists/address-agreement';
import { compareDates, dobAgreement, oneDigitTypo, parsePartialDate } from '../../../../src/screening/watchlists/dob-agreement';
import { englishGivenNames, GivenNameTable, parseGivenNameFamilies } from '../../../../src/screening/watchlists/given-names';
import { identifierAgreements, normaliseEmail, normalisePhone } from '../../../../src/screening/watchlists/identifier-agreement';
import { personNameAgreement, personNameParts, personNameWords } from '../../../../src/screening/watchlists/person-name';

describe('english given names', () => {
  const t = englishGivenNames();
  it('knows the common English short forms both ways, case and accents aside', () => {
    for (const [a, b] of [['Bob', 'Robert'], ['bill', 'William'], ['Peggy', 'Margaret'], ['JIM', 'james'], ['Liz', 'Elizabeth'], ['Sasha', 'Alexander'], ['Robert', 'bobby']]) {
      assert.ok(t.agree(a, b), `${a} / ${b}`);
      assert.ok(t.agree(b, a), `${b} / ${a}`);
    }
  });
  it('a short form shared by two families does not join them', () => {
    assert.ok(t.agree('Bert', 'Robert'));
    assert.ok(t.agree('Bert', 'Albert'));
    assert.equal(t.agree('Albert', 'Robert'), false);
    assert.equal(t.agree('Samuel', 'Samantha'), false);
  });
  it('different names do not agree', () => {
    assert.equal(t.agree('John', 'Robert'), false);
    assert.equal(t.agree('Robert', 'Roberta'), false);
    assert.equal(t.agree('Margaret', 'Mary'), false);
  });
  it('refuses a malformed data row with its line number', () => {
    assert.throws(() => parseGivenNameFamilies('# c\nrobert\n'), /line 2/);
    const table = new GivenNameTable(parseGivenNameFamilies('robert\tbob,rob\n'));
    assert.ok(table.agree('rob', 'bob'));
    assert.deepEqual(table.formalNames('Bob'), ['robert']);
  });
});

describe('date of birth agreement', () => {
  it('parses ISO and day-first dates and rejects impossible ones', () => {
    assert.deepEqual(parsePartialDate('1980-04-03'), { year: 1980, month: 4, day: 3 });
    assert.deepEqual(parsePartialDate('03/04/1980'), { year: 1980, month: 4, day: 3 });
    assert.deepEqual(parsePartialDate('1980'), { year: 1980, month: undefined, day: undefined });
    assert.equal(parsePartialDate('1980-13-01'), undefined);
    assert.equal(parsePartialDate('April 1980'), undefined);
  });
  it('tells exact, swapped, typo, partial, same-year and conflicting dates apart', () => {
    const d = (s: string) => parsePartialDate(s)!;
    assert.equal(compareDates(d('1980-04-03'), d('1980-04-03')), 'exact');
    assert.equal(compareDates(d('1980-03-04'), d('1980-04-03')), 'day_month_swapped');
    assert.equal(compareDates(d('1980-04-13'), d('1980-04-18')), 'typo');
    assert.equal(compareDates(d('1908-04-13'), d('1980-04-13')), 'typo', 'adjacent digits transposed');
    assert.equal(compareDates(d('1981-04-13'), d('1980-04-13')), 'typo');
    assert.equal(compareDates(d('1980'), d('1980-04-13')), 'partial');
    assert.equal(compareDates(d('1980-06-20'), d('1980-04-13')), 'same_year_other_date');
    assert.equal(compareDates(d('1975-09-21'), d('1980-04-03')), 'conflict');
    assert.equal(compareDates(d('1975'), d('1980-04-03')), 'conflict');
  });
  it('a one-digit typo is one substitution or one adjacent transposition, nothing more', () => {
    assert.ok(oneDigitTypo('19800413', '19800418'));
    assert.ok(oneDigitTypo('19800413', '19800431'));
    assert.equal(oneDigitTypo('19800413', '19800481'), false);
    assert.equal(oneDigitTypo('19800413', '19800413'), false);
  });
  it('keeps the best pair over several dates and says nothing when a side has none', () => {
    assert.equal(dobAgreement(['1975-01-01', '1980-04-03'], ['1980-04-03'])?.level, 'exact');
    assert.equal(dobAgreement([], ['1980-04-03']), undefined);
    assert.equal(dobAgreement(['not a date'], ['1980-04-03']), undefined);
  });
});

describe('address normalisation and agreement', () => {
  it('writes street types, units and postcodes one way', () => {
    const { place: _place, text: _text, ...parts } = normaliseAddress({ line: 'Flat 3, 12 High Street', city: 'London', postalCode: 'sw1a 1aa', country: 'gb' });
    assert.deepEqual(parts, { country: 'GB', postcode: 'SW1A1AA', city: 'london', unit: '3', houseNumber: '12', street: 'high st' });
    assert.equal(normaliseAddress({ line: '12 High St.' }).street, normaliseAddress({ line: '12 HIGH STREET' }).street);
    assert.equal(normaliseAddress({ line: '7 Mill Lane' }).street, normaliseAddress({ line: '7 Mill Ln' }).street);
    assert.equal(normaliseAddress({ line: '500 Fifth Avenue Apt 4B' }).unit, '4b');
    assert.equal(normaliseAddress({ line: '500 Fifth Avenue #4B' }).unit, '4b');
    assert.equal(normalisePostcode('20500-0003', 'US'), '20500');
  });
  it('grades agreement from the same dwelling down to another country', () => {
    const listed = [{ line: 'Flat 3, 12 High Street', city: 'London', postalCode: 'SW1A 1AA', country: 'GB' }];
    const level = (line: string, city = 'London', postalCode = 'SW1A1AA', country = 'GB') => addressAgreement([{ line, city, postalCode, country }], listed)?.level;
    assert.equal(level('12 High St, Apartment 3'), 'same_address');
    assert.equal(level('12 High St'), 'same_address', 'the flat missing on one side still agrees');
    assert.equal(level('Flat 9, 12 High St'), 'same_building_other_unit');
    assert.equal(level('40 High St'), 'same_street');
    assert.equal(level('1 Other Road'), 'same_postcode');
    assert.equal(level('1 Other Road', 'London', 'E1 6AN'), 'same_city');
    assert.equal(level('1 Other Road', 'Leeds', 'LS1 4AB'), 'different');
    assert.equal(level('12 High St', 'Paris', '75001', 'FR'), 'other_country');
    assert.equal(addressAgreement([], listed), undefined);
  });
});

describe('identifier, phone and e-mail agreement', () => {
  it('brings phones to an E.164-like form', () => {
    assert.equal(normalisePhone('07700 900123', 'GB')?.e164, '+447700900123');
    assert.equal(normalisePhone('+44 (0)7700 900-123')?.e164, '+447700900123');
    assert.equal(normalisePhone('0044 7700 900123')?.e164, '+447700900123');
    assert.equal(normalisePhone('(202) 555-0143', 'US')?.e164, '+12025550143');
    assert.equal(normalisePhone('07700 900123')?.e164, undefined, 'no country: no code is guessed');
    assert.equal(normalisePhone('123'), undefined);
  });
  it('compares e-mail case-insensitively, without dropping dots', () => {
    assert.equal(normaliseEmail(' R.Smith@Example.COM '), 'r.smith@example.com');
    const a = identifierAgreements([{ kind: 'email', value: 'R.Smith@example.com' }], [{ kind: 'email', value: 'r.smith@EXAMPLE.com' }]);
    assert.equal(a[0]?.level, 'email_match');
    assert.deepEqual(identifierAgreements([{ kind: 'email', value: 'rsmith@gmail.com' }], [{ kind: 'email', value: 'r.smith@gmail.com' }]), []);
  });
  it('matches phones written differently, and only probably when one side\'s country code is unknown', () => {
    assert.equal(identifierAgreements([{ kind: 'phone', value: '+44 7700 900123' }], [{ kind: 'phone', value: '07700900123', country: 'GB' }])[0]?.level, 'phone_match');
    assert.equal(identifierAgreements([{ kind: 'phone', value: '+44 7700 900123' }], [{ kind: 'phone', value: '07700900123' }])[0]?.level, 'phone_probable_match');
    assert.equal(identifierAgreements([{ kind: 'phone', value: '07700 900123' }], [{ kind: 'phone', value: '07700900123' }])[0]?.level, 'phone_match', 'the same national number on both sides');
    assert.equal(identifierAgreements([{ kind: 'phone', value: '(702) 919-1300' }], [{ kind: 'phone', value: '702.919.1300' }])[0]?.level, 'phone_match');
    assert.equal(identifierAgreements([{ kind: 'phone', value: '07700 900123' }], [{ kind: 'phone', value: '07700900123' }], { subject: 'GB', listed: 'GB' })[0]?.level, 'phone_match');
  });
  it('matches documents on letters and digits and flags a lifelong id of another number', () => {
    assert.equal(identifierAgreements([{ kind: 'passport', value: '12-345 678', country: 'GB' }], [{ kind: 'passport', value: '12345678', country: 'gb' }])[0]?.level, 'document_match');
    assert.equal(identifierAgreements([{ kind: 'tax_id', value: 'AB123456C', country: 'GB' }], [{ kind: 'tax_id', value: 'ZX998877A', country: 'GB' }])[0]?.level, 'document_conflict');
    assert.equal(identifierAgreements([{ kind: 'passport', value: '111222333', country: 'GB' }], [{ kind: 'passport', value: '999888777', country: 'GB' }])[0]?.level, 'passport_differs');
    assert.deepEqual(identifierAgreements([{ kind: 'passport', value: '12345678', country: 'GB' }], [{ kind: 'passport', value: '12345678', country: 'FR' }]), []);
  });
});

describe('person name agreement', () => {
  it('reads "Surname, Given" and drops titles and suffixes', () => {
    assert.deepEqual(personNameWords('Smith, Robert J.'), ['robert', 'j', 'smith']);
    assert.deepEqual(personNameWords('Mr Robert Smith Jr.'), ['robert', 'smith']);
  });
  it('a nickname, a missing middle name or a one-letter slip in the surname keeps the name close', () => {
    assert.equal(personNameAgreement('Robert Smith', 'Robert Smith').score, 1);
    assert.ok(personNameAgreement('Bob Smith', 'Robert Smith').score >= 0.9);
    assert.equal(personNameAgreement('Bob Smith', 'Robert Smith').pairs[0].how, 'nickname');
    assert.ok(personNameAgreement('Robert James Smith', 'Robert Smith').score >= 0.85);
    assert.ok(personNameAgreement('Robert Smyth', 'Robert Smith').score >= 0.85);
    assert.ok(personNameAgreement('Smith, Bob', 'Robert Smith').score >= 0.9);
  });
  it('another given name or surname is another person', () => {
    assert.ok(personNameAgreement('John Smith', 'Robert Smith').score <= 0.55);
    assert.ok(personNameAgreement('Robert Jones', 'Robert Smith').score <= 0.45);
    assert.ok(personNameAgreement('Roberta Smith', 'Robert Smith').score <= 0.55);
  });
});

describe('person name agreement: generational suffixes', () => {
  it('keeps Jr, Sr, II, III (written any way) and reads two different ones as two people', () => {
    assert.deepEqual(personNameParts('Smith, Robert J. Jr.'), { words: ['robert', 'j', 'smith'], generation: 'jr' });
    assert.equal(personNameParts('John Smith Senior').generation, 'sr');
    assert.equal(personNameParts('John Smith 3rd').generation, 'iii');
    assert.equal(personNameParts('Junior Smith').generation, undefined, 'a given name, not a suffix');
    const conflict = personNameAgreement('John Smith Jr', 'John Smith Sr.');
    assert.ok(conflict.suffixConflict);
    assert.ok(conflict.score <= 0.6, String(conflict.score));
    assert.match(conflict.notes.join(), /generational suffixes differ/);
    assert.equal(personNameAgreement('John Smith III', 'John Smith II').suffixConflict, true);
    assert.equal(personNameAgreement('John Smith Junior', 'John Smith Jr').score, 1);
    assert.equal(personNameAgreement('John Smith', 'John Smith Jr').suffixConflict, false, 'a suffix left out is no conflict');
  });
});

describe('person name agreement: word order', () => {
  it('reads a two-word name surname first only when that pairs the surnames', () => {
    const a = personNameAgreement('Smith Robert', 'Robert Smith');
    assert.equal(a.score, 1);
    const b = personNameAgreement('Rob Jones', 'Robert Smith');
    assert.ok(b.givenAgrees);
    assert.equal(b.surnameAgrees, false);
    assert.match(b.notes.join(), /"jones" \/ "smith"/);
  });
});

describe('address agreement: postcodes', () => {
  it('one street name in one city under two postcodes is two places; without a postcode on a side, the city stands in', () => {
    const listed = [{ line: '12 Church Court', city: 'Leeds', postalCode: 'LS1 4AB', country: 'GB' }];
    assert.equal(addressAgreement([{ line: '40 Church Ct', city: 'Leeds', postalCode: 'LS9 9ZZ', country: 'GB' }], listed)?.level, 'same_city');
    assert.equal(addressAgreement([{ line: '12 Church Ct', city: 'LEEDS', country: 'GB' }], listed)?.level, 'same_address');
  });
});

describe('address agreement: street types', () => {
  it('a street type missing on one side still agrees; two different types are two streets', () => {
    const listed = [{ line: '12 Kingsway Road', city: 'Leeds', postalCode: 'LS1 4AB', country: 'GB' }];
    assert.equal(addressAgreement([{ line: '12 Kingsway', city: 'Leeds', postalCode: 'LS1 4AB' }], listed)?.level, 'same_address');
    assert.equal(addressAgreement([{ line: '12 Kingsway Avenue', city: 'Leeds', postalCode: 'LS1 4AB' }], listed)?.level, 'same_postcode');
    assert.equal(addressAgreement([{ line: '12 Park Rd', city: 'Leeds', postalCode: 'LS1 4AB' }], [{ line: '12 Park Road', postalCode: 'LS14AB' }])?.level, 'same_address');
  });
});

describe('address agreement: an address written on one line', () => {
  it('takes a US line apart into number, street, unit, city, state and ZIP', () => {
    const { text: _t, place: _p, ...parts } = normaliseAddress({ line: '123 MAIN STREET APT 4 LAS VEGAS NV 89101-1234' });
    assert.deepEqual(parts, { houseNumber: '123', unit: '4', street: 'main st', city: 'las vegas', region: 'nv', postcode: '89101', country: 'US' });
  });
  it('takes a UK line apart, with the country named at the end', () => {
    const { text: _t, place: _p, ...parts } = normaliseAddress({ line: 'Flat 3, 12 High Street, London SW1A 1AA, United Kingdom' });
    assert.deepEqual(parts, { houseNumber: '12', unit: '3', street: 'high st', city: 'london', postcode: 'SW1A1AA', country: 'GB' });
  });
  it('an identical string always agrees, even one the parser cannot take apart', () => {
    for (const line of ['123 Main St, Las Vegas NV 89101', 'Hauptstrasse 5, 10115 Berlin', 'Lot 7 Rural Route 2 Box 19 Smallville KS', 'c/o Acme, PO Box 77, Reno NV']) {
      assert.equal(addressAgreement([{ line }], [{ line }])?.level, 'same_address', line);
    }
  });
  it('a line-only address agrees with the same address written in fields, abbreviated or not', () => {
    const listed = [{ line: '3212 West 32nd Street, Apt 12', city: 'Las Vegas', region: 'Nevada', postalCode: '89102-4312', country: 'US' }];
    assert.equal(addressAgreement([{ line: '3212 W 32nd St #12, Las Vegas, NV 89102' }], listed)?.level, 'same_address');
    assert.equal(addressAgreement([{ line: '3212 W 32ND ST APT 12 LAS VEGAS NV 89102' }], listed)?.level, 'same_address');
    assert.equal(addressAgreement([{ line: '3212 W 32nd St Apt 14, Las Vegas NV 89102' }], listed)?.level, 'same_building_other_unit');
    assert.equal(addressAgreement([{ line: '3300 W 32nd St, Las Vegas NV 89102' }], listed)?.level, 'same_street');
    assert.equal(addressAgreement([{ line: '77 Oak Ave, Las Vegas NV 89102' }], listed)?.level, 'same_postcode');
    assert.equal(addressAgreement([{ line: '77 Oak Ave, Las Vegas NV 89117' }], listed)?.level, 'same_city');
    assert.equal(addressAgreement([{ line: '3212 W 32nd St, Reno NV 89501' }], listed)?.level, 'different');
  });
  it('a city whose name holds a street type is still found when the line runs street and city together', () => {
    assert.equal(addressAgreement([{ line: '400 N Main St Park City UT 84060' }], [{ line: '400 North Main Street', city: 'Park City', region: 'UT' }])?.level, 'same_address');
  });
  it('the same street and city in two states are two places', () => {
    assert.equal(addressAgreement([{ line: '12 Main St, Springfield, IL' }], [{ line: '12 Main St', city: 'Springfield', region: 'MO' }])?.level, 'different');
  });
  it('a street with no town on one side is not compared as the same place', () => {
    assert.equal(addressAgreement([{ line: '12 High Street' }], [{ line: '12 High St', city: 'London', postalCode: 'SW1A 1AA' }]), undefined);
  });
});
