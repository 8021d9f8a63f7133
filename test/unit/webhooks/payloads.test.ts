import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  s1MonitoringAlert,
  s1PersonCheckCompleted,
  s1ScreeningCompleted,
  s2Payload,
  s3Payload,
} from '../../../src/webhooks/payloads';

const screening = {
  id: 42,
  search_query: 'Acme Holdings',
  risk_level: 'high' as const,
  risk_score: 55,
  status: 'completed' as const,
  created_at: '2026-01-01T10:00:00.000Z',
};

describe('S1 payloads', () => {
  it('screening events carry exactly event, screening_id, screening and timestamp, in that order', () => {
    for (const event of ['cdd.completed', 'edd.completed', 'ma.completed'] as const) {
      const msg = s1ScreeningCompleted({ event, screening, timestamp: '2026-01-01T10:00:01.123Z' });
      assert.equal(msg.surface, 's1');
      assert.equal(msg.event, event);
      assert.equal(
        msg.body,
        `{"event":"${event}","screening_id":42,"screening":{"id":42,"search_query":"Acme Holdings","risk_level":"high","risk_score":55,"status":"completed","created_at":"2026-01-01T10:00:00.000Z"},"timestamp":"2026-01-01T10:00:01.123Z"}`,
      );
    }
  });

  it('rejects a timestamp without milliseconds, an unknown field or a non-integer id', () => {
    assert.throws(() => s1ScreeningCompleted({ event: 'cdd.completed', screening, timestamp: '2026-01-01T10:00:01Z' }));
    assert.throws(() =>
      s1ScreeningCompleted({ event: 'cdd.completed', screening: { ...screening, extra: 1 } as never, timestamp: '2026-01-01T10:00:01.000Z' }),
    );
    assert.throws(() =>
      s1ScreeningCompleted({ event: 'cdd.completed', screening: { ...screening, id: 4.5 }, timestamp: '2026-01-01T10:00:01.000Z' }),
    );
    assert.throws(() =>
      s1ScreeningCompleted({ event: 'x.completed' as never, screening, timestamp: '2026-01-01T10:00:01.000Z' }),
    );
  });

  it('person_check.completed mirrors the screening shape with a person_check object', () => {
    const msg = s1PersonCheckCompleted({
      personCheck: {
        id: 'SVC-0a1b2c3d-P',
        full_name: 'Jane Doe',
        result: 'clean',
        confidence: 'high',
        status: 'completed',
        created_at: '2026-01-01T10:00:00.000Z',
      },
      timestamp: '2026-01-01T10:00:02.000Z',
    });
    const body = JSON.parse(msg.body);
    assert.deepEqual(Object.keys(body), ['event', 'person_check_id', 'person_check', 'timestamp']);
    assert.equal(body.person_check_id, 'SVC-0a1b2c3d-P');
    assert.equal(body.person_check.result, 'clean');
  });

  it('monitoring.alert carries the screening ref and the alert', () => {
    const msg = s1MonitoringAlert({
      screeningId: 42,
      alert: { kind: 'new_hit', entity_id: 'ofac-123', list: 'ofac_sdn', matched_name: 'ACME HOLDINGS', score: 97, detected_at: '2026-02-01T00:00:00.000Z' },
      timestamp: '2026-02-01T00:00:00.000Z',
    });
    assert.deepEqual(JSON.parse(msg.body).alert.kind, 'new_hit');
    assert.throws(() =>
      s1MonitoringAlert({
        screeningId: 42,
        alert: { kind: 'gone' as never, entity_id: 'x', list: 'y', matched_name: 'z', score: 1, detected_at: '2026-02-01T00:00:00.000Z' },
        timestamp: '2026-02-01T00:00:00.000Z',
      }),
    );
  });
});

