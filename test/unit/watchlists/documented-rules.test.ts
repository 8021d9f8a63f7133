/**
 * The rules docs/internal-list-matching.md states, each written as a specification from its own
 * sentence and run the way a screening runs them: the account's index (engine + fact index) and the
 * internal-list agent's path (screenInternalLists), not the policy alone. Each of these failed
 * before the index found entries by their facts (issue 30): the policy had the rule, but the entry
 * never reached it, or a one-line address or a phone without its code took the points away.
 */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { screenInternalLists } from '../../../src/agents/lists/internal-lists';
import type { AgentSubject } from '../../../src/agents/runtime/agent';
import { buildInternalListIndex } from '../../../src/app/watchlists/watchlist-index';
import type { ReportHit } from '../../../src/reports/model';
import type { WatchlistEntry, WatchlistEntryInput } from '../../../src/screening/watchlists/model';

const LIST = { id: '5a0c7d3e-2f61-4b8e-9d0a-1c2b3a4d5e6f', accountId: '7', name: 'Exited for fraud', purpose: '', severity: 'block' as const, owner: 'fincrime', status: 'active' as const, version: 3 };

function entry(entryId: string, content: Partial<WatchlistEntryInput> & { primaryName: string }): WatchlistEntry {
  return { entryId, entityType: 'person', aliases: [], datesOfBirth: [], nationalities: [], addresses: [], identifiers: [], reason: 'card fraud', addedBy: 'import', addedAt: '2026-01-05T10:00:00.000Z', ...content };
}

/** Namesakes and relatives beside the listed person, so a rule that fires fires on the right entry. */
const BYSTANDERS = [
  entry('by-1', { primaryName: 'Robert Smith', datesOfBirth: ['1951-07-19'], addresses: [{ line: '9 Elm Rd', city: 'Reno', region: 'NV', postalCode: '89501' }] }),
  entry('by-2', { primaryName: 'Maria Lopez', datesOfBirth: ['1988-02-02'] }),
  entry('by-3', { primaryName: 'Katherine Miller', datesOfBirth: ['1962-05-30'], identifiers: [{ kind: 'email', value: 'kmiller62@example.net' }] }),
];

/** given(listed entries).when(screened subject).then(the hits): a specification, read top to bottom. */
function given(...listed: WatchlistEntry[]) {
  const index = buildInternalListIndex([{ list: LIST, entries: [...listed, ...BYSTANDERS] }], '2026-02-01T00:00:00.000Z');
  return {
    when(subject: Omit<AgentSubject, 'workflow' | 'accountId' | 'entityType'>) {
      const hits = screenInternalLists(index, { workflow: 'screening-1', accountId: LIST.accountId, entityType: 'individual', ...subject });
      return {
        then(expect: (hits: ReportHit[]) => void) {
          expect(hits);
        },
      };
    },
  };
}

const hitOn = (hits: ReportHit[], entryId: string) => hits.find((h) => h.internalList?.entryId === entryId);

