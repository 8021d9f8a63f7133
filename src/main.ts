#!/usr/bin/env node
/**
 * `svc`: the one entry point. `svc serve` runs the service (API, agents, projections); every other
 * sub-command is an operator tool. Wiring happens in src/app/composition.ts, never here.
 */
import { Command } from 'commander';
import { randomUUID } from 'node:crypto';
import { ConfigError, loadConfig, type Config } from './config/config';
import { createLogger } from './shared/logger';
import { openOperatorBus, readModelProjections, startService, type RunningService } from './app/composition';
import { rebuildProjectionByName } from './projections/rebuild';
import { systemClock } from './shared/clock';
import { CliUsageError, registerScreenCommands } from './cli/screen';
import { registerListCommands } from './cli/lists';
import { registerAuditCommands } from './cli/audit';
import { registerReplayCommand } from './cli/replay';
import { registerDeadLetterCommands } from './cli/deadletters';
import { openOperatorDatabase } from './app/operator-database';
import { PgDeadLetterTable } from './infrastructure/bus/dead-letter-table';
import path from 'node:path';
import { loadAllLists } from './screening/lists';
import { defaultListsConfig } from './screening/lists/config';
import { ScreeningEngine } from './screening/engine';
import type { ListEntity, ListVersion } from './screening/model';
import { plans, type Plan } from './commands/plans';

function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

/** Stops on SIGINT/SIGTERM: in-flight requests finish, consumers commit, the embedded PostgreSQL stops. */
function stopOnSignals(service: RunningService, log: ReturnType<typeof createLogger>): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    service.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

const program = new Command();
program.name('svc').description('Compliance-screening service').showHelpAfterError();

const configCommand = program.command('config').description('configuration tools');
configCommand
  .command('check')
  .description('validate the environment and print the effective mode')
  .action(() => {
    const config = configOrExit();
    process.stdout.write(
      `ok: event store ${config.ESDB_URL ? 'EventStoreDB' : 'PostgreSQL'}, ` +
        `database ${config.DATABASE_URL ? 'external' : 'embedded'}, bus ${config.KAFKA_BROKERS ? 'Kafka' : 'in-process'}\n`,
    );
  });

program
  .command('serve')
  .description('run the API, projections, webhooks and (unless AGENTS=none) the agents')
  .action(async () => {
    const config = configOrExit();
    const log = createLogger({ level: config.LOG_LEVEL });
    const agents = config.AGENTS === 'all' || config.AGENTS === 'none' ? config.AGENTS : config.AGENTS.split(',').map((a) => a.trim());
    const service = await startService({ config, logger: log, http: true, agents, projections: true });
    stopOnSignals(service, log);
    process.stdout.write(`svc listening on ${service.url}\n`);
  });

program
  .command('worker')
  .description('run agents as Kafka consumer groups (scaled mode)')
  .requiredOption('--agents <names>', 'comma-separated agent names, or "all"')
  .action(async (opts: { agents: string }) => {
    const config = configOrExit();
    const log = createLogger({ level: config.LOG_LEVEL });
    const agents = opts.agents === 'all' ? 'all' : opts.agents.split(',').map((a) => a.trim());
    const service = await startService({ config, logger: log, http: false, agents, projections: false });
    stopOnSignals(service, log);
    log.info({ agents }, 'worker running');
  });

const accounts = program.command('accounts').description('account administration');
accounts
  .command('create')
  .description('create an account and its owner user')
  .requiredOption('--name <name>', 'account name')
  .requiredOption('--email <email>', 'owner e-mail (sign-in)')
  .option('--password <password>', 'owner password (default: read SVC_PASSWORD)')
  .option('--plan <plan>', `one of ${plans.join(', ')}`, 'enterprise')
  .action(async (opts: { name: string; email: string; password?: string; plan: string }) => {
    const password = opts.password ?? process.env.SVC_PASSWORD;
    if (!password || password.length < 12) throw new Error('a password of at least 12 characters is required (--password or SVC_PASSWORD)');
    if (!(plans as readonly string[]).includes(opts.plan)) throw new Error(`--plan must be one of ${plans.join(', ')}`);
    const config = configOrExit();
    const log = createLogger({ level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL });
    const service = await startService({ config, logger: log, http: false, agents: 'none', projections: true });
    try {
      const created = await service.services.accounts.create(
        { name: opts.name, email: opts.email, password, plan: opts.plan as Plan },
        { actor: { surface: 'system' }, correlationId: randomUUID(), commandId: randomUUID() },
      );
      process.stdout.write(`account ${created.accountId} created (owner user ${created.userId}, plan ${opts.plan})\n`);
    } finally {
      await service.stop();
    }
  });

