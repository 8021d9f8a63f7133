/**
 * The auditor's CLI:
 *
 *   svc audit verify [--json]                 walk the whole store; exit 1 when anything was altered, removed or reordered
 *   svc audit reproduce <screening-id> [--json]   re-run a screening against its recorded list versions; exit 1 when different
 *   svc audit reproduce <person-check-id> [--json]   the same for a person check's list search (SVC-<8 hex>-P)
 *
 * The caller passes how to reach the store and the list versions (main.ts starts the service
 * without HTTP, agents or projections).
 */
import type { Writable } from 'node:stream';
import type pg from 'pg';
import type { Command } from 'commander';
import type { EventStore } from '../infrastructure/eventstore/port';
import { verifyStore, type VerifyReport } from '../app/audit/verify';
import { UsageError } from './usage';
import { formatPersonCheckReproduceReport, formatReproduceReport, reproducePersonCheck, reproduceScreening, type ListVersionSource } from '../app/audit/reproduce';
import { PERSON_CHECK_ID } from '../commands/person-check';

export interface AuditEnvironment {
  store: EventStore;
  /** PostgreSQL pool, for the stream-head check (absent with EventStoreDB). */
  pool?: pg.Pool;
  lists: ListVersionSource;
  stop(): Promise<void>;
}

export interface AuditCommandDeps {
  open(): Promise<AuditEnvironment>;
  stdout?: Writable;
}

export function formatVerifyReport(r: VerifyReport): string {
  const head = r.ok
    ? `OK: ${r.events} events in ${r.streams} streams verified (hash chains, positions, global order) in ${r.ms} ms\n`
    : `FAILED: ${r.problems.length} problem(s) in ${r.events} events, ${r.streams} streams\n`;
  return head + r.problems.map((p) => `${p.kind.toUpperCase()} ${p.stream} position ${p.position}${p.globalPosition ? ` (global ${p.globalPosition})` : ''}: ${p.detail}\n`).join('');
}

export function registerAuditCommands(program: Command, deps: AuditCommandDeps): Command {
  const out = () => deps.stdout ?? process.stdout;
  const audit = program.command('audit').description("auditor's tools over the immutable history");
  audit
    .command('verify')
    .description('walk the whole event store and report any altered, removed or reordered event')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const env = await deps.open();
      try {
        const report = await verifyStore({ store: env.store, ...(env.pool ? { pool: env.pool } : {}) });
        out().write(opts.json ? `${JSON.stringify(report, null, 2)}\n` : formatVerifyReport(report));
        if (!report.ok) process.exitCode = 1;
      } finally {
        await env.stop();
      }
    });
  audit
    .command('reproduce <screening-id>')
    .description('re-run a screening (numeric id) or a person check\'s list search (SVC-<8 hex>-P) against the list versions it recorded, and say whether the result is the same')
    .option('--json', 'print JSON')
    .action(async (id: string, opts: { json?: boolean }) => {
      const personCheck = PERSON_CHECK_ID.test(id);
      if (!personCheck && !/^[1-9][0-9]{0,18}$/.test(id)) throw new UsageError('the id must be a numeric screening id or a person check id SVC-<8 hex>-P');
      const env = await deps.open();
      try {
        const deps = { store: env.store, lists: env.lists };
        const report = personCheck ? await reproducePersonCheck(deps, id) : await reproduceScreening(deps, id);
        const text = 'personCheckId' in report ? formatPersonCheckReproduceReport(report) : formatReproduceReport(report);
        out().write(opts.json ? `${JSON.stringify(report, null, 2)}\n` : text);
        if (!report.same) process.exitCode = 1;
      } finally {
        await env.stop();
      }
    });
  return audit;
}
