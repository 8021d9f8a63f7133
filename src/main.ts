#!/usr/bin/env node
/**
 * `svc`: the one entry point. `svc serve` runs the service (API, agents, projections); every other
 * sub-command is an operator tool. Wiring happens in src/bootstrap/ (docs/architecture.md), never here.
 */
import { Command } from 'commander';
import { randomUUID } from 'node:crypto';
import { ConfigError, loadConfig, type Config } from './config/config';
import { createLogger } from './shared/logger';
import type { RunningService } from './bootstrap/service';
import { systemClock } from './shared/clock';
import { CliUsageError, registerScreenCommands } from './cli/screen';
import { registerListCommands } from './cli/lists';
import { registerAuditCommands } from './cli/audit';
import { registerReplayCommand } from './cli/replay';
import { registerDeadLetterCommands } from './cli/deadletters';
import type { OperatorContext } from './bootstrap/operator-context';
import { addExamples, OPERATOR_EXAMPLES, UsageError } from './cli/usage';
import { listsConfigFor, listsDownloadDir } from './bootstrap/lists-config';
import { screeningListsConfig } from './bootstrap/operator-cli';
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

// The wiring of the whole service is loaded only by the commands that start it: an operator command
// beside a running service must answer in well under a second, and importing every adapter takes two.
const composition = () => import('./bootstrap/service');

/** Operator commands log warnings only (their output is the command's answer). */
function operatorLogger(config: Config) {
  return createLogger({ level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL });
}

function operatorNotice(line: string): void {
  process.stderr.write(`svc: ${line}\n`);
}

/** The running service's database (or one started for this command, said on stderr): see src/bootstrap/operator-context.ts. */
async function openOperator(): Promise<OperatorContext> {
  const config = configOrExit();
  const { openOperatorContext } = await import('./bootstrap/operator-context');
  return openOperatorContext(config, operatorLogger(config), { notice: operatorNotice });
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
program
  .name('svc')
  .description('Compliance-screening service')
  // A bad argument is one line and exit code 2 (usage), like every other reason a command refuses.
  .showHelpAfterError('(add --help for usage and an example)')
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2));

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
    const { startService } = await composition();
    const service = await startService({ config, logger: log, http: true, agents, projections: true });
    stopOnSignals(service, log);
    process.stdout.write(`svc listening on ${service.url}\n`);
  });

program
  .command('worker')
  .description('run agents as Kafka consumer groups (scaled mode)')
  .requiredOption('--agents <names>', 'comma-separated agent names, or "all"')
  .option('--no-workflows', 'run only the agents: no process managers, no supervisor (a deployment of slow outside sources)')
  .action(async (opts: { agents: string; workflows: boolean }) => {
    const config = configOrExit();
    const log = createLogger({ level: config.LOG_LEVEL });
    const agents = opts.agents === 'all' ? 'all' : opts.agents.split(',').map((a) => a.trim());
    const { startService } = await composition();
    const service = await startService({ config, logger: log, http: false, agents, projections: false, workflows: opts.workflows });
    stopOnSignals(service, log);
    log.info({ agents, workflows: opts.workflows }, 'worker running');
  });

const accounts = program.command('accounts').description('account administration');
accounts
  .command('create')
  .description('create an account and its owner user')
  .requiredOption('--name <name>', 'account name')
  .requiredOption('--email <email>', 'owner e-mail (sign-in)')
  .option('--password <password>', 'owner password (default: read SVC_PASSWORD)')
  .option('--plan <plan>', `one of ${plans.join(', ')}`, 'enterprise')
  .option('--json', 'print JSON')
  .action(async (opts: { name: string; email: string; password?: string; plan: string; json?: boolean }) => {
    const password = opts.password ?? configOrExit().SVC_PASSWORD;
    if (!password || password.length < 12) throw new UsageError('a password of at least 12 characters is required (--password or SVC_PASSWORD)');
    if (!(plans as readonly string[]).includes(opts.plan)) throw new UsageError(`--plan must be one of ${plans.join(', ')}`);
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(opts.email)) throw new UsageError('--email must be an e-mail address');
    if (opts.name.trim() === '') throw new UsageError('--name must not be empty');
    const ctx = await openOperator();
    const [{ accountsProjection }, { PgAccountService }] = await Promise.all([import('./projections/read-models/accounts'), import('./app/accounts/account-service')]);
    try {
      // The uniqueness check reads the accounts read model: bring it up to date first (the service may be down).
      await ctx.catchUp([accountsProjection]);
      const service = new PgAccountService({ store: ctx.store, pool: ctx.pool, clock: systemClock, readModelsCaughtUp: () => ctx.catchUp([accountsProjection]) });
      const created = await service.create(
        { name: opts.name, email: opts.email, password, plan: opts.plan as Plan },
        { actor: { surface: 'system' }, correlationId: randomUUID(), commandId: randomUUID() },
      );
      process.stdout.write(
        opts.json
          ? `${JSON.stringify({ account_id: created.accountId, owner_user_id: created.userId, plan: opts.plan, email: opts.email })}\n`
          : `account ${created.accountId} created (owner user ${created.userId}, plan ${opts.plan})\n`,
      );
    } finally {
      await ctx.stop();
    }
  });