program
  .command('projections')
  .description('read-model tools')
  .command('rebuild <name>')
  .description('replay the whole history into fresh tables and swap them in')
  .action(async (name: string) => {
    const config = configOrExit();
    const log = createLogger({ level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL });
    const service = await startService({ config, logger: log, http: false, agents: 'none', projections: false });
    try {
      const result = await rebuildProjectionByName(name, {
        pool: service.pool,
        store: service.store,
        projections: readModelProjections(systemClock, log),
      });
      process.stdout.write(`${JSON.stringify(result, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}\n`);
    } finally {
      await service.stop();
    }
  });

async function loadScreeningLists(): Promise<{ entities: ListEntity[]; versions: ListVersion[] }> {
  const config = configOrExit();
  const lists = await loadAllLists(
    defaultListsConfig({ ...process.env, LISTS_DIR: config.LISTS_DIR, ...(config.OPENSANCTIONS_DIR ? { OPENSANCTIONS_DIR: config.OPENSANCTIONS_DIR } : {}) }),
    { progressBar: Boolean(process.stderr.isTTY) },
  );
  for (const failure of lists.failures) process.stderr.write(`list ${failure.source} failed: ${failure.message}\n`);
  return { entities: lists.entities, versions: lists.versions };
}
// A batch over several workers takes the entities (each worker builds its engine); otherwise one engine here.
registerScreenCommands(program, {
  loadLists: loadScreeningLists,
  loadEngine: async () => {
    const { entities, versions } = await loadScreeningLists();
    return ScreeningEngine.build(entities, versions);
  },
});

registerListCommands(program, {
  loadConfig: () => {
    const config = configOrExit();
    return defaultListsConfig({
      ...process.env,
      LISTS_DIR: config.LISTS_DIR,
      LISTS_DATA_DIR: process.env.LISTS_DATA_DIR ?? path.join(config.DATA_DIR, 'lists'),
      ...(config.OPENSANCTIONS_DIR ? { OPENSANCTIONS_DIR: config.OPENSANCTIONS_DIR } : {}),
    });
  },
});

// Auditors: the service without HTTP, agents or projections (store, pool and the kept list versions).
async function openForAudit() {
  const config = configOrExit();
  const log = createLogger({ level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL });
  const service = await startService({ config, logger: log, http: false, agents: 'none', projections: false });
  return { service, log };
}
registerAuditCommands(program, {
  open: async () => {
    const { service } = await openForAudit();
    return { store: service.store, pool: service.pool, lists: service.monitoring!.lists, stop: () => service.stop() };
  },
});
program
  .command('monitoring')
  .description('ongoing monitoring')
  .command('run')
  .description('match the delta of every list updated since it was last monitored (e.g. after `svc lists update`) against the enrolled subjects')
  .action(async () => {
    const config = configOrExit();
    const log = createLogger({ level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL });
    const service = await startService({ config, logger: log, http: false, agents: 'none', projections: true });
    try {
      await service.runner?.caughtUp();
      await service.monitoring!.catchUp();
      const runs = service.monitoring!.lastRuns();
      if (runs.length === 0) process.stdout.write('no list changed since it was last monitored\n');
      for (const r of runs) {
        process.stdout.write(
          `${r.source}: ${r.fromVersion} -> ${r.toVersion}: +${r.addedEntities} ~${r.changedEntities} -${r.removedEntities} entities; ` +
            `${r.enrolled} enrolled, ${r.subjectsRescreened} screened again, ${r.alertsRaised} alert(s) (${r.reopened} re-opened) in ${r.ms} ms\n`,
        );
      }
    } finally {
      await service.stop();
    }
  });

registerReplayCommand(program, {
  open: async () => {
    const { service, log } = await openForAudit();
    return { store: service.store, pool: service.pool, projections: readModelProjections(systemClock, log), stop: () => service.stop() };
  },
});

registerDeadLetterCommands(program, {
  // Kafka mode: the svc.deadletter topic; embedded default: the dead_letters table of the service's database.
  open: async () => {
    const config = configOrExit();
    const log = createLogger({ level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL });
    if (config.KAFKA_BROKERS) {
      const bus = openOperatorBus(config, log);
      return { kind: 'topic', bus, stop: () => bus.close() };
    }
    const db = await openOperatorDatabase(config, log);
    return { kind: 'table', table: new PgDeadLetterTable(db.pool), stop: () => db.stop() };
  },
});

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  // bad command-line input (CliUsageError) exits 2, before any list is loaded
  process.exit(error instanceof CliUsageError ? error.exitCode : 1);
});
