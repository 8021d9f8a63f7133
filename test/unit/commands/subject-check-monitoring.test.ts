/**
 * Ongoing monitoring of S2 subject checks, as decider specifications: enrolment (only concluded
 * checks, idempotent both ways, or by the `monitor` flag at conclusion) and the alert rules (one alert
 * per list version and entity, only what is news for the check).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DeciderSpecification, type GivenEvent } from '../../support/decider-spec';
import {
  subjectCheckAlertId,
  subjectCheckDecider,
  subjectCheckMonitoringCommandTypes,
  type MonitoredHit,
  type RecordSubjectCheckMonitoringAlert,
  type SubjectCheckCommand,
  type SubjectCheckEvent,
} from '../../../src/commands/subject-check';
import { IllegalTransition, NotFound, ValidationFailed } from '../../../src/commands/errors';
import { meta, NOW } from './helpers';
import { alertAssessmentView } from '../../../src/commands/subject-check/assessment';

const spec = DeciderSpecification.for(subjectCheckDecider);
const ids = { subjectCheckId: '1001', accountId: '42' };
const H1 = 'a'.repeat(64);
const H2 = 'b'.repeat(64);

function started(monitor?: true): GivenEvent<SubjectCheckEvent> {
  return {
    type: 'SubjectCheckStarted',
    data: {
      ...ids,
      status: 'running',
      firstName: 'Ada',
      middleName: 'King',
      lastName: 'Lovelace',
      locations: [{ country: 'GB', city: 'London' }, { country: 'IT' }],
      purpose: 'employment',
      consent: { certified: true, certifiedAt: NOW },
      ...(monitor ? { monitor } : {}),
      processingAt: NOW,
    },
  };
}

/** A list-backed hit as the sanctions agent reports it (ReportHit), and an outside-source one without a record hash. */
const listHit = (entityId: string, score: number, hash = H1) => ({
  hitId: `sanctions:${entityId}`,
  category: 'sanctions',
  source: 'ofac_sdn',
  entityId,
  entityName: 'LOVELACE, Ada',
  matchedName: 'LOVELACE, Ada',
  score,
  status: score >= 0.95 ? 'confirmed' : 'potential',
  entityRecordHash: hash,
});
const sanctionsResult: GivenEvent<SubjectCheckEvent> = {
  type: 'SubjectCheckAgentResultRecorded',
  data: {
    ...ids,
    agent: 'sanctions',
    tier: 'sanctions',
    queried: true,
    result: {
      hits: [
        listHit('ofac_sdn:1', 0.91),
        listHit('ofac_sdn:1', 0.97), // the same entity under another name: the best one is kept
        { hitId: 'adverse_media:x', category: 'adverse_media', source: 'news', entityId: 'news:x', entityName: 'x', matchedName: 'x', score: 0.9 },
      ],
    },
    startedAt: NOW,
    finishedAt: NOW,
  },
};
const baselineHit: MonitoredHit = {
  hitId: 'sanctions:ofac_sdn:1',
  entityId: 'ofac_sdn:1',
  tier: 'sanctions',
  source: 'ofac_sdn',
  matchedName: 'LOVELACE, Ada',
  score: 0.97,
  entityRecordHash: H1,
};
const subject = { name: 'Ada King Lovelace', entityType: 'individual' as const, jurisdiction: 'GB' };
const summary = { overallResult: 'adverse_found', confidenceLevel: 'high', findingsCount: 1, redFlagCount: 1, warningCount: 0, sourcesSearched: 5, sourcesTotal: 5 };

