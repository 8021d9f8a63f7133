/**
 * Internal watchlists over real HTTP on the whole wired service (issue 21): S3 (X-API-Key) and the
 * portal (JWT) routes, the S3 envelope, missing/malformed/oversized/hostile input, the all-or-nothing
 * import with its per-row report, the CSV export, Idempotency-Key on creation and tenant isolation.
 */
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../../../support/service';
import { rawRequest } from '../../../support/raw-http';
import { call, envelopeData, s3Error } from './helpers';

let svc: TestService;
let key: string;
let otherKey: string;
let portalToken: string;
const MAX_IMPORT = 64 * 1024;

before(async () => {
  svc = await startTestService({ agents: 'none', env: { WATCHLIST_IMPORT_MAX_BYTES: String(MAX_IMPORT) } });
  const account = await svc.createAccount('enterprise');
  key = (await svc.createKey(account.accountId, 's3', { userId: account.userId })).key;
  const other = await svc.createAccount('enterprise');
  otherKey = (await svc.createKey(other.accountId, 's3', { userId: other.userId })).key;
  const signIn = await rawRequest(svc.url, 'POST', '/api/session', { json: { email: account.email, password: account.password } });
  assert.equal(signIn.status, 200, signIn.text);
  portalToken = signIn.body.data.token;
});
after(async () => {
  await svc?.stop();
});

const newList = async (name = 'Exited customers', severity = 'block') =>
  envelopeData(await call(svc.url, 'POST', '/api/v1/watchlists', { key, body: { name, purpose: 'fraud exits', severity, owner: 'fincrime@acme.test' } }), 201);

async function upload(path: string, body: string | Buffer, options: { type?: string; mapping?: unknown; key?: string; query?: string } = {}) {
  const headers: Record<string, string> = { 'x-api-key': options.key ?? key, 'content-type': options.type ?? 'text/csv' };
  if (options.mapping !== undefined) headers['x-import-mapping'] = JSON.stringify(options.mapping);
  const answer = await rawRequest(svc.url, 'POST', `${path}${options.query ?? ''}`, { headers, body });
  return { ...answer, headers: new Headers(Object.entries(answer.headers).map(([k, v]) => [k, String(v)])) };
}

const streamEvents = async (id: string) => (await svc.service.store.readStream(`watchlist-${id}`)).map((e) => e.type);

