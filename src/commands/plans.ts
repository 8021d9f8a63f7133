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

/** The S1 risk scale (low 0-19, medium 20-44, high 45-69, critical 70-100): one definition, in the reports model. */
export type { RiskLevel } from '../reports/model';
export { riskLevelForScore } from '../reports/model';
