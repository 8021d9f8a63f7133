#!/usr/bin/env node
// Builds the portal (web/ → web/dist) when web/dist is missing or was built from other sources.
// A hash of the sources is kept in web/dist/.source-hash, so `npm start` and the test script
// rebuild only after a change (a build takes about a second).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

const webDir = dirname(fileURLToPath(import.meta.url));
const stampFile = join(webDir, 'dist', '.source-hash');

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

export function sourceHash() {
  const hash = createHash('sha256');
  const sources = [join(webDir, 'index.html'), join(webDir, 'vite.config.ts'), ...files(join(webDir, 'src'))].sort();
  for (const file of sources) hash.update(relative(webDir, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

const wanted = sourceHash();
const current = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : '';
if (current === wanted && existsSync(join(webDir, 'dist', 'index.html')) && !process.argv.includes('--force')) process.exit(0);

const vite = join(webDir, '..', 'node_modules', '.bin', 'vite');
const result = spawnSync(vite, ['build', '--config', join(webDir, 'vite.config.ts')], { stdio: 'inherit' });
if (result.status !== 0) {
  console.error('portal build failed');
  process.exit(result.status ?? 1);
}
writeFileSync(stampFile, `${wanted}\n`);
console.error('portal built into web/dist');
