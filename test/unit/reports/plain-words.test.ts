/** What an analyst and an officer read: matches, adjustments, events, times and unsearched sources in words. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventWords, humanDate, humanTime, identifierWords, isTimeZone, notSearchedWords, plainExplanation, qualifierWords, realIdentifiers } from '../../../src/reports/plain-words';

describe('plainExplanation', () => {
  it('given the matcher summary, then no name score, token kinds or raw score remain', () => {
    // As src/screening/engine.ts explain() writes it.
    const raw = 'Exact match on primary "KIM, Jong Un" (name 1, tokens exact); date of birth 1984-01-08 agrees; score 1.';
    assert.equal(plainExplanation(raw), 'Exact match on the primary name "KIM, Jong Un"; date of birth 1984-01-08 agrees.');
    const merged = 'Partial match on strong alias "Jong Un Kim" (name 0.93, tokens exact/phonetic, 1 unmatched); score 0.93. Same entity on 2 list rows, linked by OFAC entity number 20157.';
    const plain = plainExplanation(merged);
    assert.doesNotMatch(plain, /score 0|name 0\.93|tokens/);
    assert.match(plain, /^Partial match on the alias "Jong Un Kim"\. Same entity on 2 list rows, linked by OFAC entity number 20157\.$/);
    // The internal-list policy's wording (src/screening/watchlists/match-policy.ts).
    const internal = 'internal list: Exited customers (review): Name "Margaret Thistlewood" against "Margaret Thistlewood": "margaret" exact; "thistlewood" exact (name score 1). Agreed: date of birth 1961-11-02 equals listed 1961-11-02. Potential match: the name and some details agree; an analyst should review. Score 0.85. Listed because: Chargeback ring';
    assert.equal(
      plainExplanation(internal),
      'internal list: Exited customers (review): Name "Margaret Thistlewood" against "Margaret Thistlewood": "margaret" exact; "thistlewood" exact. Agreed: date of birth 1961-11-02 equals listed 1961-11-02. Potential match: the name and some details agree; an analyst should review. Listed because: Chargeback ring',
    );
  });
});

describe('qualifierWords and identifiers', () => {
  it('given an adjustment, then its detail and its points on the 0-100 score; none when it changes nothing', () => {
    assert.equal(qualifierWords({ effect: 0.05, detail: 'date of birth 1952-10-07 agrees' }), 'date of birth 1952-10-07 agrees (+5 points)');
    assert.equal(qualifierWords({ effect: -0.2, detail: 'nationality differs' }), 'nationality differs (−20 points)');
    assert.equal(qualifierWords({ effect: 0, detail: 'same entity on 2 list rows' }), 'same entity on 2 list rows');
  });
  it('given list remarks parsed as identifiers, then only documents and registration numbers remain, in words', () => {
    const ids = [
      { type: 'passport', value: '645000001', country: 'KP' },
      { type: 'other', value: 'Subject to Directive 1' },
      { type: 'other', value: 'For more information see https://ofac.treasury.gov/' },
      { type: 'website', value: 'www.sberbank.ru' },
      { type: 'registration', value: '1027700132195' },
    ];
    assert.deepEqual(realIdentifiers(ids).map(identifierWords), ['Passport 645000001 (KP)', 'Registration number 1027700132195']);
    assert.deepEqual(realIdentifiers(undefined), []);
  });
});

describe('events and times', () => {
  it('given stored event types, then words, never the type name', () => {
    assert.equal(eventWords('ScreeningRequested'), 'Screening requested');
    assert.equal(eventWords('HitDispositioned'), 'Decision on a hit recorded');
    assert.equal(eventWords('SomethingNewHappened'), 'Something new happened');
  });
  it('given an instant, then a date and time people read, in the zone asked (UTC by default)', () => {
    assert.equal(humanTime('2026-03-07T14:02:11.123Z'), '7 March 2026, 14:02 UTC');
    assert.equal(humanTime('2026-03-07T14:02:11.123Z', 'Europe/Paris'), '7 March 2026, 15:02 CET');
    assert.equal(humanTime('2024-05-03'), '3 May 2024');
    assert.equal(humanTime(undefined), 'not recorded');
    assert.equal(humanDate('2024-05-03'), '3 May 2024');
  });
  it('given zone names, then only real IANA zones are accepted (hostile text is not)', () => {
    assert.equal(isTimeZone('Europe/London'), true);
    assert.equal(isTimeZone('UTC'), true);
    assert.equal(isTimeZone('Mars/Olympus'), false);
    assert.equal(isTimeZone("'; DROP TABLE x; --"), false);
    assert.equal(isTimeZone('A'.repeat(200)), false);
  });
});

describe('notSearchedWords', () => {
  it('given a source that is not configured, then no setting names: the Sources page says what enables it', () => {
    assert.equal(notSearchedWords('not configured: set OPENSANCTIONS_DIR'), 'not configured on this deployment (an administrator enables it; see the Sources page of the portal)');
    assert.doesNotMatch(notSearchedWords('timed out; set NEWS_SEARCH_URL and NEWS_SEARCH_API_KEY'), /[A-Z]+_[A-Z]+/);
    assert.equal(notSearchedWords('HTTP 503 from the registry'), 'HTTP 503 from the registry');
  });
});