const concluded = {
  needs_review: {
    type: 'SubjectCheckReviewRequired',
    data: { ...ids, ...summary, status: 'needs_review', reviewReason: 'ambiguous_match', tierScores: { sanctions: 60 }, reviewRequiredAt: NOW },
  },
  escalated: {
    type: 'SubjectCheckEscalated',
    data: {
      ...ids,
      status: 'escalated',
      investigationId: 'INV-1001',
      triggeringTiers: ['sanctions'],
      tierScores: { sanctions: 97 },
      requestedScope: 'enhanced_due_diligence',
      priority: 'critical',
      escalatedAt: NOW,
      investigationCreatedAt: NOW,
      slaDueAt: '2026-03-01T14:00:00.000Z',
    },
  },
  completed: { type: 'SubjectCheckCompleted', data: { ...ids, ...summary, status: 'completed', resolvedBy: 'automatic', completedAt: NOW } },
} satisfies Record<string, GivenEvent<SubjectCheckEvent>>;
const failed: GivenEvent<SubjectCheckEvent> = { type: 'SubjectCheckFailed', data: { ...ids, status: 'failed', errorMessage: 'boom', failedAt: NOW } };
const enrolled: GivenEvent<SubjectCheckEvent> = { type: 'SubjectCheckMonitoringEnrolled', data: { ...ids, subject, hits: [baselineHit], enrolledAt: NOW } };
const unenrolled: GivenEvent<SubjectCheckEvent> = { type: 'SubjectCheckMonitoringUnenrolled', data: { ...ids, unenrolledAt: NOW } };
const monitored = [started(), sanctionsResult, concluded.completed, enrolled];

function alert(over: Partial<RecordSubjectCheckMonitoringAlert['data']> = {}): SubjectCheckCommand {
  return {
    type: 'RecordMonitoringAlert',
    data: { subjectCheckId: '1001', kind: 'new_hit', entityId: 'ofac_sdn:2', listVersion: 'ofac_sdn@v2', diff: { added: { id: 'ofac_sdn:2' } }, entityRecordHash: H2,
      hit: { hitId: 'sanctions:ofac_sdn:2', tier: 'sanctions', source: 'ofac_sdn', matchedName: 'LOVELACE, Ada King', score: 0.93 }, ...over },
    metadata: meta(),
  };
}
const monitoringCommand = (type: (typeof subjectCheckMonitoringCommandTypes)[number]): SubjectCheckCommand =>
  type === 'RecordMonitoringAlert' ? alert() : { type, data: { subjectCheckId: '1001' }, metadata: meta() };

describe('subject check monitoring: every state × monitoring command', () => {
  const histories: Record<string, GivenEvent<SubjectCheckEvent>[]> = {
    none: [],
    running: [started()],
    needs_review: [started(), concluded.needs_review],
    escalated: [started(), concluded.escalated],
    completed: [started(), concluded.completed],
    failed: [started(), failed],
    enrolled: monitored,
    unenrolled: [...monitored, unenrolled],
  };
  type Outcome = string[] | 'nothing' | 'NotFound' | `IllegalTransition:${string}`;
  const table: Record<string, Record<(typeof subjectCheckMonitoringCommandTypes)[number], Outcome>> = {
    none: { EnrollInMonitoring: 'NotFound', UnenrollFromMonitoring: 'NotFound', RecordMonitoringAlert: 'NotFound' },
    running: { EnrollInMonitoring: 'IllegalTransition:running', UnenrollFromMonitoring: 'nothing', RecordMonitoringAlert: 'IllegalTransition:not_monitored' },
    needs_review: { EnrollInMonitoring: ['SubjectCheckMonitoringEnrolled'], UnenrollFromMonitoring: 'nothing', RecordMonitoringAlert: 'IllegalTransition:not_monitored' },
    escalated: { EnrollInMonitoring: ['SubjectCheckMonitoringEnrolled'], UnenrollFromMonitoring: 'nothing', RecordMonitoringAlert: 'IllegalTransition:not_monitored' },
    completed: { EnrollInMonitoring: ['SubjectCheckMonitoringEnrolled'], UnenrollFromMonitoring: 'nothing', RecordMonitoringAlert: 'IllegalTransition:not_monitored' },
    failed: { EnrollInMonitoring: 'IllegalTransition:failed', UnenrollFromMonitoring: 'nothing', RecordMonitoringAlert: 'IllegalTransition:not_monitored' },
    enrolled: { EnrollInMonitoring: 'nothing', UnenrollFromMonitoring: ['SubjectCheckMonitoringUnenrolled'], RecordMonitoringAlert: ['SubjectCheckMonitoringAlertRaised'] },
    unenrolled: { EnrollInMonitoring: ['SubjectCheckMonitoringEnrolled'], UnenrollFromMonitoring: 'nothing', RecordMonitoringAlert: 'IllegalTransition:not_monitored' },
  };
  for (const [state, row] of Object.entries(table)) {
    for (const [type, outcome] of Object.entries(row) as [(typeof subjectCheckMonitoringCommandTypes)[number], Outcome][]) {
      it(`${state} × ${type} → ${Array.isArray(outcome) ? outcome.join(' + ') : outcome}`, () => {
        const then = spec.given(histories[state]).when(monitoringCommand(type));
        if (Array.isArray(outcome)) {
          const { stateAfter } = then.thenTypes(outcome as SubjectCheckEvent['type'][]);
          assert.equal('monitoring' in stateAfter && stateAfter.monitoring, type !== 'UnenrollFromMonitoring');
        } else if (outcome === 'nothing') {
          then.thenNothing();
        } else if (outcome === 'NotFound') {
          then.thenThrows(NotFound, (e) => e.id === '1001');
        } else {
          const expectedState = outcome.split(':')[1];
          then.thenThrows(IllegalTransition, (e) => e.state === expectedState && e.command === type);
        }
      });
    }
  }
});

