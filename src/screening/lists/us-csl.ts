import { createHash } from 'node:crypto';
import { createGunzip } from 'node:zlib';
import type { ListEntity, ListTopic } from '../model';
import { toIso2 } from './countries';
import { addName, ListParseError, schemaOfOfacType, newEntity, type ParseContext, type ParsedList, pushUnique } from './common';
import { readCsvWithHeader, splitMulti } from './csv';
import { idTypeFor, parseOfacDob } from './ofac-remarks';

const COLUMNS_28 = [
  'source', 'entity_number', 'type', 'programs', 'name', 'title', 'addresses', 'federal_register_notice',
  'start_date', 'end_date', 'standard_order', 'license_requirement', 'license_policy', 'call_sign', 'vessel_type',
  'gross_tonnage', 'gross_registered_tonnage', 'vessel_flag', 'vessel_owner', 'remarks', 'source_list_url',
  'alt_names', 'citizenships', 'dates_of_birth', 'nationalities', 'places_of_birth', 'source_information_url', 'ids',
];
const COLUMNS_29 = ['_id', ...COLUMNS_28];

/** The CSL "source" column names the list; its abbreviation in parentheses decides the topic. */
function topicsFor(source: string): ListTopic[] {
  const abbr = /\(([^)]+)\)/.exec(source)?.[1] ?? '';
  if (/^(EL|DPL|UVL|MEU)$/.test(abbr) || /Bureau of Industry and Security/i.test(source)) return ['export_control'];
  if (/^DTC$/.test(abbr)) return ['debarment'];
  return ['sanctions'];
}

const schemaOf = schemaOfOfacType;

/** "MX, BASA841003MJCRHN07, C.U.R.P." / "IMO 8767953, Vessel Registration Identification" / "Female, Gender". */
function applyIds(e: ListEntity, ids: string) {
  for (const item of splitMulti(ids)) {
    const parts = item.split(/,\s*/);
    const label = parts.pop()!.trim();
    if (/^gender$/i.test(label)) {
      if (parts[0]) e.gender = parts[0].toLowerCase();
      continue;
    }
    let country: string | undefined;
    if (parts.length >= 2 && /^[A-Z]{2}$/.test(parts[0])) country = toIso2(parts.shift()!);
    let value = parts.join(', ').trim();
    if (!value) continue;
    const type = idTypeFor(label);
    if (type === 'imo') value = value.replace(/^IMO\s*/i, '');
    e.identifiers.push({ type, value, ...(country ? { country } : {}), note: label });
  }
}

/** trade.gov Consolidated Screening List CSV: the 29-column export (with _id) and the older 28-column one. */
export async function parseUsCsl(ctx: ParseContext, file: string): Promise<ParsedList> {
  const raw = ctx.open(file);
  const stream = /\.gz$/i.test(file) ? raw.pipe(createGunzip()) : raw;
  const entities: ListEntity[] = [];
  const seen = new Map<string, number>();
  let checked = false;
  for await (const { row, line, header } of readCsvWithHeader(stream, file)) {
    if (!checked) {
      const same = (a: string[]) => a.length === header.length && a.every((c, i) => c === header[i]);
      if (!same(COLUMNS_29) && !same(COLUMNS_28)) {
        throw new ListParseError(file, `unexpected header (${header.length} columns): not a CSL 28/29-column export`, 1, 'header');
      }
      checked = true;
    }
    const name = row.name?.trim();
    if (!name) throw new ListParseError(file, 'empty name', line, 'name');
    const idBase =
      row._id?.trim() ||
      row.entity_number?.trim() ||
      createHash('sha1').update([row.source, name, row.addresses, row.start_date].join('|')).digest('hex').slice(0, 16);
    const n = (seen.get(idBase) ?? 0) + 1;
    seen.set(idBase, n);
    const id = n === 1 ? idBase : `${idBase}-${n}`;
    const e = newEntity('us_csl', id, topicsFor(row.source), schemaOf(row.type), name);
    e.programs = splitMulti(row.programs);
    if (row.title?.trim()) e.titles = [row.title.trim()];
    for (const a of splitMulti(row.alt_names)) addName(e, a, 'strong_alias');
    for (const addr of splitMulti(row.addresses)) {
      const parts = addr.split(/,\s*/);
      const last = parts[parts.length - 1];
      const country = toIso2(last);
      e.addresses.push({ full: addr, ...(country ? { country } : {}) });
      pushUnique(e.countries, country);
    }
    for (const c of [...splitMulti(row.nationalities), ...splitMulti(row.citizenships)]) pushUnique(e.nationalities, toIso2(c));
    for (const d of splitMulti(row.dates_of_birth)) {
      const bd = parseOfacDob(d);
      if (bd) e.birthDates.push(bd);
    }
    for (const p of splitMulti(row.places_of_birth)) {
      pushUnique(e.birthPlaces, p);
      pushUnique(e.countries, toIso2(p));
    }
    applyIds(e, row.ids ?? '');
    if (row.call_sign?.trim()) e.identifiers.push({ type: 'call_sign', value: row.call_sign.trim() });
    if (row.start_date?.trim()) e.listedOn = row.start_date.trim();
    if (row.remarks?.trim()) e.remarks = row.remarks.trim();
    e.sourceUrl = row.source_information_url?.trim() || row.source_list_url?.trim() || undefined;
    if (!e.sourceUrl) delete e.sourceUrl;
    const extra: Record<string, string> = { list: row.source };
    for (const k of ['entity_number', 'end_date', 'federal_register_notice', 'license_requirement', 'license_policy', 'vessel_type', 'gross_tonnage', 'gross_registered_tonnage', 'vessel_flag', 'vessel_owner']) {
      if (row[k]?.trim()) extra[k] = row[k].trim();
    }
    if (extra.vessel_flag) pushUnique(e.countries, toIso2(extra.vessel_flag));
    e.extra = extra;
    entities.push(e);
  }
  return { entities };
}