describe('S3 watchlists: the list itself', () => {
  it('creates (Location, version 1), lists, reads, renames (version 2) and archives; an archived list takes no entries', async () => {
    const created = await newList('Regulator letters', 'review');
    assert.deepEqual(
      { name: created.name, severity: created.severity, status: created.status, version: created.version, entry_count: created.entry_count },
      { name: 'Regulator letters', severity: 'review', status: 'active', version: 1, entry_count: 0 },
    );
    const listed = envelopeData(await call(svc.url, 'GET', '/api/v1/watchlists', { key }), 200);
    assert.ok(listed.watchlists.some((w: any) => w.id === created.id));
    const renamed = envelopeData(await call(svc.url, 'PATCH', `/api/v1/watchlists/${created.id}`, { key, body: { name: 'FCA letters', severity: 'note' } }), 200);
    assert.deepEqual([renamed.name, renamed.severity, renamed.version], ['FCA letters', 'note', 2]);
    const same = envelopeData(await call(svc.url, 'PATCH', `/api/v1/watchlists/${created.id}`, { key, body: { name: 'FCA letters' } }), 200);
    assert.equal(same.version, 2, 'a change that changes nothing keeps the version');
    const archived = envelopeData(await call(svc.url, 'POST', `/api/v1/watchlists/${created.id}/archive`, { key, body: { reason: 'superseded' } }), 200);
    assert.deepEqual([archived.status, archived.version], ['archived', 3]);
    s3Error(await call(svc.url, 'POST', `/api/v1/watchlists/${created.id}/entries`, { key, body: { primary_name: 'Anyone' } }), 409);
    const active = envelopeData(await call(svc.url, 'GET', '/api/v1/watchlists?status=active', { key }), 200);
    assert.ok(!active.watchlists.some((w: any) => w.id === created.id));
    assert.deepEqual(await streamEvents(created.id), ['WatchlistCreated', 'WatchlistChanged', 'WatchlistArchived']);
  });

  it('refuses missing, malformed and hostile input in the S3 envelope, writing nothing', async () => {
    const before = (await svc.service.store.readAll()).length;
    s3Error(await call(svc.url, 'POST', '/api/v1/watchlists', { key, body: { purpose: 'x', severity: 'block', owner: 'me' } }), 400);
    s3Error(await call(svc.url, 'POST', '/api/v1/watchlists', { key, body: { name: 'x', severity: 'critical', owner: 'me' } }), 400);
    s3Error(await call(svc.url, 'POST', '/api/v1/watchlists', { key, body: { name: 'x\u0000y', severity: 'block', owner: 'me' } }), 400);
    s3Error(await call(svc.url, 'POST', '/api/v1/watchlists', { key, body: { name: 'x', severity: 'block', owner: 'me', admin: true } }), 400);
    s3Error(await call(svc.url, 'POST', '/api/v1/watchlists', { key, raw: '{"name": "x", "severity": ' }), 400);
    s3Error(await call(svc.url, 'POST', '/api/v1/watchlists', { key, body: { name: 'x'.repeat(201), severity: 'block', owner: 'me' } }), 400);
    s3Error(await call(svc.url, 'POST', '/api/v1/watchlists', { key, raw: '{"name":"a","name":"b","severity":"block","owner":"me"}' }), 400);
    s3Error(await call(svc.url, 'GET', '/api/v1/watchlists/not-a-uuid', { key }), 400);
    s3Error(await call(svc.url, 'GET', '/api/v1/watchlists?limit=1000', { key }), 400);
    // Without a credential the request is nobody's: refused before any surface's handler.
    assert.equal((await call(svc.url, 'POST', '/api/v1/watchlists', { body: { name: 'x', severity: 'block', owner: 'me' } })).status, 401);
    const list = await newList();
    s3Error(await call(svc.url, 'POST', `/api/v1/watchlists/${list.id}/entries`, { key, body: { aliases: [{ name: 'Bob' }] } }), 400);
    s3Error(await call(svc.url, 'POST', `/api/v1/watchlists/${list.id}/entries`, { key, body: { primary_name: '   ' } }), 400);
    s3Error(await call(svc.url, 'POST', `/api/v1/watchlists/${list.id}/entries`, { key, body: { primary_name: 'Ann', dates_of_birth: ['03/04/1971'] } }), 400);
    s3Error(await call(svc.url, 'POST', `/api/v1/watchlists/${list.id}/entries`, { key, body: { primary_name: 'Ann', identifiers: [{ kind: 'shoe_size', value: '9' }] } }), 400);
    s3Error(await call(svc.url, 'POST', `/api/v1/watchlists/${list.id}/entries`, { key, body: { primary_name: 'Ann', entry_id: '../../etc' } }), 400);
    s3Error(await call(svc.url, 'POST', `/api/v1/watchlists/${list.id}/entries`, { key, raw: '{"primary_name":"Ann","__proto__":{"admin":true}}' }), 400);
    // Only the list creation above was written.
    assert.equal((await svc.service.store.readAll()).length, before + 1);
    assert.deepEqual(await streamEvents(list.id), ['WatchlistCreated']);
  });

  it('Idempotency-Key on creation: the retry gets the same list, nothing new is created', async () => {
    const headers = { 'idempotency-key': `wl-${Date.now()}` };
    const body = { name: 'Group blocklist', severity: 'block', owner: 'group-risk' };
    const first = await call(svc.url, 'POST', '/api/v1/watchlists', { key, body, headers });
    const again = await call(svc.url, 'POST', '/api/v1/watchlists', { key, body, headers });
    // The replay is the stored answer itself (its meta included).
    assert.deepEqual([again.status, again.body], [201, envelopeData(first, 201) && first.body]);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    s3Error(await call(svc.url, 'POST', '/api/v1/watchlists', { key, body: { ...body, name: 'Other' }, headers }), 422);
  });
});