describe('subject check monitoring: enrolment', () => {
  it('records the subject as the sources saw it and the list-backed hits it concluded on (best hit per entity)', () => {
    spec
      .given([started(), sanctionsResult, concluded.escalated])
      .when(monitoringCommand('EnrollInMonitoring'))
      .then([{ type: 'SubjectCheckMonitoringEnrolled', data: { ...ids, subject, hits: [baselineHit], enrolledAt: NOW } }]);
  });

  it('`monitor` on the request is recorded on SubjectCheckStarted', () => {
    spec
      .given([])
      .when({
        type: 'StartSubjectCheck',
        data: { ...ids, firstName: 'Ada', middleName: 'King', lastName: 'Lovelace', locations: [{ country: 'GB', city: 'London' }, { country: 'IT' }], purpose: 'employment', consent: { certified: true }, monitor: true },
        metadata: meta(),
      })
      .then([started(true)]);
  });

  const conclude = (tierScores: Record<string, number>, bestHitAmbiguous = false): SubjectCheckCommand => ({
    type: 'ConcludeSubjectCheck',
    data: { subjectCheckId: '1001', ...summary, tierScores, bestHitAmbiguous, investigationId: 'INV-1001' },
    metadata: meta(),
  });
  const cases: [string, SubjectCheckCommand, SubjectCheckEvent['type']][] = [
    ['completed', conclude({ sanctions: 10 }), 'SubjectCheckCompleted'],
    ['needs_review', conclude({ sanctions: 60 }, true), 'SubjectCheckReviewRequired'],
    ['escalated', conclude({ sanctions: 97 }), 'SubjectCheckEscalated'],
  ];
  for (const [status, command, conclusion] of cases) {
    it(`a check requested with monitor is enrolled by its conclusion (${status})`, () => {
      const { events, stateAfter } = spec.given([started(true), sanctionsResult]).when(command).thenTypes([conclusion, 'SubjectCheckMonitoringEnrolled']);
      assert.deepEqual(events[1]!.data, { ...ids, subject, hits: [baselineHit], enrolledAt: NOW });
      assert.equal(stateAfter.status, status);
      assert.equal('monitoring' in stateAfter && stateAfter.monitoring, true);
    });
  }

  it('without monitor the conclusion enrols nothing; a failed check with monitor is not enrolled', () => {
    spec.given([started(), sanctionsResult]).when(cases[0]![1]).thenTypes(['SubjectCheckCompleted']);
    const { stateAfter } = spec
      .given([started(true)])
      .when({ type: 'FailSubjectCheck', data: { subjectCheckId: '1001', errorMessage: 'boom' }, metadata: meta() })
      .thenTypes(['SubjectCheckFailed']);
    assert.equal(stateAfter.status !== 'none' && stateAfter.monitoring, false);
  });

  it('re-enrolling after alerts takes the hits as they are now (a new hit in, a removed one out)', () => {
    const raised = (kind: 'new_hit' | 'removed_hit', entityId: string): GivenEvent<SubjectCheckEvent> => ({
      type: 'SubjectCheckMonitoringAlertRaised',
      data: {
        ...ids, alertId: subjectCheckAlertId('v2', entityId), kind, hitId: `sanctions:${entityId}`, entityId, tier: 'sanctions', source: 'ofac_sdn',
        matchedName: 'LOVELACE, Ada K', score: 0.9, diff: {}, listVersion: 'v2', ...(kind === 'new_hit' ? { entityRecordHash: H2 } : {}), raisedAt: NOW,
      },
    });
    spec
      .given([...monitored, raised('removed_hit', 'ofac_sdn:1'), raised('new_hit', 'ofac_sdn:2'), unenrolled])
      .when(monitoringCommand('EnrollInMonitoring'))
      .then([
        {
          type: 'SubjectCheckMonitoringEnrolled',
          data: {
            ...ids,
            subject,
            hits: [{ hitId: 'sanctions:ofac_sdn:2', entityId: 'ofac_sdn:2', tier: 'sanctions', source: 'ofac_sdn', matchedName: 'LOVELACE, Ada K', score: 0.9, entityRecordHash: H2 }],
            enrolledAt: NOW,
          },
        },
      ]);
  });
});