program
  .command('projections')
  .description('read-model tools')
  .command('rebuild <name>')
  .description('replay the whole history into fresh tables and swap them in; with --scratch, into a scratch schema compared row by row with the live read model, which stays as it is')
  .option('--scratch', 'only check: rebuild into a scratch schema up to the live checkpoint, compare every row, drop it; exit 1 on a difference (name may be "all")')
  .option('--json', 'print JSON (with --scratch)')
  .action(async (name: string, opts: { scratch?: boolean; json?: boolean }) => {
    const config = configOrExit();
    const log = operatorLogger(config);
    const [{ readModelProjections }, { rebuildProjectionByName }] = await Promise.all([import('./bootstrap/read-side'), import('./projections/rebuild')]);
    const projections = readModelProjections(log);
    const known = projections.map((p) => p.name).join(', ');
    if (!(opts.scratch && name === 'all') && !projections.some((p) => p.name === name)) throw new UsageError(`Unknown projection "${name}"; known projections: ${known}${opts.scratch ? ', or all' : ''}`);
    const ctx = await openOperator();
    try {
      if (opts.scratch) {
        const { verifyProjection, verifyReport } = await import('./projections/verify');
        const results = [];
        for (const projection of projections.filter((p) => name === 'all' || p.name === name)) results.push(await verifyProjection({ pool: ctx.pool, store: ctx.store, projection }));
        process.stdout.write(opts.json ? `${JSON.stringify(results, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}\n` : verifyReport(results));
        if (!results.every((r) => r.equal)) process.exitCode = 1;
        return;
      }
      const result = await rebuildProjectionByName(name, { pool: ctx.pool, store: ctx.store, projections });
      process.stdout.write(`${JSON.stringify(result, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}\n`);
    } finally {
      await ctx.stop();
    }
  });

async function loadScreeningLists(): Promise<{ entities: ListEntity[]; versions: ListVersion[] }> {
  const config = configOrExit();
  const { loadScreeningLists: load } = await import('./bootstrap/operator-cli');
  return load(config);
}
// A batch over several workers takes the entities (each worker builds its engine); otherwise one engine here.
registerScreenCommands(program, {
  loadLists: loadScreeningLists,
  listsConfig: () => screeningListsConfig(configOrExit()),
  loadEngine: async () => {
    const config = configOrExit();
    const { loadScreeningEngine } = await import('./bootstrap/operator-cli');
    return loadScreeningEngine(config);
  },
  loadScreening: async () => {
    const config = configOrExit();
    const { loadScreeningWithContext } = await import('./bootstrap/operator-cli');
    return loadScreeningWithContext(config);
  },
});

registerListCommands(program, {
  loadConfig: () => listsConfigFor(configOrExit(), { persist: true }),
  downloadDir: () => listsDownloadDir(configOrExit()),
  freshness: () => {
    const config = configOrExit();
    return { sanctionsMaxAgeDays: config.LISTS_MAX_AGE_DAYS, perList: config.LISTS_MAX_AGE };
  },
});

// Auditors: the history and the kept list versions, on the service's database (running or not).
registerAuditCommands(program, {
  open: async () => {
    const ctx = await openOperator();
    return { store: ctx.store, pool: ctx.pool, lists: ctx.listVersions(), stop: () => ctx.stop() };
  },
});
program
  .command('monitoring')
  .description('ongoing monitoring')
  .command('run')
  .description('match the delta of every list updated since it was last monitored (e.g. after `svc lists update`) against the enrolled subjects')
  .option('--json', 'print JSON')
  .action(async (opts: { json?: boolean }) => {
    const config = configOrExit();
    const log = operatorLogger(config);
    // The engine needs the lists loaded, so this one starts the service's core (no HTTP, relay, agents or
    // webhook dispatcher) on the service's database; the read models are brought up to date before and after.
    const ctx = await openOperator();
    const { readModelProjections, startService } = await composition();
    const projections = readModelProjections(log);
    let service: RunningService | undefined;
    try {
      await ctx.catchUp(projections);
      service = await startService({ config: { ...config, DATABASE_URL: ctx.connectionString }, logger: log, http: false, agents: 'none', projections: false });
      await service.monitoring!.catchUp();
      await ctx.catchUp(projections);
      const runs = service.monitoring!.lastRuns();
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(runs)}\n`);
        return;
      }
      if (runs.length === 0) process.stdout.write('no list changed since it was last monitored\n');
      for (const r of runs) {
        process.stdout.write(
          `${r.source}: ${r.fromVersion} -> ${r.toVersion}: +${r.addedEntities} ~${r.changedEntities} -${r.removedEntities} entities; ` +
            `${r.enrolled} enrolled, ${r.subjectsRescreened} screened again, ${r.alertsRaised} alert(s) (${r.reopened} re-opened) in ${r.ms} ms\n`,
        );
      }
    } finally {
      await service?.stop();
      await ctx.stop();
    }
  });

registerReplayCommand(program, {
  open: async () => {
    const ctx = await openOperator();
    const { readModelProjections } = await import('./bootstrap/read-side');
    return { store: ctx.store, pool: ctx.pool, projections: readModelProjections(operatorLogger(configOrExit())), stop: () => ctx.stop() };
  },
});

registerDeadLetterCommands(program, {
  // Kafka mode: the svc.deadletter topic; embedded default: the dead_letters table of the service's database.
  open: async () => {
    const config = configOrExit();
    const { openDeadLetterSource } = await import('./bootstrap/operator-cli');
    return openDeadLetterSource(config, operatorLogger(config), operatorNotice);
  },
});

addExamples(program, OPERATOR_EXAMPLES);

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`svc: ${error instanceof Error ? error.message : String(error)}\n`);
  // Bad command-line input (UsageError, CliUsageError) exits 2, before any list is loaded.
  process.exit(error instanceof UsageError || error instanceof CliUsageError ? 2 : 1);
});
