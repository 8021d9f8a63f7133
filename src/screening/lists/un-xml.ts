import type { BirthDate, ListEntity } from '../model';
import { toIso2 } from './countries';
import { addAddress, addName, ListParseError, newEntity, type ParseContext, type ParsedList, parseLooseDate, pushUnique } from './common';
import { children, text, type XNode, streamXmlRecords } from './xml';

const UN_URL = 'https://scsanctions.un.org/resources/xml/en/consolidated.xml';

function values(n: XNode, name: string): string[] {
  return children(n, name).flatMap((c) => children(c, 'VALUE').map((v) => v.text.trim()).filter(Boolean));
}

/** UN alias QUALITY: Good / a.k.a. → strong, Low → weak, f.k.a. → former. */
function aliasKind(quality: string | undefined): 'strong_alias' | 'weak_alias' | 'former' {
  const q = (quality ?? '').toLowerCase();
  if (q === 'low') return 'weak_alias';
  if (q === 'f.k.a.') return 'former';
  return 'strong_alias';
}

function birthDate(n: XNode, file: string): BirthDate | undefined {
  const type = (text(n, 'TYPE_OF_DATE') ?? 'EXACT').toUpperCase();
  const date = text(n, 'DATE');
  const year = text(n, 'YEAR');
  const from = text(n, 'FROM_YEAR');
  const to = text(n, 'TO_YEAR');
  const approximate = type === 'APPROXIMATELY' ? true : undefined;
  if (type === 'BETWEEN' || (from && to)) {
    const fromYear = Number(from);
    const toYear = Number(to);
    if (!Number.isInteger(fromYear) || !Number.isInteger(toYear)) {
      throw new ListParseError(file, `BETWEEN date needs FROM_YEAR and TO_YEAR`, n.line, 'FROM_YEAR');
    }
    return { fromYear, toYear, approximate, raw: `${from}-${to}` };
  }
  if (date) {
    const d = parseLooseDate(date);
    if (!d) throw new ListParseError(file, `unreadable DATE "${date}"`, n.line, 'DATE');
    return { date: d, year: Number(d.slice(0, 4)), approximate, raw: date };
  }
  if (year) {
    const y = Number(year);
    if (!Number.isInteger(y)) throw new ListParseError(file, `unreadable YEAR "${year}"`, n.line, 'YEAR');
    return { date: String(y), year: y, approximate, raw: year };
  }
  return undefined;
}

function documentType(t: string | undefined): string {
  const s = (t ?? '').toLowerCase();
  if (s.includes('passport')) return 'passport';
  if (s.includes('national identification') || s.includes('national id') || s.includes('identity card')) return 'national_id';
  if (s.includes('tax') ) return 'tax_id';
  if (s.includes('imo')) return 'imo';
  return 'other';
}

