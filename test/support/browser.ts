/**
 * A real browser for the portal's end-to-end tests: Debian's chromium driven by playwright-core,
 * headless, with a fresh profile per run and no network beyond the service under test. Builds the
 * portal first when web/dist is missing or stale, and saves full-page screenshots under
 * test-output/screenshots/ for reviewers.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const screenshotDir = path.join(repoRoot, 'test-output', 'screenshots');

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function buildPortal(): void {
  execFileSync(process.execPath, [path.join(repoRoot, 'web', 'build-if-stale.mjs')], { stdio: 'inherit' });
}

export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  /** Full-page PNG at test-output/screenshots/<name>.png; returns the path. */
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

export async function launchBrowser(options: { viewport?: { width: number; height: number } } = {}): Promise<TestBrowser> {
  buildPortal();
  mkdirSync(screenshotDir, { recursive: true });
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'portal-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    acceptDownloads: true,
    // A common laptop screen.
    viewport: options.viewport ?? { width: 1366, height: 768 },
    timeout: 30_000,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(15_000);
  return {
    context,
    page,
    async screenshot(name) {
      const file = path.join(screenshotDir, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    async close() {
      await context.close().catch(() => undefined);
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Script errors and console errors (a Content-Security-Policy violation among them) the page reports, as they come. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}
