/**
 * The truth set of issue 30 end to end, over real HTTP on the whole wired service (a script, not a
 * test): the vendor-layout watchlist is imported through the S3 import route with no mapping, and
 * every customer of a half is screened through a surface, the way a firm would run its customer file:
 *  - portal: POST /api/portal/screenings with the facts the portal form takes (name, date of birth,
 *    documents, address; phone and e-mail only once the surface accepts them);
 *  - S3 CDD: POST /api/v1/screening/cdd with the same facts when the surface accepts them (issue 27 §3,
 *    wip/verdict), else the name alone (the answer says which it was);
 *  - s2: POST /api/v1/compliance/subject-checks (name split into first and last, the location the
 *    address's country or US, DOB, documents, phone, e-mail, and the address when the build takes one);
 *  - person_check: POST /api/v1/person-checks (S1) with DOB, phone, e-mail, and the address and the
 *    documents (as `identifiers`, types as the file names them) when the build takes them.
 * A predicted pair is an internal-list hit of the completed screening (its hit id names the entry), of
 * the subject check's sanctions agent, or a record of the person check's list agent. The per-account
 * S1 and S2 rate limits (60 a minute, 60 subject checks an hour) are lifted between requests: they are
 * not what is measured.
 *
 *   npx tsx bench/watchlists/truthset-http.ts                 held-back half, both surfaces
 *   HALF=tuning SURFACES=portal npx tsx bench/watchlists/truthset-http.ts
 * Prints the figures and appends nothing: bench/watchlists/RESULTS.md quotes them by hand.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config/config';
import { startService } from '../../src/bootstrap/service';
import { createLogger } from '../../src/shared/logger';
import { accountHelpers } from '../../test/support/service';
import { carriedFacts, requestFacts } from './truthset-facts';
import type { TruthCustomer } from './truthset-generate';

const here = path.dirname(fileURLToPath(import.meta.url));
const HALF = (process.env.HALF ?? 'heldback') as TruthCustomer['half'];
const SURFACES = (process.env.SURFACES ?? 'portal,s3_cdd').split(',');
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 3);
const customers: TruthCustomer[] = fs
  .readFileSync(path.join(here, 'truthset/customers.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as TruthCustomer)
  .filter((c) => c.half === HALF);
/** The customer's facts as the request carries them (truthset-facts.ts: the same as truthset.ts's rows). */
const facts = (c: TruthCustomer, withContacts: boolean, stateApart = true) =>
  requestFacts(carriedFacts(c, ['dateOfBirth', 'documents', 'address', ...(withContacts ? (['contacts'] as const) : [])], { stateApart }));

