import path from 'node:path';
import type { EntitySchema, ListEntity } from '../model';
import { iso3ToIso2, toIso2 } from './countries';
import { addName, ListParseError, newEntity, type ParseContext, type ParsedList, parseLooseDate, pushUnique } from './common';
import { readCsvWithHeader } from './csv';

type Role = 'entities' | 'officers' | 'intermediaries' | 'others' | 'addresses' | 'edges';

/** Which ICIJ export a file is, from its name (2017 `Entities.csv` or current `nodes-entities.csv`). */
export function icijRole(file: string): Role | undefined {
  const b = path.basename(file).toLowerCase();
  if (/edges|relationships/.test(b)) return 'edges';
  if (/intermediar/.test(b)) return 'intermediaries';
  if (/officer/.test(b)) return 'officers';
  if (/address/.test(b)) return 'addresses';
  if (/others/.test(b)) return 'others';
  if (/entit/.test(b)) return 'entities';
  return undefined;
}

const SCHEMA: Record<string, EntitySchema> = { entities: 'organization', officers: 'unknown', intermediaries: 'unknown', others: 'unknown' };
const NODE_TYPE: Record<string, string> = { entities: 'entity', officers: 'officer', intermediaries: 'intermediary', others: 'other' };

/** ICIJ country codes are ISO alpha-3 joined with ";" ("CRI;HKG"). */
function countries(codes: string | undefined, names: string | undefined): string[] {
  const out: string[] = [];
  for (const c of (codes ?? '').split(';')) pushUnique(out, c.trim() ? iso3ToIso2(c.trim()) ?? toIso2(c.trim()) : undefined);
  if (!out.length) for (const n of (names ?? '').split(';')) pushUnique(out, toIso2(n));
  return out;
}

/** ICIJ Offshore Leaks CSV export: entities, officers and intermediaries as entities; edges as links. */
export async function parseIcij(ctx: ParseContext, files: string[]): Promise<ParsedList> {
  const byNode = new Map<string, ListEntity>();
  const edgeFiles: string[] = [];
  for (const file of files) {
    const role = icijRole(file);
    if (!role) throw new ListParseError(file, 'cannot tell which ICIJ export this is from its name', undefined, 'file');
    if (role === 'edges') {
      edgeFiles.push(file);
      continue;
    }
    if (role === 'addresses') {
      for await (const _ of readCsvWithHeader(ctx.open(file), file)) void _;
      continue;
    }
    for await (const { row, line } of readCsvWithHeader(ctx.open(file), file)) {
      const node = (row.node_id ?? '').trim();
      if (!/^\d+$/.test(node)) throw new ListParseError(file, `node_id must be a number, got "${node}"`, line, 'node_id');
      const name = (row.name ?? '').trim();
      if (!name) continue; // ICIJ has nameless officer nodes: nothing to screen
      const e = newEntity('icij_offshore', node, ['offshore_leaks'], SCHEMA[role], name);
      if (row.original_name?.trim() && row.original_name.trim() !== name) addName(e, row.original_name, 'strong_alias');
      addName(e, row.former_name, 'former');
      e.countries = countries(row.country_codes, row.countries);
      const jurisdiction = row.jurisdiction_description?.trim();
      if (jurisdiction) pushUnique(e.countries, toIso2(jurisdiction));
      if (row.address?.trim()) e.addresses.push({ full: row.address.trim() });
      const inc = parseLooseDate(row.incorporation_date ?? '');
      if (inc) e.listedOn = inc;
      const extra: Record<string, string> = { node_type: NODE_TYPE[role] };
      for (const k of ['jurisdiction', 'jurisdiction_description', 'company_type', 'status', 'service_provider', 'sourceID', 'valid_until', 'incorporation_date', 'inactivation_date', 'struck_off_date', 'ibcRUC', 'internal_id', 'icij_id', 'note']) {
        if (row[k]?.trim()) extra[k === 'sourceID' ? 'investigation' : k] = row[k].trim();
      }
      e.extra = extra;
      e.sourceUrl = `https://offshoreleaks.icij.org/nodes/${node}`;
      if (byNode.has(node)) throw new ListParseError(file, `duplicate node_id ${node}`, line, 'node_id');
      byNode.set(node, e);
    }
  }
  let edges = 0;
  for (const file of edgeFiles) {
    for await (const { row, line } of readCsvWithHeader(ctx.open(file), file)) {
      const from = (row.node_1 ?? row.node_id_start ?? '').trim();
      const to = (row.node_2 ?? row.node_id_end ?? '').trim();
      const rel = (row.rel_type ?? row.link ?? '').trim();
      if (!from || !to) throw new ListParseError(file, 'edge without both node ids', line, from ? 'node_2' : 'node_1');
      edges++;
      const a = byNode.get(from);
      const b = byNode.get(to);
      if (a) (a.links ??= []).push({ relation: rel || 'related', targetId: `icij_offshore:${to}` });
      if (b) (b.links ??= []).push({ relation: `${rel || 'related'} (inverse)`, targetId: `icij_offshore:${from}` });
    }
  }
  const stats: Record<string, number> = { edges };
  for (const e of byNode.values()) stats[e.extra!.node_type] = (stats[e.extra!.node_type] ?? 0) + 1;
  return { entities: [...byNode.values()], stats };
}
