import type { EntitySchema, ListEntity, ListTopic } from '../model';
import { toIso2 } from './countries';
import { addName, ListParseError, maxDate, newEntity, type ParseContext, type ParsedList, parseLooseDate, pushUnique } from './common';
import { readJsonLines } from './jsonl';

/** OpenSanctions topic tags → our topics. */
function mapTopics(tags: string[], fallback: ListTopic[]): ListTopic[] {
  const out: ListTopic[] = [];
  for (const t of tags) {
    if (t.startsWith('role.pep') || t === 'role.rca') pushUnique(out, 'pep' as ListTopic);
    else if (t.startsWith('sanction')) pushUnique(out, 'sanctions' as ListTopic);
    else if (t === 'debarment' || t === 'corp.disqual') pushUnique(out, 'debarment' as ListTopic);
    else if (t === 'export.control' || t.startsWith('export')) pushUnique(out, 'export_control' as ListTopic);
  }
  return out.length ? out : fallback;
}

type Obj = Record<string, unknown>;
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** OpenSanctions "senzing.json" export (JSON Lines in Senzing's entity specification). */
export async function parseSenzing(ctx: ParseContext, files: string[]): Promise<ParsedList> {
  const entities: ListEntity[] = [];
  let publishedAt: string | undefined;
  for (const file of files) {
    for await (const { obj, line } of readJsonLines(ctx.open(file), file)) {
      const id = str(obj.RECORD_ID);
      if (!id) throw new ListParseError(file, 'missing RECORD_ID', line, 'RECORD_ID');
      const names = arr(obj.NAMES);
      const nameOf = (n: Obj) =>
        str(n.NAME_FULL) ?? str(n.NAME_ORG) ?? [n.NAME_FIRST, n.NAME_MIDDLE, n.NAME_LAST].map(str).filter(Boolean).join(' ');
      const primary = names.find((n) => n.NAME_TYPE === 'PRIMARY') ?? names[0];
      const primaryName = primary && nameOf(primary);
      if (!primaryName) throw new ListParseError(file, `record ${id} has no name`, line, 'NAMES');
      const type = str(obj.RECORD_TYPE);
      const schema: EntitySchema = type === 'PERSON' ? 'person' : type === 'ORGANIZATION' ? 'organization' : 'unknown';
      const topics = mapTopics(arr(obj.RISKS).map((r) => str(r.TOPIC) ?? ''), []);
      const e = newEntity('opensanctions_peps', id, topics, schema, primaryName);
      for (const n of names) if (n !== primary) addName(e, nameOf(n), 'strong_alias');
      for (const d of arr(obj.DATES)) {
        const dob = str(d.DATE_OF_BIRTH);
        const iso = dob && parseLooseDate(dob);
        if (iso) e.birthDates.push({ date: iso, year: Number(iso.slice(0, 4)), raw: dob });
      }
      for (const c of arr(obj.COUNTRIES)) {
        pushUnique(e.nationalities, toIso2(str(c.NATIONALITY) ?? str(c.CITIZENSHIP)));
        pushUnique(e.countries, toIso2(str(c.ADDR_COUNTRY) ?? str(c.REGISTRATION_COUNTRY)));
      }
      for (const i of arr(obj.IDENTIFIERS)) {
        const t = str(i.TRUSTED_ID_TYPE) ?? str(i.OTHER_ID_TYPE) ?? str(i.NATIONAL_ID_TYPE);
        const v = str(i.TRUSTED_ID_NUMBER) ?? str(i.OTHER_ID_NUMBER) ?? str(i.PASSPORT_NUMBER) ?? str(i.NATIONAL_ID_NUMBER);
        if (v && v !== id) e.identifiers.push({ type: t === 'WIKIDATA' ? 'wikidata' : str(i.PASSPORT_NUMBER) ? 'passport' : 'other', value: v, ...(t ? { note: t } : {}) });
      }
      if (!topics.length) e.extra = { record_kind: 'position' };
      const url = str(obj.URL);
      if (url) e.sourceUrl = url;
      publishedAt = maxDate(publishedAt, str(obj.LAST_CHANGE));
      entities.push(e);
    }
  }
  return { entities, publishedAt };
}

const FTM_SCHEMAS: Record<string, EntitySchema> = {
  Person: 'person',
  Organization: 'organization',
  Company: 'organization',
  LegalEntity: 'organization',
  PublicBody: 'organization',
  Vessel: 'vessel',
  Airplane: 'aircraft',
};

const FTM_IDS: Record<string, string> = {
  idNumber: 'national_id',
  passportNumber: 'passport',
  taxNumber: 'tax_id',
  innCode: 'tax_id',
  vatCode: 'tax_id',
  ogrnCode: 'registration',
  registrationNumber: 'registration',
  leiCode: 'lei',
  imoNumber: 'imo',
  swiftBic: 'swift_bic',
  email: 'email',
  website: 'website',
  phone: 'phone',
  mmsi: 'mmsi',
  callSign: 'call_sign',
};

/** FollowTheMoney entities (OpenSanctions entities.ftm.json, JSON Lines). */
export async function parseFtm(ctx: ParseContext, files: string[]): Promise<ParsedList> {
  const objs: { o: Obj; file: string; line: number }[] = [];
  let publishedAt: string | undefined;
  for (const file of files) {
    for await (const { obj, line } of readJsonLines(ctx.open(file), file)) {
      if (!str(obj.id)) throw new ListParseError(file, 'missing id', line, 'id');
      if (!str(obj.schema)) throw new ListParseError(file, 'missing schema', line, 'schema');
      if (obj.properties !== undefined && (typeof obj.properties !== 'object' || obj.properties === null)) {
        throw new ListParseError(file, 'properties must be an object', line, 'properties');
      }
      publishedAt = maxDate(publishedAt, str(obj.last_change));
      objs.push({ o: obj, file, line });
    }
  }
  const props = (o: Obj) => (o.properties ?? {}) as Record<string, string[]>;
  const p = (o: Obj, k: string): string[] => (Array.isArray(props(o)[k]) ? props(o)[k].filter((v) => typeof v === 'string') : []);
  const addresses = new Map<string, Obj>();
  for (const { o } of objs) if (o.schema === 'Address') addresses.set(o.id as string, o);

  const byId = new Map<string, ListEntity>();
  for (const { o, file, line } of objs) {
    const schema = FTM_SCHEMAS[o.schema as string];
    if (!schema) continue;
    const names = p(o, 'name');
    const primaryName = str(o.caption) ?? names[0];
    if (!primaryName) throw new ListParseError(file, `entity ${o.id} has no name`, line, 'name');
    const e = newEntity('opensanctions_ftm', o.id as string, mapTopics(p(o, 'topics'), ['sanctions']), schema, primaryName);
    for (const n of names) addName(e, n, 'strong_alias');
    for (const n of p(o, 'alias')) addName(e, n, 'strong_alias');
    for (const n of p(o, 'abbreviation')) addName(e, n, 'strong_alias');
    for (const n of p(o, 'weakAlias')) addName(e, n, 'weak_alias');
    for (const n of p(o, 'previousName')) addName(e, n, 'former');
    for (const d of p(o, 'birthDate')) {
      const iso = parseLooseDate(d);
      if (iso) e.birthDates.push({ date: iso, year: Number(iso.slice(0, 4)), raw: d });
    }
    for (const b of p(o, 'birthPlace')) pushUnique(e.birthPlaces, b);
    for (const c of [...p(o, 'nationality'), ...p(o, 'citizenship')]) pushUnique(e.nationalities, toIso2(c));
    for (const c of [...p(o, 'country'), ...p(o, 'jurisdiction'), ...p(o, 'birthCountry')]) pushUnique(e.countries, toIso2(c));
    const gender = p(o, 'gender')[0];
    if (gender) e.gender = gender;
    const titles = [...p(o, 'position'), ...p(o, 'title')];
    if (titles.length) e.titles = titles;
    const notes = p(o, 'notes');
    if (notes.length) e.remarks = notes.join(' ');
    for (const [k, type] of Object.entries(FTM_IDS)) for (const v of p(o, k)) e.identifiers.push({ type, value: v, note: k });
    for (const a of p(o, 'address')) e.addresses.push({ full: a });
    for (const ref of p(o, 'addressEntity')) {
      const a = addresses.get(ref);
      if (!a) continue;
      const country = toIso2(p(a, 'country')[0]);
      const full = p(a, 'full')[0] ?? str(a.caption);
      if (e.addresses.some((x) => x.full === full)) continue;
      e.addresses.push({
        ...(full ? { full } : {}),
        ...(p(a, 'street')[0] ? { street: p(a, 'street')[0] } : {}),
        ...(p(a, 'city')[0] ? { city: p(a, 'city')[0] } : {}),
        ...(p(a, 'postalCode')[0] ? { postalCode: p(a, 'postalCode')[0] } : {}),
        ...(country ? { country } : {}),
      });
      pushUnique(e.countries, country);
    }
    const created = p(o, 'createdAt')[0] ?? str(o.first_seen);
    if (created) e.listedOn = created.slice(0, 10);
    const url = p(o, 'sourceUrl')[0];
    e.sourceUrl = url ?? `https://www.opensanctions.org/entities/${o.id}/`;
    const datasets = Array.isArray(o.datasets) ? (o.datasets as string[]) : [];
    e.extra = { ftm_schema: o.schema as string, ...(datasets.length ? { datasets: datasets.join(', ') } : {}) };
    byId.set(e.sourceId, e);
  }

  const link = (from: string | undefined, relation: string, to: string | undefined, role?: string) => {
    const e = from ? byId.get(from) : undefined;
    if (!e || !to) return;
    (e.links ??= []).push({ relation, targetId: `opensanctions_ftm:${to}`, ...(role ? { role } : {}) });
  };
  for (const { o } of objs) {
    switch (o.schema) {
      case 'Sanction': {
        for (const target of p(o, 'entity')) {
          const e = byId.get(target);
          if (!e) continue;
          for (const prog of [...p(o, 'program'), ...p(o, 'programId')]) pushUnique(e.programs, prog);
          if (!p(o, 'program').length && !p(o, 'programId').length) pushUnique(e.programs, p(o, 'authority')[0]);
          const start = p(o, 'listingDate')[0] ?? p(o, 'startDate')[0];
          if (start && (!e.listedOn || start < e.listedOn)) e.listedOn = start.slice(0, 10);
          pushUnique(e.topics, 'sanctions' as ListTopic);
        }
        break;
      }
      case 'Ownership':
        for (const owner of p(o, 'owner')) for (const asset of p(o, 'asset')) {
          link(owner, 'owner_of', asset, p(o, 'role')[0]);
          link(asset, 'owned_by', owner, p(o, 'role')[0]);
        }
        break;
      case 'Family':
        for (const a of p(o, 'person')) for (const b of p(o, 'relative')) {
          link(a, 'family', b, p(o, 'relationship')[0]);
          link(b, 'family', a, p(o, 'relationship')[0]);
        }
        break;
      case 'Directorship':
        for (const d of p(o, 'director')) for (const org of p(o, 'organization')) {
          link(d, 'director_of', org, p(o, 'role')[0]);
          link(org, 'directed_by', d, p(o, 'role')[0]);
        }
        break;
      case 'Passport':
      case 'Identification':
        for (const h of p(o, 'holder')) {
          const e = byId.get(h);
          const num = p(o, 'number')[0] ?? p(o, 'passportNumber')[0];
          if (e && num) e.identifiers.push({ type: o.schema === 'Passport' ? 'passport' : 'national_id', value: num, ...(toIso2(p(o, 'country')[0]) ? { country: toIso2(p(o, 'country')[0]) } : {}) });
        }
        break;
      default:
        break;
    }
  }
  const stats: Record<string, number> = {};
  for (const { o } of objs) stats[o.schema as string] = (stats[o.schema as string] ?? 0) + 1;
  return { entities: [...byId.values()], publishedAt, stats };
}
