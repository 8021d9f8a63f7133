import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DeciderSpecification, type GivenEvent } from '../../support/decider-spec';
import {
  type SubjectCheckCommand,
  subjectCheckLifecycleCommandTypes,
  subjectCheckDecider,
  type SubjectCheckEvent,
  streamName,
} from '../../../src/commands/subject-check';
import { IllegalTransition, NotFound, ValidationFailed } from '../../../src/commands/errors';
import { meta, NOW } from './helpers';

const spec = DeciderSpecification.for(subjectCheckDecider);
const ids = { subjectCheckId: '1001', accountId: '42' };

const started: GivenEvent<SubjectCheckEvent> = {
  type: 'SubjectCheckStarted',
  data: {
    ...ids,
    status: 'running',
    firstName: 'Ada',
    lastName: 'Lovelace',
    locations: [{ country: 'GB' }],
    purpose: 'employment',
    consent: { certified: true, certifiedAt: NOW },
    processingAt: NOW,
  },
};
const summary = {
  overallResult: 'inconclusive',
  confidenceLevel: 'low',
  findingsCount: 2,
  redFlagCount: 0,
  warningCount: 1,
  sourcesSearched: 3,
  sourcesTotal: 10,
};
const reviewRequired: GivenEvent<SubjectCheckEvent> = {
  type: 'SubjectCheckReviewRequired',
  data: { ...ids, ...summary, status: 'needs_review', reviewReason: 'insufficient_source_coverage', tierScores: { pep: 40 }, reviewRequiredAt: NOW },
};
const escalated: GivenEvent<SubjectCheckEvent> = {
  type: 'SubjectCheckEscalated',
  data: {
    ...ids,
    status: 'escalated',
    investigationId: 'INV-7',
    triggeringTiers: ['sanctions'],
    tierScores: { sanctions: 92 },
    requestedScope: 'enhanced_due_diligence',
    priority: 'critical',
    escalatedAt: NOW,
    investigationCreatedAt: NOW,
    slaDueAt: '2026-03-01T14:00:00.000Z',
  },
};
const completed: GivenEvent<SubjectCheckEvent> = {
  type: 'SubjectCheckCompleted',
  data: { ...ids, ...summary, overallResult: 'clean', confidenceLevel: 'high', status: 'completed', resolvedBy: 'automatic', completedAt: NOW },
};
const failed: GivenEvent<SubjectCheckEvent> = {
  type: 'SubjectCheckFailed',
  data: { ...ids, status: 'failed', errorMessage: 'boom', failedAt: NOW },
};

const histories: Record<string, GivenEvent<SubjectCheckEvent>[]> = {
  none: [],
  running: [started],
  needs_review: [started, reviewRequired],
  escalated: [started, escalated],
  completed: [started, completed],
  failed: [started, failed],
};

function command(type: (typeof subjectCheckLifecycleCommandTypes)[number]): SubjectCheckCommand {
  const m = meta();
  switch (type) {
    case 'StartSubjectCheck':
      return {
        type,
        data: { ...ids, firstName: 'Ada', lastName: 'Lovelace', locations: [{ country: 'GB' }], purpose: 'employment', consent: { certified: true } },
        metadata: m,
      };
    case 'RecordAgentResult':
      return {
        type,
        data: { subjectCheckId: '1001', agent: 'sanctions', tier: 'sanctions', queried: true, result: { matches: [] }, startedAt: NOW, finishedAt: NOW },
        metadata: m,
      };
    case 'ConcludeSubjectCheck':
      return {
        type,
        data: { subjectCheckId: '1001', ...summary, sourcesSearched: 9, tierScores: { sanctions: 10 }, bestHitAmbiguous: false },
        metadata: m,
      };
    case 'FailSubjectCheck':
      return { type, data: { subjectCheckId: '1001', errorMessage: 'source pool crashed' }, metadata: m };
    case 'ResolveReview':
      return { type, data: { subjectCheckId: '1001', outcome: 'clear', reviewer: 'analyst-1', note: 'coverage accepted' }, metadata: m };
    case 'CloseInvestigation':
      return { type, data: { subjectCheckId: '1001', outcome: 'clear', reviewer: 'analyst-1', note: 'different person' }, metadata: m };
  }
}