describe('S2 payloads', () => {
  const t = '2026-03-01T12:00:00.000Z';
  it('has exactly the required fields per event, event first, no envelope', () => {
    const expectations: Array<[ReturnType<typeof s2Payload>, string[]]> = [
      [s2Payload('subject_check.processing', { subject_check_id: 9, account_id: 3, status: 'running', processing_at: t }), ['event', 'subject_check_id', 'account_id', 'status', 'processing_at']],
      [
        s2Payload('subject_check.review_required', {
          subject_check_id: 9, account_id: 3, status: 'needs_review', overall_result: 'inconclusive', confidence_level: 'low',
          findings_count: 2, red_flag_count: 0, warning_count: 1, sources_searched: 3, sources_total: 10,
          review_reason: 'insufficient_source_coverage', review_required_at: t,
        }),
        ['event', 'subject_check_id', 'account_id', 'status', 'overall_result', 'confidence_level', 'findings_count', 'red_flag_count', 'warning_count', 'sources_searched', 'sources_total', 'review_reason', 'review_required_at'],
      ],
      [
        s2Payload('subject_check.escalated', {
          subject_check_id: 9, account_id: 3, status: 'escalated', investigation_id: 'INV-1', triggering_tiers: ['sanctions'],
          tier_scores: { sanctions: 96, pep: 0 }, requested_scope: 'full', priority: 'critical', escalated_at: t,
        }),
        ['event', 'subject_check_id', 'account_id', 'status', 'investigation_id', 'triggering_tiers', 'tier_scores', 'requested_scope', 'priority', 'escalated_at'],
      ],
      [
        s2Payload('subject_check.escalated', {
          subject_check_id: 9, account_id: 3, status: 'escalated', investigation_id: 'INV-1', triggering_tiers: ['sanctions'],
          tier_scores: { sanctions: 96 }, requested_scope: 'full', priority: 'critical', escalated_at: t,
          investigation_created_at: t, sla_due_at: '2026-03-01T16:00:00.000Z',
        }),
        ['event', 'subject_check_id', 'account_id', 'status', 'investigation_id', 'triggering_tiers', 'tier_scores', 'requested_scope', 'priority', 'escalated_at', 'investigation_created_at', 'sla_due_at'],
      ],
      [
        s2Payload('subject_check.completed', { subject_check_id: 9, account_id: 3, status: 'completed', overall_result: 'clean', confidence_level: 'high', findings_count: 0, completed_at: t }),
        ['event', 'subject_check_id', 'account_id', 'status', 'overall_result', 'confidence_level', 'findings_count', 'completed_at'],
      ],
      [
        s2Payload('subject_check.failed', { subject_check_id: 9, account_id: 3, status: 'failed', error_message: 'agent pool crashed', failed_at: t }),
        ['event', 'subject_check_id', 'account_id', 'status', 'error_message', 'failed_at'],
      ],
      [
        s2Payload('subject_check.retry', { subject_check_id: 9, retried_at: t, previous_delivery_id: '3b241101-e2bb-4255-8caf-4136c566a962', attempt_number: 4 }),
        ['event', 'subject_check_id', 'retried_at', 'previous_delivery_id', 'attempt_number'],
      ],
      [
        s2Payload('webhook.test', { delivered_at: t, subject: { id: 'test_1', name: 'Test Subject', first_name: 'Test', last_name: 'Subject' } }),
        ['event', 'delivered_at', 'subject'],
      ],
      [
        s2Payload('subject_check.monitoring_alert', {
          subject_check_id: 9, account_id: 3, alert_id: 'ofac_sdn@3f2a9c0d41b7e865:ofac_sdn:36421', alert_kind: 'new_hit', entity_id: 'ofac_sdn:36421',
          list: 'ofac_sdn', matched_name: 'ZORRIBAN, Kestrel', score: 96, detected_at: t,
          risk_level: 'medium', match_strength: 'potential', identity_note: 'date of birth 1980-05-05 differs from listed 01 Jan 1970',
        }),
        ['event', 'subject_check_id', 'account_id', 'alert_id', 'alert_kind', 'entity_id', 'list', 'matched_name', 'score', 'detected_at', 'risk_level', 'match_strength', 'identity_note'],
      ],
      [
        // a removal: no level, no strength, nothing to assess
        s2Payload('subject_check.monitoring_alert', {
          subject_check_id: 9, account_id: 3, alert_id: 'ofac_sdn@4:ofac_sdn:36421', alert_kind: 'removed_hit', entity_id: 'ofac_sdn:36421',
          list: 'ofac_sdn', matched_name: 'ZORRIBAN, Kestrel', score: 96, detected_at: t, risk_level: null, match_strength: null,
        }),
        ['event', 'subject_check_id', 'account_id', 'alert_id', 'alert_kind', 'entity_id', 'list', 'matched_name', 'score', 'detected_at', 'risk_level', 'match_strength'],
      ],
    ];
    for (const [msg, keys] of expectations) {
      assert.equal(msg.surface, 's2');
      const body = JSON.parse(msg.body);
      assert.deepEqual(Object.keys(body), keys, msg.event);
      assert.equal(body.event, msg.event);
      assert.ok(!('data' in body) && !('timestamp' in body));
    }
  });

  it('refuses fields the spec forbids or omits, and wrong types', () => {
    // retry has no account_id or status
    assert.throws(() =>
      s2Payload('subject_check.retry', { subject_check_id: 9, retried_at: '2026-03-01T12:00:00.000Z', previous_delivery_id: '3b241101-e2bb-4255-8caf-4136c566a962', attempt_number: 2, account_id: 3 } as never),
    );
    // previous_delivery_id must be a UUID
    assert.throws(() =>
      s2Payload('subject_check.retry', { subject_check_id: 9, retried_at: '2026-03-01T12:00:00.000Z', previous_delivery_id: 'abc', attempt_number: 2 }),
    );
    // webhook.test subject fields are all strings and there is no subject_check_id
    assert.throws(() =>
      s2Payload('webhook.test', { delivered_at: '2026-03-01T12:00:00.000Z', subject: { id: 1, name: 'a', first_name: 'a', last_name: 'b' } } as never),
    );
    assert.throws(() =>
      s2Payload('webhook.test', { delivered_at: '2026-03-01T12:00:00.000Z', subject_check_id: 1, subject: { id: '1', name: 'a', first_name: 'a', last_name: 'b' } } as never),
    );
    assert.throws(() => s2Payload('subject_check.processing', { subject_check_id: 9, account_id: 3, status: 'completed', processing_at: '2026-03-01T12:00:00.000Z' } as never));
    assert.throws(() => s2Payload('subject_check.completed', { subject_check_id: 9, account_id: 3, status: 'completed', overall_result: 'clean', confidence_level: 'high', completed_at: '2026-03-01T12:00:00.000Z' } as never));
  });
});

