import type { EntitySchema, ListEntity } from '../model';
import { toIso2 } from './countries';
import { addName, ListParseError, newEntity, type ParseContext, type ParsedList, pushUnique } from './common';
import { readCsv, type CsvRow } from './csv';
import { readXlsxRows } from './xlsx';

/**
 * UK financial sanctions consolidated list, OFSI `ConList.csv` layout: a first line
 * `Last Updated,DD/MM/YYYY`, then a header (Name 6 = surname/entity name, Name 1–5, Title, Name Non-Latin
 * Script, DOB, Town of Birth, Country of Birth, Nationality, Passport Number, National Identification
 * Number, Position, Address 1–6, Post/Zip Code, Country, Other Information, Group Type, Alias Type,
 * Alias Quality, Regime, Listed On, …, Group ID). One row per name; rows are grouped by Group ID.
 * OFSI publishes the same table as ConList.csv and ConList.xlsx: both are read here, the xlsx through
 * a streaming worksheet reader. Checked against the real ConList.xlsx of 2025-04-14
 * (test/unit/screening/lists/uk-sanctions-real.test.ts).
 */
export async function parseUkSanctions(ctx: ParseContext, file: string): Promise<ParsedList> {
  const isXlsx = /\.xlsx$/i.test(file);
  const rows: AsyncIterable<CsvRow> = isXlsx ? readXlsxRows(file) : readCsv(ctx.open(file), file);
  const parsed = await parseUkRows(rows, file);
  if (isXlsx) ctx.markRead(file, (await import('node:fs/promises').then((m) => m.stat(file))).size);
  return parsed;
}

/** dd/mm/yyyy with 00 for an unknown day or month, mm/yyyy or yyyy → YYYY[-MM[-DD]]. */
export function ukDate(s: string): string | undefined {
  const t = s.trim();
  let m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(t);
  if (m) {
    if (m[3] === '0000') return undefined;
    if (m[2] === '00') return m[3];
    if (m[1] === '00') return `${m[3]}-${m[2]}`;
    return `${m[3]}-${m[2]}-${m[1]}`;
  }
  m = /^(\d{2})\/(\d{4})$/.exec(t);
  if (m) return m[1] === '00' ? m[2] : `${m[2]}-${m[1]}`;
  m = /^(\d{4})$/.exec(t);
  if (m && m[1] !== '0000') return m[1];
  return undefined;
}

/** OFSI writes several values in one cell as "(1) first (2) second"; "-" stands for none. */
export function ukMulti(s: string | undefined): string[] {
  const t = (s ?? '').trim();
  if (!t) return [];
  const parts = /^\(1\)/.test(t) ? t.split(/\(\d+\)/) : [t];
  return parts.map((p) => p.trim()).filter((p) => p && p !== '-');
}

