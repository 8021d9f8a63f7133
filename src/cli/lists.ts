/**
 * `svc lists status` and `svc lists update`: the operator face of the list loader and downloader.
 *
 *   svc lists status [--json]
 *   svc lists update [--list ofac_sdn,un_sc] [--dir <download dir>] [--timeout 60000] [--retries 3] [--show 10] [--json]
 *
 * The integrator registers these on the root program (registerListCommands(program, deps)).
 */
import os from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import type { ListEntity } from '../screening/model';
import { ListRegistry, LIST_DEFINITIONS, listFreshness, type FreshnessPolicy, type LoadResult } from '../screening/lists';
import { listsConfig, preferDownloads, type ListsConfig } from '../screening/lists/config';
import { summariseDelta } from '../screening/delta';
import { updateLists, type DownloadOptions, type UpdateOutcome } from '../screening/download';
import { systemClock } from '../shared/clock';

export interface ListCommandDeps {
  /** The lists to show / update (src/main.ts: from the zod config; default: the bundled snapshot). */
  loadConfig?: () => ListsConfig;
  /** Where downloads go (src/main.ts: LISTS_DOWNLOAD_DIR, else ~/.svc/lists-downloads); read when a command runs. */
  downloadDir?: string | (() => string);
  /** Extra downloader options (tests inject short timeouts). */
  download?: DownloadOptions;
  stdout?: Writable;
  stderr?: Writable & { isTTY?: boolean };
  /** Maximum ages (LISTS_MAX_AGE_DAYS / LISTS_MAX_AGE of the zod config); default 7 days for sanctions lists. */
  freshness?: () => FreshnessPolicy;
  /** Clock for list ages (tests set it; default: now). */
  now?: () => Date;
}

const DEFAULT_DOWNLOAD_DIR = path.join(os.homedir(), '.svc', 'lists-downloads');

function pad(s: string, n: number): string {
  return s.length >= n ? `${s} ` : s + ' '.repeat(n - s.length);
}

function statusTable(res: LoadResult, now: Date, policy: FreshnessPolicy): string {
  const rows = [['list', 'version', 'published', 'age (days)', 'max', 'entities', 'files']];
  const warnings: string[] = [];
  for (const l of res.lists) {
    const v = l.version;
    const f = listFreshness(v, now, policy);
    const count = v.source === 'fatf' ? `${l.countryRisk?.length ?? 0} countries` : String(v.entityCount);
    const published = v.publishedAt ? `${v.publishedAt}${v.publishedAtSource && v.publishedAtSource !== 'file' ? ` (${v.publishedAtSource})` : ''}` : '-';
    const age = f.ageDays === null ? '-' : `${f.ageDays.toLocaleString('en-US')}${f.stale ? ' STALE' : ''}`;
    rows.push([v.source, v.id, published, age, f.maxAgeDays === null ? '-' : String(f.maxAgeDays), count, v.files.join(', ')]);
    if (f.warning) warnings.push(f.warning);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)) + 1);
  let out = rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : pad(c, widths[i]))).join(' ').trimEnd()).join('\n') + '\n';
  for (const w of warnings) out += `WARNING ${w.replace(': update the lists before relying on this result', '')}: run \`svc lists update\`\n`;
  for (const f of res.failures) {
    out += `FAILED ${f.source}: ${f.message}${f.line !== undefined ? ` (line ${f.line}${f.field ? `, field ${f.field}` : ''})` : ''}\n`;
  }
  return out;
}

const names = (es: ListEntity[], n: number) =>
  es
    .slice(0, n)
    .map((e) => `    ${e.sourceId}  ${e.primaryName}`)
    .join('\n');

function updateReport(outcomes: UpdateOutcome[], skipped: string[], show: number): string {
  let out = '';
  for (const o of outcomes) {
    if (!o.ok) {
      out += `${o.source}: FAILED ${o.error}\n`;
      continue;
    }
    const files = o.download.files;
    const got = files.filter((f) => f.status === 'downloaded');
    if (!o.reload) {
      out += `${o.source}: not modified (${files.length} file${files.length > 1 ? 's' : ''}, conditional GET answered 304)\n`;
      continue;
    }
    const bytes = got.reduce((n, f) => n + (f.bytes ?? 0), 0);
    if (!o.reload.ok) {
      out += `${o.source}: downloaded ${got.length} file(s) (${bytes} bytes) but they did not load: ${o.reload.failure.message}; ${
        o.reload.kept ? `version ${o.reload.kept.id} stays in service` : 'no version in service'
      }\n`;
      continue;
    }
    const r = o.reload;
    out += `${o.source}: downloaded ${got.length} file(s) (${bytes} bytes) -> ${r.version.id} (${r.version.entityCount} entities)\n`;
    if (r.unchanged) {
      out += `  content identical to the version in service\n`;
    } else if (r.delta && r.previous) {
      const s = summariseDelta(r.delta);
      out += `  delta vs ${r.previous.id}: +${s.added} added, -${s.removed} removed, ~${s.changed} changed, ${s.unchanged} unchanged\n`;
      const fields = Object.entries(s.fieldsChanged).sort((a, b) => b[1] - a[1]);
      if (fields.length) out += `  fields changed: ${fields.map(([f, n]) => `${f} ${n}`).join(', ')}\n`;
      if (s.added) out += `  added (first ${Math.min(show, s.added)}):\n${names(r.delta.added, show)}\n`;
      if (s.removed) out += `  removed (first ${Math.min(show, s.removed)}):\n${names(r.delta.removed, show)}\n`;
      if (s.changed) out += `  changed (first ${Math.min(show, s.changed)}):\n${r.delta.changed.slice(0, show).map((c) => `    ${c.after.sourceId}  ${c.after.primaryName}: ${c.fields.join(', ')}`).join('\n')}\n`;
    } else {
      out += `  first version of this list (no previous version to compare)\n`;
    }
  }
  if (skipped.length) out += `not downloadable (maintained by hand): ${skipped.join(', ')}\n`;
  return out;
}

