import type { EntitySchema, ListEntity } from '../model';
import { toIso2 } from './countries';
import { addName, ListParseError, newEntity, type ParseContext, type ParsedList, pushUnique } from './common';
import { readCsv } from './csv';

/**
 * UK financial sanctions consolidated list, OFSI `ConList.csv` layout: a first line
 * `Last Updated,DD/MM/YYYY`, then a header (Name 6 = surname/entity name, Name 1–5, Title, Name Non-Latin
 * Script, DOB, Town of Birth, Country of Birth, Nationality, Passport Number, National Identification
 * Number, Position, Address 1–6, Post/Zip Code, Country, Other Information, Group Type, Alias Type,
 * Alias Quality, Regime, Listed On, …, Group ID). One row per name; rows are grouped by Group ID.
 * Written from the publisher's documented layout; untested against a full real file.
 */
export async function parseUkSanctions(ctx: ParseContext, file: string): Promise<ParsedList> {
  const byId = new Map<string, ListEntity>();
  let header: string[] | undefined;
  let publishedAt: string | undefined;
  const dmy = (s: string): string | undefined => {
    const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s.trim());
    if (!m) return undefined;
    if (m[3] === '0000') return undefined;
    if (m[2] === '00') return m[3];
    if (m[1] === '00') return `${m[3]}-${m[2]}`;
    return `${m[3]}-${m[2]}-${m[1]}`;
  };
  for await (const { fields, line } of readCsv(ctx.open(file), file)) {
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
    addName(e, name, (row['Alias Quality'] ?? '').toLowerCase() === 'low' ? 'weak_alias' : 'strong_alias');
    addName(e, row['Name Non-Latin Script'], 'original_script');
    const dob = dmy(row.DOB ?? '');
    if (dob && !e.birthDates.some((b) => b.date === dob)) e.birthDates.push({ date: dob, year: Number(dob.slice(0, 4)), raw: row.DOB });
    const pob = [row['Town of Birth'], row['Country of Birth']].filter(Boolean).join(', ');
    if (pob) pushUnique(e.birthPlaces, pob);
    pushUnique(e.countries, toIso2(row['Country of Birth']));
    for (const n of (row.Nationality ?? '').split(/\(\d+\)|,/).map((s) => s.trim()).filter(Boolean)) pushUnique(e.nationalities, toIso2(n));
    if (row['Passport Number'] && !e.identifiers.some((i) => i.value === row['Passport Number'])) {
      e.identifiers.push({ type: 'passport', value: row['Passport Number'], ...(row['Passport Details'] ? { note: row['Passport Details'] } : {}) });
    }
    if (row['National Identification Number'] && !e.identifiers.some((i) => i.value === row['National Identification Number'])) {
      e.identifiers.push({ type: 'national_id', value: row['National Identification Number'], ...(row['National Identification Details'] ? { note: row['National Identification Details'] } : {}) });
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
    if (row.Gender) e.gender = row.Gender.toLowerCase();
  }
  if (!header) throw new ListParseError(file, 'empty file', 1, 'header');
  return { entities: [...byId.values()], publishedAt };
}
