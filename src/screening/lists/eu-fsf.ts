import type { EntitySchema, ListEntity } from '../model';
import { toIso2 } from './countries';
import { addName, ListParseError, newEntity, type ParseContext, type ParsedList, parseLooseDate, pushUnique } from './common';
import { readCsvWithHeader } from './csv';

/**
 * EU Financial Sanctions Files, CSV v1.1 (`csvFullSanctionsList_1_1`): semicolon-separated, one header
 * row, one row per sub-record (a name alias, an address, a birth date, an identification or a
 * citizenship) repeating the Entity_* columns; rows are grouped by Entity_LogicalId.
 * Written from the publisher's documented column names; untested against a full real file.
 */
export async function parseEuFsf(ctx: ParseContext, file: string): Promise<ParsedList> {
  const byId = new Map<string, ListEntity>();
  let publishedAt: string | undefined;
  const seenKeys = new Map<string, Set<string>>();
  const once = (id: string, key: string) => {
    let s = seenKeys.get(id);
    if (!s) seenKeys.set(id, (s = new Set()));
    if (s.has(key)) return false;
    s.add(key);
    return true;
  };
  for await (const { row, line, header } of readCsvWithHeader(ctx.open(file), file, { delimiter: ';' })) {
    if (line === 2 && !header.includes('Entity_LogicalId')) {
      throw new ListParseError(file, 'not an EU FSF CSV: no Entity_LogicalId column', 1, 'header');
    }
    const g = (k: string) => (row[k] ?? '').trim();
    const id = g('Entity_LogicalId');
    if (!id) throw new ListParseError(file, 'empty Entity_LogicalId', line, 'Entity_LogicalId');
    if (g('fileGenerationDate')) publishedAt ??= parseLooseDate(g('fileGenerationDate')) ?? g('fileGenerationDate');
    const whole =
      g('NameAlias_WholeName') || [g('NameAlias_FirstName'), g('NameAlias_MiddleName'), g('NameAlias_LastName')].filter(Boolean).join(' ');
    let e = byId.get(id);
    if (!e) {
      const type = (g('Entity_SubjectType_ClassificationCode') || g('Entity_SubjectType')).toLowerCase();
      const schema: EntitySchema = type === 'person' || type === 'p' ? 'person' : type === 'enterprise' || type === 'e' ? 'organization' : 'unknown';
      e = newEntity('eu_fsf', id, ['sanctions'], schema, whole || `EU ${id}`);
      e.names = whole ? e.names : [];
      const extra: Record<string, string> = {};
      if (g('Entity_EU_ReferenceNumber')) extra.eu_reference_number = g('Entity_EU_ReferenceNumber');
      if (g('Entity_UnitedNationId')) extra.un_id = g('Entity_UnitedNationId');
      if (g('Entity_Regulation_NumberTitle')) extra.regulation = g('Entity_Regulation_NumberTitle');
      e.extra = extra;
      if (g('Entity_Remark')) e.remarks = g('Entity_Remark');
      const designated = parseLooseDate(g('Entity_DesignationDate'));
      if (designated) e.listedOn = designated;
      if (g('Entity_Regulation_PublicationUrl')) e.sourceUrl = g('Entity_Regulation_PublicationUrl');
      byId.set(id, e);
    } else if (whole && e.names.length === 0) {
      e.primaryName = whole;
    }
    pushUnique(e.programs, g('Entity_Regulation_Programme') || undefined);
    if (whole) addName(e, whole, e.names.length === 0 ? 'primary' : 'strong_alias');
    if (e.names.length === 1 && e.names[0].kind === 'primary') e.primaryName = e.names[0].value;
    if (g('NameAlias_Gender')) e.gender = g('NameAlias_Gender') === 'M' ? 'male' : g('NameAlias_Gender') === 'F' ? 'female' : g('NameAlias_Gender').toLowerCase();
    if (g('NameAlias_Function')) (e.titles ??= []).includes(g('NameAlias_Function')) || e.titles!.push(g('NameAlias_Function'));

    const addrKey = ['Address_Street', 'Address_City', 'Address_ZipCode', 'Address_Region', 'Address_CountryIso2Code', 'Address_CountryDescription'].map(g);
    if (addrKey.some(Boolean) && once(id, `a:${addrKey.join('|')}`)) {
      const country = toIso2(g('Address_CountryIso2Code')) ?? toIso2(g('Address_CountryDescription'));
      e.addresses.push({
        full: addrKey.filter(Boolean).join(', '),
        ...(g('Address_Street') ? { street: g('Address_Street') } : {}),
        ...(g('Address_City') ? { city: g('Address_City') } : {}),
        ...(g('Address_Region') ? { region: g('Address_Region') } : {}),
        ...(g('Address_ZipCode') ? { postalCode: g('Address_ZipCode') } : {}),
        ...(country ? { country } : {}),
        ...(g('Address_CountryDescription') ? { countryName: g('Address_CountryDescription') } : {}),
      });
      pushUnique(e.countries, country);
    }
    const bdKey = ['BirthDate_BirthDate', 'BirthDate_Year', 'BirthDate_YearRangeFrom', 'BirthDate_YearRangeTo', 'BirthDate_City', 'BirthDate_CountryIso2Code'].map(g);
    if (bdKey.some(Boolean) && once(id, `b:${bdKey.join('|')}`)) {
      const approximate = /^(true|1|yes)$/i.test(g('BirthDate_Circa')) || undefined;
      const full = parseLooseDate(g('BirthDate_BirthDate'));
      const from = Number(g('BirthDate_YearRangeFrom'));
      const to = Number(g('BirthDate_YearRangeTo'));
      if (full) e.birthDates.push({ date: full, year: Number(full.slice(0, 4)), approximate, raw: g('BirthDate_BirthDate') });
      else if (from && to) e.birthDates.push({ fromYear: from, toYear: to, approximate, raw: `${from}-${to}` });
      else if (/^\d{4}$/.test(g('BirthDate_Year'))) e.birthDates.push({ date: g('BirthDate_Year'), year: Number(g('BirthDate_Year')), approximate, raw: g('BirthDate_Year') });
      const place = [g('BirthDate_City') || g('BirthDate_Place'), g('BirthDate_Region'), g('BirthDate_CountryDescription')].filter(Boolean).join(', ');
      if (place) pushUnique(e.birthPlaces, place);
      pushUnique(e.countries, toIso2(g('BirthDate_CountryIso2Code')));
    }
    if (g('Identification_Number') && once(id, `i:${g('Identification_Number')}`)) {
      const code = g('Identification_TypeCode').toLowerCase();
      const type = code.includes('passport') ? 'passport' : code === 'id' || code.includes('national') ? 'national_id' : code.includes('tax') ? 'tax_id' : code.includes('reg') ? 'registration' : 'other';
      const country = toIso2(g('Identification_CountryIso2Code'));
      e.identifiers.push({ type, value: g('Identification_Number'), ...(country ? { country } : {}), ...(g('Identification_TypeDescription') ? { note: g('Identification_TypeDescription') } : {}) });
    }
    pushUnique(e.nationalities, toIso2(g('Citizenship_CountryIso2Code')) ?? toIso2(g('Citizenship_CountryDescription')));
  }
  for (const e of byId.values()) {
    if (!e.names.length) throw new ListParseError(file, `entity ${e.sourceId} has no NameAlias row`, undefined, 'NameAlias_WholeName');
  }
  return { entities: [...byId.values()], publishedAt };
}
