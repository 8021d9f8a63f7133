import { createHash } from 'node:crypto';
import type { ListEntity } from '../model';
import { toIso2 } from './countries';
import { ListParseError, maxDate, newEntity, type ParseContext, type ParsedList, parseLooseDate, pushUnique } from './common';
import { readCsvWithHeader } from './csv';
import { systemClock } from '../../shared/clock';

const COLUMNS = ['Name', 'Street_Address', 'City', 'State', 'Country', 'Postal_Code', 'Effective_Date', 'Expiration_Date', 'Standard_Order', 'Last_Update', 'Action', 'FR_Citation'];

/**
 * BIS Denied Persons List (tab-delimited, quoted, header). The file has no id column: the id is a
 * hash of name, effective date and country, stable across versions of the file.
 * Implausible Last_Update values (the real file has 2922-09-01 and 3017-08-22) are kept in `extra`
 * but ignored for the publication date.
 */
export async function parseUsDpl(ctx: ParseContext, file: string, now: Date = systemClock.now()): Promise<ParsedList> {
  const entities: ListEntity[] = [];
  const seen = new Map<string, number>();
  let publishedAt: string | undefined;
  const today = now.toISOString().slice(0, 10);
  for await (const { row, line, header } of readCsvWithHeader(ctx.open(file), file, { delimiter: '\t' })) {
    if (line === 2 && !COLUMNS.every((c, i) => header[i] === c)) {
      throw new ListParseError(file, `unexpected header: expected ${COLUMNS.join(', ')}`, 1, 'header');
    }
    const name = row.Name?.trim();
    if (!name) throw new ListParseError(file, 'empty Name', line, 'Name');
    const effective = row.Effective_Date?.trim() ? parseLooseDate(row.Effective_Date) : undefined;
    if (row.Effective_Date?.trim() && !effective) {
      throw new ListParseError(file, `unreadable date "${row.Effective_Date}" (MM/DD/YYYY expected)`, line, 'Effective_Date');
    }
    const base = createHash('sha1').update([name, row.Effective_Date, row.Country].join('|')).digest('hex').slice(0, 16);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const e = newEntity('us_dpl', n === 1 ? base : `${base}-${n}`, ['export_control'], 'unknown', name);
    const country = toIso2(row.Country);
    const street = row.Street_Address?.trim();
    const city = row.City?.trim();
    const region = row.State?.trim();
    const postalCode = row.Postal_Code?.trim();
    e.addresses.push({
      full: [street, city, region, postalCode, row.Country?.trim()].filter(Boolean).join(', '),
      ...(street ? { street } : {}),
      ...(city ? { city } : {}),
      ...(region ? { region } : {}),
      ...(postalCode ? { postalCode } : {}),
      ...(country ? { country } : {}),
    });
    pushUnique(e.countries, country);
    if (effective) e.listedOn = effective;
    e.sourceUrl = 'https://www.bis.gov/dpl';
    const extra: Record<string, string> = {};
    const exp = parseLooseDate(row.Expiration_Date ?? '');
    if (exp) extra.expiration_date = exp;
    if (row.Standard_Order?.trim()) extra.standard_order = row.Standard_Order.trim();
    if (row.Action?.trim()) extra.action = row.Action.trim();
    if (row.FR_Citation?.trim()) extra.fr_citation = row.FR_Citation.trim();
    const upd = row.Last_Update?.trim();
    if (upd) {
      extra.last_update = upd;
      if (/^\d{4}-\d{2}-\d{2}$/.test(upd) && upd <= today) publishedAt = maxDate(publishedAt, upd);
    }
    e.extra = extra;
    entities.push(e);
  }
  return { entities, publishedAt };
}
