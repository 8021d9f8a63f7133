import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ConfigError, isConfigVariable, loadConfig, sourceSettings } from '../../../src/config/config';
import { listsConfigFor } from '../../../src/bootstrap/lists-config';
import { listUrlVariable } from '../../../src/screening/lists/config';

test('the lists read only the zod config: LISTS_ONLY, LIST_URL_* and LISTS_DATA_DIR shape what is loaded', () => {
  const urlVariable = listUrlVariable('un_sc', 'UN_consolidated.xml');
  const config = loadConfig({ LISTS_ONLY: 'ofac_sdn, un_sc', [urlVariable]: 'https://mirror.example/un.xml', DATA_DIR: '/tmp/svc-data' });
  assert.deepEqual(config.LISTS_ONLY, ['ofac_sdn', 'un_sc']);
  const lists = listsConfigFor(config, { persist: true });
  assert.deepEqual(lists.lists.map((l) => l.source).sort(), ['ofac_sdn', 'un_sc']);
  assert.equal(lists.lists.find((l) => l.source === 'un_sc')?.urls?.['UN_consolidated.xml'], 'https://mirror.example/un.xml');
  assert.equal(lists.dataDir, path.resolve('/tmp/svc-data/lists'));
  // A one-off `svc screen` keeps versions only when LISTS_DATA_DIR says where.
  assert.equal(listsConfigFor(config, { persist: false }).dataDir, undefined);
  assert.equal(listsConfigFor(loadConfig({ LISTS_DATA_DIR: '/tmp/kept' }), { persist: false }).dataDir, path.resolve('/tmp/kept'));
  assert.ok(isConfigVariable(urlVariable));
  assert.ok(!isConfigVariable('LIST_ONLY'));
});

test('a bad list or source variable fails at start with one line naming it', () => {
  const named = (env: Record<string, string>, name: string) =>
    assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && error.message.startsWith(`invalid configuration: ${name}: `));
  named({ LIST_URL_OFAC_SDN_SDN_XML: 'not a url' }, 'LIST_URL_OFAC_SDN_SDN_XML');
  named({ LISTS_ONLY: 'ofac_sdn,,un_sc' }, 'LISTS_ONLY');
  named({ GLEIF_API_URL: 'gleif' }, 'GLEIF_API_URL');
  named({ LLM_TIMEOUT_MS: 'soon' }, 'LLM_TIMEOUT_MS');
});

test('the sources get their validated variables, and nothing else of the config', () => {
  const settings = sourceSettings(loadConfig({ GLEIF_API_URL: 'https://api.gleif.org/api/v1', JWT_SECRET: 'x'.repeat(32), LLM_TIMEOUT_MS: '5000' }));
  assert.equal(settings.GLEIF_API_URL, 'https://api.gleif.org/api/v1');
  assert.equal(settings.LLM_TIMEOUT_MS, '5000');
  assert.equal(settings.JWT_SECRET, undefined);
  assert.equal(settings.OPENCORPORATES_API_TOKEN, undefined);
});