describe('subject check monitoring: alert rules', () => {
  const raisedFrom = (over: Record<string, unknown>) => ({
    ...ids,
    alertId: subjectCheckAlertId('ofac_sdn@v2', (over.entityId as string) ?? 'ofac_sdn:1'),
    hitId: 'sanctions:ofac_sdn:1',
    entityId: 'ofac_sdn:1',
    tier: 'sanctions',
    source: 'ofac_sdn',
    matchedName: 'LOVELACE, Ada',
    score: 0.97,
    listVersion: 'ofac_sdn@v2',
    raisedAt: NOW,
    ...over,
  });
  const remarks = { remarks: { before: 'a.k.a. ADA', after: 'a.k.a. ADA; a.k.a. COUNTESS' } };

  type Row = [string, SubjectCheckCommand, 'nothing' | Record<string, unknown> | typeof NotFound | typeof ValidationFailed];
  const rows: Row[] = [
    ['a reported entity removed from the list → removed_hit with the hit as reported', alert({ kind: 'removed_hit', entityId: 'ofac_sdn:1', diff: { removed: { id: 'ofac_sdn:1' } }, entityRecordHash: undefined, hit: undefined }),
      { kind: 'removed_hit', diff: { removed: { id: 'ofac_sdn:1' } } }],
    ['an entity the check does not report removed → nothing', alert({ kind: 'removed_hit', entityId: 'ofac_sdn:9', entityRecordHash: undefined, hit: undefined }), 'nothing'],
    ['a reported record with the same hash → nothing', alert({ kind: 'changed_hit', entityId: 'ofac_sdn:1', entityRecordHash: H1, diff: remarks, hit: undefined }), 'nothing'],
    ['a reported record that changed → changed_hit with the diff, new hash and new score', alert({ kind: 'changed_hit', entityId: 'ofac_sdn:1', entityRecordHash: H2, diff: remarks, hit: { hitId: 'x', tier: 'sanctions', source: 'ofac_sdn', matchedName: 'LOVELACE, Ada', score: 0.99 } }),
      { kind: 'changed_hit', diff: remarks, entityRecordHash: H2, score: 0.99 }],
    ['the matcher calls it new but the check reports the entity → changed_hit', alert({ kind: 'new_hit', entityId: 'ofac_sdn:1', entityRecordHash: H2, diff: remarks }),
      { kind: 'changed_hit', diff: remarks, entityRecordHash: H2, score: 0.93, matchedName: 'LOVELACE, Ada King' }],
    ['a new listed entity matching the subject → new_hit', alert(),
      { kind: 'new_hit', hitId: 'sanctions:ofac_sdn:2', entityId: 'ofac_sdn:2', matchedName: 'LOVELACE, Ada King', score: 0.93, diff: { added: { id: 'ofac_sdn:2' } }, entityRecordHash: H2 }],
    ['a change to an entity the check does not report → NotFound', alert({ kind: 'changed_hit', entityId: 'ofac_sdn:9', hit: undefined }), NotFound],
    ['a new hit without the hit → ValidationFailed', alert({ hit: undefined }), ValidationFailed],
    ['an unknown kind → ValidationFailed', alert({ kind: 'moved_hit' as never }), ValidationFailed],
    ['a score outside [0,1] → ValidationFailed', alert({ hit: { hitId: 'h', tier: 'sanctions', source: 'ofac_sdn', matchedName: 'n', score: 93 } }), ValidationFailed],
    ['no list version → ValidationFailed', alert({ listVersion: '' }), ValidationFailed],
  ];
  for (const [name, command, outcome] of rows) {
    it(name, () => {
      const then = spec.given(monitored).when(command);
      if (outcome === 'nothing') then.thenNothing();
      else if (outcome === NotFound) then.thenThrows(NotFound);
      else if (outcome === ValidationFailed) then.thenThrows(ValidationFailed);
      else then.then([{ type: 'SubjectCheckMonitoringAlertRaised', data: raisedFrom(outcome as Record<string, unknown>) as never }]);
    });
  }

  it('one alert per list version and entity, whatever the kind, however often the update runs', () => {
    const first = alert({ kind: 'changed_hit', entityId: 'ofac_sdn:1', entityRecordHash: H2, diff: remarks, hit: undefined });
    const { events } = spec.given(monitored).when(first).thenTypes(['SubjectCheckMonitoringAlertRaised']);
    const history = [...monitored, ...events];
    spec.given(history).when(alert({ kind: 'changed_hit', entityId: 'ofac_sdn:1', entityRecordHash: 'c'.repeat(64), diff: remarks, hit: undefined })).thenNothing();
    spec.given(history).when(alert({ kind: 'removed_hit', entityId: 'ofac_sdn:1', entityRecordHash: undefined, hit: undefined })).thenNothing();
    // The next list version is news again.
    spec.given(history).when(alert({ kind: 'removed_hit', entityId: 'ofac_sdn:1', listVersion: 'ofac_sdn@v3', entityRecordHash: undefined, hit: undefined })).thenTypes(['SubjectCheckMonitoringAlertRaised']);
  });

  it('a removed hit is removed once; listed again later it is a new hit', () => {
    const removal = (version: string) => alert({ kind: 'removed_hit', entityId: 'ofac_sdn:1', listVersion: version, entityRecordHash: undefined, hit: undefined });
    const { events } = spec.given(monitored).when(removal('v2')).thenTypes(['SubjectCheckMonitoringAlertRaised']);
    const history = [...monitored, ...events];
    spec.given(history).when(removal('v3')).thenNothing();
    const { events: relisted } = spec
      .given(history)
      .when(alert({ entityId: 'ofac_sdn:1', listVersion: 'v4', hit: { hitId: 'sanctions:ofac_sdn:1', tier: 'sanctions', source: 'ofac_sdn', matchedName: 'LOVELACE, Ada', score: 0.97 } }))
      .thenTypes(['SubjectCheckMonitoringAlertRaised']);
    assert.equal((relisted[0]!.data as { kind: string }).kind, 'new_hit');
  });

  it('nothing is recorded once unenrolled', () => {
    spec.given([...monitored, unenrolled]).when(alert()).thenThrows(IllegalTransition, (e) => e.state === 'not_monitored');
  });
});

