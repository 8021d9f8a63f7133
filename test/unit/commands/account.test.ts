import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DeciderSpecification, type GivenEvent } from '../../support/decider-spec';
import { accountDecider, type AccountEvent, streamName } from '../../../src/commands/account';
import { Conflict, Forbidden, NotFound, ValidationFailed } from '../../../src/commands/errors';
import { meta, NOW } from './helpers';

const spec = DeciderSpecification.for(accountDecider);
const created: GivenEvent<AccountEvent> = {
  type: 'AccountCreated',
  data: {
    accountId: '42',
    name: 'Acme Bank',
    ownerUserId: 'u-owner',
    ownerEmail: 'owner@acme.test',
    passwordHash: 'scrypt$abc',
    plan: 'professional',
    createdAt: NOW,
  },
};

describe('account decider', () => {
  it('creates an account whose owner is its first user', () => {
    const { stateAfter } = spec
      .given([])
      .when({
        type: 'CreateAccount',
        data: { accountId: '42', name: ' Acme Bank ', ownerUserId: 'u-owner', ownerEmail: 'Owner@Acme.test', passwordHash: 'scrypt$abc', plan: 'professional' },
        metadata: meta(),
      })
      .then([created]);
    assert.equal(stateAfter.status === 'active' && stateAfter.users['u-owner']?.role, 'owner');
    assert.equal(streamName('42'), 'account-42');
  });

  it('refuses a second creation and a bad plan', () => {
    const cmd = { type: 'CreateAccount' as const, data: { ...created.data }, metadata: meta() };
    spec.given([created]).when(cmd).thenThrows(Conflict);
    spec
      .given([])
      .when({ ...cmd, data: { ...cmd.data, plan: 'gold' as never, accountId: 'abc' } })
      .thenThrows(ValidationFailed, (e) => e.issues.map((i) => i.field).join() === 'account_id,plan');
  });

  it('changes the plan from a payment event once, however often the provider redelivers it', () => {
    const change = { type: 'ChangePlan' as const, data: { accountId: '42', plan: 'enterprise' as const, providerEventId: 'evt_1', source: 'payment' as const } };
    const changed: GivenEvent<AccountEvent> = {
      type: 'PlanChanged',
      data: { accountId: '42', previousPlan: 'professional', plan: 'enterprise', providerEventId: 'evt_1', source: 'payment', changedAt: NOW },
    };
    spec.given([created]).when({ ...change, metadata: meta() }).then([changed]);
    spec.given([created, changed]).when({ ...change, metadata: meta() }).thenNothing();
    // a different provider event for the same plan is a renewal: recorded, so it is idempotent too
    spec
      .given([created, changed])
      .when({ ...change, data: { ...change.data, providerEventId: 'evt_2' }, metadata: meta() })
      .then([{ type: 'PlanChanged', data: { ...changed.data, previousPlan: 'enterprise', providerEventId: 'evt_2' } }]);
  });

  it('an admin change to the current plan is a no-op', () => {
    spec.given([created]).when({ type: 'ChangePlan', data: { accountId: '42', plan: 'professional', source: 'admin' }, metadata: meta() }).thenNothing();
  });

  it('unknown accounts are NotFound', () => {
    spec
      .given([])
      .when({ type: 'ChangePlan', data: { accountId: '7', plan: 'enterprise', source: 'admin' }, metadata: meta() })
      .thenThrows(NotFound, (e) => e.id === '7' && e.code === 'not_found');
  });

  it('owners add analysts and auditors; others may not; e-mails are unique', () => {
    const add = { type: 'AddUser' as const, data: { accountId: '42', userId: 'u-2', email: 'Ann@Acme.test', role: 'analyst' as const } };
    const added: GivenEvent<AccountEvent> = {
      type: 'UserAdded',
      data: { accountId: '42', userId: 'u-2', email: 'ann@acme.test', role: 'analyst', addedAt: NOW },
    };
    spec.given([created]).when({ ...add, metadata: meta() }).then([added]);
    spec
      .given([created, added])
      .when({ ...add, data: { ...add.data, userId: 'u-3', role: 'auditor' }, metadata: meta({ actor: { surface: 'portal', accountId: '42', userId: 'u-2' } }) })
      .thenThrows(Forbidden);
    spec.given([created, added]).when({ ...add, data: { ...add.data, userId: 'u-3' }, metadata: meta() }).thenThrows(Conflict);
    spec.given([created]).when({ ...add, data: { ...add.data, role: 'admin' as never }, metadata: meta() }).thenThrows(ValidationFailed);
  });

  it('changes roles but keeps at least one owner', () => {
    const added: GivenEvent<AccountEvent> = {
      type: 'UserAdded',
      data: { accountId: '42', userId: 'u-2', email: 'ann@acme.test', role: 'analyst', addedAt: NOW },
    };
    spec
      .given([created, added])
      .when({ type: 'ChangeUserRole', data: { accountId: '42', userId: 'u-2', role: 'auditor' }, metadata: meta() })
      .then([{ type: 'UserRoleChanged', data: { accountId: '42', userId: 'u-2', previousRole: 'analyst', role: 'auditor', changedAt: NOW } }]);
    spec
      .given([created])
      .when({ type: 'ChangeUserRole', data: { accountId: '42', userId: 'u-owner', role: 'analyst' }, metadata: meta() })
      .thenThrows(Conflict, (e) => /owner/.test(e.message));
  });
});
