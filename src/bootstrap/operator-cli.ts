/**
 * What the operator commands in src/cli are given by src/main.ts: the lists and engine of `svc screen`,
 * and the dead letters of `svc deadletters`. Everything heavy is imported when the command runs:
 * an operator command beside a running service must answer in well under a second.
 */
import type { Config } from '../config/config';
import type { Logger } from '../shared/logger';
import type { ListEntity, ListVersion } from '../screening/model';
import type { ScreeningEngine } from '../screening/engine';
import type { VerdictContext } from '../agents/lists/direct-verdict';
import type { DeadLetterSource } from '../cli/deadletters';
import type { ListsConfig } from '../screening/lists/config';
import { listsConfigFor } from './lists-config';

/** The lists `svc screen` loads (a batch's workers load them themselves from this); kept only with LISTS_DATA_DIR. */
export function screeningListsConfig(config: Config): ListsConfig {
  return listsConfigFor(config, { persist: false });
}

/** Every configured list, loaded for a batch or a single screening (`svc screen`); failures are said on stderr. */
export async function loadScreeningLists(config: Config): Promise<{ entities: ListEntity[]; versions: ListVersion[] }> {
  const { loadAllLists } = await import('../screening/lists');
  const lists = await loadAllLists(screeningListsConfig(config), { progressBar: Boolean(process.stderr.isTTY) });
  for (const failure of lists.failures) process.stderr.write(`list ${failure.source} failed: ${failure.message}\n`);
  return { entities: lists.entities, versions: lists.versions };
}

/** One engine over every configured list (a single-process `svc screen`), from the index cache when it holds this list set. */
export async function loadScreeningEngine(config: Config): Promise<ScreeningEngine> {
  return (await loadScreeningWithContext(config)).engine;
}

/**
 * The engine and what a verdict needs besides it, as the service has them: the FATF table of the
 * loaded lists and the sanctions programmes by country (`svc screen` answers as S1/S3 do).
 */
export async function loadScreeningWithContext(config: Config): Promise<{ engine: ScreeningEngine; context: VerdictContext }> {
  const [{ loadEngineCached }, { bundledProgrammes }] = await Promise.all([import('../screening/index-snapshot'), import('../screening/lists/country-sanctions')]);
  const { load, engine } = await loadEngineCached(screeningListsConfig(config), {
    progressBar: Boolean(process.stderr.isTTY),
    onCacheError: (error) => process.stderr.write(`index cache not written: ${error instanceof Error ? error.message : String(error)}\n`),
  });
  for (const failure of load.failures) process.stderr.write(`list ${failure.source} failed: ${failure.message}\n`);
  return { engine, context: { countryRisk: load.countryRisk, countrySanctions: bundledProgrammes(engine) } };
}

/** Kafka mode: the svc.deadletter topic; embedded default: the dead_letters table of the service's database. */
export async function openDeadLetterSource(config: Config, logger: Logger, notice: (line: string) => void): Promise<DeadLetterSource> {
  if (config.KAFKA_BROKERS) {
    const { openOperatorBus } = await import('./bus');
    const bus = openOperatorBus(config, logger);
    return { kind: 'topic', bus, stop: () => bus.close() };
  }
  const [{ openOperatorDatabase }, { PgDeadLetterTable }] = await Promise.all([import('./operator-database'), import('../infrastructure/bus/dead-letter-table')]);
  const db = await openOperatorDatabase(config, logger, { notice });
  return { kind: 'table', table: new PgDeadLetterTable(db.pool), stop: () => db.stop() };
}