describe('S3 watchlists: entries', () => {
  it('adds, reads, changes (merge) and removes an entry; each change bumps the version', async () => {
    const list = await newList();
    const entry = {
      entry_id: 'cust-1001',
      primary_name: 'Robert Smith',
      aliases: [{ name: 'Bob Smith' }, { name: 'Роберт Смит', script: 'Cyrl' }],
      dates_of_birth: ['1971-04-03'],
      nationalities: ['gb'],
      addresses: [{ line: '12 Baker Street', city: 'London', postal_code: 'NW1 6XE', country: 'GB' }],
      identifiers: [{ kind: 'passport', value: '123456789', country: 'GB' }, { kind: 'email', value: 'bob@example.test' }],
      reason: 'exited for card fraud',
    };
    const added = await call(svc.url, 'POST', `/api/v1/watchlists/${list.id}/entries`, { key, body: entry });
    const data = envelopeData(added, 201);
    assert.equal(added.headers.get('location'), `/api/v1/watchlists/${list.id}/entries/cust-1001`);
    assert.equal(data.watchlist.version, 2);
    assert.deepEqual(data.entry.nationalities, ['GB']);
    assert.equal(data.entry.entity_type, 'person');
    assert.ok(data.entry.added_by && data.entry.added_at);
    s3Error(await call(svc.url, 'POST', `/api/v1/watchlists/${list.id}/entries`, { key, body: entry }), 409);
    const read = envelopeData(await call(svc.url, 'GET', `/api/v1/watchlists/${list.id}/entries/cust-1001`, { key }), 200);
    assert.equal(read.primary_name, 'Robert Smith');
    const changed = envelopeData(await call(svc.url, 'PATCH', `/api/v1/watchlists/${list.id}/entries/cust-1001`, { key, body: { reason: 'card fraud, 2024' } }), 200);
    assert.deepEqual([changed.entry.reason, changed.entry.dates_of_birth, changed.watchlist.version], ['card fraud, 2024', ['1971-04-03'], 3]);
    const page = envelopeData(await call(svc.url, 'GET', `/api/v1/watchlists/${list.id}/entries?q=smith`, { key }), 200);
    assert.deepEqual(page.entries.map((e: any) => e.entry_id), ['cust-1001']);
    const removed = envelopeData(await call(svc.url, 'DELETE', `/api/v1/watchlists/${list.id}/entries/cust-1001?reason=cleared`, { key }), 200);
    assert.deepEqual([removed.removed, removed.watchlist.version, removed.watchlist.entry_count], ['cust-1001', 4, 0]);
    s3Error(await call(svc.url, 'GET', `/api/v1/watchlists/${list.id}/entries/cust-1001`, { key }), 404);
    s3Error(await call(svc.url, 'DELETE', `/api/v1/watchlists/${list.id}/entries/cust-1001`, { key }), 404);
    assert.deepEqual(await streamEvents(list.id), ['WatchlistCreated', 'EntryAdded', 'EntryChanged', 'EntryRemoved']);
  });
});

const csvHeader = 'Customer Ref,First Name,Last Name,Date of Birth,Address Line 1,Town,Postcode,Country,Passport Number,Email,Notes';

