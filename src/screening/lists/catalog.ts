import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { ListSourceId, ListTopic } from '../model';
import { ListParseError, type ParseContext, type ParsedList } from './common';
import { parseOfacCsv } from './ofac-csv';
import { parseUnXml } from './un-xml';

/**
 * How each list is found in its directory, parsed, and downloaded. The file order returned by
 * resolveFiles is the fixed order the content hash is computed in.
 */
export interface ListDefinition {
  source: ListSourceId;
  title: string;
  topics: ListTopic[];
  /** Sub-folder in the bundled snapshot and in ../shared/data. */
  defaultSubdir: string;
  /** Files in hash order; `names` overrides the default file names (same roles, same order). */
  resolveFiles(dir: string, names?: string[]): Promise<string[]>;
  parse(ctx: ParseContext, files: string[]): Promise<ParsedList>;
  /** Official download URLs, one per file role, in the same order as resolveFiles. */
  downloads: { file: string; url: string }[];
  /** Loaded only when explicitly configured (licence terms, e.g. OpenSanctions CC BY-NC). */
  optIn?: boolean;
  licence: string;
}

async function exists(p: string): Promise<boolean> {
  try {
    await fsp.access(p);
    return true;
  } catch {
    return false;
  }
}

/** Fixed file names; optional ones are skipped when absent, required ones fail the list. */
function fixedFiles(required: string[], optional: string[] = []) {
  return async (dir: string, names?: string[]): Promise<string[]> => {
    if (names?.length) {
      const files = names.map((n) => path.resolve(dir, n));
      for (const f of files) if (!(await exists(f))) throw new ListParseError(f, 'file not found');
      return files;
    }
    const out: string[] = [];
    for (const n of required) {
      const f = path.join(dir, n);
      if (!(await exists(f))) throw new ListParseError(f, 'file not found');
      out.push(f);
    }
    for (const n of optional) {
      const f = path.join(dir, n);
      if (await exists(f)) out.push(f);
    }
    return out;
  };
}

/** Files matching a pattern, sorted by name (the hash order). */
export function matchingFiles(pattern: RegExp, what: string) {
  return async (dir: string, names?: string[]): Promise<string[]> => {
    if (names?.length) return fixedFiles(names)(dir);
    let entries: string[];
    try {
      entries = await fsp.readdir(dir);
    } catch {
      throw new ListParseError(dir, 'directory not found');
    }
    const files = entries.filter((n) => pattern.test(n)).sort().map((n) => path.join(dir, n));
    if (!files.length) throw new ListParseError(dir, `no ${what} file (${pattern}) in directory`);
    return files;
  };
}

/** Pick the OFAC role of each file by its name (alt, add, comments; anything else is primary). */
function ofacRoles(files: string[]) {
  const role = (re: RegExp) => files.find((f) => re.test(path.basename(f).toLowerCase()));
  const alt = role(/alt\.csv$/);
  const add = role(/add\.csv$/);
  const comments = role(/comments\.csv$/);
  const primary = files.find((f) => f !== alt && f !== add && f !== comments)!;
  return { primary, alt, add, comments };
}

const OFAC_BASE = 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports';

export const LIST_DEFINITIONS: ListDefinition[] = [
  {
    source: 'ofac_sdn',
    title: 'OFAC Specially Designated Nationals (SDN) list, legacy CSV',
    topics: ['sanctions'],
    defaultSubdir: 'ofac_sdn',
    resolveFiles: fixedFiles(['sdn.csv'], ['alt.csv', 'add.csv', 'sdn_comments.csv']),
    parse: (ctx, files) =>
      parseOfacCsv(ctx, ofacRoles(files), {
        source: 'ofac_sdn',
        topics: ['sanctions'],
        sourceUrl: 'https://sanctionssearch.ofac.treas.gov/',
      }),
    downloads: [
      { file: 'sdn.csv', url: `${OFAC_BASE}/SDN.CSV` },
      { file: 'alt.csv', url: `${OFAC_BASE}/ALT.CSV` },
      { file: 'add.csv', url: `${OFAC_BASE}/ADD.CSV` },
      { file: 'sdn_comments.csv', url: `${OFAC_BASE}/SDN_COMMENTS.CSV` },
    ],
    licence: 'US Government work, public domain',
  },
  {
    source: 'ofac_cons',
    title: 'OFAC Consolidated (non-SDN) lists, legacy CSV',
    topics: ['sanctions'],
    defaultSubdir: 'ofac_cons',
    resolveFiles: fixedFiles(['cons_prim.csv'], ['cons_alt.csv', 'cons_add.csv', 'cons_comments.csv']),
    parse: (ctx, files) =>
      parseOfacCsv(ctx, ofacRoles(files), {
        source: 'ofac_cons',
        topics: ['sanctions'],
        sourceUrl: 'https://sanctionssearch.ofac.treas.gov/',
      }),
    downloads: [
      { file: 'cons_prim.csv', url: `${OFAC_BASE}/CONS_PRIM.CSV` },
      { file: 'cons_alt.csv', url: `${OFAC_BASE}/CONS_ALT.CSV` },
      { file: 'cons_add.csv', url: `${OFAC_BASE}/CONS_ADD.CSV` },
      { file: 'cons_comments.csv', url: `${OFAC_BASE}/CONS_COMMENTS.CSV` },
    ],
    licence: 'US Government work, public domain',
  },
  {
    source: 'un_sc',
    title: 'UN Security Council Consolidated List',
    topics: ['sanctions'],
    defaultSubdir: 'un',
    resolveFiles: fixedFiles(['UN_consolidated.xml']),
    parse: (ctx, files) => parseUnXml(ctx, files[0]),
    downloads: [{ file: 'UN_consolidated.xml', url: 'https://scsanctions.un.org/resources/xml/en/consolidated.xml' }],
    licence: 'UN publication, freely published for public use (UN terms of use)',
  },
];

export function listDefinition(source: ListSourceId): ListDefinition | undefined {
  return LIST_DEFINITIONS.find((d) => d.source === source);
}
