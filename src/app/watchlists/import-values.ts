/**
 * Reading the values of an import's cells (issue 30): dates of birth whose day/month order is
 * decided for the whole column (a `3/1/1970` is read the way `3/31/1954` in the same column proves),
 * two-digit years by a stated pivot, and the words vendors use for entity types, statuses and genders.
 */
import type { WatchlistEntityType, WatchlistEntryStatus, WatchlistGender } from '../../screening/watchlists/model';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const pad = (n: number) => String(n).padStart(2, '0');

function realDate(y: number, m: number, d: number): string | undefined {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return undefined;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/**
 * Two-digit years: `yy` at or below the pivot is 20yy, above it 19yy (a date of birth is never in the
 * future: the pivot defaults to this year's last two digits).
 */
export function fullYear(yy: number, pivot: number): number {
  return yy <= pivot ? 2000 + yy : 1900 + yy;
}

/** "00-26 are 2000-2026, 27-99 are 1927-1999": the pivot in words, for the preview and the answer. */
export function describePivot(pivot: number): string {
  return pivot >= 99 ? '00-99 are 2000-2099' : `00-${pad(pivot)} are 2000-20${pad(pivot)}, ${pad(pivot + 1)}-99 are 19${pad(pivot + 1)}-1999`;
}

/** What one date cell says about its column's order. */
export type DateEvidence = 'day_first' | 'month_first' | 'ambiguous';

export interface ReadDate {
  /** YYYY, YYYY-MM or YYYY-MM-DD (an ambiguous numeric date read day first) */
  value: string;
  /** the month-first reading of an ambiguous numeric date (03/04/1971 ⇒ 1971-03-04), used when its column is month first */
  monthFirst?: string;
  evidence?: DateEvidence;
}

/**
 * A date of birth in one of the accepted forms, or undefined when unreadable. `order`: the order a
 * caller stated (then an ambiguous date is read that way and says nothing about its column).
 */
export function readDate(raw: string, options: { order?: 'dmy' | 'mdy' | undefined; pivot: number }): ReadDate | undefined {
  const s = raw.trim();
  let m = /^(\d{4})$/.exec(s);
  if (m) return { value: m[1]! };
  m = /^(\d{4})[-/.](\d{1,2})$/.exec(s);
  if (m) return +m[2]! >= 1 && +m[2]! <= 12 ? { value: `${m[1]}-${pad(+m[2]!)}` } : undefined;
  m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(s);
  if (m) {
    const value = realDate(+m[1]!, +m[2]!, +m[3]!);
    return value ? { value } : undefined;
  }
  m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})$/.exec(s);
  if (m) {
    const [a, b] = [+m[1]!, +m[2]!];
    const y = m[3]!.length === 2 ? fullYear(+m[3]!, options.pivot) : +m[3]!;
    // An unambiguous day (> 12) decides the order whatever the setting, and is evidence for its column.
    if (a > 12) {
      const value = realDate(y, b, a);
      return value ? { value, evidence: 'day_first' } : undefined;
    }
    if (b > 12) {
      const value = realDate(y, a, b);
      return value ? { value, evidence: 'month_first' } : undefined;
    }
    const dayFirst = realDate(y, b, a);
    const monthFirst = realDate(y, a, b);
    if (!dayFirst || !monthFirst) return undefined;
    if (options.order === 'mdy') return { value: monthFirst };
    if (options.order === 'dmy' || a === b) return { value: dayFirst };
    return { value: dayFirst, monthFirst, evidence: 'ambiguous' };
  }
  const year = (t: string) => (t.length === 2 ? fullYear(+t, options.pivot) : +t);
  m = /^(\d{1,2})(?:st|nd|rd|th)?[\s-]+([A-Za-z]{3,})\.?,?[\s-]+(\d{4}|\d{2})$/.exec(s);
  if (m) {
    const month = MONTHS.indexOf(m[2]!.slice(0, 3).toLowerCase()) + 1;
    const value = month ? realDate(year(m[3]!), month, +m[1]!) : undefined;
    return value ? { value } : undefined;
  }
  m = /^([A-Za-z]{3,})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/.exec(s);
  if (m) {
    const month = MONTHS.indexOf(m[1]!.slice(0, 3).toLowerCase()) + 1;
    const value = month ? realDate(+m[3]!, month, +m[2]!) : undefined;
    return value ? { value } : undefined;
  }
  m = /^([A-Za-z]{3,})\.?\s+(\d{4})$/.exec(s);
  if (m) {
    const month = MONTHS.indexOf(m[1]!.slice(0, 3).toLowerCase()) + 1;
    return month ? { value: `${m[2]}-${pad(month)}` } : undefined;
  }
  return undefined;
}

