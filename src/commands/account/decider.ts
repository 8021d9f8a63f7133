/**
 * Account aggregate, stream `account-<accountId>`: creation, plan changes (from payment
 * provider events, idempotent by provider event id) and users with roles.
 */
import { assertNever, type Event } from '../../shared/events';
import { type Command, type Decider, isNonEmptyText, NUMERIC_ID, stamp } from '../decider';
import { Conflict, Forbidden, Issues, NotFound } from '../errors';
import { isPlan, type Plan } from '../plans';

export const userRoles = ['owner', 'analyst', 'auditor'] as const;
export type UserRole = (typeof userRoles)[number];

export function streamName(accountId: string): string {
  return `account-${accountId}`;
}
export const accountStreamName = streamName;

// ---- commands ----
/** The account and its owner: the CreateAccount command's fields, recorded by AccountCreated. */
type NewAccount = {
  accountId: string;
  name: string;
  ownerUserId: string;
  ownerEmail: string;
  /** scrypt/argon2 hash computed by the handler; never the password. */
  passwordHash: string;
  plan: Plan;
};
export type CreateAccount = Command<
  'CreateAccount',
  NewAccount
>;
export type ChangePlan = Command<
  'ChangePlan',
  {
    accountId: string;
    plan: Plan;
    /** Payment-provider event id (e.g. Stripe `evt_…`): the same id twice changes nothing. */
    providerEventId?: string;
    source: 'payment' | 'admin';
  }
>;
export type AddUser = Command<
  'AddUser',
  { accountId: string; userId: string; email: string; role: UserRole; passwordHash?: string }
>;
export type ChangeUserRole = Command<'ChangeUserRole', { accountId: string; userId: string; role: UserRole }>;
export type AccountCommand = CreateAccount | ChangePlan | AddUser | ChangeUserRole;

// ---- events ----
export type AccountCreated = Event<
  'AccountCreated',
  NewAccount & {
    createdAt: string;
  }
>;
export type PlanChanged = Event<
  'PlanChanged',
  { accountId: string; previousPlan: Plan; plan: Plan; providerEventId?: string; source: 'payment' | 'admin'; changedAt: string }
>;
export type UserAdded = Event<
  'UserAdded',
  { accountId: string; userId: string; email: string; role: UserRole; passwordHash?: string; addedAt: string }
>;
export type UserRoleChanged = Event<
  'UserRoleChanged',
  { accountId: string; userId: string; previousRole: UserRole; role: UserRole; changedAt: string }
>;
export type AccountEvent = AccountCreated | PlanChanged | UserAdded | UserRoleChanged;
export const accountEventTypes = ['AccountCreated', 'PlanChanged', 'UserAdded', 'UserRoleChanged'] as const;

// ---- state ----
export interface AccountUser {
  userId: string;
  email: string;
  role: UserRole;
}
export type AccountState =
  | { status: 'none' }
  | {
      status: 'active';
      accountId: string;
      name: string;
      plan: Plan;
      users: Record<string, AccountUser>;
      processedProviderEvents: string[];
    };