describe('S3 watchlists: imports and export', () => {
  it('previews the detected mapping, sample rows and row errors without writing anything', async () => {
    const list = await newList();
    const csv = `${csvHeader},Shoe Size\nC-1,Robert,Smith,03/04/1971,12 Baker Street,London,NW1 6XE,United Kingdom,123456789,bob@example.test,card fraud,9\nC-2,,,1971-13-01,,,,Narnia,,,,\n`;
    const preview = await upload(`/api/v1/watchlists/${list.id}/imports/preview`, csv);
    assert.equal(preview.status, 200, preview.text);
    const p = preview.body.data;
    assert.deepEqual(p.mapping, {
      'Customer Ref': 'entry_id',
      'First Name': 'first_name',
      'Last Name': 'last_name',
      'Date of Birth': 'date_of_birth',
      'Address Line 1': 'address_line',
      Town: 'city',
      Postcode: 'postal_code',
      Country: 'country',
      'Passport Number': 'passport',
      Email: 'email',
      Notes: 'reason',
    });
    assert.deepEqual(p.unmapped_columns, ['Shoe Size']);
    assert.deepEqual([p.rows, p.valid_rows, p.error_count], [2, 1, 3]);
    assert.deepEqual(p.sample[0], {
      line: 2,
      entry_id: 'C-1',
      entity_type: 'person',
      primary_name: 'Robert Smith',
      aliases: [],
      dates_of_birth: ['1971-04-03'],
      nationalities: [],
      addresses: [{ line: '12 Baker Street', city: 'London', postal_code: 'NW1 6XE', country: 'GB' }],
      identifiers: [{ kind: 'passport', value: '123456789' }, { kind: 'email', value: 'bob@example.test' }],
      reason: 'card fraud',
      status: 'active',
    });
    assert.deepEqual(
      p.errors.map((e: any) => [e.line, e.field]),
      [
        [3, 'date_of_birth'],
        [3, 'country'],
        [3, 'full_name'],
      ],
      JSON.stringify(p.errors),
    );
    // 03/04/1971 could be either order and no row decides: read day first, and the column is flagged
    assert.deepEqual([p.date_orders['Date of Birth'].order, p.date_orders['Date of Birth'].decided_by, p.date_orders['Date of Birth'].flagged], ['dmy', 'default', true]);
    assert.deepEqual(await streamEvents(list.id), ['WatchlistCreated']);
  });

  it('an import with unreadable rows is refused whole (422, each line, field, reason): nothing half-imported', async () => {
    const list = await newList();
    const good = Array.from({ length: 50 }, (_, i) => `C-${i},Ann,Example${i},1980-01-${String((i % 28) + 1).padStart(2, '0')},,,,GB,,,`);
    const csv = [csvHeader, ...good.slice(0, 20), 'C-X,,,,,,,,,,', ...good.slice(20), 'C-Y,Zed,Zulu,31/02/1970,,,,,,,'].join('\n');
    const refused = await upload(`/api/v1/watchlists/${list.id}/imports`, csv);
    assert.equal(refused.status, 422, refused.text);
    assert.deepEqual(Object.keys(refused.body).sort(), ['details', 'error']);
    assert.deepEqual(
      refused.body.details.map((d: any) => [d.line, d.field]),
      [
        [22, 'full_name'],
        [53, 'date_of_birth'],
      ],
    );
    assert.match(refused.body.details[1].reason, /31\/02\/1970/);
    const after = envelopeData(await call(svc.url, 'GET', `/api/v1/watchlists/${list.id}`, { key }), 200);
    assert.deepEqual([after.version, after.entry_count], [1, 0]);
    assert.deepEqual(await streamEvents(list.id), ['WatchlistCreated']);
    // Duplicate ids inside one file are row errors too (decided by the aggregate).
    const dup = await upload(`/api/v1/watchlists/${list.id}/imports`, `${csvHeader}\nC-1,Ann,One,,,,,,,,\nC-1,Ann,Two,,,,,,,,\n`);
    assert.equal(dup.status, 422, dup.text);
    assert.deepEqual(dup.body.details.map((d: any) => [d.line, d.field]), [[3, 'entry_id']]);
    assert.deepEqual(await streamEvents(list.id), ['WatchlistCreated']);
  });

  it('imports CSV with a mapping (one version, ListImported with counts and file hash), replaces, exports a CSV that re-imports unchanged', async () => {
    const list = await newList();
    const csv = ['Ref;Surname;Given;Born;Nat;Tel', 'A1;Smith;Robert;04/03/1971;GB;+44 20 7946 0000', 'A2;Jones;Mary;1965;IE|GB;', 'A3;Eve;=cmd;;;'].join('\n');
    const mapping = { columns: { Ref: 'entry_id', Surname: 'last_name', Given: 'first_name', Born: 'date_of_birth', Nat: 'nationality', Tel: 'phone' }, dob_order: 'mdy' };
    // The CSV here uses ';' as a separator: not CSV, so the body is refused as unreadable (no name column).
    const semicolon = await upload(`/api/v1/watchlists/${list.id}/imports`, csv, { mapping });
    assert.equal(semicolon.status, 400, semicolon.text);
    const commaCsv = csv.replace(/;/g, ',');
    const imported = await upload(`/api/v1/watchlists/${list.id}/imports`, commaCsv, { mapping, query: '?file_name=exits.csv' });
    assert.equal(imported.status, 201, imported.text);
    const result = imported.body.data;
    assert.deepEqual(
      { rows: result.import.rows, added: result.import.added, version: result.import.version, entries: result.watchlist.entry_count, file: result.import.file_name },
      { rows: 3, added: 3, version: 2, entries: 3, file: 'exits.csv' },
    );
    assert.match(result.import.sha256, /^[0-9a-f]{64}$/);
    const a1 = envelopeData(await call(svc.url, 'GET', `/api/v1/watchlists/${list.id}/entries/A1`, { key }), 200);
    assert.deepEqual([a1.primary_name, a1.dates_of_birth, a1.identifiers], ['Robert Smith', ['1971-04-03'], [{ kind: 'phone', value: '+44 20 7946 0000' }]]);
    const events = await streamEvents(list.id);
    assert.deepEqual(events, ['WatchlistCreated', 'ListImported']);
    // The rows are in the import's staging stream, named by the ListImported that commits them.
    const committed = (await svc.service.store.readStream(`watchlist-${list.id}`)).find((e) => e.type === 'ListImported')!.data as { stagingStream: string; chunks: number };
    assert.equal(committed.chunks, 1);
    const chunks = await svc.service.store.readStream(committed.stagingStream);
    assert.deepEqual(chunks.map((e) => [e.type, (e.data as { added: { entryId: string }[] }).added.map((x) => x.entryId).join()]), [['EntriesImported', 'A1,A2,A3']]);

    const exported = await rawRequest(svc.url, 'GET', `/api/v1/watchlists/${list.id}/export.csv`, { headers: { 'x-api-key': key } });
    assert.equal(exported.status, 200);
    assert.match(String(exported.headers['content-type']), /^text\/csv/);
    assert.equal(exported.headers['x-watchlist-version'], '2');
    const lines = exported.text.trim().split('\r\n');
    assert.equal(lines.length, 4);
    assert.ok(lines.some((l) => l.startsWith("A3,person,active,'=cmd Eve,")), `a formula cell is neutralised: ${lines.join(' / ')}`);
    // The export re-imports (replace): unchanged but for the neutralised formula cell.
    const reimport = await upload(`/api/v1/watchlists/${list.id}/imports`, exported.text, { query: '?mode=replace' });
    assert.equal(reimport.status, 201, reimport.text);
    const counts = reimport.body.data.import;
    assert.deepEqual([counts.unchanged, counts.changed, counts.removed, counts.added], [2, 1, 0, 0]);
  });

  it('imports JSON lines; refuses another content type (415), a body past the limit (413), a bad mapping (400)', async () => {
    const list = await newList();
    const jsonl = [JSON.stringify({ id: 'J1', name: 'Shellco Ltd', type: 'company', country: 'Cyprus', registration_number: 'HE123' }), '', JSON.stringify({ id: 'J2', full_name: 'Ann Other', dob: 'April 1980', aliases: ['Annie Other'] })].join('\n');
    const ok = await upload(`/api/v1/watchlists/${list.id}/imports`, jsonl, { type: 'application/x-ndjson' });
    assert.equal(ok.status, 201, ok.text);
    const j1 = envelopeData(await call(svc.url, 'GET', `/api/v1/watchlists/${list.id}/entries/J1`, { key }), 200);
    assert.deepEqual([j1.entity_type, j1.addresses, j1.identifiers], ['organization', [{ country: 'CY' }], [{ kind: 'registration_number', value: 'HE123' }]]);
    const bad = await upload(`/api/v1/watchlists/${list.id}/imports`, '{"name": "A"}\nnot json\n[1]\n', { type: 'application/x-ndjson' });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.details.map((d: any) => [d.line, d.reason]), [[2, 'not valid JSON'], [3, 'each line must be a JSON object']]);

    const xml = await upload(`/api/v1/watchlists/${list.id}/imports`, jsonl, { type: 'application/xml' });
    assert.equal(xml.status, 415);
    assert.deepEqual(Object.keys(xml.body).sort(), ['details', 'error']);
    const big = `${csvHeader}\n${'C,Ann,Big,,,,,,,,\n'.repeat(Math.ceil((MAX_IMPORT + 10) / 18))}`;
    s3Error(await upload(`/api/v1/watchlists/${list.id}/imports`, big), 413);
    s3Error(await upload(`/api/v1/watchlists/${list.id}/imports`, 'Name\nA\n', { mapping: { columns: { Name: 'shoe_size' } } }), 400);
    const raw = await rawRequest(svc.url, 'POST', `/api/v1/watchlists/${list.id}/imports`, { headers: { 'x-api-key': key, 'content-type': 'text/csv', 'x-import-mapping': '{not json' }, body: 'Name\nA\n' });
    assert.equal(raw.status, 400, raw.text);
    assert.deepEqual(Object.keys(raw.body).sort(), ['details', 'error']);
    s3Error(await upload(`/api/v1/watchlists/${list.id}/imports`, ''), 400);
    const after = envelopeData(await call(svc.url, 'GET', `/api/v1/watchlists/${list.id}`, { key }), 200);
    assert.deepEqual([after.version, after.entry_count], [2, 2]);
  });
});