async function parseUkRows(rows: AsyncIterable<CsvRow>, file: string): Promise<ParsedList> {
  const byId = new Map<string, ListEntity>();
  let header: string[] | undefined;
  let publishedAt: string | undefined;
  let rowCount = 0;
  const dmy = ukDate;
  for await (const { fields, line } of rows) {
    if (!header) {
      if (/^last updated$/i.test(fields[0]?.trim() ?? '')) {
        publishedAt = dmy(fields[1] ?? '');
        continue;
      }
      header = fields.map((f) => f.trim());
      if (!header.includes('Group ID') || !header.includes('Name 6')) {
        throw new ListParseError(file, 'not an OFSI ConList CSV: no "Group ID"/"Name 6" column', line, 'header');
      }
      continue;
    }
    if (fields.every((f) => !f.trim())) continue;
    rowCount++;
    const row: Record<string, string> = {};
    header.forEach((h, i) => (row[h] = (fields[i] ?? '').trim()));
    const id = row['Group ID'];
    if (!id) throw new ListParseError(file, 'empty Group ID', line, 'Group ID');
    const given = ['Name 1', 'Name 2', 'Name 3', 'Name 4', 'Name 5'].map((k) => row[k]).filter(Boolean);
    const name = [...given, row['Name 6']].filter(Boolean).join(' ');
    if (!name) throw new ListParseError(file, 'row without a name', line, 'Name 6');
    const aliasType = (row['Alias Type'] ?? '').toLowerCase();
    let e = byId.get(id);
    if (!e) {
      const gt = (row['Group Type'] ?? '').toLowerCase();
      const schema: EntitySchema = gt === 'individual' ? 'person' : gt === 'entity' ? 'organization' : gt === 'ship' ? 'vessel' : 'unknown';
      e = newEntity('uk_sanctions', id, ['sanctions'], schema, name);
      e.sourceUrl = 'https://www.gov.uk/government/publications/financial-sanctions-consolidated-list-of-targets';
      byId.set(id, e);
    } else if (aliasType === 'primary name' && e.names[0]?.kind === 'primary' && e.names[0].value !== name) {
      // The primary row came after an alias row: swap.
      e.names[0].kind = 'strong_alias';
      e.names.unshift({ value: name, kind: 'primary' });
      e.primaryName = name;
    }
    // Alias Quality is "Good quality" / "Low quality" in the real file ("Good" / "Low" in older exports).
    const low = /^low/i.test(row['Alias Quality'] ?? '');
    addName(e, name, aliasType === 'fka' ? 'former' : low ? 'weak_alias' : 'strong_alias');
    addName(e, row['Name Non-Latin Script'], 'original_script');
    const dob = dmy(row.DOB ?? '');
    if (dob && !e.birthDates.some((b) => b.date === dob)) e.birthDates.push({ date: dob, year: Number(dob.slice(0, 4)), raw: row.DOB });
    const towns = ukMulti(row['Town of Birth']);
    const birthCountries = ukMulti(row['Country of Birth']);
    for (let i = 0; i < Math.max(towns.length, birthCountries.length); i++) {
      const pob = [towns[i], birthCountries[i]].filter(Boolean).join(', ');
      if (pob) pushUnique(e.birthPlaces, pob);
    }
    for (const c of birthCountries) pushUnique(e.countries, toIso2(c));
    for (const n of ukMulti(row.Nationality).flatMap((v) => v.split(','))) pushUnique(e.nationalities, toIso2(n.trim()));
    for (const [column, type, details] of [
      ['Passport Number', 'passport', 'Passport Details'],
      ['National Identification Number', 'national_id', 'National Identification Details'],
    ] as const) {
      const values = ukMulti(row[column]);
      const notes = ukMulti(row[details]);
      values.forEach((value, i) => {
        if (e!.identifiers.some((x) => x.value === value)) return;
        const note = values.length === notes.length ? notes[i] : row[details];
        e!.identifiers.push({ type, value, ...(note ? { note } : {}) });
      });
    }
    if (row.Title) (e.titles ??= []).includes(row.Title) || e.titles!.push(row.Title);
    if (row.Position) (e.titles ??= []).includes(row.Position) || e.titles!.push(row.Position);
    const addr = ['Address 1', 'Address 2', 'Address 3', 'Address 4', 'Address 5', 'Address 6', 'Post/Zip Code', 'Country'].map((k) => row[k]).filter(Boolean);
    if (addr.length && !e.addresses.some((a) => a.full === addr.join(', '))) {
      const country = toIso2(row.Country);
      e.addresses.push({ full: addr.join(', '), ...(row['Post/Zip Code'] ? { postalCode: row['Post/Zip Code'] } : {}), ...(country ? { country } : {}), ...(row.Country ? { countryName: row.Country } : {}) });
      pushUnique(e.countries, country);
    }
    pushUnique(e.programs, row.Regime || undefined);
    const listed = dmy(row['Listed On'] ?? '');
    if (listed) e.listedOn = listed;
    if (row['Other Information'] && !e.remarks) e.remarks = row['Other Information'];
    const gender = row.Gender || /\(Gender\):\s*(\w+)/.exec(row['Other Information'] ?? '')?.[1];
    if (gender) e.gender = gender.toLowerCase();
  }
  if (!header) throw new ListParseError(file, 'empty file', 1, 'header');
  const entities = [...byId.values()];
  const stats = {
    rows: rowCount,
    entities: entities.length,
    aliases: entities.reduce((n, x) => n + x.names.length - 1, 0),
    withBirthDate: entities.filter((x) => x.birthDates.length > 0).length,
    birthDates: entities.reduce((n, x) => n + x.birthDates.length, 0),
  };
  return { entities, publishedAt, stats };
}
