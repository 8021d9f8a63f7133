/**
 * Plans and the pipeline tier gates. The spec names Starter, Professional and Enterprise (S3)
 * and gates phases with "Essentials+": we place Essentials between Starter and Professional.
 */
export const plans = ['starter', 'essentials', 'professional', 'enterprise'] as const;
export type Plan = (typeof plans)[number];

export function isPlan(value: unknown): value is Plan {
  return typeof value === 'string' && (plans as readonly string[]).includes(value);
}

const rank: Record<Plan, number> = { starter: 0, essentials: 1, professional: 2, enterprise: 3 };

/** True when `plan` is `minimum` or a higher plan. */
export function planAtLeast(plan: Plan, minimum: Plan): boolean {
  return rank[plan] >= rank[minimum];
}

/** Plans at or above a minimum, for PlanRequired messages. */
export function plansFrom(minimum: Plan): Plan[] {
  return plans.filter((p) => planAtLeast(p, minimum));
}

/**
 * The plan policy: every gate a surface or a decider applies, in one table. The pipeline's per-agent
 * tier gates (commands/screening/pipeline.ts) use planAtLeast with the minimum each agent declares.
 */
export type PlanFeature = 'api_access' | 'edd' | 'sow' | 'ma';

const minimumPlanFor: Record<PlanFeature, Plan> = {
  /** S1/S3 API keys and API requests: Starter is portal-only. */
  api_access: 'essentials',
  edd: 'professional',
  sow: 'professional',
  ma: 'enterprise',
};

export function minimumPlan(feature: PlanFeature): Plan {
  return minimumPlanFor[feature];
}

export function planAllows(plan: Plan, feature: PlanFeature): boolean {
  return planAtLeast(plan, minimumPlanFor[feature]);
}

const kindLabel = { edd: 'EDD', sow: 'SOW', ma: 'M&A' } as const;
const planName = (p: Plan) => p.charAt(0).toUpperCase() + p.slice(1);

/**
 * Why this plan may not request a screening of this kind ("EDD screenings need the Professional or
 * Enterprise plan"), or undefined when it may. The surfaces answer it as plan_required in their envelope.
 */
export function screeningKindRefusal(plan: Plan, kind: string): string | undefined {
  if (kind !== 'edd' && kind !== 'sow' && kind !== 'ma') return undefined;
  if (planAllows(plan, kind)) return undefined;
  return `${kindLabel[kind]} screenings need the ${plansFrom(minimumPlanFor[kind]).map(planName).join(' or ')} plan`;
}

/** Monthly quotas by plan (spec part 8): S1 screening creations (null = unlimited), S3 requests, S3 offshore-leak checks. */
export const monthlyQuotas: {
  s1Screenings: Record<Plan, number | null>;
  s3Requests: Record<Plan, number>;
  s3OffshoreLeakChecks: Record<Plan, number | null>;
} = {
  // Enterprise is unlimited; Professional 250 mirrors the S3 Professional request quota; Essentials 100 sits below.
  s1Screenings: { starter: 0, essentials: 100, professional: 250, enterprise: null },
  // Enterprise 1,000 requests a month, Professional 250, Starter none; Essentials sits between.
  s3Requests: { starter: 0, essentials: 100, professional: 250, enterprise: 1000 },
  // Enterprise 100 offshore-leak checks a month (spec part 8); the other plans have no cap of their own
  // (their checks are bounded by their request quota).
  s3OffshoreLeakChecks: { starter: null, essentials: null, professional: null, enterprise: 100 },
};

/**
 * The monthly offshore-leak checks a screening of this plan, requested on this surface, draws on
 * (null: none, it is not counted). Only S3 API screenings count: the cap is the Enterprise API's.
 * Once they are used up a screening still runs, without the offshore-leak search (issue 33).
 */
export function offshoreLeakChecksPerMonth(plan: Plan, surface: string): number | null {
  return surface === 's3' ? monthlyQuotas.s3OffshoreLeakChecks[plan] : null;
}

/** Warnings the portal shows for a monthly quota: from 80 % used, and when it is used up. */
export type QuotaWarningLevel = 'approaching' | 'reached';
export const QUOTA_WARNING_RATIO = 0.8;

/** Which warning a quota of `limit` with `used` taken calls for (none when unlimited or not in the plan). */
export function quotaWarningLevel(used: number, limit: number | null): QuotaWarningLevel | null {
  if (limit === null || limit <= 0) return null;
  if (used >= limit) return 'reached';
  return used >= QUOTA_WARNING_RATIO * limit ? 'approaching' : null;
}

/** The S1 risk scale (low 0-19, medium 20-44, high 45-69, critical 70-100): one definition, in the reports model. */
export type { RiskLevel } from '../reports/model';
export { riskLevelForScore } from '../reports/model';
