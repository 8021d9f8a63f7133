import path from 'node:path';
import yauzl from 'yauzl';
import type { BirthDate, ListEntity } from '../model';
import { toIso2 } from './countries';
import { addAddress, addName, ListParseError, schemaOfOfacType, newEntity, type ParseContext, type ParsedList, pushUnique } from './common';
import { idTypeFor } from './ofac-remarks';
import { at, child, children, text, type XNode, streamXmlRecords } from './xml';

const SOURCE = 'ofac_enhanced';

const schemaOf = schemaOfOfacType;

const SCRIPTS: Record<string, string> = {
  latin: 'Latn',
  cyrillic: 'Cyrl',
  arabic: 'Arab',
  'chinese simplified': 'Hans',
  'chinese traditional': 'Hant',
  korean: 'Hang',
  greek: 'Grek',
  hebrew: 'Hebr',
};

/** Enhanced XML dates are ranges: fromDateBegin … toDateEnd. A whole year, one day, or a year range. */
function birthDate(f: XNode): BirthDate | undefined {
  const vd = child(f, 'valueDate');
  const raw = text(f, 'value');
  const from = text(vd, 'fromDateBegin');
  const to = text(vd, 'toDateEnd') ?? text(vd, 'toDateBegin');
  const approximate = text(vd, 'isApproximate') === 'true' ? true : undefined;
  if (!from) return raw ? { raw, approximate } : undefined;
  const fromDay = from.slice(0, 10);
  const toDay = (to ?? from).slice(0, 10);
  const fy = Number(fromDay.slice(0, 4));
  const ty = Number(toDay.slice(0, 4));
  if (fromDay === toDay) return { date: fromDay, year: fy, approximate, raw };
  if (fy === ty && fromDay.endsWith('-01-01') && toDay.endsWith('-12-31')) return { date: String(fy), year: fy, approximate, raw };
  if (fy === ty && fromDay.slice(0, 7) === toDay.slice(0, 7)) return { date: fromDay.slice(0, 7), year: fy, approximate, raw };
  return { fromYear: fy, toYear: ty, approximate, raw };
}

const FEATURE_IDS: Record<string, string> = {
  website: 'website',
  'email address': 'email',
  'swift/bic': 'swift_bic',
  isin: 'isin',
  'equity ticker': 'ticker',
  'bik (ru)': 'bik',
  'vessel call sign': 'call_sign',
  'vessel registration identification': 'imo',
  mmsi: 'mmsi',
  'aircraft construction number (also called l/n or s/n or f/n)': 'aircraft_serial',
  'aircraft tail number': 'aircraft_tail',
  'digital currency address - xbt': 'crypto_wallet',
};

