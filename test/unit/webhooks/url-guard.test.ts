import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkWebhookUrl,
  classifyAddress,
  createPinnedLookup,
  parseIPv6,
  type Resolver,
} from '../../../src/webhooks/url-guard';

const resolverFor =
  (table: Record<string, string[]>): Resolver =>
  async (host) => {
    const found = table[host];
    if (!found) throw new Error('ENOTFOUND');
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const publicDns = resolverFor({
  'hooks.example.com': ['93.184.216.34'],
  'dual.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'rebind.example.com': ['93.184.216.34', '127.0.0.1'],
  'internal.example.com': ['10.1.2.3'],
  'metadata.example.com': ['169.254.169.254'],
  'v6local.example.com': ['fd12:3456::1'],
  'empty.example.com': [],
});

async function errorCode(url: string, allowPrivate = false) {
  const result = await checkWebhookUrl(url, { allowPrivate, resolver: publicDns });
  return result.ok ? 'ok' : result.error.code;
}

describe('classifyAddress', () => {
  const cases: Array<[string, string]> = [
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link_local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['100.128.0.1', 'public'],
    ['0.0.0.0', 'this_network'],
    ['0.1.2.3', 'this_network'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'this_network'],
    ['fc00::1', 'unique_local'],
    ['fdff:ffff::1', 'unique_local'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'ipv4_mapped'],
    ['::ffff:7f00:1', 'ipv4_mapped'],
    ['::ffff:8.8.8.8', 'ipv4_mapped'],
    ['64:ff9b::a00:1', 'ipv4_translated'],
    ['2002:7f00:1::', 'ipv4_translated'],
    ['::127.0.0.1', 'reserved'],
    ['2606:2800:220:1:248:1893:25c8:1946', 'public'],
    ['2001:db8::1', 'documentation'],
  ];
  for (const [ip, category] of cases) {
    it(`${ip} is ${category}`, () => assert.equal(classifyAddress(ip), category));
  }

  it('parses every IPv6 spelling to the same number', () => {
    assert.equal(parseIPv6('::ffff:127.0.0.1'), parseIPv6('0:0:0:0:0:ffff:7f00:0001'));
    assert.equal(parseIPv6('2001:db8::'), 0x20010db8n << 96n);
    assert.equal(parseIPv6('::1'), 1n);
    assert.throws(() => parseIPv6('1.2.3.4'));
  });
});

describe('checkWebhookUrl', () => {
  it('accepts a public https url and reports every resolved address', async () => {
    const result = await checkWebhookUrl('https://dual.example.com/hooks?x=1', { allowPrivate: false, resolver: publicDns });
    assert.equal(result.ok, true);
    if (result.ok) {
      assert.equal(result.hostname, 'dual.example.com');
      assert.equal(result.addresses.length, 2);
    }
  });

  it('refuses non-https, malformed and credentialed urls', async () => {
    assert.equal(await errorCode('http://hooks.example.com/'), 'https_required');
    assert.equal(await errorCode('ftp://hooks.example.com/'), 'https_required');
    assert.equal(await errorCode('not a url'), 'invalid_url');
    assert.equal(await errorCode(''), 'invalid_url');
    assert.equal(await errorCode('https://' + 'a'.repeat(2100) + '.com/'), 'invalid_url');
    assert.equal(await errorCode('https://user:pass@hooks.example.com/'), 'credentials_in_url');
    assert.equal(await errorCode('https://user@hooks.example.com/'), 'credentials_in_url');
  });

  it('refuses unresolvable hosts', async () => {
    assert.equal(await errorCode('https://nowhere.example.com/'), 'unresolvable_host');
    assert.equal(await errorCode('https://empty.example.com/'), 'unresolvable_host');
  });

  it('refuses internal targets, including numeric spellings of loopback', async () => {
    const internal = [
      'https://127.0.0.1/',
      'https://localhost.127.0.0.1.nip.invalid@127.0.0.1/', // credentials, caught earlier
      'https://2130706433/', // decimal 127.0.0.1
      'https://0x7f000001/', // hex
      'https://0177.0.0.1/', // octal
      'https://0x7f.1/', // mixed short form
      'https://127.1/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:7f00:1]/',
      'https://[fd00::1]/',
      'https://[fe80::1]/',
      'https://169.254.169.254/latest/meta-data/',
      'https://100.64.0.1/',
      'https://0.0.0.0/',
      'https://224.0.0.1/',
      'https://10.0.0.1/',
      'https://172.16.5.4/',
      'https://192.168.0.1/',
      'https://internal.example.com/',
      'https://metadata.example.com/',
      'https://v6local.example.com/',
    ];
    for (const url of internal) {
      const code = await errorCode(url);
      assert.ok(code === 'forbidden_address' || code === 'credentials_in_url', `${url} gave ${code}`);
    }
    assert.equal(await errorCode('https://2130706433/'), 'forbidden_address');
  });

  it('refuses a host when any of its addresses is internal (rebinding-style answers)', async () => {
    assert.equal(await errorCode('https://rebind.example.com/'), 'forbidden_address');
  });

  it('allowPrivate opens loopback and private ranges, and http only towards loopback', async () => {
    assert.equal(await errorCode('https://127.0.0.1:8443/hook', true), 'ok');
    assert.equal(await errorCode('http://127.0.0.1:8080/hook', true), 'ok');
    assert.equal(await errorCode('https://10.0.0.1/', true), 'ok');
    assert.equal(await errorCode('http://10.0.0.1/', true), 'https_required');
    assert.equal(await errorCode('http://hooks.example.com/', true), 'https_required');
    // Metadata, CGNAT, mapped forms and multicast stay closed even for local testing.
    assert.equal(await errorCode('https://169.254.169.254/', true), 'forbidden_address');
    assert.equal(await errorCode('https://[::ffff:127.0.0.1]/', true), 'forbidden_address');
    assert.equal(await errorCode('https://100.64.0.1/', true), 'forbidden_address');
    assert.equal(await errorCode('https://224.0.0.1/', true), 'forbidden_address');
  });

  it('reports the offending address and category', async () => {
    const result = await checkWebhookUrl('https://metadata.example.com/', { allowPrivate: false, resolver: publicDns });
    assert.equal(result.ok, false);
    if (!result.ok) {
      assert.equal(result.error.address, '169.254.169.254');
      assert.equal(result.error.category, 'link_local');
    }
  });
});

describe('createPinnedLookup', () => {
  it('answers every lookup with the vetted address, in both callback shapes', async () => {
    const lookup = createPinnedLookup({ address: '93.184.216.34', family: 4 });
    const single = await new Promise<unknown[]>((resolve) =>
      (lookup as unknown as (h: string, o: object, cb: (...a: unknown[]) => void) => void)('evil.example', {}, (...args) => resolve(args)),
    );
    assert.deepEqual(single, [null, '93.184.216.34', 4]);
    const all = await new Promise<unknown[]>((resolve) =>
      (lookup as unknown as (h: string, o: object, cb: (...a: unknown[]) => void) => void)('evil.example', { all: true }, (...args) => resolve(args)),
    );
    assert.deepEqual(all, [null, [{ address: '93.184.216.34', family: 4 }]]);
  });
});