/**
 * Issue 27 on S2 monitoring: the enrolment records the facts the check was run with (version 2 of
 * SubjectCheckMonitoringEnrolled), so a later list version's hit is assessed on them; the alert records
 * that assessment and the level the hit gives on its own. Enrolments and alerts recorded before still fold.
 */
describe('subject check monitoring: the subject\'s facts and the assessment made on them (issue 27)', () => {
  const facts = {
    dateOfBirth: '1815-12-10',
    nationality: 'GB',
    identifiers: [{ type: 'passport', value: 'GB1234567' }],
    phone: '+44 20 7946 0958',
    email: 'ada@example.co.uk',
    address: { line: '12 St James Sq', city: 'London', postalCode: 'SW1Y 4JH', country: 'GB' },
  };
  const startedWithFacts: GivenEvent<SubjectCheckEvent> = { ...started(), data: { ...(started().data as object), ...facts } } as GivenEvent<SubjectCheckEvent>;
  const contradicted = { assessment: 'identity_contradicted' as const, note: 'date of birth 1815-12-10 differs from listed 1901' };
  const corroborated = {
    assessment: 'identity_corroborated' as const,
    confirmation: { basis: 'date_of_birth' as const, detail: 'date of birth 1815-12-10 equals listed 10 Dec 1815' },
    note: 'identity corroborated: date of birth 1815-12-10 equals listed 10 Dec 1815',
  };

  it('given a concluded check run with a date of birth and identifiers, when it is enrolled, then the enrolment carries every fact', () => {
    spec
      .given([startedWithFacts, sanctionsResult, concluded.completed])
      .when(monitoringCommand('EnrollInMonitoring'))
      .then([{ type: 'SubjectCheckMonitoringEnrolled', data: { ...ids, subject: { ...subject, ...facts }, hits: [baselineHit], enrolledAt: NOW } }]);
  });

  it('given a check run with facts and `monitor`, when it concludes, then the enrolment its conclusion appends carries them', () => {
    const withMonitor = { ...startedWithFacts, data: { ...(startedWithFacts.data as object), monitor: true } } as GivenEvent<SubjectCheckEvent>;
    const { events } = spec
      .given([withMonitor, sanctionsResult])
      .when({ type: 'ConcludeSubjectCheck', data: { subjectCheckId: '1001', ...summary, tierScores: { sanctions: 10 }, bestHitAmbiguous: false }, metadata: meta() })
      .thenTypes(['SubjectCheckCompleted', 'SubjectCheckMonitoringEnrolled']);
    assert.deepEqual((events[1]!.data as { subject: unknown }).subject, { ...subject, ...facts });
  });

  it('given a check run by name and country only, when it is enrolled, then the enrolment has no fact fields at all', () => {
    const { events } = spec.given([started(), sanctionsResult, concluded.completed]).when(monitoringCommand('EnrollInMonitoring')).thenTypes(['SubjectCheckMonitoringEnrolled']);
    assert.deepEqual(Object.keys((events[0]!.data as { subject: object }).subject).sort(), ['entityType', 'jurisdiction', 'name']);
  });

  it('given a namesake listed with another date of birth, when the alert carries the contradicted assessment and its level, then both are recorded', () => {
    spec
      .given([startedWithFacts, sanctionsResult, concluded.completed, enrolled])
      .when(alert({ identity: contradicted, riskLevel: 'medium' }))
      .then([
        {
          type: 'SubjectCheckMonitoringAlertRaised',
          data: {
            ...ids, alertId: subjectCheckAlertId('ofac_sdn@v2', 'ofac_sdn:2'), kind: 'new_hit', hitId: 'sanctions:ofac_sdn:2', entityId: 'ofac_sdn:2', tier: 'sanctions', source: 'ofac_sdn',
            matchedName: 'LOVELACE, Ada King', score: 0.93, diff: { added: { id: 'ofac_sdn:2' } }, listVersion: 'ofac_sdn@v2', raisedAt: NOW, entityRecordHash: H2,
            identity: contradicted, riskLevel: 'medium',
          },
        },
      ]);
  });

  it('given an enrolment recorded before it carried facts (version 1), when a re-scored change is corroborated by the date of birth, then the changed_hit records the confirmation', () => {
    // `enrolled` is a version-1 enrolment: name, type and country only.
    const { events } = spec
      .given(monitored)
      .when(alert({ kind: 'changed_hit', entityId: 'ofac_sdn:1', entityRecordHash: H2, diff: { remarks: { before: 'a', after: 'b' } }, hit: { hitId: 'x', tier: 'sanctions', source: 'ofac_sdn', matchedName: 'LOVELACE, Ada', score: 0.99 }, identity: corroborated, riskLevel: 'critical' }))
      .thenTypes(['SubjectCheckMonitoringAlertRaised']);
    const d = events[0]!.data as { kind: string; identity: unknown; riskLevel: string };
    assert.deepEqual([d.kind, d.identity, d.riskLevel], ['changed_hit', corroborated, 'critical']);
  });

  const refused: [string, Partial<RecordSubjectCheckMonitoringAlert['data']>, RegExp][] = [
    ['an assessment on a removal', { kind: 'removed_hit', entityId: 'ofac_sdn:1', entityRecordHash: undefined, hit: undefined, identity: contradicted }, /identity/],
    ['"corroborated" without what corroborated it', { identity: { assessment: 'identity_corroborated', note: 'trust me' } }, /identity\.confirmation/],
    ['an analyst\'s confirmation in a machine assessment', { identity: { ...corroborated, confirmation: { basis: 'analyst', detail: 'x' } } }, /identity\.confirmation/],
    ['an unknown assessment', { identity: { assessment: 'probably' as never, note: 'x' } }, /identity\.assessment/],
    ['an oversized note', { identity: { ...contradicted, note: 'x'.repeat(2001) } }, /identity\.note/],
    ['a level without an assessment', { riskLevel: 'high' }, /risk_level/],
    ['a level that is not one', { identity: contradicted, riskLevel: 'severe' as never }, /risk_level/],
  ];
  for (const [what, over, field] of refused) {
    it(`when the alert carries ${what}, then it is refused (ValidationFailed) and nothing is recorded`, () => {
      spec.given(monitored).when(alert(over)).thenThrows(ValidationFailed, (e) => e.issues.some((i) => field.test(i.field)));
    });
  }
});