/** "Surname Sr, Given Middle" or "Given Middle Surname" as S2's first and last name (letters, spaces, ' - . only). */
function splitName(name: string): { first_name: string; last_name: string } {
  const clean = (s: string) => s.replace(/[^\p{L}\p{M} '’.\-]/gu, ' ').replace(/\s+/g, ' ').trim();
  const comma = name.indexOf(',');
  if (comma > 0) return { last_name: clean(name.slice(0, comma)), first_name: clean(name.slice(comma + 1)) || clean(name.slice(0, comma)) };
  const words = clean(name).split(' ');
  return words.length > 1 ? { first_name: words.slice(0, -1).join(' '), last_name: words.at(-1)! } : { first_name: words[0]!, last_name: words[0]! };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-truthset-'));
  fs.chmodSync(dataDir, 0o755);
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
  const service = await startService({ config, logger: createLogger({ level: 'silent' }), http: true, agents: 'all', projections: true });
  try {
    const base = service.url!;
    const { createAccount, createKey } = accountHelpers(service);
    const account = await createAccount('enterprise');
    const { key } = await createKey(account.accountId, 's3', { userId: account.userId });
    const session = await fetch(`${base}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: account.email, password: account.password }) });
    const token = ((await session.json()) as { data: { token: string } }).data.token;
    const s3 = { 'x-api-key': key, 'content-type': 'application/json' };
    const portal = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    const created = await fetch(`${base}/api/v1/watchlists`, { method: 'POST', headers: s3, body: JSON.stringify({ name: 'Fraud and risk', severity: 'block', owner: 'fincrime' }) });
    const listId = ((await created.json()) as { data: { id: string } }).data.id;
    const imported = await fetch(`${base}/api/v1/watchlists/${listId}/imports`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'text/csv' }, body: fs.readFileSync(path.join(here, 'truthset/watchlist.csv')) });
    const importBody = (await imported.json()) as { data: { import: { rows: number; added: number; date_orders: Record<string, { order: string }> } } };
    if (imported.status !== 201) throw new Error(`import: ${imported.status} ${JSON.stringify(importBody)}`);
    console.log(`imported the vendor CSV with no mapping: ${importBody.data.import.rows} rows, ${importBody.data.import.added} added, DOB order ${importBody.data.import.date_orders.DATE_OF_BIRTH?.order}`);

    // S3 CDD takes the facts only once issue 27 §3 is in: ask once, fall back to the name alone
    const probe = await fetch(`${base}/api/v1/screening/cdd`, { method: 'POST', headers: s3, body: JSON.stringify({ query: 'Probe Person', entity_type: 'individual', date_of_birth: '1970-01-01' }) });
    const s3TakesFacts = probe.status === 201 || probe.status === 202;
    console.log(`S3 CDD ${s3TakesFacts ? 'takes' : 'does not take'} the facts on this build (probe answered ${probe.status})`);
    const portalProbe = await fetch(`${base}/api/portal/screenings`, { method: 'POST', headers: portal, body: JSON.stringify({ query: 'Probe Person', phone: '702-555-0100' }) });
    const portalTakesContacts = portalProbe.status === 201;
    const s2Key = (await createKey(account.accountId, 's2')).key;
    const s1Key = (await createKey(account.accountId, 's1', { userId: account.userId })).key;
    const s2 = { authorization: `Bearer ${s2Key}`, 'content-type': 'application/json' };
    const s1 = { authorization: `Bearer ${s1Key}`, 'content-type': 'application/json' };
    const consent = { purpose: 'customer_due_diligence', consent: { certified: true } };
    // does this build take an address (with its state apart) on S2 and person checks? (issue 30)
    const s2Probe = await fetch(`${base}/api/v1/compliance/subject-checks/sandbox`, { method: 'POST', headers: s2, body: JSON.stringify({ first_name: 'Probe', last_name: 'Person', locations: [{ country: 'US' }], ...consent, address: { city: 'Reno', region: 'NV' } }) });
    const s2TakesAddress = s2Probe.status === 200 || s2Probe.status === 201;
    const liftLimits = () => service.pool.query("DELETE FROM limit_counters WHERE bucket LIKE 's1:%' OR bucket LIKE 's2:%'");
    await liftLimits();
    const pcProbe = await fetch(`${base}/api/v1/person-checks`, { method: 'POST', headers: s1, body: JSON.stringify({ full_name: 'Probe Person', purpose: 'employment', fcra_consent: true, address: { city: 'Reno', region: 'NV' } }) });
    const personCheckTakesAddress = pcProbe.status === 201 || pcProbe.status === 202;
    console.log(`S2 ${s2TakesAddress ? 'takes' : 'does not take'} an address (sandbox probe ${s2Probe.status}); person checks ${personCheckTakesAddress ? 'take' : 'do not take'} one (probe ${pcProbe.status})`);

    /** A subject check or person check, and the internal-list entries its list agent found. */
    const check = async (surface: 's2' | 'person_check', c: TruthCustomer): Promise<string[]> => {
      await liftLimits();
      const f = facts(c, true, surface === 's2' ? s2TakesAddress : personCheckTakesAddress) as { date_of_birth?: string; identifiers?: { type: string; value: string }[]; address?: Record<string, string>; phone?: string; email?: string };
      const takesAddress = surface === 's2' ? s2TakesAddress : personCheckTakesAddress;
      const common = {
        ...(f.date_of_birth && /^\d{4}-\d{2}-\d{2}$/.test(f.date_of_birth) && f.date_of_birth >= '1900' ? { date_of_birth: f.date_of_birth } : {}),
        ...(f.phone ? { phone: f.phone } : {}),
        ...(f.email ? { email: f.email } : {}),
        ...(takesAddress && f.address ? { address: f.address } : {}),
      };
      // a person check's identifiers go as the file names them (passport, national_id, other): the service decides which it compares whole
      const documents = (c.identifiers ?? []).map((i) => ({ type: i.type, value: i.value.replace(/[^A-Za-z0-9 -]/g, ' ').trim() })).filter((i) => i.value.replace(/[^A-Za-z0-9]/g, '').length >= 4);
      const body =
        surface === 's2'
          ? { ...splitName(c.name), ...common, ...(f.identifiers ? { identifiers: f.identifiers } : {}), locations: [{ country: f.address?.country ?? 'US' }], ...consent }
          : { full_name: c.name.replace(/[^\p{L}\p{M} '’.,-]/gu, ' ').replace(/\s+/g, ' ').trim(), purpose: 'employment', fcra_consent: true, ...common, ...(takesAddress && documents.length ? { identifiers: documents } : {}) };
      const res = await fetch(`${base}${surface === 's2' ? '/api/v1/compliance/subject-checks' : '/api/v1/person-checks'}`, { method: 'POST', headers: surface === 's2' ? s2 : s1, body: JSON.stringify(body) });
      const json = (await res.json()) as { subject_check_id?: number; person_check?: { id: string } };
      const stream = surface === 's2' ? (json.subject_check_id ? `subject-check-${json.subject_check_id}` : undefined) : json.person_check ? `person-check-${json.person_check.id}` : undefined;
      if (!stream) throw new Error(`${surface} ${c.id}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
      const deadline = Date.now() + Number(process.env.SCREENING_DEADLINE_MS ?? 900_000);
      while (Date.now() < deadline) {
        const events = await service.store.readStream(stream);
        const listResult = events.find(
          (e) => (e.type === 'SubjectCheckAgentResultRecorded' && (e.data as { agent: string }).agent === 'sanctions') || (e.type === 'PersonCheckAgentResultRecorded' && (e.data as { agent: string }).agent === 'sanctions_list'),
        );
        if (listResult) {
          const result = (listResult.data as { result?: { hits?: { internalList?: { entryId: string } }[]; records?: { internalList?: { entryId: string } }[] } }).result ?? {};
          return [...(result.hits ?? []), ...(result.records ?? [])].map((h) => h.internalList?.entryId).filter((x): x is string => !!x);
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`${stream} recorded no list search`);
    };

    const screen = async (surface: string, c: TruthCustomer): Promise<string> => {
      const body =
        surface === 'portal'
          ? { query: c.name, entity_type: 'individual', ...facts(c, portalTakesContacts) }
          : { query: c.name, entity_type: 'individual', ...(s3TakesFacts ? facts(c, true) : {}) };
      const res = await fetch(`${base}${surface === 'portal' ? '/api/portal/screenings' : '/api/v1/screening/cdd'}`, { method: 'POST', headers: surface === 'portal' ? portal : s3, body: JSON.stringify(body) });
      type Created = { id?: string | number; screening_number?: number };
      const json = (await res.json()) as { data?: Created & { screening?: Created } };
      // the stream is keyed by the screening number; S3's id is its uuid
      const d = json.data;
      const id = d?.screening_number ?? d?.screening?.screening_number ?? d?.screening?.id ?? d?.id;
      if (id === undefined) throw new Error(`${surface} ${c.id}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
      return String(id);
    };
    const internalHits = async (screeningId: string): Promise<string[]> => {
      // generous: the first screenings wait for the account's index, and the machine is shared
      const deadline = Date.now() + Number(process.env.SCREENING_DEADLINE_MS ?? 900_000);
      while (Date.now() < deadline) {
        const events = await service.store.readStream(`screening-${screeningId}`);
        const done = events.find((e) => e.type === 'ScreeningCompleted' || e.type === 'ScreeningFailed');
        if (done) {
          if (done.type === 'ScreeningFailed') throw new Error(`screening ${screeningId} failed: ${JSON.stringify(done.data).slice(0, 300)}`);
          const hits = (done.data as { hits: { hitId: string }[] }).hits;
          return hits.map((h) => /^sanctions:internal_list:[0-9a-f-]{36}:(.+)$/.exec(h.hitId)?.[1]).filter((x): x is string => !!x);
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      const last = (await service.store.readStream(`screening-${screeningId}`)).at(-1)?.type;
      throw new Error(`screening ${screeningId} did not complete (last event ${last})`);
    };

    for (const surface of SURFACES) {
      let tp = 0;
      let fp = 0;
      let fn = 0;
      const errors: string[] = [];
      const t0 = performance.now();
      let next = 0;
      const worker = async () => {
        while (next < customers.length) {
          const c = customers[next++]!;
          const got = new Set(surface === 's2' || surface === 'person_check' ? await check(surface, c) : await internalHits(await screen(surface, c)));
          for (const m of c.matches) if (got.has(m)) tp++;
          else {
            fn++;
            errors.push(`missed ${c.id} (${c.class}) ⇄ ${m}`);
          }
          for (const g of got) if (!c.matches.includes(g)) {
            fp++;
            errors.push(`false ${c.id} (${c.class}) ⇄ ${g}`);
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      const precision = tp + fp ? tp / (tp + fp) : NaN;
      const recall = tp + fn ? tp / (tp + fn) : NaN;
      console.log(
        `${surface}${surface === 's3_cdd' ? (s3TakesFacts ? ' (with the facts)' : ' (name only)') : surface === 's2' ? (s2TakesAddress ? ' (with the address)' : ' (no address)') : surface === 'person_check' ? (personCheckTakesAddress ? ' (with the address and documents)' : ' (no address, no documents)') : portalTakesContacts ? ' (with phone and e-mail)' : ' (no phone or e-mail)'} on the ${HALF} half (${customers.length} customers): precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)} (${tp} TP, ${fp} FP, ${fn} FN) in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
      );
      for (const e of errors) console.log(`  ${e}`);
    }
  } finally {
    await service.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
