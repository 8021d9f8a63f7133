/** The monthly offshore-leak checks of an account (issue 33), as given/when/then specifications. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DeciderSpecification, type GivenEvent } from '../../support/decider-spec';
import {
  offshoreLeakQuotaDecider,
  offshoreLeakQuotaRefusal,
  type OffshoreLeakQuotaEvent,
  quotaMonthOf,
  quotaResetDate,
  streamName,
  type UseOffshoreLeakCheck,
} from '../../../src/commands/offshore-leak-quota';
import { Conflict, LimitExceeded, ValidationFailed } from '../../../src/commands/errors';
import { offshoreLeakChecksPerMonth, quotaWarningLevel } from '../../../src/commands/plans';
import { meta, NOW } from './helpers';

const spec = DeciderSpecification.for(offshoreLeakQuotaDecider);
const month = '2026-11';
const use = (screeningId: string, limit = 100, overrides: Partial<UseOffshoreLeakCheck['data']> = {}): UseOffshoreLeakCheck => ({
  type: 'UseOffshoreLeakCheck',
  data: { accountId: '42', month, screeningId, limit, ...overrides },
  metadata: meta(),
});
const used = (screeningId: string, checkNumber: number, limit = 100): GivenEvent<OffshoreLeakQuotaEvent> => ({
  type: 'OffshoreLeakCheckUsed',
  data: { accountId: '42', month, screeningId, checkNumber, limit, usedAt: NOW },
});
/** The month's first `count` checks, taken by screenings 1…count. */
const usedUpTo = (count: number, limit = 100) => Array.from({ length: count }, (_, i) => used(String(i + 1), i + 1, limit));

describe('offshore-leak quota decider', () => {
  it("takes the month's first check, numbered 1", () => {
    spec.given([]).when(use('501')).then([used('501', 1)]);
    assert.equal(streamName('42', month), 'quota-offshore_leaks-42-2026-11');
  });

  it('takes the 100th check at 99, and refuses the 101st with how many were used', () => {
    spec.given(usedUpTo(99)).when(use('600')).then([used('600', 100)]);
    spec
      .given(usedUpTo(100))
      .when(use('601'))
      .thenThrows(LimitExceeded, (e) => e.limit === 100 && e.current === 100 && e.limitName === 'offshore_leak_checks');
  });

  it('a screening that holds a check gets no second one, even once the month is used up (a repeated step counts once)', () => {
    spec.given(usedUpTo(3)).when(use('2')).thenNothing();
    spec.given(usedUpTo(100)).when(use('57')).thenNothing();
  });

  it('refuses malformed input and a command for another stream', () => {
    spec.given([]).when(use('501', 0)).thenThrows(ValidationFailed, (e) => e.issues.some((i) => i.field === 'limit'));
    spec.given([]).when(use('x', 100, { month: '2026-13' })).thenThrows(ValidationFailed, (e) => e.issues.map((i) => i.field).join() === 'month,screening_id');
    spec.given([]).when(use('501', 100, { accountId: '' })).thenThrows(ValidationFailed, (e) => e.issues[0]?.field === 'account_id');
    spec.given(usedUpTo(1)).when(use('501', 100, { month: '2026-12' })).thenThrows(Conflict);
    spec.given(usedUpTo(1)).when(use('501', 100, { accountId: '43' })).thenThrows(Conflict);
  });

  it('states the refusal with the reset date of the next month', () => {
    assert.equal(offshoreLeakQuotaRefusal(100, 100, '2026-11'), 'monthly offshore-leak quota used: 100 of 100, resets 2026-12-01');
    assert.equal(quotaResetDate('2026-12'), '2027-01-01');
    assert.equal(quotaMonthOf('2026-11-30T23:59:59.999Z'), '2026-11');
    assert.equal(quotaMonthOf('2026-12-01T00:00:00.000Z'), '2026-12');
  });
});

describe('plans: offshore-leak checks and quota warnings', () => {
  it('only Enterprise S3 screenings draw on the 100 monthly checks', () => {
    assert.equal(offshoreLeakChecksPerMonth('enterprise', 's3'), 100);
    assert.equal(offshoreLeakChecksPerMonth('enterprise', 's1'), null);
    assert.equal(offshoreLeakChecksPerMonth('enterprise', 'portal'), null);
    assert.equal(offshoreLeakChecksPerMonth('professional', 's3'), null);
  });

  it('warns from 80 % used and when used up, never on unlimited or excluded quotas', () => {
    assert.deepEqual([0, 79, 80, 99, 100, 101].map((used) => quotaWarningLevel(used, 100)), [null, null, 'approaching', 'approaching', 'reached', 'reached']);
    assert.equal(quotaWarningLevel(799, 1000), null);
    assert.equal(quotaWarningLevel(800, 1000), 'approaching');
    assert.equal(quotaWarningLevel(5, null), null);
    assert.equal(quotaWarningLevel(0, 0), null);
  });
});