function toEntity(n: XNode, file: string): ListEntity {
  const id = n.attrs.id;
  if (!id) throw new ListParseError(file, 'entity without id', n.line, 'entity@id');
  const schema = schemaOf(text(at(n, 'generalInfo'), 'entityType'));
  const names = children(at(n, 'names'), 'name');
  const primary = names.find((x) => text(x, 'isPrimary') === 'true') ?? names[0];
  const fullName = (tr: XNode | undefined) =>
    text(tr, 'formattedFullName') ??
    children(at(tr, 'nameParts'), 'namePart')
      .map((p) => text(p, 'value'))
      .filter(Boolean)
      .join(' ');
  const translations = (x: XNode) => children(at(x, 'translations'), 'translation');
  const primaryTr = primary && (translations(primary).find((t) => text(t, 'isPrimary') === 'true') ?? translations(primary)[0]);
  const primaryName = fullName(primaryTr);
  if (!primaryName) throw new ListParseError(file, `entity ${id} has no primary name`, n.line, 'names/name');
  const e = newEntity(SOURCE, id, ['sanctions'], schema, primaryName);
  e.sourceUrl = 'https://sanctionssearch.ofac.treas.gov/';

  for (const nm of names) {
    const alias = (text(nm, 'aliasType') ?? '').toUpperCase();
    const kind =
      nm === primary
        ? 'strong_alias'
        : text(nm, 'isLowQuality') === 'true'
          ? 'weak_alias'
          : alias.startsWith('F.K.A')
            ? 'former'
            : 'strong_alias';
    for (const tr of translations(nm)) {
      const v = fullName(tr);
      const scriptName = (text(tr, 'script') ?? '').toLowerCase();
      const isLatin = !scriptName || scriptName === 'latin';
      addName(e, v, isLatin ? kind : kind === 'former' ? 'former' : 'original_script');
      const rec = e.names.find((r) => r.value === v);
      if (rec && SCRIPTS[scriptName] && !isLatin) rec.script = SCRIPTS[scriptName];
    }
  }

  const lists = children(at(n, 'sanctionsLists'), 'sanctionsList');
  const published = lists.map((l) => l.attrs.datePublished).filter(Boolean).sort();
  if (published.length) e.listedOn = published[0];
  const listNames = lists.map((l) => l.text.trim()).filter(Boolean);
  for (const p of children(at(n, 'sanctionsPrograms'), 'sanctionsProgram')) pushUnique(e.programs, p.text.trim());
  const extra: Record<string, string> = {};
  if (listNames.length) extra.lists = listNames.join('; ');
  const identityId = text(at(n, 'generalInfo'), 'identityId');
  if (identityId) extra.identity_id = identityId;

  for (const a of children(at(n, 'addresses'), 'address')) {
    const countryName = text(a, 'country');
    const tr = children(at(a, 'translations'), 'translation').find((t) => text(t, 'isPrimary') === 'true');
    const parts: Record<string, string> = {};
    for (const p of children(at(tr, 'addressParts'), 'addressPart')) {
      const k = (text(p, 'type') ?? '').toUpperCase();
      const v = text(p, 'value');
      if (v) parts[k] = parts[k] ? `${parts[k]}, ${v}` : v;
    }
    const street = [parts.ADDRESS1, parts.ADDRESS2, parts.ADDRESS3].filter(Boolean).join(', ') || undefined;
    const city = parts.CITY;
    const region = parts['STATE/PROVINCE'];
    const postalCode = parts['POSTAL CODE'];
    if (!street && !city && !region && !countryName) continue;
    addAddress(e, { street, city, region, postalCode, country: toIso2(countryName), countryName });
  }

  for (const f of children(at(n, 'features'), 'feature')) {
    const type = (text(f, 'type') ?? '').trim();
    const lower = type.toLowerCase();
    const value = text(f, 'value');
    if (lower === 'birthdate') {
      const bd = birthDate(f);
      if (bd) e.birthDates.push(bd);
    } else if (lower === 'place of birth') {
      if (value) {
        pushUnique(e.birthPlaces, value);
        pushUnique(e.countries, toIso2(value));
      }
    } else if (lower === 'nationality country' || lower === 'citizenship country' || lower === 'nationality of registration') {
      pushUnique(e.nationalities, toIso2(value));
    } else if (lower === 'gender') {
      if (value) e.gender = value.toLowerCase();
    } else if (lower === 'vessel flag') {
      if (value) extra.vessel_flag = value;
      pushUnique(e.countries, toIso2(value));
    } else if (lower.startsWith('vessel type') || lower.startsWith('vessel tonnage') || lower.startsWith('vessel gross')) {
      if (value) extra[lower.replace(/\W+/g, '_')] = value;
    } else if (FEATURE_IDS[lower] && value) {
      e.identifiers.push({ type: FEATURE_IDS[lower], value, note: type });
    } else if (lower === 'organization established date' && value) {
      extra.established = value;
    } else if (lower === 'target type' && value) {
      extra.target_type = value;
    }
  }

  for (const d of children(at(n, 'identityDocuments'), 'identityDocument')) {
    const label = text(d, 'type') ?? 'Document';
    const value = text(d, 'documentNumber');
    if (!value) continue;
    const country = toIso2(text(d, 'issuingCountry'));
    e.identifiers.push({ type: idTypeFor(label), value, ...(country ? { country } : {}), note: label });
  }

  for (const r of children(at(n, 'relationships'), 'relationship')) {
    const rel = child(r, 'relatedEntity');
    const target = rel?.attrs.entityId;
    if (target) (e.links ??= []).push({ relation: text(r, 'type') ?? 'related', targetId: `${SOURCE}:${target}`, role: rel!.text.trim() || undefined });
  }
  if (Object.keys(extra).length) e.extra = extra;
  return e;
}

function openZipXml(zipFile: string): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) => {
    yauzl.open(zipFile, { lazyEntries: true, autoClose: true }, (err, zip) => {
      if (err || !zip) return reject(new ListParseError(zipFile, `not a readable ZIP: ${err?.message}`, undefined, 'zip'));
      let found = false;
      zip.on('entry', (entry: yauzl.Entry) => {
        if (/\.xml$/i.test(entry.fileName)) {
          found = true;
          zip.openReadStream(entry, (e2, rs) => (e2 || !rs ? reject(e2) : resolve(rs)));
        } else zip.readEntry();
      });
      zip.on('end', () => {
        if (!found) reject(new ListParseError(zipFile, 'ZIP holds no .xml entry', undefined, 'zip'));
      });
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** OFAC Enhanced XML (SDN_ENHANCED / CONS_ENHANCED), either the .ZIP or the bare .XML. */
export async function parseOfacEnhanced(ctx: ParseContext, file: string): Promise<ParsedList> {
  const entities: ListEntity[] = [];
  let publishedAt: string | undefined;
  let names = 0;
  const isZip = /\.zip$/i.test(path.basename(file));
  const stream = isZip ? await openZipXml(file) : ctx.open(file);
  await streamXmlRecords(stream, file, new Set(['entity', 'publicationInfo']), (node) => {
    if (node.name === 'publicationInfo') publishedAt = text(node, 'dataAsOf');
    else {
      names += children(at(node, 'names'), 'name').length;
      entities.push(toEntity(node, file));
    }
  });
  if (isZip) {
    const { size } = await import('node:fs/promises').then((m) => m.stat(file));
    ctx.markRead(file, size);
  }
  if (!entities.length) throw new ListParseError(file, 'no entity records', undefined, 'entities');
  const stats = { entities: entities.length, names };
  return { entities, publishedAt, stats };
}
