/**
 * Accessibility audit of a page in the test browser with axe-core (the npm package's own source,
 * no network). The source is evaluated through the DevTools protocol, which the page's
 * Content-Security-Policy does not govern, so the portal keeps its strict policy (no inline script)
 * and the audit adds no CSP violation. Rules: WCAG 2.0 and 2.1, levels A and AA.
 *
 * Also a layout check for narrow screens: the page must not scroll sideways.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
let axeSource: string | undefined;
function source(): string {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  return axeSource;
}

export const WCAG21_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;
export type Impact = 'minor' | 'moderate' | 'serious' | 'critical';

export interface AxeViolation {
  id: string;
  impact: Impact | null;
  help: string;
  helpUrl: string;
  nodes: { target: string[]; failureSummary: string }[];
}

export interface AxeAudit {
  violations: AxeViolation[];
  /** Rules that ran and found nothing wrong: a run with none did not audit anything. */
  passes: number;
  /** Rules axe could not decide (for example contrast over a background image); reported, not failed. */
  incomplete: { id: string; impact: Impact | null; targets: string[] }[];
}

/** Runs axe-core with the WCAG 2.1 A/AA rules on the page as it is now (the whole document). */
export async function runAxe(page: Page): Promise<AxeAudit> {
  // Let the page settle: two animation frames, so resize observers and pending renders have run.
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (!loaded) await page.evaluate(source());
  return page.evaluate(async (tags) => {
    // Runs in the page (this project's types have no DOM library).
    const { axe, document } = globalThis as any;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations', 'incomplete'] });
    return {
      violations: result.violations.map((v: any) => ({
        id: v.id,
        impact: v.impact ?? null,
        help: v.help,
        helpUrl: v.helpUrl,
        nodes: v.nodes.map((n: any) => ({ target: n.target.map(String), failureSummary: String(n.failureSummary ?? '') })),
      })),
      passes: result.passes.length,
      incomplete: result.incomplete.map((v: any) => ({ id: v.id, impact: v.impact ?? null, targets: v.nodes.map((n: any) => n.target.map(String).join(' ')) })),
    };
  }, [...WCAG21_AA_TAGS]);
}

const blocking: ReadonlySet<Impact | null> = new Set<Impact | null>(['serious', 'critical']);

/** The violations a test fails on: impact serious or critical. */
export function blockingViolations(audit: AxeAudit): AxeViolation[] {
  return audit.violations.filter((v) => blocking.has(v.impact));
}

/** One line per violation and one per offending element: rule id, impact, what it means, selectors. */
export function formatViolations(where: string, violations: AxeViolation[]): string {
  return violations
    .map((v) =>
      [
        `${where}: ${v.id} (${v.impact ?? 'no impact'}) ${v.help} — ${v.helpUrl}`,
        ...v.nodes.map((n) => `    ${n.target.join(' ')}  ${n.failureSummary.replace(/\s+/g, ' ').trim()}`),
      ].join('\n'),
    )
    .join('\n');
}

/**
 * Sideways overflow: the document wider than the viewport. Returns the width of both and the
 * elements whose right edge passes the viewport (in document order, at most 10), so a failure names them.
 */
export async function horizontalOverflow(page: Page): Promise<{ scrollWidth: number; viewportWidth: number; offenders: string[] }> {
  // A string, not a function: tsx would wrap the inner functions in a helper the page does not have.
  return page.evaluate(`(() => {
    const root = document.documentElement;
    const viewportWidth = root.clientWidth;
    const offenders = [];
    for (const el of document.body.querySelectorAll('*')) {
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.right <= viewportWidth + 1) continue;
      // Inside a container that scrolls or clips sideways, the overflow stays in that container.
      let clipped = false;
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (getComputedStyle(p).overflowX !== 'visible') { clipped = true; break; }
      }
      if (clipped) continue;
      const id = el.id ? '#' + el.id : '';
      const cls = typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
      offenders.push(el.tagName.toLowerCase() + id + cls + ' (right edge ' + Math.round(rect.right) + 'px)');
      if (offenders.length >= 10) break;
    }
    return { scrollWidth: root.scrollWidth, viewportWidth, offenders };
  })()`);
}

/**
 * Audits the page as it is for a test: fails nothing itself, prints the lesser findings as
 * diagnostics, and returns the serious and critical ones formatted (an empty list when there is none).
 */
export async function auditPage(page: Page, diagnostic: (message: string) => void, where: string): Promise<string[]> {
  const result = await runAxe(page);
  if (result.passes <= 10) return [`${where}: axe ran ${result.passes} passing rules — the audit did not run`];
  const blocking = blockingViolations(result);
  const minor = result.violations.filter((v) => !blocking.includes(v));
  if (minor.length) diagnostic(formatViolations(`${where} (not failing)`, minor));
  return blocking.length ? [formatViolations(where, blocking)] : [];
}
