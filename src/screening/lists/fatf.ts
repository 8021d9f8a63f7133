import path from 'node:path';
import type { CountryRisk } from '../model';
import { toIso2 } from './countries';
import { ListParseError, type ParseContext, type ParsedList } from './common';
import { readCsvWithHeader } from './csv';

const LISTS = new Set(['high_risk_call_for_action', 'increased_monitoring']);

/**
 * FATF black/grey lists (fatf_lists.csv: as_of, list, fatf_measure, jurisdiction, iso2, iso3, …).
 * countryRiskHistory holds every row; countryRisk the membership at the latest plenary (a country
 * removed at that plenary is no longer a risk, so its older rows stay only in the history).
 */
export async function parseFatf(ctx: ParseContext, files: string[]): Promise<ParsedList> {
  const history: CountryRisk[] = [];
  for (const file of files) {
    if (!/fatf_lists/i.test(path.basename(file))) {
      // fatf_list_changes.csv: hashed into the version, read for progress; the lists file has the facts.
      for await (const _ of readCsvWithHeader(ctx.open(file), file)) void _;
      continue;
    }
    for await (const { row, line } of readCsvWithHeader(ctx.open(file), file)) {
      const asOf = row.as_of?.trim();
      if (!asOf || !/^\d{4}-\d{2}-\d{2}$/.test(asOf)) throw new ListParseError(file, `as_of must be YYYY-MM-DD, got "${asOf}"`, line, 'as_of');
      const list = row.list?.trim();
      if (!list || !LISTS.has(list)) throw new ListParseError(file, `unknown list "${list}"`, line, 'list');
      const jurisdiction = row.jurisdiction?.trim() ?? '';
      const iso2 = row.iso2?.trim().toUpperCase() || toIso2(jurisdiction);
      if (!iso2 || !/^[A-Z]{2}$/.test(iso2)) throw new ListParseError(file, `no ISO alpha-2 code for "${jurisdiction}"`, line, 'iso2');
      history.push({
        iso2,
        ...(row.iso3?.trim() ? { iso3: row.iso3.trim() } : {}),
        jurisdiction,
        list: list as CountryRisk['list'],
        ...(row.fatf_measure?.trim() ? { measure: row.fatf_measure.trim() } : {}),
        asOf,
      });
    }
  }
  if (!history.length) throw new ListParseError(files[0], 'no FATF rows', undefined, 'as_of');
  const latest = history.reduce((m, r) => (r.asOf > m ? r.asOf : m), '');
  const current = history.filter((r) => r.asOf === latest);
  return { entities: [], countryRisk: current, countryRiskHistory: history, publishedAt: latest, stats: { rows: history.length } };
}