export function registerListCommands(program: Command, deps: ListCommandDeps = {}): Command {
  const stdout = deps.stdout ?? process.stdout;
  const stderr = deps.stderr ?? process.stderr;
  const downloadDir = (): string => (typeof deps.downloadDir === 'function' ? deps.downloadDir() : (deps.downloadDir ?? DEFAULT_DOWNLOAD_DIR));
  const config = (): ListsConfig => {
    const c = deps.loadConfig?.() ?? listsConfig();
    return { ...c, lists: preferDownloads(c.lists, downloadDir()) };
  };
  const lists = program.command('lists').description('watch lists: versions and updates');

  lists
    .command('status')
    .description("each list's version, publication date and entity count")
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const registry = new ListRegistry(config());
      const res = await registry.loadAll({ progressBar: Boolean(stderr.isTTY) && !opts.json });
      const now = deps.now?.() ?? systemClock.now();
      const policy = deps.freshness?.() ?? { sanctionsMaxAgeDays: 7 };
      if (opts.json) {
        const freshness = res.versions.map((v) => listFreshness(v, now, policy));
        stdout.write(`${JSON.stringify({ versions: res.versions, freshness, failures: res.failures, countryRisk: res.countryRisk.length }, null, 2)}\n`);
      } else {
        stdout.write(statusTable(res, now, policy));
      }
      if (res.failures.length) process.exitCode = 1;
    });

  lists
    .command('update')
    .description('download each list from its official URL (conditional GET), reload it and print the delta')
    .option('--list <sources>', 'comma-separated list sources (default: every configured list with a download URL)')
    .option('--dir <dir>', 'download directory (default: LISTS_DOWNLOAD_DIR, else ~/.svc/lists-downloads)')
    .option('--timeout <ms>', 'per-attempt timeout in ms', (v) => Number(v))
    .option('--retries <n>', 'retries after the first attempt', (v) => Number(v))
    .option('--show <n>', 'how many added/removed/changed entities to list', (v) => Number(v), 10)
    .option('--json', 'print JSON')
    .action(async (opts: { list?: string; dir?: string; timeout?: number; retries?: number; show: number; json?: boolean }) => {
      const cfg = config();
      const dir = opts.dir ?? downloadDir();
      const wanted = opts.list ? new Set(opts.list.split(',').map((s) => s.trim())) : undefined;
      if (wanted) {
        const unknown = [...wanted].filter((s) => !LIST_DEFINITIONS.some((d) => d.source === s));
        if (unknown.length) throw new Error(`unknown list(s): ${unknown.join(', ')}`);
      }
      const selected = cfg.lists.filter((l) => !wanted || wanted.has(l.source));
      if (wanted) {
        for (const s of wanted) if (!selected.some((l) => l.source === s)) selected.push({ source: s, dir: path.join(dir, LIST_DEFINITIONS.find((d) => d.source === s)!.defaultSubdir) });
      }
      const downloadable = selected.filter((l) => LIST_DEFINITIONS.find((d) => d.source === l.source)?.downloads.length);
      const skipped = selected.filter((l) => !downloadable.includes(l)).map((l) => l.source);
      const registry = new ListRegistry({ ...cfg, lists: selected });
      const current = await registry.loadAll({ progressBar: false });
      for (const f of current.failures) stderr.write(`current ${f.source} did not load: ${f.message}\n`);
      const outcomes = await updateLists(registry, downloadable, path.resolve(dir), {
        ...deps.download,
        ...(opts.timeout ? { timeoutMs: opts.timeout } : {}),
        ...(opts.retries !== undefined ? { retries: opts.retries } : {}),
        onRetry: (r) => stderr.write(`retrying ${r.url} in ${r.delayMs} ms (attempt ${r.attempt}): ${r.reason}\n`),
      });
      if (opts.json) {
        const summary = outcomes.map((o) =>
          o.ok
            ? {
                source: o.source,
                files: o.download.files,
                ...(o.reload?.ok
                  ? { version: o.reload.version, previous: o.reload.previous?.id, delta: o.reload.delta ? summariseDelta(o.reload.delta) : undefined }
                  : o.reload
                    ? { error: o.reload.failure.message, kept: o.reload.kept?.id }
                    : { notModified: true }),
              }
            : { source: o.source, error: o.error },
        );
        stdout.write(`${JSON.stringify({ outcomes: summary, skipped }, null, 2)}\n`);
      } else {
        stdout.write(updateReport(outcomes, skipped, opts.show));
      }
      if (outcomes.some((o) => !o.ok || (o.reload && !o.reload.ok))) process.exitCode = 1;
    });
  return lists;
}
