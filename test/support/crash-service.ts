/**
 * The embedded service as its own OS process, for crash tests (test/support/crash-round.ts):
 * `svc serve` wiring (embedded PostgreSQL under DATA_DIR, in-process bus, all agents,
 * projections, HTTP), plus an enterprise account and S1 key made on the first boot and kept in
 * DATA_DIR, so a restart on the same DATA_DIR serves the same key (with TEST_SURFACES, credentials on
 * every surface too). Prints one line
 * `READY {"url","key","keys","databaseUrl","pid","surfaces"}` on stdout once it serves; SIGTERM stops it cleanly.
 * Configuration comes from the environment, as for `svc serve`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config/config';
import { startService } from '../../src/bootstrap/service';
import { createLogger } from '../../src/shared/logger';
import { accountHelpers } from './service';
import { enrolSurfaces, serviceEnroller, type SurfaceCredentials } from './surface-credentials';

const config = loadConfig(process.env);
const logger = createLogger({ level: config.LOG_LEVEL });
const service = await startService({ config, logger, http: true, agents: 'all', projections: true });
const keyFile = path.resolve(config.DATA_DIR, 'crash-test-key.json');
// TEST_SERVICE_KEYS: how many S1 keys to make (each has its own 60/minute limit; bench/soak.ts uses many).
let keys: string[];
// TEST_SURFACES=<n>: also credentials on every surface, with n spare S2 keys (test/support/surface-credentials.ts).
let surfaces: SurfaceCredentials | undefined;
if (fs.existsSync(keyFile)) {
  ({ keys, surfaces } = JSON.parse(fs.readFileSync(keyFile, 'utf8')) as { keys: string[]; surfaces?: SurfaceCredentials });
} else {
  const { createAccount, createKey } = accountHelpers(service);
  keys = [];
  let account = await createAccount('enterprise');
  for (let i = 0; i < Number(process.env.TEST_SERVICE_KEYS ?? 1); i++) {
    if (i > 0 && i % 10 === 0) account = await createAccount('enterprise'); // at most 10 active S1 keys per account
    keys.push((await createKey(account.accountId, 's1')).key);
  }
  if (process.env.TEST_SURFACES !== undefined) {
    // TEST_WEBHOOKS: {"s1","s2","s3"} receiver URLs to register (their CA through NODE_EXTRA_CA_CERTS).
    const webhooks = process.env.TEST_WEBHOOKS ? (JSON.parse(process.env.TEST_WEBHOOKS) as { s1?: string; s2?: string; s3?: string }) : undefined;
    surfaces = await enrolSurfaces(serviceEnroller(service), { spareS2Keys: Number(process.env.TEST_SURFACES), ...(webhooks ? { webhooks } : {}) });
  }
  fs.writeFileSync(`${keyFile}.tmp`, JSON.stringify({ keys, surfaces }));
  fs.renameSync(`${keyFile}.tmp`, keyFile);
}
const key = keys[0]!;
const databaseUrl = (service.pool as unknown as { options: { connectionString: string } }).options.connectionString;
process.stdout.write(`READY ${JSON.stringify({ url: service.url, key, keys, databaseUrl, pid: process.pid, surfaces })}\n`);

let stopping = false;
process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  service.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
