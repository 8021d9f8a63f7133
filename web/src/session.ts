import { api } from './api';

export interface Overview {
  account: { id: string; name: string | null; plan: string; created_at: string | null; user_id: string | null };
  month: string;
  quota_resets_at: string;
  quotas: {
    quota: string;
    surface: string;
    name: string;
    limit: number | null;
    used: number;
    resets_at: string;
    /** From 80 % used (approaching) and once used up (reached), with what that means until the reset. */
    warning: { level: 'approaching' | 'reached'; message: string } | null;
  }[];
  screenings_this_month: { total: number; by_surface: Record<string, number> };
  rate_limits: {
    surface: string;
    description: string;
    limit: number;
    window_seconds: number;
    remaining?: number;
    resets_at?: string;
    keys?: { key_id: string; name: string; prefix: string; remaining: number; resets_at: string }[];
  }[];
  keys: Record<string, { active: number; cap: number | null; cap_scope: string | null }>;
  features: { person_checks?: boolean; dispositions?: boolean; s3_webhooks?: boolean };
}

/** What the signed-in page knows about its account (refreshed on the overview page). */
export const session: { overview: Overview | null } = { overview: null };

export async function loadSession(): Promise<Overview> {
  const { data } = await api<Overview>('GET', '/api/portal/overview');
  session.overview = data;
  return data;
}

export function resetSession(): void {
  session.overview = null;
}
