/**
 * Shared behaviour of the HTTP-backed adapters: the configuration check, "not applicable"
 * answers, and turning every failure into `{queried: false, error}` so a source can never
 * fail a screening or slip a made-up match into it.
 */

import anyAscii from 'any-ascii';
import { distance } from 'fastest-levenshtein';
import type { ZodType } from 'zod';
import { httpJson, type HttpJson } from './http';
import {
  notQueried,
  type AgentOutcome,
  type Env,
  type ExternalSource,
  type PipelinePhase,
  type SourceContext,
  type SourceMatch,
  type SourceSubject,
  type SourceTier,
} from './types';

export abstract class HttpSource implements ExternalSource {
  abstract readonly name: string;
  abstract readonly label: string;
  abstract readonly enableWith: string;
  abstract readonly phase: PipelinePhase;
  abstract readonly tier: SourceTier;
  /** The settings (variables of the zod config) without which the source is not configured. */
  protected abstract readonly required: readonly string[];

  constructor(
    /** The source settings (sourceSettings of the zod config), by variable name. */
    protected readonly env: Env,
    /** Per-attempt HTTP timeout. */
    protected readonly timeoutMs = 10_000,
    /** Matches kept per query (registries). */
    protected readonly maxResults = 5,
  ) {}

  /** Required settings that are missing (empty list: configured). */
  protected missingSettings(): string[] {
    return missing(this.env, ...this.required);
  }
  /** A reason when the source does not apply to this subject (e.g. a company registry for a person). */
  protected notApplicable(_subject: SourceSubject): string | undefined {
    return undefined;
  }
  protected abstract search(subject: SourceSubject, http: HttpJson, signal?: AbortSignal): Promise<{ matches: SourceMatch[]; warnings?: string[] }>;

  configured(): boolean {
    return this.missingSettings().length === 0;
  }

  async query(subject: SourceSubject, ctx: SourceContext = {}): Promise<AgentOutcome> {
    const missing = this.missingSettings();
    if (missing.length > 0) return notQueried(`not configured: set ${missing.join(' and ')}`);
    const reason = this.notApplicable(subject);
    if (reason) return notQueried(`not applicable: ${reason}`);
    try {
      const { matches, warnings } = await this.search(subject, ctx.http ?? httpJson, ctx.signal);
      return warnings && warnings.length > 0 ? { queried: true, matches, warnings } : { queried: true, matches };
    } catch (err) {
      return notQueried(err instanceof Error ? err.message : String(err));
    }
  }
}

/** Validates an outside service's answer; a wrong shape is an error, never a guess. */
export function parseResponse<T>(schema: ZodType<T>, value: unknown, source: string): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const first = result.error.issues[0];
    throw new Error(`unexpected response from ${source}: ${first ? `${first.path.join('.') || '(root)'} ${first.message}` : 'invalid'}`);
  }
  return result.data;
}

export function missing(env: Record<string, string | undefined>, ...names: string[]): string[] {
  return names.filter((n) => !env[n] || env[n]!.trim() === '');
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Name tokens in ASCII lower case, punctuation removed. */
export function nameTokens(name: string): string[] {
  return anyAscii(name)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter(Boolean);
}

/**
 * Similarity of two names in [0,1], order-insensitive (token-sorted edit-distance ratio). Used
 * to rank and filter candidates from services that return no comparable score.
 */
export function nameSimilarity(a: string, b: string): number {
  const ta = nameTokens(a).sort().join(' ');
  const tb = nameTokens(b).sort().join(' ');
  if (!ta || !tb) return 0;
  if (ta === tb) return 1;
  const longest = Math.max(ta.length, tb.length);
  return Math.max(0, 1 - distance(ta, tb) / longest);
}

export const MIN_SOURCE_MATCH = 0.8;
