/**
 * What an analyst or an officer reads, in words: the portal's case view and the filed PDF say a
 * match, its adjustments, an event, a time and an unsearched source this way; the API and the audit
 * appendix keep the codes (qualifier kinds, event types, raw scores, ISO instants). Pure: no clock,
 * no I/O (the time zone comes from the caller).
 */

/** Identifier types that name a document or a registration (what an analyst compares with the customer's). */
const REAL_IDENTIFIER_TYPES = new Set([
  'passport',
  'national_id',
  'tax_id',
  'registration',
  'registration_number',
  'imo',
  'mmsi',
  'lei',
  'swift_bic',
  'bik',
  'duns',
  'isin',
  'call_sign',
  'crypto_wallet',
]);

/**
 * The identifiers worth showing: documents and registration numbers. A list's remarks parsed into
 * "other" rows ("Subject to Directive 1", "For more information … https://…"), e-mails, websites
 * and telephone numbers are not identifiers of the person or company.
 */
export function realIdentifiers<T extends { type: string; value: string }>(identifiers: readonly T[] | undefined): T[] {
  return (identifiers ?? []).filter((i) => REAL_IDENTIFIER_TYPES.has(i.type) && i.value.length <= 64 && !/https?:\/\//i.test(i.value));
}

const IDENTIFIER_WORDS: Record<string, string> = {
  passport: 'Passport',
  national_id: 'National id',
  tax_id: 'Tax id',
  registration: 'Registration number',
  registration_number: 'Registration number',
  imo: 'IMO number',
  mmsi: 'MMSI',
  lei: 'LEI',
  swift_bic: 'SWIFT/BIC',
  bik: 'BIK',
  duns: 'D-U-N-S number',
  isin: 'ISIN',
  call_sign: 'Call sign',
  crypto_wallet: 'Digital currency address',
};

/** "Passport 123456 (RU)". */
export function identifierWords(i: { type: string; value: string; country?: string | null }): string {
  return `${IDENTIFIER_WORDS[i.type] ?? i.type.replace(/_/g, ' ')} ${i.value}${i.country ? ` (${i.country})` : ''}`;
}

/** How the matcher names the kind of name that matched (engine.ts `explain`), in words. */
const NAME_KIND_WORDS: Record<string, string> = {
  primary: 'the primary name',
  'strong alias': 'the alias',
  'weak alias': 'the weak alias',
  'original script': 'the name in the original script',
  former: 'the former name',
};

/**
 * The matcher's explanation without its codes: `(name 0.93, tokens exact/phonetic)` and the closing
 * `score 0.97` go (the score is shown as a percentage beside it), "primary name" reads as words.
 */
export function plainExplanation(summary: string): string {
  return summary
    .replace(/\s*\(name [0-9.]+, tokens [^)]*\)/g, '')
    // The internal-list policy's own wording of the same numbers.
    .replace(/\s*\(name score [0-9.]+\)/g, '')
    .replace(/\s*Score [0-9.]+\.(?=\s|$)/g, '')
    .replace(/;\s*score \d+(?:\.\d+)?\.?/g, '.')
    .replace(/ on (primary|strong alias|weak alias|original script|former) "/g, (_m, kind: string) => ` on ${NAME_KIND_WORDS[kind] ?? kind} "`)
    .replace(/\.\.$/, '.')
    .trim();
}

/** An adjustment in words with its effect in points of the 0-100 score: "date of birth agrees (+5)". */
export function qualifierWords(q: { effect: number; detail: string }): string {
  const points = Math.round(q.effect * 100);
  return points === 0 ? q.detail : `${q.detail} (${points > 0 ? '+' : '−'}${Math.abs(points)} points)`;
}

const EVENT_WORDS: Record<string, string> = {
  ScreeningRequested: 'Screening requested',
  PhaseStarted: 'Phase started',
  PhaseSkipped: 'Phase skipped, with any phases right after it (no source of them could be searched)',
  PhaseRetried: 'Phase retried after its deadline',
  AgentResultRecorded: 'Source answered',
  PhaseCompleted: 'Phase completed',
  ScreeningCompleted: 'Screening completed',
  ScreeningFailed: 'Screening failed',
  HitDispositioned: 'Decision on a hit recorded',
  RiskRecomputed: 'Risk recomputed',
  CaseAssigned: 'Case assigned',
  CaseUnassigned: 'Case unassigned',
  MonitoringEnrolled: 'Enrolled in ongoing monitoring',
  MonitoringUnenrolled: 'Ongoing monitoring stopped',
  MonitoringAlertRaised: 'Monitoring alert raised',
  HitReopened: 'Hit re-opened (its list record changed)',
};

/** A stored event's type in words ("ScreeningRequested" → "Screening requested"). */
export function eventWords(type: string): string {
  const known = EVENT_WORDS[type];
  if (known) return known;
  const words = type.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Whether the text names a time zone the runtime knows (an IANA name such as Europe/London, or UTC). */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * An instant as people read it, in the given zone: "7 March 2026, 14:02 UTC",
 * "7 March 2026, 15:02 CET". Dates alone (YYYY-MM-DD) are "7 March 2026"; anything unreadable is
 * returned as it is.
 */
export function humanTime(value: string | undefined | null, timeZone = 'UTC', options: { seconds?: boolean } = {}): string {
  if (!value) return 'not recorded';
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return humanDate(value);
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return value;
  const parts = new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    ...(options.seconds ? { second: '2-digit' as const } : {}),
    hourCycle: 'h23',
    timeZone,
    timeZoneName: 'short',
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('day')} ${get('month')} ${get('year')}, ${get('hour')}:${get('minute')}${options.seconds ? `:${get('second')}` : ''} ${get('timeZoneName')}`;
}

/** A calendar date as people read it: "2024-05-03" → "3 May 2024" (no zone: a date is a date). */
export function humanDate(value: string | undefined | null): string {
  if (!value) return 'not stated';
  const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!day) return value;
  const at = new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])));
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(at);
}

/**
 * Why a source was not searched, for the analyst or officer: what enables a source (an
 * environment variable, an API key) is the operator's business, said once on the Sources page.
 */
export function notSearchedWords(reason: string | undefined | null): string {
  const text = (reason ?? '').trim();
  if (!text) return 'not searched (no reason recorded)';
  if (/^not configured/i.test(text)) return 'not configured on this deployment (an administrator enables it; see the Sources page of the portal)';
  // Any other reason, without the names of settings it may quote.
  return text.replace(/\b(set|setting|configure)\s+[A-Z][A-Z0-9]*(_[A-Z0-9]+)+(\s+(and|or)\s+[A-Z][A-Z0-9]*(_[A-Z0-9]+)+)*/g, 'configure it').replace(/\b[A-Z][A-Z0-9]*(_[A-Z0-9]+)+\b/g, 'a setting');
}