describe('S3 watchlists: imports as firms export them (issue 30)', () => {
  const truthset = (file: string) => readFileSync(new URL(`../../../../bench/watchlists/truthset/${file}`, import.meta.url));

  it('the vendor-layout CSV imports with no mapping and no hand edits: every row, its state, licence, SSN, suffix, status; month-first and two-digit dates; a row with no name', async () => {
    const list = await newList('Fraud and risk (vendor export)');
    const res = await upload(`/api/v1/watchlists/${list.id}/imports`, truthset('watchlist.csv'));
    assert.equal(res.status, 201, res.text);
    const d = res.body.data.import;
    assert.deepEqual([d.rows, d.added, d.bad_rows, d.skipped_rows], [45, 45, 'reject', 0]);
    assert.equal(Object.keys(d.mapping).length, 26, 'every vendor column recognised');
    assert.deepEqual([d.date_orders.DATE_OF_BIRTH.order, d.date_orders.DATE_OF_BIRTH.decided_by], ['mdy', 'inferred']);
    const entry = async (id: string) => envelopeData(await call(svc.url, 'GET', `/api/v1/watchlists/${list.id}/entries/${id}`, { key }), 200);
    const father = await entry('WL-0001');
    assert.match(father.primary_name, / Sr$/, 'the suffix is kept');
    assert.equal(father.addresses[0].region, 'IL');
    assert.ok(father.identifiers.some((i: any) => i.kind === 'drivers_license' && i.region === 'IL' && i.country === 'US'));
    assert.ok(father.identifiers.some((i: any) => i.kind === 'national_id' && i.country === 'US'));
    assert.equal((await entry('WL-9001')).status, 'inactive');
    const noName = await entry('WL-9101');
    assert.equal(noName.primary_name, '');
    assert.ok(noName.identifiers.some((i: any) => i.kind === 'national_id'));
    assert.equal((await entry('WL-9201')).primary_name, 'Иван Петров');
    // the same records in the vendor's nested JSON form change nothing
    const again = await upload(`/api/v1/watchlists/${list.id}/imports`, truthset('watchlist.jsonl'), { type: 'application/x-ndjson' });
    assert.equal(again.status, 201, again.text);
    assert.deepEqual([again.body.data.import.rows, again.body.data.import.unchanged], [45, 45]);
  });

  it('bad_rows=skip imports the readable rows and reports the refused ones by line; the default refuses the file', async () => {
    const list = await newList('Skip bad rows');
    const csv = 'id,name,dob,email\ne1,Ann One,1970-01-01,\ne2,,1971-01-01,\ne3,Cy Three,1972-13-45,\ne4,,,mule@example.test\n';
    const refused = await upload(`/api/v1/watchlists/${list.id}/imports`, csv);
    assert.equal(refused.status, 422, refused.text);
    assert.deepEqual(refused.body.details.map((e: any) => e.line), [3, 4]);
    const res = await upload(`/api/v1/watchlists/${list.id}/imports`, csv, { query: '?bad_rows=skip' });
    assert.equal(res.status, 201, res.text);
    const d = res.body.data.import;
    assert.deepEqual([d.rows, d.added, d.skipped_rows, d.skipped.map((e: any) => [e.line, e.field])], [2, 2, 2, [[3, 'full_name'], [4, 'date_of_birth']]]);
    const imported = (await svc.service.store.readStream(`watchlist-${list.id}`)).find((e) => e.type === 'ListImported')!;
    assert.equal((imported.data as { skippedRows?: number }).skippedRows, 2);
    const nothing = await upload(`/api/v1/watchlists/${list.id}/imports`, 'id,name,dob\ne9,,1999-99-99\n', { query: '?bad_rows=skip' });
    assert.equal(nothing.status, 422, 'no readable row: nothing to import');
    assert.equal((await call(svc.url, 'POST', `/api/v1/watchlists/${list.id}/imports?bad_rows=maybe`, { key, raw: 'name\nA B\n' })).status, 400);
  });

  it('the preview flags an ambiguous date column and names every header when no name or identifier column is recognised', async () => {
    const list = await newList('Preview checks');
    const preview = await upload(`/api/v1/watchlists/${list.id}/imports/preview`, 'name,born\nAnn One,03/04/1971\n');
    assert.equal(preview.status, 200, preview.text);
    assert.deepEqual([preview.body.data.date_orders.born.order, preview.body.data.date_orders.born.flagged], ['dmy', true]);
    assert.match(preview.body.data.two_digit_years, /^00-\d\d are 2000-20\d\d/);
    const headers = Array.from({ length: 24 }, (_, i) => `Col ${i + 1}`);
    const bad = await upload(`/api/v1/watchlists/${list.id}/imports/preview`, `${headers.join(',')}\n${headers.map(() => 'x').join(',')}\n`);
    s3Error(bad, 400);
    for (const h of headers) assert.ok(bad.text.includes(h), h);
  });

  it('an entry with no name is accepted when it has an e-mail, refused with neither', async () => {
    const list = await newList('By identifier');
    const added = await call(svc.url, 'POST', `/api/v1/watchlists/${list.id}/entries`, { key, body: { identifiers: [{ kind: 'email', value: 'mule@example.test' }], reason: 'mule' } });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    s3Error(await call(svc.url, 'POST', `/api/v1/watchlists/${list.id}/entries`, { key, body: { reason: 'nobody' } }), 400);
  });
});

