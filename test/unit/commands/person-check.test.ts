import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DeciderSpecification, type GivenEvent } from '../../support/decider-spec';
import {
  type CompletePersonCheck,
  maskIdentifier,
  pendingAgents,
  personCheckDecider,
  type PersonCheckEvent,
  type PersonFinding,
  type RequestPersonCheck,
  streamName,
} from '../../../src/commands/person-check';
import { IllegalTransition, NotFound, ValidationFailed } from '../../../src/commands/errors';
import { meta, NOW } from './helpers';

const spec = DeciderSpecification.for(personCheckDecider);
const ID = 'SVC-0a1b2c3d-P';
const ids = { personCheckId: ID, accountId: '42' };

function request(over: Partial<RequestPersonCheck['data']> = {}): RequestPersonCheck {
  return {
    type: 'RequestPersonCheck',
    data: {
      ...ids,
      surface: 's1',
      fullName: 'William Smith',
      purpose: 'employment',
      fcraConsent: true,
      dateOfBirth: '1970-05-04',
      locations: ['TX'],
      identifiers: [{ type: 'ssn', value: '123-45-6789' }],
      ...over,
    },
    metadata: meta(),
  };
}
const requestedEvents = (over: Partial<RequestPersonCheck['data']> = {}) => personCheckDecider.decide(request(over), personCheckDecider.initialState());
const requested = () => requestedEvents() as GivenEvent<PersonCheckEvent>[];

const redFlag: PersonFinding = {
  severity: 'red_flag',
  category: 'sanctions',
  corroboration: 'name_dob',
  source: { name: 'OFAC SDN', entityId: 'ofac_sdn:1', retrievedAt: NOW },
  matchedName: 'William SMITH',
  why: 'name and DOB match',
};
function complete(over: Partial<CompletePersonCheck['data']> = {}): CompletePersonCheck {
  return {
    type: 'CompletePersonCheck',
    data: {
      personCheckId: ID,
      result: 'clean',
      confidence: 'high',
      riskScore: 5,
      riskLevel: 'low',
      redFlagCount: 0,
      warningCount: 0,
      sourcesChecked: 18,
      sourcesTotal: 22,
      findings: [],
      ...over,
    },
    metadata: meta(),
  };
}

