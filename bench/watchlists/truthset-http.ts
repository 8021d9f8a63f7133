/**
 * The truth set of issue 30 end to end, over real HTTP on the whole wired service (a script, not a
 * test): the vendor-layout watchlist is imported through the S3 import route with no mapping, and
 * every customer of a half is screened through a surface, the way a firm would run its customer file:
 *  - portal: POST /api/portal/screenings with the facts the portal form takes (name, date of birth,
 *    documents, address; phone and e-mail only once the surface accepts them);
 *  - S3 CDD: POST /api/v1/screening/cdd with the same facts when the surface accepts them (issue 27 §3,
 *    wip/verdict), else the name alone (the answer says which it was).
 * A predicted pair is an internal-list hit of the completed screening (its hit id names the entry).
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
const facts = (c: TruthCustomer, withContacts: boolean) => requestFacts(carriedFacts(c, ['dateOfBirth', 'documents', 'address', ...(withContacts ? (['contacts'] as const) : [])]));

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
          const got = new Set(await internalHits(await screen(surface, c)));
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
        `${surface}${surface === 's3_cdd' ? (s3TakesFacts ? ' (with the facts)' : ' (name only)') : portalTakesContacts ? ' (with phone and e-mail)' : ' (no phone or e-mail)'} on the ${HALF} half (${customers.length} customers): precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)} (${tp} TP, ${fp} FP, ${fn} FN) in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
      );
      for (const e of errors) console.log(`  ${e}`);
    }
  } finally {
    await service.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
