import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ConfigError, eventsFrozen, knownConfigVariables, loadConfig } from '../../../src/config/config';
import { createAgentCatalog } from '../../../src/agents/catalog';

test('defaults give the embedded mode: no DATABASE_URL, no KAFKA_BROKERS, no ESDB_URL', () => {
  const config = loadConfig({});
  assert.equal(config.DATABASE_URL, undefined);
  assert.equal(config.KAFKA_BROKERS, undefined);
  assert.equal(config.ESDB_URL, undefined);
  assert.equal(config.PORT, 8080);
  assert.equal(config.WEBHOOK_ALLOW_PRIVATE, false);
});

test('a bad value is one line naming the variable', () => {
  assert.throws(
    () => loadConfig({ PORT: 'eighty' }),
    (error: unknown) => error instanceof ConfigError && /^invalid configuration: PORT: /.test(error.message) && !error.message.includes('\n'),
  );
  assert.throws(() => loadConfig({ KAFKA_BROKERS: 'a:1,,b:2' }), /KAFKA_BROKERS/);
  assert.throws(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'maybe' }), /WEBHOOK_ALLOW_PRIVATE/);
});

test('production requires the secrets', () => {
  assert.throws(() => loadConfig({ NODE_ENV: 'production' }), /JWT_SECRET: required in production/);
  const ok = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), SECRETS_KEY: 'y'.repeat(32) });
  assert.equal(ok.NODE_ENV, 'production');
});

test('FREEZE_EVENTS: frozen reads in development and test, not in production unless asked, and a bad value is named', () => {
  const prod = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), SECRETS_KEY: 'y'.repeat(32) };
  assert.equal(eventsFrozen(loadConfig({})), true, 'development');
  assert.equal(eventsFrozen(loadConfig({ NODE_ENV: 'test' })), true);
  assert.equal(eventsFrozen(loadConfig(prod)), false, 'production: the walk costs CPU on every read');
  assert.equal(eventsFrozen(loadConfig({ ...prod, FREEZE_EVENTS: 'true' })), true);
  assert.equal(eventsFrozen(loadConfig({ NODE_ENV: 'test', FREEZE_EVENTS: 'false' })), false);
  assert.throws(() => loadConfig({ FREEZE_EVENTS: 'sometimes' }), /invalid configuration: FREEZE_EVENTS: /);
});

test('docker-compose.yml parses and sets only variables the service reads', () => {
  const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as {
    services: Record<string, { build?: string; image?: string; environment?: Record<string, unknown>; command?: string[] }>;
  };
  const ours = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);
  assert.ok(ours.length >= 2, 'the API and at least one worker run our image');
  for (const [name, service] of ours) {
    const variables = Object.keys(service.environment ?? {}).filter((key) => key !== '<<');
    assert.ok(variables.length > 0, `${name} sets its configuration`);
    for (const variable of variables) {
      assert.ok(knownConfigVariables.includes(variable), `${name} sets ${variable}, which the service does not read`);
    }
    assert.ok(compose.services[name]!.environment!.DATABASE_URL, `${name} uses the real PostgreSQL`);
    assert.ok(compose.services[name]!.environment!.KAFKA_BROKERS, `${name} uses the real Kafka`);
  }
  for (const infra of ['kafka', 'postgres', 'kurrentdb']) assert.ok(compose.services[infra]?.image, `${infra} service present`);
  // Every worker runs agents the catalog knows (`svc worker` refuses unknown names at start), and together they run them all.
  const known = [...createAgentCatalog({ screener: () => ({}) as never, sources: [], hasPepList: () => false }).keys()];
  const served = ours.flatMap(([name, service]) => {
    const command = service.command ?? [];
    if (command[0] !== 'worker') return [];
    const agents = command[command.indexOf('--agents') + 1]!.split(',');
    for (const agent of agents) assert.ok(known.includes(agent), `${name} runs ${agent}, which no agent is called`);
    return agents;
  });
  assert.deepEqual([...new Set(served)].sort(), [...known].sort(), 'the workers run every agent of the catalog');
});

test('the CLI exits non-zero with one clear line on a bad variable', () => {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', 'config', 'check'], {
    env: { ...process.env, PORT: '99999', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  assert.notEqual(result.status, 0);
  assert.match(result.stderr.trim(), /^invalid configuration: PORT: /);
});