describe('person check decider', () => {
  it('records purpose and consent and keeps only the last four of identifiers', () => {
    const { events } = spec.given([]).when(request()).thenTypes(['PersonCheckRequested']);
    const data = events[0]!.data as Extract<PersonCheckEvent, { type: 'PersonCheckRequested' }>['data'];
    assert.equal(data.fcraConsent, true);
    assert.equal(data.consentRecordedAt, NOW);
    assert.equal(data.purpose, 'employment');
    assert.deepEqual(data.identifiers, [{ type: 'ssn', last4: '6789' }]);
    assert.ok(!JSON.stringify(events).includes('123-45'), 'the full identifier never reaches an event');
    assert.ok(!data.agents['2']!.includes('whois'), 'no WHOIS without a domain');
    assert.equal(streamName(ID), `person-check-${ID}`);
  });

  it('records the address (its state apart, parts trimmed) and the internal-list versions active at request (issue 30)', () => {
    const version = 'watchlist-0b9f5c1e-3a2d-4c1b-9e8f-1a2b3c4d5e6f@v3';
    const { events } = spec
      .given([])
      .when(request({ address: { line: ' 4596 Washington Circle, Apt 17 ', city: 'Springfield', region: 'IL', postalCode: '62704' }, internalListVersions: [version] }))
      .thenTypes(['PersonCheckRequested']);
    const data = events[0]!.data as Extract<PersonCheckEvent, { type: 'PersonCheckRequested' }>['data'];
    assert.deepEqual(data.address, { line: '4596 Washington Circle, Apt 17', city: 'Springfield', region: 'IL', postalCode: '62704' });
    assert.deepEqual(data.internalListVersions, [version]);
    // a check requested without them records neither (its list agent screens the lists active when it runs)
    const plain = spec.given([]).when(request()).thenTypes(['PersonCheckRequested']).events[0]!.data as Record<string, unknown>;
    assert.equal(plain.address, undefined);
    assert.equal(plain.internalListVersions, undefined);
  });

  it('refuses a bad address or a version that is not an internal-list version, naming each field, writing nothing', () => {
    const error = spec
      .given([])
      .when(request({ address: { region: 'x'.repeat(101), country: 'Britain' }, internalListVersions: ['ofac_sdn@abc'] }))
      .thenThrows(ValidationFailed);
    assert.deepEqual(error.issues.map((i) => i.field), ['address.region', 'address.country', 'internal_list_versions']);
    spec.given([]).when(request({ address: {} })).thenThrows(ValidationFailed, (e) => e.issues.some((i) => i.field === 'address' && /at least one of/.test(i.message)));
    spec.given([]).when(request({ address: 'Springfield' as never })).thenThrows(ValidationFailed, (e) => e.issues.some((i) => i.field === 'address'));
  });

  it('adds the WHOIS agent when an associated domain is given', () => {
    const { events } = spec.given([]).when(request({ associatedDomain: 'Example.COM' })).thenTypes(['PersonCheckRequested']);
    const data = events[0]!.data as Extract<PersonCheckEvent, { type: 'PersonCheckRequested' }>['data'];
    assert.equal(data.associatedDomain, 'example.com');
    assert.ok(data.agents['2']!.includes('whois'));
  });

  for (const consent of [false, 'true', 1, undefined, null]) {
    it(`refuses fcra_consent ${JSON.stringify(consent)} and writes nothing`, () => {
      spec.given([]).when(request({ fcraConsent: consent })).thenThrows(ValidationFailed, (e) => e.issues.some((i) => i.field === 'fcra_consent'));
    });
  }

  it('validates purpose, dates (real, not future), id shape and domain, all at once', () => {
    const error = spec
      .given([])
      .when(request({ personCheckId: 'SVC-xyz-P', purpose: 'curiosity' as never, dateOfBirth: '2023-02-30', associatedDomain: 'not a host' }))
      .thenThrows(ValidationFailed);
    assert.deepEqual(error.issues.map((i) => i.field), ['id', 'purpose', 'date_of_birth', 'associated_domain']);
    spec.given([]).when(request({ dateOfBirth: '2026-03-02' })).thenThrows(ValidationFailed, (e) => e.issues[0]?.field === 'date_of_birth');
  });

  it('records agent results once per phase and agent', () => {
    const rec = {
      type: 'RecordAgentResult' as const,
      data: { personCheckId: ID, phase: 3, agent: 'federal_courts', queried: true, result: { dockets: [] }, startedAt: NOW, finishedAt: NOW },
    };
    const { events, stateAfter } = spec.given(requested()).when({ ...rec, metadata: meta() }).thenTypes(['PersonCheckAgentResultRecorded']);
    assert.ok(!pendingAgents(stateAfter).includes('3/federal_courts'));
    assert.ok(pendingAgents(stateAfter).includes('3/sanctions_list'));
    spec.given([...requested(), ...(events as GivenEvent<PersonCheckEvent>[])]).when({ ...rec, metadata: meta() }).thenNothing();
    spec.given(requested()).when({ ...rec, data: { ...rec.data, phase: 4 }, metadata: meta() }).thenThrows(ValidationFailed);
    spec.given([]).when({ ...rec, metadata: meta() }).thenThrows(NotFound);
  });

  it('completes with a verdict whose counts match its findings', () => {
    spec
      .given(requested())
      .when(complete({ result: 'adverse_found', riskScore: 80, riskLevel: 'critical', redFlagCount: 1, findings: [redFlag] }))
      .then([
        {
          type: 'PersonCheckCompleted',
          data: {
            ...ids,
            surface: 's1',
            result: 'adverse_found',
            confidence: 'high',
            riskScore: 80,
            riskLevel: 'critical',
            redFlagCount: 1,
            warningCount: 0,
            findingsCount: 1,
            sourcesChecked: 18,
            sourcesTotal: 22,
            findings: [redFlag],
            completedAt: NOW,
          },
        },
      ]);
  });

  it('never accepts a dishonest verdict', () => {
    // red flags are never clean
    spec.given(requested()).when(complete({ redFlagCount: 1, findings: [redFlag] })).thenThrows(ValidationFailed, (e) => e.issues.some((i) => i.field === 'result'));
    // counts must match the findings
    spec.given(requested()).when(complete({ result: 'adverse_found', redFlagCount: 2, findings: [redFlag] })).thenThrows(ValidationFailed);
    // most sources not searched: never high confidence
    spec.given(requested()).when(complete({ sourcesChecked: 10, sourcesTotal: 22 })).thenThrows(ValidationFailed, (e) => e.issues.some((i) => i.field === 'confidence'));
    spec.given(requested()).when(complete({ result: 'inconclusive', confidence: 'low', sourcesChecked: 10, sourcesTotal: 22 })).thenTypes(['PersonCheckCompleted']);
  });

  it('completes or fails once; no result after completion', () => {
    const done = [...requested(), ...(personCheckDecider.decide(complete(), personCheckDecider.evolve(personCheckDecider.initialState(), requestedEvents()[0]!)) as GivenEvent<PersonCheckEvent>[])];
    spec.given(done).when(complete()).thenNothing();
    spec.given(done).when({ type: 'FailPersonCheck', data: { personCheckId: ID, reason: 'x' }, metadata: meta() }).thenThrows(IllegalTransition);
    spec.given(requested()).when({ type: 'FailPersonCheck', data: { personCheckId: ID, reason: 'pool down' }, metadata: meta() }).thenTypes(['PersonCheckFailed']);
    spec.given(done).when(request()).thenThrows(IllegalTransition);
  });

  it('masks identifiers to their last four letters or digits', () => {
    assert.equal(maskIdentifier('123-45-6789'), '6789');
    assert.equal(maskIdentifier('AB 12 34 56 C'), '456C');
    assert.equal(maskIdentifier('12'), '12');
  });
});
