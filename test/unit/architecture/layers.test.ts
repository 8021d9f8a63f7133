/**
 * The layer rules of docs/architecture.md, enforced: dependency-cruiser walks every import under src
 * with the rules in .dependency-cruiser.cjs (layers point down, no cycles, only the entry point
 * reaches the composition root). A failure lists each violation as rule: from → to.
 * The second case cruises a two-file tree with one upward import, so the check is known to bite.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const cli = path.join(repoRoot, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const rules = path.join(repoRoot, '.dependency-cruiser.cjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: { name: string }[];
}

async function cruise(cwd: string): Promise<Violation[]> {
  const run = await promisify(execFile)(process.execPath, [cli, 'src', '--config', rules, '--output-type', 'json'], { cwd, maxBuffer: 256 * 1024 * 1024 }).catch(
    // The CLI exits non-zero when it finds errors; its JSON report is still on stdout.
    (error: { stdout?: string; stderr?: string }) => {
      if (!error.stdout) throw new Error(`dependency-cruiser failed: ${error.stderr ?? String(error)}`);
      return { stdout: error.stdout };
    },
  );
  const report = JSON.parse(run.stdout) as { summary: { violations: Violation[] } };
  return report.summary.violations;
}

const describeViolation = (v: Violation) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (cycle: ${v.cycle.map((c) => c.name).join(' → ')})` : ''}`;

describe('layers point down', () => {
  it('src has no upward import, no cycle and no other way into the composition root', async () => {
    const violations = await cruise(repoRoot);
    assert.deepEqual(violations.map(describeViolation), []);
  });

  it('an upward import (the domain importing an application service) is reported', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'layers-'));
    try {
      mkdirSync(path.join(dir, 'src/screening'), { recursive: true });
      mkdirSync(path.join(dir, 'src/app'), { recursive: true });
      writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }));
      writeFileSync(path.join(dir, 'src/app/service.ts'), 'export const service = 1;\n');
      writeFileSync(path.join(dir, 'src/screening/engine.ts'), "import { service } from '../app/service';\nexport const engine = service;\n");
      const violations = await cruise(dir);
      assert.deepEqual(violations.map(describeViolation), ['app-above-commands: src/screening/engine.ts → src/app/service.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