function toEntity(n: XNode, file: string): ListEntity {
  const isPerson = n.name === 'INDIVIDUAL';
  const id = text(n, 'DATAID');
  if (!id) throw new ListParseError(file, `${n.name} without DATAID`, n.line, 'DATAID');
  const name = ['FIRST_NAME', 'SECOND_NAME', 'THIRD_NAME', 'FOURTH_NAME']
    .map((k) => text(n, k))
    .filter(Boolean)
    .join(' ');
  if (!name) throw new ListParseError(file, `${n.name} ${id} has no name`, n.line, 'FIRST_NAME');
  const e = newEntity('un_sc', id, ['sanctions'], isPerson ? 'person' : 'organization', name);
  e.sourceUrl = UN_URL;
  const orig = text(n, 'NAME_ORIGINAL_SCRIPT');
  if (orig) addName(e, orig, 'original_script');
  for (const a of children(n, isPerson ? 'INDIVIDUAL_ALIAS' : 'ENTITY_ALIAS')) {
    const alias = text(a, 'ALIAS_NAME');
    if (alias) addName(e, alias, aliasKind(text(a, 'QUALITY')));
  }
  const listType = text(n, 'UN_LIST_TYPE');
  if (listType) e.programs.push(listType);
  const ref = text(n, 'REFERENCE_NUMBER');
  const extra: Record<string, string> = {};
  if (ref) extra.reference_number = ref;
  const designation = values(n, 'DESIGNATION');
  if (designation.length) extra.designation = designation.join('; ');
  const updated = values(n, 'LAST_DAY_UPDATED');
  if (updated.length) extra.last_updated = updated.sort().at(-1)!;
  if (Object.keys(extra).length) e.extra = extra;
  const listed = text(n, 'LISTED_ON');
  if (listed) e.listedOn = listed;
  const comments = text(n, 'COMMENTS1');
  if (comments) e.remarks = comments;
  const gender = text(n, 'GENDER');
  if (gender) e.gender = gender.toLowerCase();
  const titles = values(n, 'TITLE');
  if (titles.length) e.titles = titles;
  for (const nat of values(n, 'NATIONALITY')) pushUnique(e.nationalities, toIso2(nat));

  for (const d of children(n, 'INDIVIDUAL_DATE_OF_BIRTH')) {
    const bd = birthDate(d, file);
    if (bd) e.birthDates.push(bd);
  }
  for (const p of children(n, 'INDIVIDUAL_PLACE_OF_BIRTH')) {
    const parts = ['CITY', 'STATE_PROVINCE', 'COUNTRY'].map((k) => text(p, k)).filter(Boolean) as string[];
    if (parts.length) pushUnique(e.birthPlaces, parts.join(', '));
    pushUnique(e.countries, toIso2(text(p, 'COUNTRY')));
  }
  for (const a of children(n, isPerson ? 'INDIVIDUAL_ADDRESS' : 'ENTITY_ADDRESS')) {
    const street = text(a, 'STREET');
    const city = text(a, 'CITY');
    const region = text(a, 'STATE_PROVINCE');
    const postalCode = text(a, 'ZIP_CODE');
    const countryName = text(a, 'COUNTRY');
    const note = text(a, 'NOTE');
    if (!street && !city && !region && !countryName && !note) continue;
    addAddress(e, { street, city, region, postalCode, country: toIso2(countryName), countryName }, note);
  }
  for (const d of children(n, 'INDIVIDUAL_DOCUMENT')) {
    const number = text(d, 'NUMBER');
    if (!number) continue;
    const t1 = text(d, 'TYPE_OF_DOCUMENT');
    const t2 = text(d, 'TYPE_OF_DOCUMENT2');
    const country = toIso2(text(d, 'ISSUING_COUNTRY') ?? text(d, 'COUNTRY_OF_ISSUE'));
    const note = [t1, t2, text(d, 'DATE_OF_ISSUE') && `issued ${text(d, 'DATE_OF_ISSUE')}`, text(d, 'NOTE')]
      .filter(Boolean)
      .join('; ');
    e.identifiers.push({ type: documentType(t1), value: number, ...(country ? { country } : {}), ...(note ? { note } : {}) });
  }
  return e;
}

/** UN Security Council consolidated list XML (INDIVIDUALS and ENTITIES). */
export async function parseUnXml(ctx: ParseContext, file: string): Promise<ParsedList> {
  const entities: ListEntity[] = [];
  let publishedAt: string | undefined;
  await streamXmlRecords(
    ctx.open(file),
    file,
    new Set(['INDIVIDUAL', 'ENTITY']),
    (n) => entities.push(toEntity(n, file)),
    (attrs) => {
      publishedAt = attrs.dateGenerated;
    },
  );
  if (entities.length === 0) throw new ListParseError(file, 'no INDIVIDUAL or ENTITY records', undefined, 'CONSOLIDATED_LIST');
  const stats = {
    individuals: entities.filter((e) => e.schema === 'person').length,
    entities: entities.filter((e) => e.schema !== 'person').length,
  };
  return { entities, publishedAt, stats };
}