/** How a date column's order was decided, from every row of the file. */
export interface DateColumnOrder {
  order: 'dmy' | 'mdy';
  /** stated: the mapping or the header said so; inferred: some rows' days prove it; default: nothing did (day first) */
  decidedBy: 'mapping' | 'header' | 'inferred' | 'default';
  dayFirstRows: number;
  monthFirstRows: number;
  ambiguousRows: number;
  /** the column needs a look: nothing decided an order for its ambiguous dates, or rows prove both orders */
  flagged: boolean;
  note: string;
}

/** Counts per date column as rows are read, then the column's order. */
export class DateOrderEvidence {
  private readonly columns = new Map<string, { day_first: number; month_first: number; ambiguous: number; stated?: { order: 'dmy' | 'mdy'; by: 'mapping' | 'header' } }>();

  column(column: string, stated?: { order: 'dmy' | 'mdy'; by: 'mapping' | 'header' }): void {
    if (!this.columns.has(column)) this.columns.set(column, { day_first: 0, month_first: 0, ambiguous: 0, ...(stated ? { stated } : {}) });
  }

  add(column: string, evidence: DateEvidence): void {
    const c = this.columns.get(column);
    if (c) c[evidence] += 1;
  }

  orders(): Record<string, DateColumnOrder> {
    const out: Record<string, DateColumnOrder> = {};
    for (const [column, c] of this.columns) {
      const counts = { dayFirstRows: c.day_first, monthFirstRows: c.month_first, ambiguousRows: c.ambiguous };
      if (c.stated) {
        out[column] = { order: c.stated.order, decidedBy: c.stated.by, ...counts, flagged: false, note: `${c.stated.order === 'mdy' ? 'month' : 'day'} first, as the ${c.stated.by} says` };
      } else if (c.month_first > 0 && c.day_first === 0) {
        out[column] = { order: 'mdy', decidedBy: 'inferred', ...counts, flagged: false, note: `month first: ${c.month_first} row(s) have a day above 12 in second place` };
      } else if (c.day_first > 0 && c.month_first === 0) {
        out[column] = { order: 'dmy', decidedBy: 'inferred', ...counts, flagged: false, note: `day first: ${c.day_first} row(s) have a day above 12 in first place` };
      } else if (c.day_first > 0 && c.month_first > 0) {
        const order = c.month_first > c.day_first ? 'mdy' : 'dmy';
        out[column] = {
          order,
          decidedBy: 'inferred',
          ...counts,
          flagged: true,
          note: `rows prove both orders (${c.day_first} day first, ${c.month_first} month first): ambiguous dates read ${order === 'mdy' ? 'month' : 'day'} first, the majority; check the file or set dob_order`,
        };
      } else {
        out[column] = {
          order: 'dmy',
          decidedBy: 'default',
          ...counts,
          flagged: c.ambiguous > 0,
          note: c.ambiguous > 0 ? `no row decides the order: ${c.ambiguous} ambiguous date(s) read day first; set dob_order "mdy" if the file is month first` : 'no ambiguous dates',
        };
      }
    }
    return out;
  }
}

const ENTITY_TYPES: Record<string, WatchlistEntityType> = {
  individual: 'person', person: 'person', i: 'person', natural: 'person', naturalperson: 'person',
  company: 'organization', organisation: 'organization', organization: 'organization', org: 'organization', entity: 'organization', e: 'organization', business: 'organization', legalentity: 'organization',
  vessel: 'vessel', ship: 'vessel', aircraft: 'aircraft', unknown: 'unknown',
};
export function entityTypeOf(cell: string): WatchlistEntityType | undefined {
  return ENTITY_TYPES[cell.toLowerCase().replace(/[^a-z]/g, '')];
}

const STATUSES: Record<string, WatchlistEntryStatus> = {
  active: 'active', a: 'active', current: 'active', open: 'active', yes: 'active', y: 'active', true: 'active', '1': 'active', listed: 'active',
  inactive: 'inactive', i: 'inactive', closed: 'inactive', deleted: 'inactive', removed: 'inactive', delisted: 'inactive', cleared: 'inactive', expired: 'inactive',
  no: 'inactive', n: 'inactive', false: 'inactive', '0': 'inactive',
};
export function statusOf(cell: string): WatchlistEntryStatus | undefined {
  return STATUSES[cell.toLowerCase().replace(/[^a-z0-9]/g, '')];
}

const GENDERS: Record<string, WatchlistGender | null> = {
  m: 'male', male: 'male', man: 'male', f: 'female', female: 'female', woman: 'female', x: 'other', other: 'other', nonbinary: 'other',
  u: null, unknown: null, notknown: null, notstated: null,
};
/** male, female, other; null: stated as unknown; undefined: unreadable. */
export function genderOf(cell: string): WatchlistGender | null | undefined {
  return GENDERS[cell.toLowerCase().replace(/[^a-z]/g, '')];
}
