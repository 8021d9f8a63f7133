#!/usr/bin/env node
/**
 * `svc`: the one entry point. `svc serve` runs the service (API, agents, projections); every other
 * sub-command is an operator tool. Wiring happens in src/app/composition.ts, never here.
 */
import { Command } from 'commander';
import { ConfigError, loadConfig } from './config/config';

function configOrExit() {
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

const program = new Command();
program.name('svc').description('Compliance-screening service').showHelpAfterError();

program
  .command('config')
  .description('configuration tools')
  .command('check')
  .description('validate the environment and print the effective mode')
  .action(() => {
    const config = configOrExit();
    process.stdout.write(
      `ok: event store ${config.ESDB_URL ? 'EventStoreDB' : 'PostgreSQL'}, ` +
        `database ${config.DATABASE_URL ? 'external' : 'embedded'}, bus ${config.KAFKA_BROKERS ? 'Kafka' : 'in-process'}\n`,
    );
  });

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
