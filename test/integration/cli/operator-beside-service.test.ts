/**
 * The operator CLI beside a running service (embedded default): `svc serve` runs as its own process on
 * a fresh DATA_DIR, and `svc accounts create` / `svc audit verify` run in other processes, connecting
 * to the service's PostgreSQL through its discovery file instead of failing on the data directory in
 * use. When the service is stopped, a command starts its own PostgreSQL and says so on stderr.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';

const root = path.resolve(import.meta.dirname, '../../..');
const main = path.join(root, 'src/main.ts');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function svc(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', main, ...args], { env, cwd: root, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

async function startServe(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', main, 'serve'], { env, cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /svc listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`svc serve exited with ${code}: ${err}`)));
  });
  return { child, url };
}

test('operator commands connect to the running service; a stopped service gets a PostgreSQL of the command’s own, announced', { timeout: 300_000 }, async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-cli-'));
  // The embedded PostgreSQL runs as the OS user postgres when the tests run as root: it must reach the folder.
  fs.chmodSync(dataDir, 0o755);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    // Country risk only: the CLI's behaviour does not depend on the sanctions lists, and they take seconds to load.
    LISTS_ONLY: 'fatf',
  };
  delete env.DATABASE_URL;
  let serve: { child: ChildProcess; url: string } | undefined;
  try {
    serve = await startServe(env);
    const discovery = JSON.parse(fs.readFileSync(path.join(dataDir, 'service.json'), 'utf8')) as { pid: number; databaseUrl: string; httpUrl: string };
    assert.equal(discovery.pid, serve.child.pid);
    assert.equal(discovery.httpUrl, serve.url);
    assert.equal(fs.statSync(path.join(dataDir, 'service.json')).mode & 0o777, 0o600, 'the discovery file names the database: owner only');

    // accounts create beside the service: no second cluster, the account signs in on the running service.
    const created = await svc(['accounts', 'create', '--name', 'Acme Bank', '--email', 'ops@acme.test', '--password', 'a-long-password', '--json'], env);
    assert.equal(created.code, 0, created.stderr);
    assert.doesNotMatch(created.stderr, /starting the embedded PostgreSQL/);
    const account = JSON.parse(created.stdout) as { account_id: string; owner_user_id: string; plan: string };
    assert.match(account.account_id, /^\d+$/);
    assert.equal(account.plan, 'enterprise');
    const signIn = await fetch(`${serve.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ops@acme.test', password: 'a-long-password' }),
    });
    assert.equal(signIn.status, 200, await signIn.clone().text());

    // The same e-mail again is refused with a one-line reason, and nothing is appended.
    const again = await svc(['accounts', 'create', '--name', 'Other', '--email', 'OPS@acme.test', '--password', 'a-long-password'], env);
    assert.equal(again.code, 1);
    assert.equal(again.stderr.trim().split('\n').length, 1);
    assert.match(again.stderr, /already uses OPS@acme.test/);

    const verified = await svc(['audit', 'verify', '--json'], env);
    assert.equal(verified.code, 0, verified.stderr);
    const report = JSON.parse(verified.stdout) as { ok: boolean; events: number; streams: number };
    assert.equal(report.ok, true);
    assert.equal(report.events, 1, 'one AccountCreated: the refused duplicate wrote nothing');

    // A second service on the same DATA_DIR is refused in one line that says what to do.
    const second = await svc(['serve'], env);
    assert.notEqual(second.code, 0);
    assert.match(second.stderr, /a service already runs with DATA_DIR=/);

    serve.child.kill('SIGTERM');
    await once(serve.child, 'exit');
    serve = undefined;
    assert.equal(fs.existsSync(path.join(dataDir, 'service.json')), false, 'a clean stop removes the discovery file');

    const offline = await svc(['audit', 'verify'], env);
    assert.equal(offline.code, 0, offline.stderr);
    assert.match(offline.stdout, /^OK: 1 events in 1 streams verified/);
    assert.match(offline.stderr, /the service is not running: starting the embedded PostgreSQL under .* for this command/);
  } finally {
    serve?.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('bad arguments: one line, exit code 2, and every operator command shows an example under --help', { timeout: 120_000 }, async () => {
  const env = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent' };
  const missing = await svc(['accounts', 'create', '--name', 'x'], env);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr.split('\n')[0]!, /required option '--email <email>' not specified/);

  const badEmail = await svc(['accounts', 'create', '--name', 'x', '--email', 'not-an-email', '--password', 'a-long-password'], env);
  assert.equal(badEmail.code, 2);
  assert.equal(badEmail.stderr, 'svc: --email must be an e-mail address\n');

  const badId = await svc(['audit', 'reproduce', '12abc'], env);
  assert.equal(badId.code, 2);
  assert.equal(badId.stderr, 'svc: the id must be a numeric screening id or a person check id SVC-<8 hex>-P\n');

  const unknown = await svc(['no-such-command'], env);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command 'no-such-command'/);

  for (const command of [['accounts', 'create'], ['audit', 'verify'], ['replay'], ['deadletters', 'list']]) {
    const help = await svc([...command, '--help'], env);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /\nExample:\n {2}\$ svc /, `${command.join(' ')} --help has an example`);
  }
});
