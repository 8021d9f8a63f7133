import path from 'node:path';
import type { EntitySchema, ListEntity, ListTopic } from '../model';
import { toIso2 } from './countries';
import { addName, ListParseError, newEntity, type ParseContext, type ParsedList, pushUnique } from './common';
import { readCsv } from './csv';
import { applyRemarks } from './ofac-remarks';

/** The four OFAC legacy CSV files of one list (SDN or the non-SDN consolidated list). */
export interface OfacCsvFiles {
  primary: string;
  alt?: string;
  add?: string;
  comments?: string;
  /**
   * Alias files of an older snapshot of the same list (name `alt_<YYYY-MM-DD>.csv`), used when the
   * primary file's own ALT.CSV is not available. Their names are attached by ent_num and marked with
   * their provenance, never passed off as the primary snapshot's own aliases.
   */
  olderAlt?: { file: string; snapshot: string }[];
}

const NULL = '-0-';

/** OFAC's null is `-0-` (written `-0- `, with a trailing space). */
function val(s: string | undefined): string | undefined {
  if (s === undefined) return undefined;
  const t = s.trim();
  return t === '' || t === NULL ? undefined : t;
}

/** Records of a header-less OFAC file; skips the trailing 0x1A (Ctrl-Z) end-of-file marker. */
async function* ofacRecords(ctx: ParseContext, file: string, columns: number) {
  for await (const { fields, line } of readCsv(ctx.open(file), file)) {
    if (fields.length === 1 && /^[\x1a\s]*$/.test(fields[0])) continue;
    if (fields.length !== columns) {
      throw new ListParseError(file, `expected ${columns} columns, found ${fields.length}`, line, 'columns');
    }
    const id = fields[0].trim();
    if (!/^\d+$/.test(id)) throw new ListParseError(file, `ent_num must be a number, got "${id}"`, line, 'ent_num');
    yield { fields, line, id };
  }
}

function schemaOf(sdnType: string | undefined, file: string, line: number): EntitySchema {
  switch ((sdnType ?? '').toLowerCase()) {
    case '':
      return 'organization';
    case 'individual':
      return 'person';
    case 'vessel':
      return 'vessel';
    case 'aircraft':
      return 'aircraft';
    default:
      throw new ListParseError(file, `unknown SDN_Type "${sdnType}"`, line, 'SDN_Type');
  }
}

/** "SDGT] [IRGC" → ["SDGT", "IRGC"]. */
export function splitPrograms(p: string | undefined): string[] {
  if (!p) return [];
  return p
    .split(/\]\s*\[/)
    .map((s) => s.replace(/^\[|\]$/g, '').trim())
    .filter(Boolean);
}

