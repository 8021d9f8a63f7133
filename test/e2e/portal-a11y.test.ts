/**
 * Automated accessibility audit of the portal: axe-core's WCAG 2.0/2.1 A and AA rules run in
 * Debian's chromium on every main page, in the states a person sees (empty forms, a refused
 * field, a one-time secret, the live progress of a screening, a report with hits and the
 * decision form, an expanded webhook delivery, person-check findings). A violation of impact
 * serious or critical fails the test, printed with its rule id, impact and the offending
 * selectors; lesser ones are printed as diagnostics. Then the same pages on a phone-sized
 * viewport (390×844): nothing may scroll sideways, and the audit runs again there.
 */
import { after, before, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service';
import { launchBrowser, type TestBrowser } from '../support/browser';
import { blockingViolations, formatViolations, horizontalOverflow, runAxe } from '../support/axe';

let svc: TestService;
let browser: TestBrowser;
let account: { accountId: string; email: string; password: string };
let reportHash = '';
let personCheckHash = '';
let subjectCheckId = 0;

before(async () => {
  [svc, browser] = await Promise.all([startTestService({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } }), launchBrowser()]);
  account = await svc.createAccount('enterprise');
});
after(async () => {
  await browser?.close();
  await svc?.stop();
});

const nav = (name: string) => browser.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

/** Audits the page as it is; returns the blocking findings (and prints the rest). */
async function audit(t: TestContext, where: string): Promise<string[]> {
  const result = await runAxe(browser.page);
  assert.ok(result.passes > 10, `${where}: axe ran ${result.passes} passing rules — the audit did not run`);
  const minor = result.violations.filter((v) => !blockingViolations(result).includes(v));
  if (minor.length) t.diagnostic(formatViolations(`${where} (not failing)`, minor));
  if (result.incomplete.length) t.diagnostic(`${where}: needs review: ${result.incomplete.map((i) => `${i.id} (${i.targets.join(', ')})`).join('; ')}`);
  const blocking = blockingViolations(result);
  return blocking.length ? [formatViolations(where, blocking)] : [];
}