/** Legal pairs and the event types they emit; every other pair must be rejected. */
const legal: Record<string, Partial<Record<(typeof subjectCheckLifecycleCommandTypes)[number], string[]>>> = {
  none: { StartSubjectCheck: ['SubjectCheckStarted'] },
  running: {
    RecordAgentResult: ['SubjectCheckAgentResultRecorded'],
    ConcludeSubjectCheck: ['SubjectCheckCompleted'],
    FailSubjectCheck: ['SubjectCheckFailed'],
  },
  needs_review: { ResolveReview: ['SubjectCheckReviewResolved', 'SubjectCheckCompleted'] },
  escalated: { CloseInvestigation: ['SubjectCheckInvestigationClosed', 'SubjectCheckCompleted'] },
  completed: {},
  failed: {},
};

const statusAfter: Record<string, string> = {
  'none:StartSubjectCheck': 'running',
  'running:RecordAgentResult': 'running',
  'running:ConcludeSubjectCheck': 'completed',
  'running:FailSubjectCheck': 'failed',
  'needs_review:ResolveReview': 'completed',
  'escalated:CloseInvestigation': 'completed',
};

// The monitoring commands have their own table (subject-check-monitoring.test.ts).
describe('subject check: every state × lifecycle command', () => {
  for (const [state, history] of Object.entries(histories)) {
    for (const type of subjectCheckLifecycleCommandTypes) {
      const expected = legal[state]![type];
      it(`${state} × ${type} → ${expected ? expected.join(' + ') : state === 'none' ? 'NotFound' : 'IllegalTransition'}`, () => {
        const then = spec.given(history).when(command(type));
        if (expected) {
          const { stateAfter } = then.thenTypes(expected as SubjectCheckEvent['type'][]);
          assert.equal(stateAfter.status, statusAfter[`${state}:${type}`]);
        } else if (state === 'none') {
          then.thenThrows(NotFound, (e) => e.id === '1001');
        } else {
          then.thenThrows(IllegalTransition, (e) => e.state === state && e.command === type && e.code === 'illegal_transition');
        }
      });
    }
  }
});

describe('subject check: start', () => {
  it('starts running with the consent time recorded', () => {
    spec
      .given([])
      .when(command('StartSubjectCheck'))
      .then([started]);
  });

  it('lists one problem per missing field (first_name, last_name, location, purpose, consent) and writes nothing', () => {
    const error = spec
      .given([])
      .when({
        type: 'StartSubjectCheck',
        data: { ...ids, firstName: ' ', lastName: '', locations: [], purpose: '', consent: { certified: false } },
        metadata: meta(),
      })
      .thenThrows(ValidationFailed);
    assert.deepEqual(error.issues.map((i) => i.field), ['first_name', 'last_name', 'location', 'purpose', 'consent']);
  });

  it('records the address the internal lists weigh, its state apart and its parts trimmed (issue 30)', () => {
    const start = command('StartSubjectCheck') as Extract<SubjectCheckCommand, { type: 'StartSubjectCheck' }>;
    const address = { line: ' 12 St James Sq ', city: 'London', region: 'Greater London', postalCode: 'SW1Y 4JH', country: 'GB' };
    spec
      .given([])
      .when({ ...start, data: { ...start.data, address } })
      .then([{ ...started, data: { ...started.data, address: { ...address, line: '12 St James Sq' } } } as GivenEvent<SubjectCheckEvent>]);
  });

  it('refuses an address with no part, a bad country or an overlong part, and writes nothing', () => {
    const start = command('StartSubjectCheck') as Extract<SubjectCheckCommand, { type: 'StartSubjectCheck' }>;
    const error = spec
      .given([])
      .when({ ...start, data: { ...start.data, address: { line: 'x'.repeat(301), country: 'gb' } } })
      .thenThrows(ValidationFailed);
    assert.deepEqual(error.issues.map((i) => i.field), ['address.line', 'address.country']);
    spec.given([]).when({ ...start, data: { ...start.data, address: {} } }).thenThrows(ValidationFailed, (e) => e.issues[0]?.field === 'address');
  });

  it('uses the subject-check-<id> stream', () => {
    assert.equal(streamName('1001'), 'subject-check-1001');
  });
});

