/**
 * An analyst's morning at the desk (issue 31), in Debian's chromium against the whole wired
 * service: subjects screened one after the other from a fresh form each time (a common-name
 * nationality, the country risk it brings), the work queue filtered by any list of a merged hit,
 * cases opened from the queue (its back link and menu), decisions with no default, one decision on
 * several hits, the PDF read back with pdftotext; every page at 1366 and 390 px (no sideways
 * scroll, one-line menu, axe at zero serious violations), webhooks in the user's words; and not a
 * console error or failed request on the way.
 * Screenshots: test-output/screenshots/desk-*.png.
 */
import { after, before, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startTestService, type TestService } from '../support/service';
import { collectPageErrors, launchBrowser, type TestBrowser } from '../support/browser';
import { auditPage, horizontalOverflow } from '../support/axe';
import { pdfPages } from '../unit/reports/pdf-text';
import { screeningEventTypes } from '../../src/commands/screening';

let svc: TestService;
let browser: TestBrowser;
let account: { accountId: string; email: string; password: string };
/** Script errors, CSP violations, failed or refused requests: none is expected in the morning. */
let problems: string[] = [];
const cases: Record<string, string> = {};

before(async () => {
  [svc, browser] = await Promise.all([startTestService({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } }), launchBrowser()]);
  account = await svc.createAccount('enterprise');
  const { page } = browser;
  problems = collectPageErrors(page);
  // A request that fails or is refused is a problem too (an aborted stream, a 401 before sign-in).
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.method()} ${r.url()} ${r.failure()?.errorText ?? ''}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
  });
});
after(async () => {
  await browser?.close();
  await svc?.stop();
});

const nav = (name: string) => browser.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

const audit = (t: TestContext, where: string) => auditPage(browser.page, (message) => t.diagnostic(message), where);