test('every main portal page passes axe-core WCAG 2.1 A/AA with no serious or critical violation', async (t) => {
  const { page } = browser;
  const found: string[] = [];

  // ---- sign in: empty, then with the wrong-password alert
  await page.goto(`${svc.url}/`);
  await page.getByLabel('E-mail').waitFor();
  found.push(...(await audit(t, 'sign-in')));
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').filter({ hasText: 'not right' }).waitFor();
  found.push(...(await audit(t, 'sign-in (wrong password)')));
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();

  // ---- home: the work queue; then the account page
  await page.getByRole('heading', { name: 'Work queue' }).waitFor();
  found.push(...(await audit(t, 'work queue')));
  await nav('Sources').click();
  await page.getByRole('heading', { name: /^Not configured/ }).waitFor();
  found.push(...(await audit(t, 'sources')));
  await nav('Account').click();
  await page.getByRole('heading', { name: 'Plan' }).waitFor();
  found.push(...(await audit(t, 'account')));

  // ---- keys: a new key with its one-time panel (and a webhook secret), then a refused field
  await nav('API keys').click();
  const s1 = page.locator('section[data-surface="s1"]');
  await s1.getByLabel('Key name').fill('a11y key');
  await s1.getByLabel('Webhook URL (optional)').fill('https://127.0.0.1:9/hooks/a11y');
  await s1.getByRole('button', { name: 'Create svc_ key' }).click();
  await s1.locator('.secret-panel').nth(1).waitFor();
  await s1.getByRole('button', { name: 'Copy' }).first().focus();
  found.push(...(await audit(t, 'keys (new key and webhook secret shown)')));
  await s1.getByLabel('Key name').fill('refused');
  await s1.getByLabel('Webhook URL (optional)').fill('https://169.254.169.254/latest/meta-data');
  await s1.getByRole('button', { name: 'Create svc_ key' }).click();
  await s1.locator('input[name="webhook_url"][aria-invalid="true"]').waitFor();
  found.push(...(await audit(t, 'keys (refused webhook URL)')));
  await s1.locator('tbody tr').first().getByRole('button', { name: /Revoke key/ }).click();
  await s1.getByRole('button', { name: 'Confirm revoke' }).waitFor();
  found.push(...(await audit(t, 'keys (confirm revoke)')));
  await s1.getByRole('button', { name: 'Cancel' }).click();

  // ---- webhooks: an endpoint, its secret, a test delivery expanded in the log
  await nav('Webhooks').click();
  await page.getByLabel('Endpoint for').selectOption('s2');
  await page.getByLabel('HTTPS URL').fill('https://127.0.0.1:9/hooks/portal');
  await page.getByRole('button', { name: 'Save webhook' }).click();
  await page.locator('.secret-panel').waitFor();
  const endpointRow = page.locator('tr[data-surface="s2"]');
  await endpointRow.getByRole('button', { name: /Send a test delivery/ }).click();
  const delivery = page.locator('details.delivery').first();
  await delivery.locator('summary').click();
  await delivery.locator('table tbody tr').first().waitFor({ timeout: 10_000 });
  found.push(...(await audit(t, 'webhooks (endpoint, secret, delivery log)')));

  // ---- new screening: the CDD form, the EDD and M&A fields, then the progress of a run
  await nav('New screening').click();
  await page.getByLabel('Name to screen').waitFor();
  found.push(...(await audit(t, 'new screening (CDD form)')));
  await page.getByLabel('Screening type').selectOption('edd');
  await page.getByLabel('Source of wealth').waitFor();
  found.push(...(await audit(t, 'new screening (EDD form)')));
  await page.getByLabel('Screening type').selectOption('ma');
  await page.getByLabel('Target industry').waitFor();
  found.push(...(await audit(t, 'new screening (M&A form)')));
  await page.getByLabel('Screening type').selectOption('cdd');
  // M&A forced "Company"; back on CDD the form gives back the type chosen before (the default, Individual).
  assert.equal(await page.getByLabel('Entity type').inputValue(), 'individual');
  await page.getByLabel('Name to screen').fill('Kim Jong Un');
  await page.getByLabel('Jurisdiction (optional)').fill('KP');
  await page.getByRole('button', { name: 'Run screening' }).click();
  await page.locator('.progress-status').filter({ hasText: /Completed/ }).waitFor({ timeout: 30_000 });
  await page.getByRole('link', { name: 'Open the report' }).waitFor();
  found.push(...(await audit(t, 'new screening (completed progress)')));

  // ---- the report, with hits and the decision form
  await page.getByRole('link', { name: 'Open the report' }).click();
  await page.waitForURL(/#\/screenings\/\d+$/);
  await page.locator('article.hit').first().waitFor();
  assert.ok((await page.locator('article.hit').count()) >= 1, 'the report shows hits');
  reportHash = new URL(page.url()).hash;
  found.push(...(await audit(t, 'report with hits')));
  assert.ok((await page.locator('section.country-risk table.programmes tbody tr').count()) >= 1, 'country risk lists the programmes targeting KP');

  // ---- the case desk: assigned to the signed-in user, one hit waiting for more information
  await page.getByLabel('Assigned to').selectOption(account.email);
  await page.getByRole('button', { name: 'Assign' }).click();
  await page.locator('.timeline li[data-kind="assigned"]').waitFor();
  const first = page.locator('article.hit').first();
  await first.getByLabel('Decision', { exact: true }).selectOption('needs_more_information');
  await first.getByLabel('Comment (required)').fill('Ask for the date of birth');
  await first.getByRole('button', { name: 'Record decision' }).click();
  await page.locator('article.hit').first().locator('dd.decision.waiting').waitFor();
  found.push(...(await audit(t, 'report (assigned, a hit waiting for more information)')));
  await nav('Work queue').click();
  await page.locator('table tbody tr td.assignee').filter({ hasText: account.email }).waitFor();
  found.push(...(await audit(t, 'work queue (an assigned case, a hit waiting for more information)')));

  // ---- history, with results
  await nav('History').click();
  await page.getByRole('link', { name: 'Kim Jong Un' }).waitFor();
  found.push(...(await audit(t, 'history')));

  // ---- S2 subject checks (started through the S2 API): the history's list with its status filter, then one check
  const s2 = await svc.createKey(account.accountId, 's2');
  const started = await fetch(`${svc.url}/api/v1/compliance/subject-checks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s2.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1975-12-10', locations: [{ country: 'GB' }], purpose: 'employment', consent: { certified: true } }),
  });
  assert.equal(started.status, 201, await started.clone().text());
  subjectCheckId = ((await started.json()) as { subject_check_id: number }).subject_check_id;
  await page.getByLabel('Type').selectOption('subject_check');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
  assert.equal(await page.getByLabel('Risk level').count(), 0, 'subject checks are filtered by status, not risk');
  await page.getByLabel('Status').waitFor();
  found.push(...(await audit(t, 'history (S2 subject checks)')));
  await page.getByRole('link', { name: 'Ada Lovelace' }).click();
  await page.getByRole('heading', { name: 'Sources' }).waitFor();
  assert.match((await page.locator('#sc-summary-h + p').textContent()) ?? '', /\.$/);
  assert.ok(!((await page.locator('main').textContent()) ?? '').includes('1975-12-10'), 'the full date of birth is not shown');
  found.push(...(await audit(t, 'subject check')));

  // ---- person check: the form (with the consent error), then the findings
  await nav('Person check').click();
  await page.getByLabel('First name').fill('Jong Un');
  await page.getByLabel('Last name').fill('Kim');
  await page.getByLabel('Permissible purpose', { exact: true }).selectOption('business_due_diligence');
  found.push(...(await audit(t, 'person-check form')));
  await page.getByLabel(/has given written consent/).check();
  await page.getByRole('button', { name: 'Run person check' }).click();
  await page.waitForURL(/#\/person-checks\/SVC-[0-9a-f]{8}-P$/i, { timeout: 30_000 });
  await page.locator('section[data-severity="info"]').waitFor();
  personCheckHash = new URL(page.url()).hash;
  found.push(...(await audit(t, 'person-check result')));

  assert.deepEqual(found, [], `accessibility violations (serious or critical):\n${found.join('\n')}`);
});

test('on a 390×844 phone screen the main pages do not scroll sideways and still pass the audit', async (t) => {
  assert.ok(reportHash && personCheckHash, 'the first test made a screening and a person check');
  const { page } = browser;
  await page.setViewportSize({ width: 390, height: 844 });
  const problems: string[] = [];
  const check = async (name: string) => {
    const overflow = await horizontalOverflow(page);
    if (overflow.scrollWidth > overflow.viewportWidth) {
      problems.push(`${name}: the page is ${overflow.scrollWidth}px wide in a ${overflow.viewportWidth}px viewport; past the edge: ${overflow.offenders.join(', ') || '(none found)'}`);
    }
    problems.push(...(await audit(t, `${name} @390px`)));
    await browser.screenshot(`a11y-390-${name.replace(/\W+/g, '-')}`);
  };
  const visit = async (hash: string, ready: () => Promise<unknown>) => {
    await page.goto(`${svc.url}/${hash}`);
    await ready();
  };

  await visit('#/', () => page.getByRole('heading', { name: 'Work queue' }).waitFor());
  await check('work-queue');
  await visit('#/account', () => page.getByRole('heading', { name: 'Plan' }).waitFor());
  await check('account');
  await visit('#/keys', () => page.locator('section[data-surface="s1"] tbody tr').first().waitFor());
  const s3 = page.locator('section[data-surface="s3"]');
  await s3.getByLabel('Key name').fill('phone key');
  await s3.getByRole('button', { name: 'Create svcc_live_ key' }).click();
  await s3.locator('.secret-panel').waitFor();
  await check('keys');
  await visit('#/webhooks', () => page.getByLabel('Deliveries of', { exact: true }).waitFor());
  await page.getByLabel('Deliveries of', { exact: true }).selectOption('s2');
  await page.getByRole('button', { name: 'Show' }).click();
  await page.locator('details.delivery').first().waitFor();
  await page.locator('details.delivery summary').first().click();
  await check('webhooks');
  await visit('#/screen', () => page.getByLabel('Name to screen').waitFor());
  await check('new-screening');
  await visit(reportHash, () => page.locator('article.hit').first().waitFor());
  await check('report');
  await visit('#/history', () => page.getByRole('link', { name: 'Kim Jong Un' }).waitFor());
  await check('history');
  await visit('#/history?type=subject_check', () => page.getByRole('link', { name: 'Ada Lovelace' }).waitFor());
  await check('history-subject-checks');
  await visit(`#/subject-checks/${subjectCheckId}`, () => page.getByRole('heading', { name: 'Sources' }).waitFor());
  await check('subject-check');
  await visit('#/person-check', () => page.getByLabel('First name').waitFor());
  await check('person-check');
  await visit(personCheckHash, () => page.locator('section[data-severity="info"]').waitFor());
  await check('person-check-result');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('E-mail').waitFor();
  await check('sign-in');

  assert.deepEqual(problems, [], `on a 390px-wide screen:\n${problems.join('\n')}`);
});

test('the audit itself catches what it is meant to catch: unlabelled field, nameless button, faint text, sideways overflow', async () => {
  // A page made to fail, so a green audit above means the portal passed and not that nothing ran.
  const { page } = browser;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('about:blank'); // away from the portal's Content-Security-Policy, which refuses inline styles
  await page.setContent(
    '<!doctype html><html lang="en"><head><title>bad</title></head><body><main>' +
      '<h1>Bad page</h1><input type="text" id="nameless-input"><button id="empty-button"></button>' +
      '<p id="faint" style="color:#c8c8c8;background:#fff">faint text</p>' +
      '<div id="too-wide" style="width:800px">wide</div></main></body></html>',
  );
  const result = await runAxe(page);
  const blocking = blockingViolations(result);
  const ids = blocking.map((v) => v.id).sort();
  for (const id of ['button-name', 'color-contrast', 'label']) assert.ok(ids.includes(id), `${id} reported: ${ids.join(', ')}`);
  const text = formatViolations('bad page', blocking);
  assert.match(text, /bad page: label \(critical\)/);
  assert.match(text, /#nameless-input/);
  assert.match(text, /bad page: color-contrast \(serious\)[^\n]*\n\s+#faint/);
  const overflow = await horizontalOverflow(page);
  assert.ok(overflow.scrollWidth > overflow.viewportWidth);
  assert.ok(overflow.offenders.some((o) => o.startsWith('div#too-wide')), overflow.offenders.join(', '));
});
