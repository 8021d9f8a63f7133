import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as commands from '../../../src/commands';

describe('commands catalogue', () => {
  it('event type names are unique across aggregates and past tense', () => {
    const all = commands.allEventTypes;
    assert.equal(new Set(all).size, all.length);
    for (const type of all) assert.match(type, /(ed|Raised|Reopened|Failed)$/, `${type} reads as a fact`);
  });

  it('each aggregate names its streams with its prefix', () => {
    assert.ok(commands.account.streamName('1').startsWith(commands.streamPrefixes.account));
    assert.ok(commands.apiKeys.streamName('1').startsWith(commands.streamPrefixes.apiKeys));
    assert.ok(commands.screening.streamName('1').startsWith(commands.streamPrefixes.screening));
    assert.ok(commands.personCheck.streamName('SVC-00000000-P').startsWith(commands.streamPrefixes.personCheck));
    assert.ok(commands.subjectCheck.streamName('1').startsWith(commands.streamPrefixes.subjectCheck));
    assert.ok(commands.webhookEndpoint.streamName('s2', '1').startsWith(commands.streamPrefixes.webhookEndpoint));
    assert.ok(commands.offshoreLeakQuota.streamName('1', '2026-11').startsWith(commands.streamPrefixes.offshoreLeakQuota));
  });

  it('domain errors carry stable codes and their context', () => {
    const cases: [commands.DomainError, string][] = [
      [new commands.NotFound('screening', '7'), 'not_found'],
      [new commands.Forbidden('no'), 'forbidden'],
      [new commands.PlanRequired('edd', ['professional', 'enterprise'], 'essentials'), 'plan_required'],
      [new commands.Conflict('dup'), 'conflict'],
      [new commands.IllegalTransition('subject check', 'failed', 'ResolveReview'), 'illegal_transition'],
      [new commands.LimitExceeded('s1_active_keys_per_account', 10, 10), 'limit_exceeded'],
      [new commands.ValidationFailed([{ field: 'query', message: 'too short' }]), 'validation_failed'],
    ];
    for (const [error, code] of cases) {
      assert.equal(error.code, code);
      assert.ok(error instanceof commands.DomainError && error instanceof Error);
    }
    assert.ok(cases[2]![0] instanceof commands.Forbidden, 'PlanRequired is a Forbidden');
    assert.ok(cases[4]![0] instanceof commands.Conflict, 'IllegalTransition is a Conflict');
    assert.equal((cases[5]![0] as commands.LimitExceeded).limit, 10);
    assert.equal(cases[6]![0].message, 'query: too short');
  });

  it('maps scores to the S1 risk scale', () => {
    assert.deepEqual([0, 19, 20, 44, 45, 69, 70, 100].map(commands.riskLevelForScore), ['low', 'low', 'medium', 'medium', 'high', 'high', 'critical', 'critical']);
  });
});
