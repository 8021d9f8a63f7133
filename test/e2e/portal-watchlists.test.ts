/**
 * The internal-lists pages in a real browser (chromium via playwright-core) against the whole wired
 * service (issue 21): create a list, import a small CSV (the detected mapping and a refused row shown
 * before anything is written, then the corrected file committed), edit and remove single entries,
 * then screen a customer who matches one entry by nickname + date of birth + address from the
 * new-screening form and find the internal-list hit, its explanation and the list's severity in the
 * case view. The pages are audited with axe-core (no serious or critical violation) at desktop and
 * phone width, where nothing may scroll sideways.
 */
import { after, before, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestService, type TestService } from '../support/service';
import { launchBrowser, type TestBrowser } from '../support/browser';
import { blockingViolations, formatViolations, horizontalOverflow, runAxe } from '../support/axe';

let svc: TestService;
let browser: TestBrowser;
let account: { accountId: string; email: string; password: string };
const consoleErrors: string[] = [];

before(async () => {
  [svc, browser] = await Promise.all([startTestService(), launchBrowser()]);
  account = await svc.createAccount('enterprise');
  browser.page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  browser.page.on('pageerror', (error) => consoleErrors.push(error.message));
});
after(async () => {
  await browser?.close();
  await svc?.stop();
});

const nav = (name: string) => browser.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

async function audit(t: TestContext, where: string): Promise<string[]> {
  const result = await runAxe(browser.page);
  assert.ok(result.passes > 10, `${where}: axe ran ${result.passes} passing rules — the audit did not run`);
  const blocking = blockingViolations(result);
  const minor = result.violations.filter((v) => !blocking.includes(v));
  if (minor.length) t.diagnostic(formatViolations(`${where} (not failing)`, minor));
  return blocking.length ? [formatViolations(where, blocking)] : [];
}

/** A small file as a firm exports it: its own headers, day-first dates, one row per person. */
function csvFile(dir: string, name: string, badRow: boolean): string {
  const rows = [
    'Customer Ref,Full Name,Date of Birth,Address Line 1,City,Postcode,Country,Passport Number,Mobile No,Reason',
    'C-0001,Robert Smith,03/04/1980,12 High Street,London,SW1A 1AA,GB,,07700 900123,Exited 2024 for card fraud',
    'C-0002,Margaret Thistlewood,1961-11-02,4 Mill Lane,Leeds,LS1 4AB,GB,,,Chargeback ring',
    'C-0003,William Ashcombe,1975,,Bristol,,GB,533112233,,Regulator letter 2025-07',
    badRow ? 'C-0004,,1990-01-01,1 Other Road,York,YO1 7AA,GB,,,no name' : 'C-0004,Elizabeth Marlow,1990-01-01,1 Other Road,York,YO1 7AA,GB,,,Mule account',
    'C-0005,Jonathan Pryce-Evans,1984-07-19,Flat 2 9 Station Road,Cardiff,CF10 1AA,GB,,+44 29 2000 0000,Identity theft',
  ];
  const file = path.join(dir, name);
  writeFileSync(file, rows.join('\n') + '\n');
  return file;
}

let listUrl = '';

