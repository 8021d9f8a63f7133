/**
 * Typed domain errors thrown by deciders. Each carries a stable `code` so the API's single
 * error mapper can turn it into the right status and envelope per surface (S1/S2/S3) without
 * string-matching messages.
 */

export type DomainErrorCode =
  | 'not_found'
  | 'forbidden'
  | 'plan_required'
  | 'conflict'
  | 'illegal_transition'
  | 'limit_exceeded'
  | 'validation_failed';

export abstract class DomainError extends Error {
  abstract readonly code: DomainErrorCode;
  /** Extra, machine-readable context (never secrets). */
  readonly details: Record<string, unknown>;
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.details = details;
  }
}

/** The aggregate does not exist, or is not visible to this tenant (both look the same: 404). */
export class NotFound extends DomainError {
  override readonly name = 'NotFound';
  readonly code = 'not_found' as const;
  constructor(
    readonly resource: string,
    readonly id: string,
  ) {
    super(`${resource} ${id} not found`, { resource, id });
  }
}

/** The actor may not do this (wrong role, wrong tenant where existence is not secret). */
export class Forbidden extends DomainError {
  override readonly name: string = 'Forbidden';
  readonly code: 'forbidden' | 'plan_required' = 'forbidden';
}

/** The account's plan does not include the feature (S1: 403 plan_required). */
export class PlanRequired extends Forbidden {
  override readonly name = 'PlanRequired';
  override readonly code = 'plan_required' as const;
  constructor(
    readonly feature: string,
    readonly requiredPlans: readonly string[],
    readonly currentPlan: string,
  ) {
    super(`${feature} requires the ${requiredPlans.join(' or ')} plan (current plan: ${currentPlan})`, {
      feature,
      requiredPlans,
      currentPlan,
    });
  }
}

/** The command clashes with the current state (duplicate id, already exists, pending work). */
export class Conflict extends DomainError {
  override readonly name: string = 'Conflict';
  readonly code: 'conflict' | 'illegal_transition' = 'conflict';
}

/** The command is not allowed in the aggregate's current lifecycle state. */
export class IllegalTransition extends Conflict {
  override readonly name = 'IllegalTransition';
  override readonly code = 'illegal_transition' as const;
  constructor(
    readonly aggregate: string,
    readonly state: string,
    readonly command: string,
  ) {
    super(`${command} is not allowed on a ${aggregate} in state ${state}`, { aggregate, state, command });
  }
}

/** A count limit (active keys, …) would be exceeded. */
export class LimitExceeded extends DomainError {
  override readonly name = 'LimitExceeded';
  readonly code = 'limit_exceeded' as const;
  constructor(
    readonly limitName: string,
    readonly limit: number,
    readonly current: number,
  ) {
    super(`Limit ${limitName} reached: ${current} of ${limit}`, { limitName, limit, current });
  }
}

export interface ValidationIssue {
  /** The input field, in the surface's snake_case wording where one exists (first_name, consent…). */
  field: string;
  message: string;
}

/** The command's data is invalid; `issues` lists one entry per problem (S2 needs all of them). */
export class ValidationFailed extends DomainError {
  override readonly name = 'ValidationFailed';
  readonly code = 'validation_failed' as const;
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((i) => `${i.field}: ${i.message}`).join('; ') || 'validation failed', { issues });
  }
}

/** Collects validation problems and throws them all at once. */
export class Issues {
  private readonly list: ValidationIssue[] = [];
  add(field: string, message: string): this {
    this.list.push({ field, message });
    return this;
  }
  check(ok: boolean, field: string, message: string): this {
    if (!ok) this.add(field, message);
    return this;
  }
  get empty(): boolean {
    return this.list.length === 0;
  }
  /** The problems collected so far (a copy). */
  toArray(): ValidationIssue[] {
    return [...this.list];
  }
  throwIfAny(): void {
    if (this.list.length > 0) throw new ValidationFailed([...this.list]);
  }
}
