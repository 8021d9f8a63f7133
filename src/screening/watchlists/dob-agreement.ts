/**
 * How two dates of birth agree, for internal-list matching where the date carries a match:
 * exact, day and month swapped (a US/European entry convention), one digit mistyped or two adjacent
 * digits transposed (weaker than exact: a typo is also how two different people's dates differ), the
 * same year or month when one side is partial, or a conflict.
 */

export interface PartialDate {
  year: number;
  month?: number;
  day?: number;
}

export type DobLevel =
  /** same full date */
  | 'exact'
  /** 1980-04-03 vs 1980-03-04 */
  | 'day_month_swapped'
  /** one digit differs (1980-04-13 vs 1980-04-18), or two adjacent digits swapped (1980 vs 1908) */
  | 'typo'
  /** one side gives only the year (or year and month) and that part agrees */
  | 'partial'
  /** same year, another day or month (and not a swap or typo) */
  | 'same_year_other_date'
  /** different years beyond a typo */
  | 'conflict';

export interface DobAgreement {
  level: DobLevel;
  subject: string;
  listed: string;
}

/**
 * Parse YYYY, YYYY-MM, YYYY-MM-DD (also with / or .), DD.MM.YYYY or DD/MM/YYYY (day first).
 * Undefined for anything else or an impossible month/day.
 */
export function parsePartialDate(raw: string | undefined): PartialDate | undefined {
  if (!raw) return undefined;
  const s = raw.trim();
  let m = /^(\d{4})(?:[-/.](\d{1,2})(?:[-/.](\d{1,2}))?)?$/.exec(s);
  let d: PartialDate | undefined;
  if (m) d = { year: +m[1], month: m[2] ? +m[2] : undefined, day: m[3] ? +m[3] : undefined };
  else if ((m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/.exec(s))) d = { year: +m[3], month: +m[2], day: +m[1] };
  if (!d) return undefined;
  if (d.month !== undefined && (d.month < 1 || d.month > 12)) return undefined;
  if (d.day !== undefined && (d.day < 1 || d.day > 31)) return undefined;
  return d;
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

function digits(d: PartialDate): string {
  return pad(d.year, 4) + pad(d.month!, 2) + pad(d.day!, 2);
}

/** One substituted digit, or two adjacent digits transposed, between two equal-length digit strings. */
export function oneDigitTypo(a: string, b: string): boolean {
  if (a.length !== b.length || a === b) return false;
  const diff: number[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) diff.push(i);
  if (diff.length === 1) return true;
  return diff.length === 2 && diff[1] === diff[0] + 1 && a[diff[0]] === b[diff[1]] && a[diff[1]] === b[diff[0]];
}

export function compareDates(subject: PartialDate, listed: PartialDate): DobLevel {
  const full = (d: PartialDate) => d.month !== undefined && d.day !== undefined;
  if (full(subject) && full(listed)) {
    if (subject.year === listed.year && subject.month === listed.month && subject.day === listed.day) return 'exact';
    if (subject.year === listed.year && subject.month === listed.day && subject.day === listed.month) return 'day_month_swapped';
    if (oneDigitTypo(digits(subject), digits(listed))) return 'typo';
    return subject.year === listed.year ? 'same_year_other_date' : 'conflict';
  }
  // one side is partial: compare what both give
  if (subject.year !== listed.year) return oneDigitTypo(pad(subject.year, 4), pad(listed.year, 4)) ? 'typo' : 'conflict';
  if (subject.month !== undefined && listed.month !== undefined && subject.month !== listed.month) {
    const swapped = subject.day !== undefined ? subject.day === listed.month : listed.day === subject.month;
    return swapped ? 'partial' : 'same_year_other_date';
  }
  return 'partial';
}

const RANK: Record<DobLevel, number> = { exact: 5, day_month_swapped: 4, typo: 3, partial: 2, same_year_other_date: 1, conflict: 0 };

/**
 * The best agreement between a subject's date(s) of birth and an entry's, or undefined when either
 * side has no readable date (nothing to compare is not a conflict).
 */
export function dobAgreement(subjectDates: readonly string[], listedDates: readonly string[]): DobAgreement | undefined {
  let best: DobAgreement | undefined;
  for (const s of subjectDates) {
    const sd = parsePartialDate(s);
    if (!sd) continue;
    for (const l of listedDates) {
      const ld = parsePartialDate(l);
      if (!ld) continue;
      const level = compareDates(sd, ld);
      if (!best || RANK[level] > RANK[best.level]) best = { level, subject: s.trim(), listed: l.trim() };
    }
  }
  return best;
}