describe('docs/internal-list-matching.md, rule by rule, through the screening index', () => {
  it('"potential: … the same document under another name": the same SSN and date of birth under another surname', () => {
    given(entry('ssn-1', { primaryName: 'Robert Smith', datesOfBirth: ['1970-03-01'], identifiers: [{ kind: 'national_id', value: '123-45-6789', country: 'US' }] }))
      .when({ name: 'Robert Jones', birthDate: '1970-03-01', identifiers: [{ type: 'national_id', value: '123456789' }] })
      .then((hits) => {
        const hit = hitOn(hits, 'ssn-1');
        assert.ok(hit, `no hit: ${JSON.stringify(hits.map((h) => h.internalList?.entryId))}`);
        assert.equal(hit.status, 'potential');
        assert.match(hit.explanation.summary, /national id 123456789 equals listed 123-45-6789/);
        assert.match(hit.explanation.summary, /the same document under another name/);
        assert.equal(hitOn(hits, 'by-1'), undefined, 'the namesake Robert Smith born in 1951 is no hit');
      });
  });

  it('"potential: … the same document under another name": a wholly other name with the same passport is reviewed too', () => {
    given(entry('pp-1', { primaryName: 'Daniel Okafor', identifiers: [{ kind: 'passport', value: 'A1234567', country: 'NG' }] }))
      .when({ name: 'Samuel Adeyemi', identifiers: [{ type: 'passport', value: 'a 123 4567' }] })
      .then((hits) => assert.equal(hitOn(hits, 'pp-1')?.status, 'potential'));
  });

  it('"potential: … the same given name with another surname, the same DOB and dwelling (a changed surname)"', () => {
    given(entry('wed-1', { primaryName: 'Jennifer Anne Walsh', datesOfBirth: ['1984-09-23'], addresses: [{ line: '2210 Desert Inn Road, Apt 5', city: 'Las Vegas', region: 'NV', postalCode: '89109', country: 'US' }] }))
      .when({ name: 'Jennifer Kowalczyk', birthDate: '1984-09-23', address: { line: '2210 DESERT INN RD #5 LAS VEGAS NV 89109' } })
      .then((hits) => {
        const hit = hitOn(hits, 'wed-1');
        assert.equal(hit?.status, 'potential', JSON.stringify(hits.map((h) => h.explanation.summary)));
        assert.match(hit!.explanation.summary, /the surname differs \(changed by marriage\?\)/);
      });
  });

  it('"potential: name ≥ 0.8 and ≥ 2 points (… a shared phone …)": the same phone written two ways, no country code on either side', () => {
    given(entry('ph-1', { primaryName: 'Robert Smith', identifiers: [{ kind: 'phone', value: '(702) 919-1300' }] }))
      .when({ name: 'Bob Smith', identifiers: [{ type: 'phone', value: '702.919.1300' }] })
      .then((hits) => {
        const hit = hitOn(hits, 'ph-1');
        assert.equal(hit?.status, 'potential');
        assert.match(hit!.explanation.summary, /phone 702\.919\.1300 is the same number as listed \(702\) 919-1300/);
        assert.equal(hitOn(hits, 'by-1'), undefined, 'a namesake without the phone is no hit');
      });
  });

  it('"potential: name ≥ 0.8 and ≥ 2 points (… a shared … e-mail)": the customer file writes the name surname first, with a short form', () => {
    given(entry('em-1', { primaryName: 'Katherine Anne Miller', identifiers: [{ kind: 'email', value: 'kam.1975@example.com' }] }))
      .when({ name: 'Miller, Kathy Anne', identifiers: [{ type: 'email', value: 'KAM.1975@Example.com' }] })
      .then((hits) => {
        assert.equal(hitOn(hits, 'em-1')?.status, 'potential');
        assert.equal(hitOn(hits, 'by-3'), undefined, 'another Katherine Miller with another e-mail is no hit');
      });
  });

  it('"DOB … day-month swapped +2" with the same home written on one line on both sides: the points are kept', () => {
    given(entry('sw-1', { primaryName: 'Thomas Reilly', datesOfBirth: ['1973-12-11'], addresses: [{ line: '4512 W Charleston Blvd, Las Vegas NV 89102' }] }))
      .when({ name: 'Thomas Reilly', birthDate: '1973-11-12', address: { line: '4512 W Charleston Blvd, Las Vegas NV 89102' } })
      .then((hits) => {
        const hit = hitOn(hits, 'sw-1');
        assert.ok(hit, 'a hit');
        assert.ok(hit.explanation.qualifiers.some((q) => q.kind === 'dob_day_month_swapped' && q.effect > 0));
        assert.ok(hit.explanation.qualifiers.some((q) => q.kind === 'address_same_address' && q.effect > 0), hit.explanation.summary);
      });
  });

  it('a generational suffix that differs is two people: father and son at one address with one phone', () => {
    given(entry('sr-1', { primaryName: 'James Earl Carter Sr', datesOfBirth: ['1948'], addresses: [{ line: '17 Oak Lane, Springfield IL 62704' }], identifiers: [{ kind: 'phone', value: '217-555-0199' }] }))
      .when({ name: 'James Earl Carter Jr.', address: { line: '17 Oak Ln', city: 'Springfield', postalCode: '62704' }, identifiers: [{ type: 'phone', value: '(217) 555 0199' }] })
      .then((hits) => {
        assert.equal(hitOn(hits, 'sr-1'), undefined, JSON.stringify(hits.map((h) => h.explanation.summary)));
      });
    given(entry('sr-2', { primaryName: 'James Earl Carter Sr', addresses: [{ line: '17 Oak Lane, Springfield IL 62704' }], identifiers: [{ kind: 'phone', value: '217-555-0199' }] }))
      .when({ name: 'James Earl Carter Senior', address: { line: '17 Oak Ln', city: 'Springfield', postalCode: '62704' }, identifiers: [{ type: 'phone', value: '(217) 555 0199' }] })
      .then((hits) => assert.equal(hitOn(hits, 'sr-2')?.status, 'confirmed', 'the same suffix written out'));
  });

  it('an entry listed by an e-mail alone (no name) is found by that e-mail, under any name', () => {
    given(entry('mule-1', { primaryName: '', identifiers: [{ kind: 'email', value: 'cashout.mule@example.net' }] }))
      .when({ name: 'Peter Quill', identifiers: [{ type: 'email', value: 'Cashout.Mule@example.net' }] })
      .then((hits) => {
        const hit = hitOn(hits, 'mule-1');
        assert.equal(hit?.status, 'potential');
        assert.match(hit!.explanation.summary, /listed by its identifiers alone/);
      });
  });

  it('an inactive entry is kept on the list but not screened', () => {
    given(entry('in-1', { primaryName: 'Robert Smith', status: 'inactive', datesOfBirth: ['1970-03-01'], identifiers: [{ kind: 'national_id', value: '123-45-6789' }] }))
      .when({ name: 'Robert Smith', birthDate: '1970-03-01', identifiers: [{ type: 'national_id', value: '123-45-6789' }] })
      .then((hits) => assert.equal(hitOn(hits, 'in-1'), undefined));
  });
});
