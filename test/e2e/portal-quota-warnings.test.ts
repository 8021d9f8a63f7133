/**
 * The portal's account page in a real browser (chromium via playwright-core) against the whole wired
 * service (issue 33): an Enterprise account sees both monthly S3 counters (requests, offshore-leak
 * checks) and a warning at 80 % and at 100 % of each, saying what happens once a quota is used up; a
 * screening that ran after the offshore-leak checks were used up shows offshore leaks among the
 * sources not searched, with the reason. The warnings pass the axe-core WCAG 2.1 A/AA audit.
 *
 * The month's earlier offshore-leak checks are used through the quota aggregate's real command (as
 * the screening workflow uses them), the request count through the gate's counter (limit_counters).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service';
import { collectPageErrors, launchBrowser, type TestBrowser } from '../support/browser';
import { blockingViolations, formatViolations, runAxe } from '../support/axe';
import { EventSourcedOffshoreLeakChecks } from '../../src/app/usage/offshore-leak-checks';
import { quotaResetDate } from '../../src/commands/offshore-leak-quota';
import { systemClock } from '../../src/shared/clock';

let svc: TestService;
let browser: TestBrowser;
let account: { accountId: string; userId: string; email: string; password: string };
let s3Key: string;
let consoleErrors: string[] = [];
const month = new Date().toISOString().slice(0, 7);

before(async () => {
  [svc, browser] = await Promise.all([startTestService(), launchBrowser()]);
  account = await svc.createAccount('enterprise');
  s3Key = (await svc.createKey(account.accountId, 's3', { userId: account.userId })).key;
  consoleErrors = collectPageErrors(browser.page);
});
after(async () => {
  await browser?.close();
  await svc?.stop();
});

let usedBy = 9_000_000;
async function offshoreChecksUsed(count: number): Promise<void> {
  const checks = new EventSourcedOffshoreLeakChecks({ store: svc.service.store, clock: systemClock });
  for (let i = 0; i < count; i++) assert.deepEqual(await checks.use({ accountId: account.accountId, month, screeningId: String(usedBy++), limit: 100 }), { used: true });
}

async function screenOnS3(query: string): Promise<{ screening_number: number; offshore_leaks_searched: boolean }> {
  const res = await fetch(`${svc.url}/api/v1/screening/cdd`, { method: 'POST', headers: { 'x-api-key': s3Key, 'content-type': 'application/json' }, body: JSON.stringify({ query, entity_type: 'individual' }) });
  assert.equal(res.status, 201);
  return ((await res.json()) as { data: { screening_number: number; offshore_leaks_searched: boolean } }).data;
}

const nav = (name: string) => browser.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

test('the account page shows both S3 counters and warns at 80 % and at 100 % of each quota; the report names the quota as the reason offshore leaks were not searched', async (t) => {
  const { page } = browser;
  const warnings = page.locator('section[aria-labelledby="quota-warn-h"]');
  const quotaCard = page.locator('section[aria-labelledby="quota-h"]');
  const reset = quotaResetDate(month);

  // ---- below 80 %: one real screening used one check; no warning yet
  assert.equal((await screenOnS3('Margaret Thistlewood')).offshore_leaks_searched, true);
  await page.goto(`${svc.url}/`);
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Work queue' }).waitFor();
  await nav('Account').click();
  await page.getByRole('heading', { name: 'Plan' }).waitFor();
  const card = (await quotaCard.textContent()) ?? '';
  assert.match(card, /Enterprise API monthly requests1 of 1000 used \(999 left\)/);
  assert.match(card, /Enterprise API offshore-leak checks1 of 100 used \(99 left\)/);
  assert.equal(await warnings.count(), 0, 'no warning below 80 %');

  // ---- 80 %: the offshore-leak checks warn, with what happens once they are used up
  await offshoreChecksUsed(79);
  await nav('API keys').click();
  await nav('Account').click();
  await warnings.waitFor();
  const approaching = warnings.locator('[data-quota="s3_offshore_leak_checks"]');
  assert.equal(await approaching.getAttribute('data-level'), 'approaching');
  assert.equal(
    await approaching.textContent(),
    `Nearly used: Enterprise API offshore-leak checks: 80 of 100 used (80 %). Once they are used up, Enterprise API screenings still run every other source, but offshore leaks are not searched (each report lists it as a data gap) until ${reset}.`,
  );
  assert.equal(await page.getByRole('meter', { name: 'Enterprise API offshore-leak checks' }).getAttribute('aria-valuenow'), '80');
  assert.equal(await warnings.locator('[data-quota="s3_requests"]').count(), 0);
  await browser.screenshot('quota-01-offshore-80');

  // ---- 100 %: the 101st screening still completes, without the offshore-leak search
  await offshoreChecksUsed(20);
  const after = await screenOnS3('Gregory John Solomon');
  assert.equal(after.offshore_leaks_searched, false);
  // ... and the request quota at 80 % (800 of 1,000, as the gate counts them)
  await svc.db.pool.query('UPDATE limit_counters SET count = 800 WHERE bucket = $1', [`s3:requests:${account.accountId}:${month}`]);
  await nav('API keys').click();
  await nav('Account').click();
  await warnings.locator('[data-level="reached"]').waitFor();
  assert.equal(
    await warnings.locator('[data-quota="s3_offshore_leak_checks"]').textContent(),
    `Used up: Enterprise API offshore-leak checks: all 100 used. Until the quota resets on ${reset}, Enterprise API screenings still run every other source, but offshore leaks are not searched (each report lists it as a data gap).`,
  );
  assert.equal(await warnings.locator('[data-quota="s3_offshore_leak_checks"]').getAttribute('class'), 'alert error');
  assert.equal(
    await warnings.locator('[data-quota="s3_requests"]').textContent(),
    `Nearly used: Enterprise API monthly requests: 800 of 1000 used (80 %). Once they are used up, Enterprise API requests are refused (429) until ${reset}.`,
  );
  assert.match((await quotaCard.textContent()) ?? '', /Enterprise API offshore-leak checks100 of 100 used \(0 left\)/);
  const audit = await runAxe(page);
  assert.ok(audit.passes > 10, 'axe ran');
  assert.deepEqual(blockingViolations(audit).map((v) => formatViolations('account page with quota warnings', [v])), []);
  await browser.screenshot('quota-02-offshore-used-up-requests-80');

  // ---- the report of the screening that ran without the offshore-leak search says why
  await page.goto(`${svc.url}/#/screenings/${after.screening_number}`);
  const notSearched = page.locator('section[aria-labelledby="ns-h"]');
  await notSearched.waitFor();
  assert.match((await notSearched.locator('ul.not-searched').textContent()) ?? '', new RegExp(`offshore leaks \\(phase 1\\): monthly offshore-leak quota used: 100 of 100, resets ${reset}`));
  await browser.screenshot('quota-03-report-offshore-not-searched');
  // The only failed request is the anonymous visit's session probe (401) before signing in.
  assert.deepEqual(consoleErrors.filter((text) => !/Failed to load resource: the server responded with a status of 401/.test(text)), []);
});
