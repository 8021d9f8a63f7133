/**
 * `svc replay --to <timestamp> [--replace] [--json]`: rebuilds the read models as they were at a past
 * moment into separate schemas (replay_<yyyymmddThhmmss>_<projection>) and prints where they are.
 * The webhook projector is never replayed (it would enqueue deliveries).
 */
import type { Writable } from 'node:stream';
import type pg from 'pg';
import type { Command } from 'commander';
import type { EventStore } from '../infrastructure/eventstore/port';
import type { Projection } from '../projections/projection';
import { UsageError } from './usage';
import { replayReadModels } from '../app/audit/replay';

export interface ReplayCommandDeps {
  open(): Promise<{ store: EventStore; pool: pg.Pool; projections: Projection[]; stop(): Promise<void> }>;
  stdout?: Writable;
}

/** Projections with side effects outside their schema: never replayed. */
const SIDE_EFFECTS = new Set(['webhooks']);

export function registerReplayCommand(program: Command, deps: ReplayCommandDeps): Command {
  return program
    .command('replay')
    .description('rebuild the read models as they were at a past moment into separate schemas')
    .requiredOption('--to <timestamp>', 'ISO 8601 moment, e.g. 2026-11-01T12:00:00Z')
    .option('--replace', 'replace the schemas of an earlier replay to the same moment')
    .option('--json', 'print JSON')
    .action(async (opts: { to: string; replace?: boolean; json?: boolean }) => {
      const to = new Date(opts.to);
      if (!/^\d{4}-\d{2}-\d{2}/.test(opts.to) || Number.isNaN(to.getTime())) throw new UsageError('--to must be an ISO 8601 timestamp');
      const env = await deps.open();
      try {
        const result = await replayReadModels({
          pool: env.pool,
          store: env.store,
          projections: env.projections.filter((p) => !SIDE_EFFECTS.has(p.name)),
          to,
          ...(opts.replace ? { replace: true } : {}),
        });
        const out = deps.stdout ?? process.stdout;
        if (opts.json) {
          out.write(`${JSON.stringify(result, null, 2)}\n`);
        } else {
          out.write(`read models as of ${result.to}: ${result.events} events (up to global position ${result.position}), ${result.applied} applied, ${result.ms} ms\n`);
          for (const [name, schema] of Object.entries(result.schemas)) out.write(`  ${name}: schema ${schema}\n`);
        }
      } finally {
        await env.stop();
      }
    });
}
