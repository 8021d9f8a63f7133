/**
 * Time is injected (docs/architecture.md, "Time"): business time through the `Clock`, elapsed time
 * through the `Timer`, both in src/shared/clock.ts. This test walks every file under src and fails on
 * a direct read of the wall clock (`Date.now()`, `new Date()` without an argument) outside the
 * files below, each allowed for the reason given. A stale entry (the
 * file no longer reads the clock) fails too, so the list only shrinks.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../src');

/** File (relative to src) → why it may read the system clock itself. */
const ALLOWED: Record<string, string> = {
  'shared/clock.ts': 'the system Clock and Timer themselves',
  'screening/lists/registry.ts': 'Date.now() only makes a temporary file name unique; no time is read',
  'screening/download/index.ts': 'Date.now() only makes a partial download file name unique; no time is read',
};

const READ = /\bDate\.now\(\)|\bnew Date\(\)/g;

/** The wall-clock reads in TypeScript source, ignoring comments (block comments and comment lines). */
export function clockReads(source: string): string[] {
  const code = source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('//'))
    .join('\n');
  return code.match(READ) ?? [];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('clock reads in src', () => {
  const reads = new Map<string, string[]>();
  for (const file of sourceFiles(src)) {
    const found = clockReads(readFileSync(file, 'utf8'));
    if (found.length > 0) reads.set(path.relative(src, file).split(path.sep).join('/'), found);
  }

  it('reads the system clock only in the allowed files (inject the Clock or the Timer instead)', () => {
    const offenders = [...reads.entries()].filter(([file]) => !(file in ALLOWED)).map(([file, found]) => `${file}: ${found.join(', ')}`);
    assert.deepEqual(offenders, []);
  });

  it('has no stale entry in the allow-list', () => {
    const stale = Object.keys(ALLOWED).filter((file) => !reads.has(file));
    assert.deepEqual(stale, []);
  });

  it('finds a read in code and not in a comment', () => {
    assert.deepEqual(clockReads('const t = Date.now();\nconst d = new Date();'), ['Date.now()', 'new Date()']);
    assert.deepEqual(clockReads('/** never Date.now() */\n// new Date()\n/*\n * Date.now()\n */\nconst d = new Date(value);'), []);
  });
});