/** Fills the new-screening form and waits until the screening completes in the page. */
async function screen(fields: { name: string; type?: string; dob?: string; nationality?: string; identifier?: { type: string; value: string } }): Promise<void> {
  const { page } = browser;
  await page.getByLabel('Name to screen').fill(fields.name);
  if (fields.type) await page.getByLabel('Entity type').selectOption(fields.type);
  if (fields.dob) await page.getByLabel('Date of birth').fill(fields.dob);
  if (fields.nationality) await page.getByLabel('Nationality').fill(fields.nationality);
  if (fields.identifier) {
    await page.getByLabel('Identifier type').selectOption(fields.identifier.type);
    await page.getByLabel('Identifier', { exact: true }).fill(fields.identifier.value);
  }
  await page.getByRole('button', { name: 'Run screening' }).click();
  await page.locator('.progress-status').filter({ hasText: /Completed/ }).waitFor({ timeout: 60_000 });
  const href = (await page.getByRole('link', { name: 'Open the report' }).getAttribute('href')) ?? '';
  cases[fields.name] = href.replace(/^#\/screenings\//, '');
}

/** The new-screening form as the analyst finds it: every field empty, no progress of an earlier run. */
async function assertFreshForm(where: string): Promise<void> {
  const { page } = browser;
  await page.getByRole('heading', { name: 'New screening' }).waitFor();
  for (const label of ['Name to screen', 'Date of birth', 'Nationality', 'Identifier', 'Jurisdiction (optional)']) {
    assert.equal(await page.getByLabel(label, { exact: true }).inputValue(), '', `${where}: ${label} is empty`);
  }
  assert.equal(await page.getByLabel('Entity type').inputValue(), 'individual', `${where}: entity type back to its default`);
  assert.equal(await page.locator('section[aria-labelledby="progress-h"]:not([hidden])').count(), 0, `${where}: no progress panel of the last subject`);
}

test('the morning: a fresh form for every subject, nationality by common name, country risk from nationality, the queue by any list, no default decision, one decision on several hits, the PDF to file', async (t) => {
  const { page } = browser;
  const found: string[] = [];

  // ---- sign in: no 401 in the console before it
  await page.goto(`${svc.url}/`);
  await page.getByLabel('E-mail').waitFor();
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Work queue' }).waitFor();

  // ---- subject 1, then "New screening" in the menu while its progress is still on screen
  await nav('New screening').click();
  await assertFreshForm('first visit');
  await screen({ name: 'Vladimir Putin', dob: '1952-10-07', nationality: 'Russia' });
  await browser.screenshot('desk-01-screening-done-1366');
  await nav('New screening').click();
  await assertFreshForm('menu clicked on the finished screening');

  // ---- subject 2: nationality typed by its common name (the list says "Korea, North")
  assert.ok((await page.locator('#country-options option[value="North Korea (KP)"]').count()) === 1, 'North Korea is suggested');
  await screen({ name: 'Kim Jong Un', nationality: 'North Korea' });
  await page.getByRole('button', { name: 'Screen another subject' }).click();
  await assertFreshForm('"Screen another subject"');

  // ---- subject 3: a company with many weak hits (Sberbank and its subsidiaries), with its registration number (OGRN)
  await screen({ name: 'Sberbank', type: 'company', identifier: { type: 'registration_number', value: '1027700132195' } });
  // Opened from a report and back: still fresh.
  await page.getByRole('link', { name: 'Open the report' }).click();
  await page.getByRole('heading', { name: 'Case history' }).waitFor();
  await nav('New screening').click();
  await assertFreshForm('after a report');

  // ---- the work queue: names, not codes; the list filter finds a merged hit by any of its lists
  await nav('Work queue').click();
  await page.getByRole('heading', { name: /^3 open cases$/ }).waitFor();
  const table = (await page.locator('table').textContent()) ?? '';
  assert.doesNotMatch(table, /\b(ofac_sdn|us_csl|uk_sanctions|internal_list)\b/, 'list names, never codes');
  const listOptions = await page.getByLabel('List').locator('option').allTextContents();
  assert.ok(listOptions.includes('OFAC SDN list') && listOptions.includes('US Consolidated Screening List'), listOptions.join(', '));
  for (const list of ['US Consolidated Screening List', 'OFAC SDN list']) {
    await page.getByLabel('List').selectOption({ label: list });
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('heading', { name: /matching the filters$/ }).waitFor();
    const names = (await page.locator('table tbody tr th a').allTextContents()).map((n) => n.trim());
    assert.ok(names.includes('Kim Jong Un'), `${list}: ${names.join(', ')}`);
    assert.match((await page.locator('table tbody tr', { hasText: 'Kim Jong Un' }).locator('td.lists').textContent()) ?? '', /OFAC SDN list.*US Consolidated Screening List|US Consolidated Screening List.*OFAC SDN list/);
  }
  await browser.screenshot('desk-02-queue-by-list-1366');
  found.push(...(await audit(t, 'queue filtered by list')));

  // ---- a case opened from the queue: its back link and the menu say Work queue
  await page.getByRole('link', { name: 'Kim Jong Un' }).click();
  await page.getByRole('heading', { name: 'Case history' }).waitFor();
  assert.match(page.url(), /#\/screenings\/\d+\?from=queue$/);
  assert.equal(await page.getByRole('link', { name: '← Work queue' }).count(), 1);
  assert.equal(await nav('Work queue').getAttribute('aria-current'), 'page');
  assert.equal(await nav('History').getAttribute('aria-current'), null);
  // The nationality typed as "North Korea" reached the case as KP.
  assert.match((await page.locator('dl.subject-facts').textContent()) ?? '', /NationalityKorea, North \(KP\)/);
  // Nobody has decided: no badge and no summary says confirmed (the machine's words: strong name match, identity corroborated…).
  assert.doesNotMatch((await page.locator('article.hit .badge').allTextContents()).join(' | '), /confirmed/i);
  assert.doesNotMatch((await page.locator('p.summary').textContent()) ?? '', /confirmed/i);
  // One stale-list banner, naming the lists, with the way to the Sources page.
  assert.equal(await page.locator('.list-warning').count(), 1);
  assert.equal(await page.locator('.list-warning').getByRole('link', { name: /Sources page/ }).getAttribute('href'), '#/sources');
  // No decision is preselected: a record without a choice is refused by the browser, nothing sent.
  const selects = page.locator('form.disposition select[name="status"]');
  assert.ok((await selects.count()) >= 1);
  for (const value of await selects.evaluateAll((els) => els.map((el) => (el as unknown as { value: string }).value))) assert.equal(value, '', 'no default decision');
  const firstHit = page.locator('article.hit').first();
  await firstHit.getByLabel('Comment (required)').fill('Checking the required decision');
  await firstHit.getByRole('button', { name: 'Record decision' }).click();
  assert.equal(await firstHit.locator('select[name="status"]').evaluate((el) => (el as unknown as { validity: { valid: boolean } }).validity.valid), false);
  assert.equal(await firstHit.locator('dd.decision').count(), 0, 'nothing was recorded');
  // Names, not codes: no raw score, no record id on the card's face.
  const cardText = (await firstHit.locator('dl.facts').textContent()) ?? '';
  assert.doesNotMatch(cardText, /score \d|ofac_sdn:|us_csl:/);
  await browser.screenshot('desk-03-case-from-queue-1366');

  // ---- Putin, screened with nationality Russia and no jurisdiction: country risk from the nationality
  await page.goto(`${svc.url}/#/screenings/${cases['Vladimir Putin']}`);
  const russia = page.locator('section.country-risk[data-country="RU"]');
  await russia.waitFor();
  assert.match((await russia.locator('h2').textContent()) ?? '', /Country risk: Russia \(RU\).*nationality/);
  assert.match((await russia.textContent()) ?? '', /FATF/);
  assert.match((await russia.locator('.sanctions-scope').textContent()) ?? '', /sanctions|embargo/i);
  // A true match with a long comment, for the PDF.
  const putin = page.locator('article.hit', { hasText: /PUTIN/i }).first();
  const comment = 'Escalated to MLRO: passport copy and date of birth match the SDN record; relationship declined and the report filed the same day.';
  await putin.getByLabel('Decision', { exact: true }).selectOption('true_match');
  await putin.getByLabel('Comment (required)').fill(comment);
  await putin.getByRole('button', { name: 'Record decision' }).click();
  await page.locator('article.hit', { hasText: /PUTIN/i }).first().locator('dd.decision').waitFor();
  // The facts entered are on the case; the analyst's decision is its own badge, beside the machine's, and the summary counts it.
  assert.match((await page.locator('dl.subject-facts').textContent()) ?? '', /Date of birth1952-10-07NationalityRussia \(RU\)/);
  const decided = page.locator('article.hit', { hasText: /PUTIN/i }).first();
  assert.equal(await decided.locator('.analyst-decision').textContent(), 'analyst-confirmed');
  assert.doesNotMatch((await decided.locator('.machine-assessment').textContent()) ?? '', /confirmed/);
  assert.match((await page.locator('p.summary').textContent()) ?? '', /\(analyst-confirmed 1[,)]/);
  await browser.screenshot('desk-04-case-country-risk-1366');
  found.push(...(await audit(t, 'case with a decision and country risk')));

  // ---- the PDF to file, read back with pdftotext
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
  const pages = pdfPages(readFileSync((await download.path())!), 'desk-putin.pdf');
  const flat = pages.join('\n').replace(/\s+/g, ' ');
  assert.ok(flat.includes('Name searched: Vladimir Putin'));
  assert.match(flat, /Russia \(RU\), the subject's nationality/);
  assert.match(flat, /Identity facts given Date of birth: 1952-10-07 Nationality: Russia \(RU\) Identifiers: none given/);
  assert.ok(flat.includes(`Reviewer: ${account.email}`), 'the analyst by e-mail');
  assert.doesNotMatch(flat, /user:u/);
  for (const type of screeningEventTypes) assert.ok(!flat.includes(type), `raw event type ${type}`);
  assert.doesNotMatch(flat, /\b[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+\b/, 'no setting names');
  assert.doesNotMatch(pages[0]!, /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/, 'no ISO timestamp on page 1');
  assert.equal(flat.split(comment).length - 1, 1, 'the comment whole, once');
  assert.equal(flat.split('Why:').length - 1, 1, 'the why, once');
  const paragraphs = pages
    .flatMap((p) => p.split(/\n\s*\n/))
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p.length > 60 && !/S1 #\d+|Page \d+ of \d+/.test(p));
  assert.deepEqual(paragraphs.filter((p, i) => paragraphs.indexOf(p) !== i), [], 'each paragraph once');
  assert.ok(pages.findIndex((p) => p.includes('Audit appendix')) > pages.findIndex((p) => p.includes('Review and sign-off')));

  // ---- Sberbank: weak matches folded, one decision with one comment on three of them
  await page.goto(`${svc.url}/#/screenings/${cases.Sberbank}`);
  await page.getByRole('heading', { name: 'Case history' }).waitFor();
  // A company's facts, on the case and in the PDF's Subject section: no date of birth or nationality rows.
  const companyFacts = (await page.locator('dl.subject-facts').textContent()) ?? '';
  assert.match(companyFacts, /^Countrynot givenIdentifiersRegistration number 1027700132195$/, companyFacts);
  const [companyPdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
  const companyText = pdfPages(readFileSync((await companyPdf.path())!), 'desk-sberbank.pdf').join('\n').replace(/\s+/g, ' ');
  const companySubject = companyText.slice(companyText.indexOf('Name searched: Sberbank'), companyText.indexOf('Risk score ', companyText.indexOf('Identity facts given')));
  assert.match(companySubject, /Entity type: company .*Identity facts given Registration number: 1027700132195 Other identifiers: none given/, companySubject);
  assert.doesNotMatch(companySubject, /Date of birth|Nationality/, companySubject);
  const weak = page.locator('details.weak-hits');
  assert.ok((await weak.count()) >= 1, 'weaker matches are folded away');
  assert.equal(await weak.first().getAttribute('open'), null);
  await weak.first().locator(':scope > summary').click();
  const subsidiaries = weak.first().locator('article.hit');
  assert.ok((await subsidiaries.count()) >= 3);
  const picked: string[] = [];
  for (let i = 0; i < 3; i++) {
    const card = subsidiaries.nth(i);
    picked.push((await card.getAttribute('data-hit-id')) ?? '');
    await card.locator('input.select-hit').check();
  }
  const bulk = page.getByRole('form', { name: 'One decision for several hits' });
  assert.match((await bulk.locator('.selected-count').textContent()) ?? '', /^3 hits selected/);
  assert.equal(await bulk.getByLabel('Decision for the selected hits').inputValue(), '', 'no default decision here either');
  await bulk.getByLabel('Decision for the selected hits').selectOption('false_positive');
  await bulk.getByLabel('Comment for all of them (required)').fill('Not the bank onboarded: subsidiaries');
  await browser.screenshot('desk-05-bulk-decision-1366');
  await bulk.getByRole('button', { name: 'Record for the selected hits' }).click();
  for (const id of picked) {
    const card = page.locator(`article.hit[data-hit-id="${id}"]`);
    await card.locator('dd.decision').waitFor({ state: 'attached' });
    assert.match((await card.locator('dd.decision').textContent()) ?? '', new RegExp(`^False positive by ${account.email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} on .*: Not the bank onboarded: subsidiaries$`));
  }
  // The summary and the badges count the decision at once: three dismissed, none of them named.
  assert.match((await page.locator('p.summary').textContent()) ?? '', /dismissed 3\)/);
  assert.equal(await page.locator(`article.hit[data-hit-id="${picked[0]}"] .analyst-decision`).textContent(), 'dismissed');
  const steps = await page.locator('.timeline li[data-kind="disposition"]').allTextContents();
  assert.equal(steps.filter((s) => s.includes('Not the bank onboarded: subsidiaries')).length, 3, 'one decision per hit, the one comment on each');
  found.push(...(await audit(t, 'case after a decision on several hits')));

  assert.deepEqual(found, [], `accessibility problems:\n${found.join('\n')}`);
});

test('every page fits: no sideways scroll at 390 px (a case with a long entity id too), the menu on one line at 1366 px, axe at zero serious violations', async (t) => {
  const { page } = browser;
  const found: string[] = [];
  // An internal list whose entry has a long reference: its entity id is over 150 characters.
  const token = (await page.evaluate("sessionStorage.getItem('portal.token')")) as string;
  const call = async (path: string, body: unknown) => {
    const res = await fetch(`${svc.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await res.text();
    assert.ok(res.status < 300, `${path}: ${res.status} ${text}`);
    return JSON.parse(text) as { data: { id: string } };
  };
  const list = await call('/api/portal/watchlists', { name: 'Exited customers', severity: 'review', owner: 'Financial crime team' });
  await call(`/api/portal/watchlists/${list.data.id}/entries`, { entry_id: `row-${'2d91c4e7'.repeat(14)}`, primary_name: 'Margaret Thistlewood', dates_of_birth: ['1961-11-02'], reason: 'Chargeback ring' });
  await page.goto(`${svc.url}/#/screen`);
  // The nationality typed as a bare ISO code, in lower case, as some analysts do.
  await screen({ name: 'Margaret Thistlewood', dob: '1961-11-02', nationality: 'gb' });
  const internalCase = cases['Margaret Thistlewood']!;
  await page.goto(`${svc.url}/#/screenings/${internalCase}`);
  const internal = page.locator('section.hit-group[data-section="internal"]');
  await internal.waitFor();
  assert.match((await page.locator('dl.subject-facts').textContent()) ?? '', /Nationality[^(]+\(GB\)/);
  assert.match((await internal.locator('h3').textContent()) ?? '', /^Your internal lists/);
  assert.match((await internal.locator('.hit-sources').textContent()) ?? '', /Internal list “Exited customers” \(severity review\), version \d+ of \d+ \w+ \d{4}/);

  const pages: [string, string, () => Promise<unknown>][] = [
    ['queue', '#/', () => page.getByRole('heading', { name: /open case/ }).waitFor()],
    ['case-internal-list', `#/screenings/${internalCase}?from=queue`, () => page.getByRole('heading', { name: 'Case history' }).waitFor()],
    ['case-sberbank', `#/screenings/${cases.Sberbank}`, () => page.getByRole('heading', { name: 'Case history' }).waitFor()],
    ['new-screening', '#/screen', () => page.getByRole('heading', { name: 'New screening' }).waitFor()],
    ['sources', '#/sources', () => page.getByRole('heading', { name: /^Not configured/ }).waitFor()],
    ['webhooks', '#/webhooks', () => page.getByRole('heading', { name: 'Delivery log' }).waitFor()],
    ['history', '#/history', () => page.getByRole('heading', { name: /results?$/ }).waitFor()],
    ['account', '#/account', () => page.getByRole('heading', { name: 'Plan' }).waitFor()],
  ];
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 768 });
    for (const [name, hash, ready] of pages) {
      await page.goto(`${svc.url}/${hash}`);
      await ready();
      // Everything unfolded: the weak matches, each card's record, its record ids (the longest line).
      if (name.startsWith('case-')) await page.locator('main details').evaluateAll((els) => els.forEach((el) => ((el as unknown as { open: boolean }).open = true)));
      const overflow = await horizontalOverflow(page);
      assert.ok(overflow.scrollWidth <= overflow.viewportWidth, `${name} at ${width} px is ${overflow.scrollWidth} px wide: ${overflow.offenders.join(', ')}`);
      if (width === 1366) {
        // The menu on one line, the account's name whole.
        const tops = await page.locator('#nav li').evaluateAll((els) => [...new Set(els.map((el) => Math.round((el as unknown as { offsetTop: number }).offsetTop)))]);
        assert.equal(tops.length, 1, `${name}: the menu is on one line`);
        const cut = await page.locator('.session-account').evaluate((el) => (el as unknown as { scrollWidth: number; clientWidth: number }).scrollWidth > (el as unknown as { clientWidth: number }).clientWidth);
        assert.equal(cut, false, `${name}: the account name is not cut`);
      }
      await browser.screenshot(`desk-${name}-${width}`);
      found.push(...(await audit(t, `${name} at ${width} px`)));
    }
  }
  await page.setViewportSize({ width: 1366, height: 768 });
  assert.deepEqual(found, [], `accessibility problems:\n${found.join('\n')}`);
});

test('the Sources page colours each list by its own maximum age, in words without markup or "list(s)"', async () => {
  const { page } = browser;
  await nav('Sources').click();
  await page.getByRole('heading', { name: /^Watch lists/ }).waitFor();
  const text = (await page.locator('main').textContent()) ?? '';
  assert.doesNotMatch(text, /`|list\(s\)/);
  const rows = page.locator('section[aria-labelledby="lists-h"] tbody tr');
  for (let i = 0; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    const cells = await row.locator('td').allTextContents();
    const maximum = cells[2]!;
    const badgeClass = (await row.locator('.badge').getAttribute('class')) ?? '';
    // No maximum: its age is said, not judged green; past its maximum: red; within: green or amber.
    if (maximum === 'none set') assert.match(badgeClass, /badge-neutral/, `${cells.join(' | ')}`);
    else if (/out of date/.test(cells[1]!)) assert.match(badgeClass, /badge-high/);
    else assert.match(badgeClass, /badge-(low|medium)/);
  }
  const dpl = rows.filter({ hasText: 'Denied Persons' });
  assert.doesNotMatch((await dpl.locator('.badge').getAttribute('class')) ?? '', /badge-low/, 'the old Denied Persons List is not green');
});

test('no console error and no failed request on any page of the morning', () => {
  assert.deepEqual(problems, []);
});

test('webhooks speak of the APIs set up, preselect nothing, and say a refused URL once, next to its field, without its internal name', async () => {
  const { page } = browser;
  // (after the check above: the refused URL below is an expected 400)
  await nav('Webhooks').click();
  await page.getByRole('heading', { name: 'Delivery log' }).waitFor();
  assert.doesNotMatch((await page.locator('main').textContent()) ?? '', /surface/i);
  const picker = page.getByLabel('Endpoint for');
  assert.equal(await picker.inputValue(), '', 'no endpoint preselected');
  await page.getByLabel('HTTPS URL').fill('https://127.0.0.1:9/hooks');
  await page.getByRole('button', { name: 'Save webhook' }).click();
  assert.equal(await picker.evaluate((el) => (el as unknown as { validity: { valid: boolean } }).validity.valid), false, 'the browser asks for a choice first');
  await picker.selectOption('s2');
  await page.getByLabel('HTTPS URL').fill('https://169.254.169.254/latest/meta-data');
  await page.getByRole('button', { name: 'Save webhook' }).click();
  const form = page.getByRole('form', { name: 'Configure a webhook URL' });
  await form.locator('input[name="url"][aria-invalid="true"]').waitFor();
  const message = (await form.locator('.field-error').filter({ hasText: /./ }).allTextContents()).join(' | ');
  assert.ok(message.length > 0);
  assert.doesNotMatch(message, /^url:/);
  assert.equal(await form.locator('.alert.error:not([hidden])').count(), 0, 'not said a second time at the top');
  const formText = (await form.textContent()) ?? '';
  assert.equal(formText.split(message).length - 1, 1, 'said once');
  await browser.screenshot('desk-webhooks-refused-1366');
});
