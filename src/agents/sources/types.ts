/**
 * The outside-source adapter contract. An ExternalSource wraps one outside service (a
 * commercial screening API, a news search, a registry). The pipeline's agents call `query`
 * inside their phase; the outcome is either what the service answered or why it was not asked.
 * Adapters never invent a match: no answer means `queried: false` with the reason.
 */

import type { EntityType, HitCategory, ListAuthority, RegistryRecord, UkRegistryFacts } from '../../reports/model';
import type { HttpJson } from './http';

/** Pipeline phases of spec part 1. */
export type PipelinePhase = '0' | '1' | '1b' | '2' | '3' | '4' | '5';
/** Plan tier gating of spec part 1 ("Essentials" sits between Starter and Professional). */
export type SourceTier = 'all' | 'essentials' | 'professional' | 'enterprise';

export interface SourceSubject {
  name: string;
  entityType: EntityType;
  /** Country name or ISO code as submitted. */
  jurisdiction?: string;
  /** ISO alpha-2 when resolved. */
  jurisdictionIso2?: string;
  /** YYYY, YYYY-MM or YYYY-MM-DD. */
  birthDate?: string;
  registrationNumber?: string;
}

export interface SourceContext {
  /** Aborts the query (the pipeline's per-agent timeout). */
  signal?: AbortSignal;
  /** The HTTP utility to use; tests inject one with a fake sleep. Defaults to httpJson. */
  http?: HttpJson;
}

/** A screening hit found by an outside service. `score` is in [0,1] like the engine's. */
export interface SourceHitMatch {
  kind: 'hit';
  category: HitCategory;
  /** The service's own id of the record. */
  entityId: string;
  entityName: string;
  matchedName: string;
  score: number;
  summary: string;
  programs: string[];
  sourceUrl?: string;
  listAuthority?: ListAuthority;
  /** The list(s) the service says the record is on (dataset ids, list names): see ReportHit.sourceList. */
  sourceList?: string;
  investigation?: string;
  title?: string;
  publishedAt?: string;
  position?: string;
  countries?: string[];
  /** Service-specific facts worth showing (datasets, topics…). */
  extra?: Record<string, string>;
}

/** A registry / enrichment record found by an outside service. */
export interface SourceRegistryMatch {
  kind: 'registry';
  record: RegistryRecord;
  /** Companies House only: the facts the UK registry scoring rules use. */
  ukRegistry?: UkRegistryFacts;
}

export type SourceMatch = SourceHitMatch | SourceRegistryMatch;

export type AgentOutcome =
  | { queried: true; matches: SourceMatch[]; warnings?: string[] }
  | { queried: false; error: string; matches: [] };

export interface ExternalSource {
  /** Stable adapter name, used in the agent audit and data gaps. */
  readonly name: string;
  /** Human label for reports. */
  readonly label: string;
  readonly phase: PipelinePhase;
  readonly tier: SourceTier;
  /** The environment variables that enable it (docs/sources.md), for the portal's sources page. */
  readonly enableWith: string;
  configured(): boolean;
  query(subject: SourceSubject, ctx?: SourceContext): Promise<AgentOutcome>;
}

export function notQueried(error: string): AgentOutcome {
  return { queried: false, error, matches: [] };
}

export type Env = Record<string, string | undefined>;