describe('subject check: conclusion rule', () => {
  const conclude = (over: Record<string, unknown>) =>
    ({
      type: 'ConcludeSubjectCheck',
      data: { subjectCheckId: '1001', ...summary, sourcesSearched: 8, tierScores: {}, bestHitAmbiguous: false, ...over },
      metadata: meta(),
    }) as SubjectCheckCommand;

  it('completes when coverage ≥ 0.6, no ambiguity, no tier over threshold', () => {
    spec
      .given([started])
      .when(conclude({ sourcesSearched: 6, tierScores: { sanctions: 79, pep: 69, adverse_media: 74 } }))
      .then([
        {
          type: 'SubjectCheckCompleted',
          data: { ...ids, ...summary, sourcesSearched: 6, status: 'completed', resolvedBy: 'automatic', completedAt: NOW },
        },
      ]);
  });

  it('needs review for insufficient coverage below 60 %', () => {
    spec
      .given([started])
      .when(conclude({ sourcesSearched: 5 }))
      .then([
        {
          type: 'SubjectCheckReviewRequired',
          data: { ...ids, ...summary, sourcesSearched: 5, status: 'needs_review', reviewReason: 'insufficient_source_coverage', tierScores: {}, reviewRequiredAt: NOW },
        },
      ]);
  });

  it('needs review for an ambiguous best hit when coverage is sufficient', () => {
    const { events } = spec
      .given([started])
      .when(conclude({ bestHitAmbiguous: true }))
      .then([
        {
          type: 'SubjectCheckReviewRequired',
          data: { ...ids, ...summary, sourcesSearched: 8, status: 'needs_review', reviewReason: 'ambiguous_match', tierScores: {}, reviewRequiredAt: NOW },
        },
      ]);
    assert.equal(events.length, 1);
  });

  const escalationCases: [Record<string, number>, string[], string, string][] = [
    [{ sanctions: 80 }, ['sanctions'], 'high', '2026-03-02T10:00:00.000Z'],
    [{ sanctions: 95, pep: 71 }, ['pep', 'sanctions'], 'critical', '2026-03-01T14:00:00.000Z'],
    [{ pep: 70 }, ['pep'], 'medium', '2026-03-04T10:00:00.000Z'],
    [{ adverse_media: 75, criminal: 99 }, ['adverse_media'], 'medium', '2026-03-04T10:00:00.000Z'],
    [{ adverse_media: 89 }, ['adverse_media'], 'high', '2026-03-02T10:00:00.000Z'],
  ];
  for (const [tierScores, tiers, priority, sla] of escalationCases) {
    it(`escalates ${JSON.stringify(tierScores)} → ${tiers.join(',')} ${priority}, SLA ${sla}, even with low coverage`, () => {
      spec
        .given([started])
        .when(conclude({ tierScores, sourcesSearched: 1, investigationId: 'INV-2026-0001' }))
        .then([
          {
            type: 'SubjectCheckEscalated',
            data: {
              ...ids,
              status: 'escalated',
              investigationId: 'INV-2026-0001',
              triggeringTiers: tiers,
              tierScores,
              requestedScope: 'enhanced_due_diligence',
              priority: priority as 'critical',
              escalatedAt: NOW,
              investigationCreatedAt: NOW,
              slaDueAt: sla,
            },
          },
        ]);
    });
  }

  it('refuses to escalate without an investigation id from the handler', () => {
    spec.given([started]).when(conclude({ tierScores: { sanctions: 99 } })).thenThrows(ValidationFailed, (e) => e.issues[0]?.field === 'investigation_id');
  });

  it('rejects sources_searched greater than sources_total', () => {
    spec.given([started]).when(conclude({ sourcesSearched: 11 })).thenThrows(ValidationFailed);
  });
});