describe('S3 watchlists: tenant isolation', () => {
  it("another account neither sees, reads, changes, imports into nor exports an account's list", async () => {
    const list = await newList();
    await call(svc.url, 'POST', `/api/v1/watchlists/${list.id}/entries`, { key, body: { entry_id: 'E1', primary_name: 'Private Person' } });
    const theirs = envelopeData(await call(svc.url, 'GET', '/api/v1/watchlists', { key: otherKey }), 200);
    assert.ok(!theirs.watchlists.some((w: any) => w.id === list.id));
    const base = `/api/v1/watchlists/${list.id}`;
    s3Error(await call(svc.url, 'GET', base, { key: otherKey }), 404);
    s3Error(await call(svc.url, 'PATCH', base, { key: otherKey, body: { name: 'Mine now' } }), 404);
    s3Error(await call(svc.url, 'POST', `${base}/archive`, { key: otherKey }), 404);
    s3Error(await call(svc.url, 'GET', `${base}/entries`, { key: otherKey }), 404);
    s3Error(await call(svc.url, 'GET', `${base}/entries/E1`, { key: otherKey }), 404);
    s3Error(await call(svc.url, 'POST', `${base}/entries`, { key: otherKey, body: { primary_name: 'Planted' } }), 404);
    s3Error(await call(svc.url, 'PATCH', `${base}/entries/E1`, { key: otherKey, body: { reason: 'x' } }), 404);
    s3Error(await call(svc.url, 'DELETE', `${base}/entries/E1`, { key: otherKey }), 404);
    assert.equal((await upload(`${base}/imports/preview`, 'Name\nA\n', { key: otherKey })).status, 404);
    assert.equal((await upload(`${base}/imports`, 'Name\nA\n', { key: otherKey })).status, 404);
    assert.equal((await rawRequest(svc.url, 'GET', `${base}/export.csv`, { headers: { 'x-api-key': otherKey } })).status, 404);
    const mine = envelopeData(await call(svc.url, 'GET', base, { key }), 200);
    assert.deepEqual([mine.name, mine.version, mine.entry_count], ['Exited customers', 2, 1]);
  });
});