describe('subject check monitoring: what an alert says about the subject (alertAssessmentView)', () => {
  const raised = (over: Record<string, unknown>) =>
    ({
      ...ids, alertId: 'v2:ofac_sdn:2', kind: 'new_hit', hitId: 'h', entityId: 'ofac_sdn:2', tier: 'sanctions', source: 'ofac_sdn', matchedName: 'YILMAZ, Mehmet',
      score: 0.97, diff: {}, listVersion: 'v2', entityRecordHash: H2, raisedAt: NOW, ...over,
    }) as never;

  it('a common name alone on a sanctions list is potential and high; a contradicted date of birth at most medium; an agreeing one confirmed and critical', () => {
    const nameOnly = alertAssessmentView(raised({ identity: { assessment: 'strong_name_match', note: 'name only: common name, needs an identity fact' } }));
    assert.deepEqual([nameOnly.match_strength, nameOnly.risk_level], ['potential', 'high']);
    const namesake = alertAssessmentView(raised({ score: 0.9, identity: { assessment: 'identity_contradicted', note: 'date of birth 1980-05-05 differs from listed 1970-01-01' } }));
    assert.equal(namesake.match_strength, 'potential');
    assert.ok(['low', 'medium'].includes(namesake.risk_level!), namesake.risk_level!);
    const confirmed = alertAssessmentView(
      raised({ identity: { assessment: 'identity_corroborated', confirmation: { basis: 'date_of_birth', detail: 'date of birth 1970-01-01 equals listed 01 Jan 1970' }, note: 'identity corroborated' } }),
    );
    assert.deepEqual([confirmed.match_strength, confirmed.risk_level, confirmed.confirmation?.basis], ['confirmed', 'critical', 'date_of_birth']);
  });

  it('the level recorded on the alert is the one shown', () => {
    const view = alertAssessmentView(raised({ identity: { assessment: 'strong_name_match', note: 'name only' }, riskLevel: 'medium' }));
    assert.equal(view.risk_level, 'medium');
  });

  it('an alert recorded before assessments were kept is potential without a level (a score alone confirms nothing); a removal has neither', () => {
    assert.deepEqual(alertAssessmentView(raised({ score: 1 })), { risk_level: null, match_strength: 'potential' });
    assert.deepEqual(alertAssessmentView(raised({ kind: 'removed_hit', entityRecordHash: undefined })), { risk_level: null, match_strength: null });
  });
});
