/**
 * The whole service, as `svc serve` wires it, on a fresh test database with the in-process bus,
 * listening on a free loopback port. Integration and end-to-end tests drive it over real HTTP.
 */
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../src/config/config';
import { startService, type RunningService } from '../../src/bootstrap/service';
import { createLogger } from '../../src/shared/logger';
import type { Clock } from '../../src/shared/clock';
import type { Plan, KeySurface } from '../../src/app/services';
import { createTestDatabase, type TestDatabase } from './postgres';
import { testIndexCacheEnv } from './index-cache';
import { handleCommand } from '../../src/commands/command-handler';
import { accountDecider, streamName as accountStream } from '../../src/commands/account';
import { hashPassword } from '../../src/app/accounts/passwords';
import type { SpanExporter } from '@opentelemetry/sdk-trace';

export interface TestService {
  service: RunningService;
  url: string;
  db: TestDatabase;
  /** Creates an account (owner user) and returns its ids. */
  createAccount(plan?: Plan, email?: string): Promise<{ accountId: string; userId: string; email: string; password: string }>;
  /** Adds a user (role analyst unless given) to an account, as its operator would; waits for the read model. */
  addUser(accountId: string, role?: 'owner' | 'analyst' | 'auditor', email?: string): Promise<{ userId: string; email: string; password: string }>;
  /** Creates an API key for an account; returns the plaintext once. */
  createKey(accountId: string, surface: KeySurface, options?: { webhookUrl?: string; userId?: string }): Promise<{ id: string; key: string; webhookSecret?: string }>;
  stop(): Promise<void>;
}

/** The environment every test service starts with, on this database (`extra` wins). */
function testEnv(db: TestDatabase, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: db.url,
    PORT: '0',
    HOST: '127.0.0.1',
    ...testIndexCacheEnv(),
    ...extra,
  };
}

interface StartOptions {
  clock?: Clock;
  agents?: 'all' | 'none' | string[];
  /** Tracing on, into this exporter (test/support/span-collector.ts). */
  spanExporter?: SpanExporter;
}

async function startOn(env: Record<string, string>, options: StartOptions): Promise<RunningService> {
  const config = loadConfig(env);
  return startService({
    config,
    logger: createLogger({ level: config.LOG_LEVEL }),
    http: true,
    agents: options.agents ?? 'all',
    projections: true,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.spanExporter ? { spanExporter: options.spanExporter } : {}),
  });
}

export async function startTestService(options: StartOptions & { env?: Record<string, string> } = {}): Promise<TestService> {
  const db = await createTestDatabase();
  const service = await startOn(testEnv(db, { SCREENING_WAIT_MS: '20000', ...options.env }), options);
  return {
    service,
    url: service.url!,
    db,
    ...accountHelpers(service),
    async stop() {
      await service.stop();
      await db.drop();
    },
  };
}

/**
 * The service on a database and data directory the test keeps (to stop it and start it again on
 * the same ones: restart tests), with the fixture lists. The caller stops the service and drops the
 * database.
 */
export function startServiceOn(
  db: TestDatabase,
  dataDir: string,
  env: Record<string, string> = {},
  options: { agents?: 'all' | 'none' | string[] } = {},
): Promise<RunningService> {
  return startOn(testEnv(db, { LISTS_DIR: 'test/fixtures/lists', DATA_DIR: dataDir, ...env }), options);
}

/** Accounts and keys made through the application services, as an operator would (tests, benches). */
export function accountHelpers(service: RunningService): Pick<TestService, 'createAccount' | 'createKey' | 'addUser'> {
  const system = () => ({ actor: { surface: 'system' as const }, correlationId: randomUUID(), commandId: randomUUID() });
  return {
    async createAccount(plan = 'enterprise', email = `owner-${randomUUID()}@example.test`) {
      const password = `pw-${randomUUID()}`;
      const created = await service.services.accounts.create({ name: `Account ${email}`, email, password, plan }, system());
      return { ...created, email, password };
    },
    async addUser(accountId, role = 'analyst', email = `${role}-${randomUUID()}@example.test`) {
      const password = `pw-${randomUUID()}`;
      const userId = `u${Date.now()}${Math.floor(Math.random() * 1000)}`;
      await handleCommand(service.store, accountDecider, accountStream(accountId), {
        type: 'AddUser',
        data: { accountId, userId, email, role, passwordHash: await hashPassword(password) },
        metadata: { now: new Date().toISOString(), ...system() },
      });
      for (let i = 0; i < 200; i++) {
        const { rowCount } = await service.pool.query('SELECT 1 FROM proj_accounts.users WHERE user_id = $1', [userId]);
        if (rowCount) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      return { userId, email, password };
    },
    async createKey(accountId, surface, keyOptions = {}) {
      const account = await service.services.accounts.get(accountId);
      const created = await service.services.keys.create(
        { accountId, plan: account!.plan, roles: ['owner'], surface: 'portal', ...(keyOptions.userId ? { userId: keyOptions.userId } : {}) },
        { surface, name: `test key ${surface}`, ...(keyOptions.webhookUrl ? { webhookUrl: keyOptions.webhookUrl } : {}) },
        system(),
      );
      return { id: created.key.id, key: created.plaintext, ...(created.webhookSecret ? { webhookSecret: created.webhookSecret } : {}) };
    },
  };
}