export function initialState(): AccountState {
  return { status: 'none' };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function requireOwner(command: AccountCommand, state: Extract<AccountState, { status: 'active' }>): void {
  const actor = command.metadata.actor;
  if (actor.surface === 'system') return;
  const user = actor.userId ? state.users[actor.userId] : undefined;
  if (!user || user.role !== 'owner') throw new Forbidden('only an account owner can manage users');
}

export function decide(command: AccountCommand, state: AccountState): AccountEvent[] {
  const now = command.metadata.now;
  if (command.type === 'CreateAccount') {
    const d = command.data;
    new Issues()
      .check(NUMERIC_ID.test(d.accountId ?? ''), 'account_id', 'must be a positive integer string')
      .check(isNonEmptyText(d.name, 200), 'name', 'must be 1-200 characters')
      .check(isNonEmptyText(d.ownerUserId, 100), 'owner_user_id', 'is required')
      .check(typeof d.ownerEmail === 'string' && EMAIL.test(d.ownerEmail) && d.ownerEmail.length <= 254, 'email', 'must be an e-mail address')
      .check(isNonEmptyText(d.passwordHash, 1000), 'password_hash', 'is required')
      .check(isPlan(d.plan), 'plan', 'must be starter, essentials, professional or enterprise')
      .throwIfAny();
    if (state.status !== 'none') throw new Conflict(`account ${d.accountId} already exists`);
    return stamp<AccountEvent>(command, [
      {
        type: 'AccountCreated',
        data: {
          accountId: d.accountId,
          name: d.name.trim(),
          ownerUserId: d.ownerUserId,
          ownerEmail: d.ownerEmail.toLowerCase(),
          passwordHash: d.passwordHash,
          plan: d.plan,
          createdAt: now,
        },
      },
    ]);
  }
  if (state.status === 'none') throw new NotFound('account', command.data.accountId);
  switch (command.type) {
    case 'ChangePlan': {
      const d = command.data;
      new Issues().check(isPlan(d.plan), 'plan', 'must be a known plan').throwIfAny();
      if (d.providerEventId !== undefined) {
        // Payment providers deliver at least once: a provider event is applied once only.
        if (state.processedProviderEvents.includes(d.providerEventId)) return [];
      } else if (d.plan === state.plan) {
        return [];
      }
      // A payment for the current plan is still recorded (a renewal), so its id is remembered.
      return stamp<AccountEvent>(command, [
        {
          type: 'PlanChanged',
          data: {
            accountId: state.accountId,
            previousPlan: state.plan,
            plan: d.plan,
            ...(d.providerEventId !== undefined ? { providerEventId: d.providerEventId } : {}),
            source: d.source,
            changedAt: now,
          },
        },
      ]);
    }
    case 'AddUser': {
      const d = command.data;
      new Issues()
        .check(isNonEmptyText(d.userId, 100), 'user_id', 'is required')
        .check(typeof d.email === 'string' && EMAIL.test(d.email), 'email', 'must be an e-mail address')
        .check((userRoles as readonly string[]).includes(d.role), 'role', 'must be owner, analyst or auditor')
        .throwIfAny();
      requireOwner(command, state);
      if (state.users[d.userId]) throw new Conflict(`user ${d.userId} already exists`);
      const email = d.email.toLowerCase();
      if (Object.values(state.users).some((u) => u.email === email)) throw new Conflict(`a user with e-mail ${email} already exists`);
      return stamp<AccountEvent>(command, [
        {
          type: 'UserAdded',
          data: {
            accountId: state.accountId,
            userId: d.userId,
            email,
            role: d.role,
            ...(d.passwordHash !== undefined ? { passwordHash: d.passwordHash } : {}),
            addedAt: now,
          },
        },
      ]);
    }
    case 'ChangeUserRole': {
      const d = command.data;
      new Issues().check((userRoles as readonly string[]).includes(d.role), 'role', 'must be owner, analyst or auditor').throwIfAny();
      requireOwner(command, state);
      const user = state.users[d.userId];
      if (!user) throw new NotFound('user', d.userId);
      if (user.role === d.role) return [];
      const owners = Object.values(state.users).filter((u) => u.role === 'owner');
      if (user.role === 'owner' && owners.length === 1) throw new Conflict('an account keeps at least one owner');
      return stamp<AccountEvent>(command, [
        {
          type: 'UserRoleChanged',
          data: { accountId: state.accountId, userId: d.userId, previousRole: user.role, role: d.role, changedAt: now },
        },
      ]);
    }
    default:
      return assertNever(command, 'account command');
  }
}

export function evolve(state: AccountState, event: AccountEvent): AccountState {
  switch (event.type) {
    case 'AccountCreated': {
      const d = event.data;
      return {
        status: 'active',
        accountId: d.accountId,
        name: d.name,
        plan: d.plan,
        users: { [d.ownerUserId]: { userId: d.ownerUserId, email: d.ownerEmail, role: 'owner' } },
        processedProviderEvents: [],
      };
    }
    case 'PlanChanged':
      if (state.status !== 'active') return state;
      return {
        ...state,
        plan: event.data.plan,
        processedProviderEvents:
          event.data.providerEventId !== undefined
            ? [...state.processedProviderEvents, event.data.providerEventId]
            : state.processedProviderEvents,
      };
    case 'UserAdded':
      if (state.status !== 'active') return state;
      return {
        ...state,
        users: { ...state.users, [event.data.userId]: { userId: event.data.userId, email: event.data.email, role: event.data.role } },
      };
    case 'UserRoleChanged': {
      if (state.status !== 'active') return state;
      const user = state.users[event.data.userId];
      if (!user) return state;
      return { ...state, users: { ...state.users, [user.userId]: { ...user, role: event.data.role } } };
    }
    default:
      return assertNever(event, 'account event');
  }
}

export const accountDecider: Decider<AccountCommand, AccountEvent, AccountState> = { decide, evolve, initialState };