describe('subject check: reviewers move it on', () => {
  it('an adverse review escalates with the tier scores kept, manual_review when no tier crossed', () => {
    spec
      .given([started, reviewRequired])
      .when({
        type: 'ResolveReview',
        data: { subjectCheckId: '1001', outcome: 'adverse', reviewer: 'r1', note: 'same DOB', investigationId: 'INV-9' },
        metadata: meta(),
      })
      .then([
        {
          type: 'SubjectCheckReviewResolved',
          data: { ...ids, outcome: 'adverse', reviewer: 'r1', note: 'same DOB', reviewReason: 'insufficient_source_coverage', resolvedAt: NOW },
        },
        {
          type: 'SubjectCheckEscalated',
          data: {
            ...ids,
            status: 'escalated',
            investigationId: 'INV-9',
            triggeringTiers: ['manual_review'],
            tierScores: { pep: 40 },
            requestedScope: 'enhanced_due_diligence',
            priority: 'medium',
            escalatedAt: NOW,
            investigationCreatedAt: NOW,
            slaDueAt: '2026-03-04T10:00:00.000Z',
          },
        },
      ]);
  });

  it('a clear review completes as clean with the summary carried over', () => {
    spec
      .given([started, reviewRequired])
      .when(command('ResolveReview'))
      .then([
        {
          type: 'SubjectCheckReviewResolved',
          data: { ...ids, outcome: 'clear', reviewer: 'analyst-1', note: 'coverage accepted', reviewReason: 'insufficient_source_coverage', resolvedAt: NOW },
        },
        {
          type: 'SubjectCheckCompleted',
          data: { ...ids, ...summary, overallResult: 'clean', confidenceLevel: 'high', status: 'completed', resolvedBy: 'review', completedAt: NOW },
        },
      ]);
  });

  it('closing an investigation as adverse completes with adverse_found', () => {
    const { events } = spec
      .given([started, escalated])
      .when({ type: 'CloseInvestigation', data: { subjectCheckId: '1001', outcome: 'adverse', reviewer: 'r2', note: 'confirmed' }, metadata: meta() })
      .then([
        {
          type: 'SubjectCheckInvestigationClosed',
          data: { ...ids, investigationId: 'INV-7', outcome: 'adverse', reviewer: 'r2', note: 'confirmed', closedAt: NOW },
        },
        {
          type: 'SubjectCheckCompleted',
          data: {
            ...ids,
            overallResult: 'adverse_found',
            confidenceLevel: 'high',
            findingsCount: 0,
            redFlagCount: 0,
            warningCount: 0,
            sourcesSearched: 0,
            sourcesTotal: 0,
            status: 'completed',
            resolvedBy: 'investigation',
            completedAt: NOW,
          },
        },
      ]);
    assert.equal(events.length, 2);
  });

  it('a review without a note is refused', () => {
    spec
      .given([started, reviewRequired])
      .when({ type: 'ResolveReview', data: { subjectCheckId: '1001', outcome: 'clear', reviewer: 'r1', note: '' }, metadata: meta() })
      .thenThrows(ValidationFailed, (e) => e.issues.some((i) => i.field === 'note'));
  });

  it('a redelivered agent result is a no-op, even after completion', () => {
    const recorded: GivenEvent<SubjectCheckEvent> = {
      type: 'SubjectCheckAgentResultRecorded',
      data: { ...ids, agent: 'sanctions', tier: 'sanctions', queried: true, result: { matches: [] }, startedAt: NOW, finishedAt: NOW },
    };
    spec.given([started, recorded]).when(command('RecordAgentResult')).thenNothing();
    spec.given([started, recorded, completed]).when(command('RecordAgentResult')).thenNothing();
  });
});