test('create a list, import a CSV with its mapping (a refused row first), add, edit and remove entries, export', async (t) => {
  const { page } = browser;
  const found: string[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'watchlists-e2e-'));

  await page.goto(`${svc.url}/`);
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Work queue' }).waitFor();

  // ---- the account's lists: none yet; create one
  await nav('Internal lists').click();
  await page.getByRole('heading', { name: 'Internal lists', level: 1 }).waitFor();
  await page.getByText('No internal lists yet.').waitFor();
  found.push(...(await audit(t, 'internal lists (empty)')));
  // a list without a name is refused on its field, nothing is created
  await page.getByRole('button', { name: 'Create list' }).click();
  assert.equal(await page.getByLabel('List name').evaluate((el) => (el as unknown as { validity: { valueMissing: boolean } }).validity.valueMissing), true, 'the browser asks for the name first');
  await page.getByLabel('List name').fill('Exited for fraud');
  await page.getByLabel('Severity').selectOption('block');
  await page.getByLabel('Owner').fill('Financial crime team');
  await page.getByLabel('Purpose (optional)').fill('Customers exited for fraud; never onboard again.');
  await page.getByRole('button', { name: 'Create list' }).click();
  await page.getByRole('heading', { name: 'Exited for fraud', level: 1 }).waitFor();
  listUrl = page.url();
  assert.match(listUrl, /#\/watchlists\/[0-9a-f-]{36}$/);
  assert.match((await page.locator('dl.summary').textContent()) ?? '', /Severity\s*block.*Entries\s*0.*Version\s*v1/s);

  // ---- import: a refused row is named (line, field, reason) and nothing is imported
  await page.getByLabel('File', { exact: true }).setInputFiles(csvFile(dir, 'fraud-bad.csv', true));
  await page.getByRole('button', { name: 'Check the file' }).click();
  await page.getByRole('heading', { name: 'Detected columns' }).waitFor();
  const errors = page.locator('table[data-import-errors] tbody tr');
  await errors.first().waitFor();
  assert.equal(await errors.count(), 1);
  assert.match((await errors.first().textContent()) ?? '', /^5.*name/i, 'line 5 (the header is line 1), the name field');
  assert.equal(await page.getByRole('button', { name: /^Import \d+ rows$/ }).isDisabled(), true, 'no commit while a row is wrong');
  found.push(...(await audit(t, 'import preview with a refused row')));
  assert.match((await page.locator('dl.summary').textContent()) ?? '', /Entries\s*0/, 'nothing half-imported');

  // the corrected file: the mapping the service detected, shown before commit
  await page.getByLabel('File', { exact: true }).setInputFiles(csvFile(dir, 'fraud.csv', false));
  await page.getByRole('button', { name: 'Check the file' }).click();
  await page.getByRole('heading', { name: 'First rows as they will be imported' }).waitFor();
  assert.equal(await page.locator('table[data-import-errors]').count(), 0);
  const mappingOf = (column: string) => page.getByLabel(`Column "${column}"`).inputValue();
  assert.equal(await mappingOf('Customer Ref'), 'entry_id');
  assert.equal(await mappingOf('Full Name'), 'full_name');
  assert.equal(await mappingOf('Date of Birth'), 'date_of_birth');
  assert.equal(await mappingOf('Postcode'), 'postal_code');
  assert.equal(await mappingOf('Passport Number'), 'passport');
  assert.equal(await mappingOf('Mobile No'), 'ignore', 'a header the service does not know is not imported…');
  assert.doesNotMatch((await page.locator('table[data-import-sample] tbody').textContent()) ?? '', /07700/);
  // …until the analyst maps it
  await page.getByLabel('Column "Mobile No"').selectOption('phone');
  await page.getByRole('button', { name: 'Check again with this mapping' }).click();
  await page.locator('table[data-import-sample] tbody', { hasText: '07700 900123' }).waitFor();
  assert.match((await page.locator('table[data-import-sample] tbody').textContent()) ?? '', /Robert Smith.*1980-04-03.*12 High Street.*phone 07700 900123/s, 'the day-first date read as 3 April');
  found.push(...(await audit(t, 'import preview (mapping and sample)')));
  await page.getByRole('button', { name: 'Import 5 rows' }).click();
  await page.getByText(/Imported 5 rows: 5 added, 0 changed, 0 unchanged\. The list holds 5 entries, version 2\./).waitFor();
  await page.locator('tr[data-entry-id="C-0001"]').waitFor();
  assert.equal(await page.locator('tbody tr[data-entry-id]').count(), 5);
  assert.match((await page.locator('dl.summary').textContent()) ?? '', /Entries\s*5.*Version\s*v2/s, 'an import is one version');
  await browser.screenshot('watchlists-01-imported');

  // ---- single entries: add, edit, remove
  await page.getByRole('button', { name: 'Add an entry' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Acme Shell Trading Ltd');
  await page.getByLabel('Entity type').selectOption('organization');
  await page.getByLabel('Identifier 1 type').selectOption('registration_number');
  await page.getByLabel('Identifier 1', { exact: true }).fill('01234567');
  await page.getByLabel('Reason').fill('Front company');
  found.push(...(await audit(t, 'entry editor')));
  await page.getByRole('button', { name: 'Add entry' }).click();
  await page.getByRole('rowheader', { name: 'Acme Shell Trading Ltd' }).waitFor();
  await page.getByRole('button', { name: 'Edit Margaret Thistlewood' }).click();
  await page.getByLabel('Other names (optional)').fill('Peggy Thistlewood');
  await page.getByRole('button', { name: 'Save entry' }).click();
  await page.getByText('(also Peggy Thistlewood)').waitFor();
  await page.getByRole('button', { name: 'Remove William Ashcombe' }).click();
  await page.getByRole('button', { name: 'Confirm remove' }).click();
  await page.getByRole('rowheader', { name: 'William Ashcombe' }).waitFor({ state: 'detached' });
  assert.match((await page.locator('dl.summary').textContent()) ?? '', /Entries\s*5.*Version\s*v5/s);
  found.push(...(await audit(t, 'internal list with entries')));

  // ---- export: the CSV holds the current entries
  const downloaded = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export as CSV' }).click();
  const exported = await (await downloaded).path();
  const csv = (await import('node:fs')).readFileSync(exported!, 'utf8');
  assert.match(csv, /Robert Smith/);
  assert.match(csv, /Peggy Thistlewood/);
  assert.doesNotMatch(csv, /William Ashcombe/);
  // the export's columns: entry_id, entity_type, status, full_name, aliases, gender, date_of_birth, nationality,
  // address_line, city, region, postal_code, country, passport … drivers_license_region, phone
  assert.match(csv, /C-0001,person,active,Robert Smith,,,1980-04-03,,12 High Street,London,,SW1A 1AA,GB,,,,,,,,07700 900123,/, 'the mapped phone column was imported');
  await browser.screenshot('watchlists-02-entries');

  // ---- phone width: nothing scrolls sideways, the audit passes there too
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [name, hash, ready] of [
    ['lists', '#/watchlists', () => page.getByRole('link', { name: 'Exited for fraud' }).waitFor()],
    ['list', listUrl.slice(listUrl.indexOf('#')), () => page.locator('tr[data-entry-id="C-0001"]').waitFor()],
  ] as const) {
    await page.goto(`${svc.url}/${hash}`);
    await ready();
    const overflow = await horizontalOverflow(page);
    if (overflow.scrollWidth > overflow.viewportWidth) found.push(`${name} @390px: ${overflow.scrollWidth}px wide; past the edge: ${overflow.offenders.join(', ')}`);
    found.push(...(await audit(t, `${name} @390px`)));
    await browser.screenshot(`watchlists-390-${name}`);
  }
  await page.setViewportSize({ width: 1366, height: 768 });

  assert.deepEqual(found, [], `accessibility problems:\n${found.join('\n')}`);
  // (the 401 of the first visit's session probe, and the refused import's 4xx, are expected answers, not errors)
  assert.deepEqual(consoleErrors.filter((text) => !/Failed to load resource: the server responded with a status of (400|401|422)/.test(text)), [], 'no script error or CSP violation in the page');
});

test('a customer who goes by a nickname, with the listed date of birth and address, is an internal-list hit in the case view', async (t) => {
  assert.ok(listUrl, 'the first test made the list');
  const { page } = browser;
  const found: string[] = [];

  // ---- a customer who goes by "Bob", same birthday and home, written another way
  await page.goto(`${svc.url}/#/screen`);
  await page.getByLabel('Name to screen').fill('Bob Smith');
  await page.getByLabel('Date of birth').fill('1980-04-03');
  await page.getByLabel('Address line').fill('12 High St.');
  await page.getByLabel('City').fill('London');
  await page.getByLabel('Postcode').fill('sw1a1aa');
  await page.getByRole('button', { name: 'Run screening' }).click();
  await page.getByRole('link', { name: 'Open the report' }).click();
  const hit = page.locator('article.hit').filter({ hasText: 'Robert Smith' });
  await hit.waitFor();
  const hitText = (await hit.textContent()) ?? '';
  assert.match(hitText, /nickname Bob → Robert/);
  assert.match(hitText, /date of birth 1980-04-03 equals listed 1980-04-03/);
  assert.match(hitText, /same dwelling/);
  assert.match((await page.locator('main').textContent()) ?? '', /internal list: Exited for fraud/);
  assert.match((await page.locator('.gauge').textContent()) ?? '', /critical/i, 'a block list makes a confirmed hit critical');
  await browser.screenshot('watchlists-03-case-view');
  found.push(...(await audit(t, 'case view with an internal-list hit')));


  assert.deepEqual(found, [], `accessibility problems:\n${found.join('\n')}`);
  // (the 401 of the first visit's session probe, and the refused import's 4xx, are expected answers, not errors)
  assert.deepEqual(consoleErrors.filter((text) => !/Failed to load resource: the server responded with a status of (400|401|422)/.test(text)), [], 'no script error or CSP violation in the page');
});