describe('S3 payloads', () => {
  it('screening.completed has exactly the part-6 fields, sow_screening_id null or uuid', () => {
    const msg = s3Payload('screening.completed', {
      screening_id: '7d9f8e2a-1b3c-4d5e-8f60-718293a4b5c6',
      screening_type: 'CDD',
      risk_score: 12,
      risk_level: 'low',
      sow_screening_id: null,
      completed_at: '2026-03-01T12:00:00.000Z',
    });
    assert.deepEqual(Object.keys(JSON.parse(msg.body)), ['event', 'screening_id', 'screening_type', 'risk_score', 'risk_level', 'sow_screening_id', 'completed_at']);
    assert.equal(JSON.parse(msg.body).sow_screening_id, null);
    assert.throws(() =>
      s3Payload('screening.completed', {
        screening_id: '42', screening_type: 'CDD', risk_score: 12, risk_level: 'low', sow_screening_id: null, completed_at: '2026-03-01T12:00:00.000Z',
      }),
    );
    assert.throws(() =>
      s3Payload('screening.completed', {
        screening_id: '7d9f8e2a-1b3c-4d5e-8f60-718293a4b5c6', screening_type: 'PEP' as never, risk_score: 12, risk_level: 'low', sow_screening_id: null, completed_at: '2026-03-01T12:00:00.000Z',
      }),
    );
  });

  it('monitoring.alert references the uuid screening', () => {
    const msg = s3Payload('monitoring.alert', {
      screening_id: '7d9f8e2a-1b3c-4d5e-8f60-718293a4b5c6', alert_kind: 'removed_hit', entity_id: 'un-1', list: 'un', matched_name: 'X', score: 88, detected_at: '2026-03-01T12:00:00.000Z',
    });
    assert.equal(JSON.parse(msg.body).alert_kind, 'removed_hit');
  });
});