/** Parse an OFAC legacy CSV set (SDN.CSV/ALT/ADD/SDN_COMMENTS or CONS_PRIM/ALT/ADD/COMMENTS). */
export async function parseOfacCsv(
  ctx: ParseContext,
  files: OfacCsvFiles,
  opts: { source: string; topics: ListTopic[]; sourceUrl?: string },
): Promise<ParsedList> {
  const byId = new Map<string, ListEntity>();
  const remarks = new Map<string, string>();
  const stats: Record<string, number> = { primary: 0, alt: 0, aka: 0, fka: 0, nka: 0, add: 0, comments: 0 };

  for await (const { fields, line, id } of ofacRecords(ctx, files.primary, 12)) {
    stats.primary++;
    const name = val(fields[1]);
    if (!name) throw new ListParseError(files.primary, 'empty SDN_Name', line, 'SDN_Name');
    if (byId.has(id)) throw new ListParseError(files.primary, `duplicate ent_num ${id}`, line, 'ent_num');
    const schema = schemaOf(val(fields[2]), files.primary, line);
    const e = newEntity(opts.source, id, opts.topics, schema, name);
    e.programs = splitPrograms(val(fields[3]));
    const title = val(fields[4]);
    if (title) e.titles = [title];
    const callSign = val(fields[5]);
    if (callSign) e.identifiers.push({ type: 'call_sign', value: callSign });
    const extra: Record<string, string> = {};
    const labels = ['vessel_type', 'tonnage', 'grt', 'vessel_flag', 'vessel_owner'];
    labels.forEach((k, i) => {
      const v = val(fields[6 + i]);
      if (v) extra[k] = v;
    });
    if (extra.vessel_flag) pushUnique(e.countries, toIso2(extra.vessel_flag));
    if (Object.keys(extra).length) e.extra = extra;
    if (opts.sourceUrl) e.sourceUrl = opts.sourceUrl;
    const r = val(fields[11]);
    if (r) remarks.set(id, r);
    byId.set(id, e);
  }

  // Remarks longer than 1000 characters continue in the comments file, starting mid-word.
  if (files.comments) {
    for await (const { fields, id } of ofacRecords(ctx, files.comments, 2)) {
      stats.comments++;
      const more = val(fields[1]);
      if (!more || !byId.has(id)) continue;
      remarks.set(id, (remarks.get(id) ?? '') + more);
    }
  }
  for (const [id, r] of remarks) {
    const e = byId.get(id)!;
    e.remarks = r;
    applyRemarks(e, r);
  }

  if (files.alt) {
    for await (const { fields, line, id } of ofacRecords(ctx, files.alt, 5)) {
      stats.alt++;
      const t = (val(fields[2]) ?? '').toLowerCase();
      if (t in stats) stats[t]++;
      const e = byId.get(id);
      if (!e) continue; // an alias of a delisted entry: nothing to attach it to
      const type = (val(fields[2]) ?? '').toLowerCase();
      const name = val(fields[3]);
      if (!name) throw new ListParseError(files.alt, 'empty alt_name', line, 'alt_name');
      addName(e, name, type === 'fka' ? 'former' : 'strong_alias');
    }
  }

  for (const older of files.olderAlt ?? []) {
    const provenance = `alias from OFAC ALT.CSV of ${older.snapshot} (an older snapshot), attached by ent_num`;
    let attached = 0;
    for await (const { fields, line, id } of ofacRecords(ctx, older.file, 5)) {
      const e = byId.get(id);
      if (!e) continue; // delisted since that snapshot
      const name = val(fields[3]);
      if (!name) throw new ListParseError(older.file, 'empty alt_name', line, 'alt_name');
      if (e.names.some((n) => n.value === name)) continue;
      const type = (val(fields[2]) ?? '').toLowerCase();
      addName(e, name, type === 'fka' ? 'former' : 'strong_alias');
      const added = e.names.find((n) => n.value === name.replace(/\s+/g, ' ').trim());
      if (added) {
        added.provenance = provenance;
        attached++;
      }
    }
    stats[`older_alt_${older.snapshot}`] = attached;
  }

  if (files.add) {
    for await (const { fields, id } of ofacRecords(ctx, files.add, 6)) {
      stats.add++;
      const e = byId.get(id);
      if (!e) continue;
      const street = val(fields[2]);
      const city = val(fields[3]);
      const countryName = val(fields[4]);
      if (!street && !city && !countryName) continue;
      const country = toIso2(countryName);
      e.addresses.push({
        full: [street, city, countryName].filter(Boolean).join(', '),
        ...(street ? { street } : {}),
        ...(city ? { city } : {}),
        ...(country ? { country } : {}),
        ...(countryName ? { countryName } : {}),
      });
      pushUnique(e.countries, country);
    }
  }

  return { entities: [...byId.values()], stats };
}

export function ofacFileSet(dir: string, prefix: 'sdn' | 'cons'): OfacCsvFiles {
  if (prefix === 'sdn') {
    return {
      primary: path.join(dir, 'sdn.csv'),
      alt: path.join(dir, 'alt.csv'),
      add: path.join(dir, 'add.csv'),
      comments: path.join(dir, 'sdn_comments.csv'),
    };
  }
  return {
    primary: path.join(dir, 'cons_prim.csv'),
    alt: path.join(dir, 'cons_alt.csv'),
    add: path.join(dir, 'cons_add.csv'),
    comments: path.join(dir, 'cons_comments.csv'),
  };
}
