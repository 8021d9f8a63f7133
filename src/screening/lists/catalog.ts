import { promises as fsp } from 'node:fs';
import { fileExists } from '../../shared/files';
import path from 'node:path';
import type { ListSourceId, ListTopic } from '../model';
import { ListParseError, type ParseContext, type ParsedList } from './common';
import { parseOfacCsv } from './ofac-csv';
import { parseUnXml } from './un-xml';
import { parseOfacEnhanced } from './ofac-enhanced';
import { parseUsCsl } from './us-csl';
import { parseUsDpl } from './us-dpl';
import { parseFtm, parseSenzing } from './opensanctions';
import { parseIcij } from './icij';
import { parseFatf } from './fatf';
import { parseEuFsf } from './eu-fsf';
import { parseUkSanctions } from './uk-sanctions';

/**
 * How each list is found in its directory, parsed, and downloaded. The file order returned by
 * resolveFiles is the fixed order the content hash is computed in.
 */
export interface ListDefinition {
  source: ListSourceId;
  title: string;
  /** Short name for warnings and tables ("OFAC SDN list"). */
  label: string;
  topics: ListTopic[];
  /**
   * This list's own maximum age in days when LISTS_MAX_AGE does not name it. Absent: sanctions and
   * export-control lists take LISTS_MAX_AGE_DAYS (restricted-party lists change weekly); every other
   * list states its own, from how often its issuer publishes (docs/lists.md "Maximum age").
   */
  defaultMaxAgeDays?: number;
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


/** Fixed file names; optional ones are skipped when absent, required ones fail the list. */
function fixedFiles(required: string[], optional: string[] = []) {
  return async (dir: string, names?: string[]): Promise<string[]> => {
    if (names?.length) {
      const files = names.map((n) => path.resolve(dir, n));
      for (const f of files) if (!(await fileExists(f))) throw new ListParseError(f, 'file not found');
      return files;
    }
    const out: string[] = [];
    for (const n of required) {
      const f = path.join(dir, n);
      if (!(await fileExists(f))) throw new ListParseError(f, 'file not found');
      out.push(f);
    }
    for (const n of optional) {
      const f = path.join(dir, n);
      if (await fileExists(f)) out.push(f);
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

/** The first of several alternative names that exists (e.g. consolidated.csv or consolidated.csv.gz). */
function oneOf(...candidates: string[]) {
  return async (dir: string, names?: string[]): Promise<string[]> => {
    if (names?.length) return fixedFiles(names)(dir);
    for (const c of candidates) if (await fileExists(path.join(dir, c))) return [path.join(dir, c)];
    throw new ListParseError(path.join(dir, candidates[0]), `file not found (looked for ${candidates.join(', ')})`);
  };
}

/** Pick the OFAC role of each file by its name (alt, add, comments; anything else is primary). */
function ofacRoles(files: string[]) {
  const role = (re: RegExp) => files.find((f) => re.test(path.basename(f).toLowerCase()));
  const alt = role(/alt\.csv$/);
  const add = role(/add\.csv$/);
  const comments = role(/comments\.csv$/);
  const olderAlt = files.flatMap((f) => {
    const m = OLDER_ALT.exec(path.basename(f).toLowerCase());
    return m ? [{ file: f, snapshot: m[1] }] : [];
  });
  const primary = files.find((f) => f !== alt && f !== add && f !== comments && !olderAlt.some((o) => o.file === f))!;
  return { primary, alt, add, comments, ...(olderAlt.length ? { olderAlt } : {}) };
}

/** An older snapshot's alias file kept beside a newer primary file: `alt_2021-07-07.csv`. */
const OLDER_ALT = /^alt_(\d{4}-\d{2}-\d{2})\.csv$/;

/**
 * OFAC SDN files: sdn.csv, then its own alt/add/comments when present; an older snapshot's aliases
 * (`alt_<date>.csv`) only when the list's own alt.csv is absent (see lists/README.md).
 */
function ofacSdnFiles() {
  const base = fixedFiles(['sdn.csv'], ['alt.csv', 'add.csv', 'sdn_comments.csv']);
  return async (dir: string, names?: string[]): Promise<string[]> => {
    const files = await base(dir, names);
    if (names?.length || files.some((f) => path.basename(f) === 'alt.csv')) return files;
    const entries = await fsp.readdir(dir).catch(() => [] as string[]);
    return [...files, ...entries.filter((n) => OLDER_ALT.test(n.toLowerCase())).sort().map((n) => path.join(dir, n))];
  };
}

/** The OFSI consolidated list as CSV or xlsx (one of them: the CSV when both are there). */
function ukConListFile() {
  return async (dir: string, names?: string[]): Promise<string[]> => {
    if (names?.length) return fixedFiles(names)(dir);
    const entries = await fsp.readdir(dir).catch(() => {
      throw new ListParseError(dir, 'directory not found');
    });
    const csv = entries.filter((n) => /\.csv$/i.test(n)).sort();
    const xlsx = entries.filter((n) => /\.xlsx$/i.test(n)).sort();
    const pick = csv[0] ?? xlsx[0];
    if (!pick) throw new ListParseError(dir, 'no ConList file (.csv or .xlsx) in directory');
    return [path.join(dir, pick)];
  };
}

const OFAC_BASE = 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports';

export const LIST_DEFINITIONS: ListDefinition[] = [
  {
    source: 'ofac_sdn',
    label: 'OFAC SDN list',
    title: 'OFAC Specially Designated Nationals (SDN) list, legacy CSV',
    topics: ['sanctions'],
    defaultSubdir: 'ofac_sdn',
    resolveFiles: ofacSdnFiles(),
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
    label: 'OFAC non-SDN consolidated list',
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
    label: 'UN Security Council consolidated list',
    title: 'UN Security Council Consolidated List',
    topics: ['sanctions'],
    defaultSubdir: 'un',
    resolveFiles: fixedFiles(['UN_consolidated.xml']),
    parse: (ctx, files) => parseUnXml(ctx, files[0]),
    downloads: [{ file: 'UN_consolidated.xml', url: 'https://scsanctions.un.org/resources/xml/en/consolidated.xml' }],
    licence: 'UN publication, freely published for public use (UN terms of use)',
  },
  {
    source: 'ofac_enhanced',
    label: 'OFAC consolidated list (Enhanced XML)',
    title: 'OFAC Consolidated (non-SDN) list, Enhanced XML',
    topics: ['sanctions'],
    defaultSubdir: 'ofac_xml',
    resolveFiles: oneOf('CONS_ENHANCED.ZIP', 'CONS_ENHANCED.XML', 'SDN_ENHANCED.ZIP', 'SDN_ENHANCED.XML'),
    parse: (ctx, files) => parseOfacEnhanced(ctx, files[0]),
    downloads: [{ file: 'CONS_ENHANCED.ZIP', url: `${OFAC_BASE}/CONS_ENHANCED.ZIP` }],
    licence: 'US Government work, public domain',
  },
  {
    source: 'us_csl',
    label: 'US Consolidated Screening List',
    title: 'US Consolidated Screening List (trade.gov)',
    topics: ['sanctions', 'export_control', 'debarment'],
    defaultSubdir: 'us_csl',
    resolveFiles: oneOf('consolidated.csv', 'consolidated.csv.gz'),
    parse: (ctx, files) => parseUsCsl(ctx, files[0]),
    downloads: [{ file: 'consolidated.csv', url: 'https://data.trade.gov/downloadable_consolidated_screening_list/v1/consolidated.csv' }],
    licence: 'US Government work, public domain',
  },
  {
    source: 'us_dpl',
    label: 'BIS Denied Persons List',
    title: 'BIS Denied Persons List',
    topics: ['export_control'],
    defaultSubdir: 'us_dpl',
    resolveFiles: fixedFiles(['dpl.txt']),
    parse: (ctx, files) => parseUsDpl(ctx, files[0]),
    downloads: [{ file: 'dpl.txt', url: 'https://www.bis.doc.gov/dpl/dpl.txt' }],
    licence: 'US Government work, public domain',
  },
  {
    source: 'fatf',
    label: 'FATF jurisdiction lists',
    title: 'FATF high-risk and monitored jurisdictions (compiled)',
    topics: [],
    // FATF's plenaries publish three times a year (February, June, October): half a year misses one.
    defaultMaxAgeDays: 180,
    defaultSubdir: 'fatf',
    resolveFiles: fixedFiles(['fatf_lists.csv'], ['fatf_list_changes.csv']),
    parse: (ctx, files) => parseFatf(ctx, files),
    // FATF publishes HTML statements only: the CSV is compiled by hand, nothing to download.
    downloads: [],
    licence: 'facts compiled from FATF public statements; cite FATF',
  },
  {
    source: 'icij_offshore',
    label: 'ICIJ Offshore Leaks data',
    title: 'ICIJ Offshore Leaks (Panama Papers CSV export)',
    topics: ['offshore_leaks'],
    // ICIJ adds a new investigation's records every year or two: older data misses the latest leaks.
    defaultMaxAgeDays: 730,
    defaultSubdir: 'icij',
    resolveFiles: matchingFiles(/\.csv$/i, 'ICIJ CSV'),
    parse: (ctx, files) => parseIcij(ctx, files),
    // The official bulk download is a ZIP of CSVs (full-oldb.LATEST.zip): unpack it into the folder by hand.
    downloads: [],
    licence: 'ICIJ Offshore Leaks Database: ODbL v1.0, contents CC BY-SA (attribution: ICIJ Offshore Leaks)',
  },
  {
    source: 'opensanctions_peps',
    label: 'OpenSanctions PEP list',
    title: 'OpenSanctions PEPs (Senzing JSON lines)',
    topics: ['pep'],
    // Offices change hands daily and OpenSanctions publishes daily: a month misses elections.
    defaultMaxAgeDays: 30,
    defaultSubdir: 'opensanctions',
    resolveFiles: matchingFiles(/senzing.*\.json$/i, 'Senzing JSON'),
    parse: (ctx, files) => parseSenzing(ctx, files),
    downloads: [{ file: 'senzing.json', url: 'https://data.opensanctions.org/datasets/latest/peps/senzing.json' }],
    optIn: true,
    licence: 'OpenSanctions CC BY-NC 4.0: commercial use needs an OpenSanctions licence',
  },
  {
    source: 'opensanctions_ftm',
    label: 'OpenSanctions sanctions entities',
    title: 'OpenSanctions FollowTheMoney entities (JSON lines)',
    topics: ['sanctions'],
    defaultSubdir: 'opensanctions',
    resolveFiles: matchingFiles(/\.ftm\.json$/i, 'FtM JSON'),
    parse: (ctx, files) => parseFtm(ctx, files),
    downloads: [{ file: 'entities.ftm.json', url: 'https://data.opensanctions.org/datasets/latest/sanctions/entities.ftm.json' }],
    optIn: true,
    licence: 'OpenSanctions CC BY-NC 4.0: commercial use needs an OpenSanctions licence',
  },
  {
    source: 'eu_fsf',
    label: 'EU consolidated financial sanctions list',
    title: 'EU Financial Sanctions Files, consolidated list CSV 1.1',
    topics: ['sanctions'],
    defaultSubdir: 'eu_fsf',
    resolveFiles: matchingFiles(/\.csv$/i, 'EU FSF CSV'),
    parse: (ctx, files) => parseEuFsf(ctx, files[0]),
    downloads: [
      {
        file: 'eu_fsf.csv',
        url: 'https://webgate.ec.europa.eu/fsd/fsf/public/files/csvFullSanctionsList_1_1/content?token=dG9rZW4tMjAxNw',
      },
    ],
    licence: 'EU publication, reuse authorised (Commission Decision 2011/833/EU)',
  },
  {
    source: 'uk_sanctions',
    label: 'UK OFSI consolidated list',
    title: 'UK financial sanctions consolidated list (OFSI ConList, CSV or xlsx)',
    topics: ['sanctions'],
    defaultSubdir: 'uk_sanctions',
    resolveFiles: ukConListFile(),
    parse: (ctx, files) => parseUkSanctions(ctx, files[0]),
    downloads: [{ file: 'ConList.csv', url: 'https://ofsistorage.blob.core.windows.net/publishlive/2022format/ConList.csv' }],
    licence: 'Open Government Licence v3.0',
  },
];

export function listDefinition(source: ListSourceId): ListDefinition | undefined {
  return LIST_DEFINITIONS.find((d) => d.source === source);
}