describe('portal watchlists', () => {
  it('the same routes under /api/portal/watchlists with the portal session; the S3 key is not accepted there', async () => {
    const auth = { authorization: `Bearer ${portalToken}` };
    const created = await rawRequest(svc.url, 'POST', '/api/portal/watchlists', { headers: auth, json: { name: 'Portal list', severity: 'review', owner: 'analyst' } });
    assert.equal(created.status, 201, created.text);
    const id = created.body.data.id;
    const added = await rawRequest(svc.url, 'POST', `/api/portal/watchlists/${id}/entries`, { headers: auth, json: { primary_name: 'Ann Example' } });
    assert.equal(added.status, 201, added.text);
    const imported = await rawRequest(svc.url, 'POST', `/api/portal/watchlists/${id}/imports`, { headers: { ...auth, 'content-type': 'text/csv' }, body: 'Full Name,DOB\nBen Example,1990\n' });
    assert.equal(imported.status, 201, imported.text);
    const listed = await rawRequest(svc.url, 'GET', `/api/portal/watchlists/${id}/entries`, { headers: auth });
    assert.deepEqual(listed.body.data.entries.map((e: any) => e.primary_name).sort(), ['Ann Example', 'Ben Example']);
    // The same list through S3: one account, one list.
    const viaS3 = envelopeData(await call(svc.url, 'GET', `/api/v1/watchlists/${id}`, { key }), 200);
    assert.equal(viaS3.version, 3);
    const noSession = await rawRequest(svc.url, 'GET', '/api/portal/watchlists', {});
    assert.equal(noSession.status, 401);
  });
});

describe('S3 watchlists: Idempotency-Key on imports', () => {
  const csv = 'full_name,date_of_birth\nTheodora Quillfeather,1971-04-03\n';
  const post = (id: string, body: string, idem: string, query = '') =>
    rawRequest(svc.url, 'POST', `/api/v1/watchlists/${id}/imports${query}`, { headers: { 'x-api-key': key, 'content-type': 'text/csv', 'idempotency-key': idem }, body });
  /** A chunked upload (no Content-Length). */
  const chunked = async (id: string, body: string, idem: string) => {
    const res = await fetch(`${svc.url}/api/v1/watchlists/${id}/imports`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'text/csv', 'idempotency-key': idem },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(body));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };
  const imports = async (id: string) => (await svc.service.store.readStream(`watchlist-${id}`)).filter((e) => e.type === 'ListImported').length;

  it('a retried import answers the first one again and records one import', async () => {
    const list = await newList('Idempotent imports');
    const first = await post(list.id, csv, 'import-key-1');
    assert.equal(first.status, 201, first.text);
    const again = await post(list.id, csv, 'import-key-1');
    assert.equal(again.status, 201, again.text);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.body, first.body);
    assert.equal(await imports(list.id), 1);
    // Without the key the same file is another (empty) import: a new key is a new request.
    const fresh = await post(list.id, csv, 'import-key-2');
    assert.equal(fresh.status, 201, fresh.text);
    assert.deepEqual([fresh.body.data.import.unchanged, fresh.body.data.import.version], [1, 3]);
    assert.equal(await imports(list.id), 2);
  });

  it('the same key with other import options, another length or another file of the same length is 422 idempotency_key_reused; nothing imported twice', async () => {
    const list = await newList('Key reuse');
    assert.equal((await post(list.id, csv, 'reuse-key')).status, 201);
    const otherMode = await post(list.id, csv, 'reuse-key', '?mode=replace');
    assert.equal(otherMode.status, 422, otherMode.text);
    assert.equal(typeof otherMode.body.error, 'string');
    const first = await chunked(list.id, csv, 'chunked-key');
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const replayed = await chunked(list.id, csv, 'chunked-key');
    assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
    const longer = await post(list.id, `${csv}Ada Quill,1980-02-01\n`, 'reuse-key');
    assert.equal(longer.status, 422, longer.text);
    // The body is streamed, so it is hashed as it arrives and the hash is kept with the answer: another
    // file of the same length (sent chunked, without a length) is refused, not answered with the first.
    const other = await chunked(list.id, csv.replace('Theodora', 'Theodore'), 'chunked-key');
    assert.equal(other.status, 422, JSON.stringify(other.body));
    assert.equal(other.headers.get('idempotent-replayed'), null);
    assert.match(other.body.error, /different request body/);
    assert.equal(await imports(list.id), 2, 'one import per key');
    const entries = await call(svc.url, 'GET', `/api/v1/watchlists/${list.id}/entries?q=Theodore`, { key });
    assert.equal(envelopeData(entries, 200).entries.length, 0);
  });
});
