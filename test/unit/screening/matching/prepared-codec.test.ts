/**
 * The listed names' prepared forms stored by column in an index snapshot (prepared-codec.ts): they
 * come back equal, field for field, and with the hidden class prepareName's own names and tokens have
 * (the matcher's hot code is optimised for one: a second one thrown in by the snapshot cost 1.15× the
 * CPU per name in a batch worker).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import { describe, it } from 'node:test';
import { decodePreparedNames, encodePreparedNames } from '../../../../src/screening/matching/prepared-codec';
import { prepareName } from '../../../../src/screening/matching/prepare';
import type { EntitySchema } from '../../../../src/screening/model';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

/** Names that set every optional field: legal forms, numbers, generic words, Korean, Hebrew, Burmese, Han, former names, acronyms, titles. */
const NAMES: [string, EntitySchema | undefined][] = [
  ['Vladimir Vladimirovich PUTIN', 'person'],
  ['Kim Jong Un', 'person'],
  ['President Bashar al-Assad', undefined],
  ['Islamic Revolutionary Guard Corps', 'organization'],
  ['Mobile Telecommunication Company of Iran', 'organization'],
  ['Acme Intl Trading Holdings Ltd', 'organization'],
  ['SEA STAR THREE', 'vessel'],
  ['Ocean Pearl 7', 'vessel'],
  ['Golden Star Shipping (ex-Silver Moon Shipping)', 'organization'],
  ['חברת הים התיכון בע״מ', 'organization'],
  ['မြန်မာ့ စီးပွားရေး ဘဏ်', 'organization'],
  ['金正恩', undefined],
  ['Ιωάννης Παπαδόπουλος', 'person'],
  ['Banco Nacional de Cuba', undefined],
  ['Sberbank Rossii PAO', 'organization'],
  ['Jewgeni Prigoschin', 'person'],
  ['J. A. Smith', 'person'],
  ['', undefined],
];

describe('prepared names stored by column', () => {
  const prepared = NAMES.map(([name, schema]) => prepareName(name, schema));

  it('come back equal, every field of every name, token and former name, through v8 serialisation', () => {
    const restored = decodePreparedNames(deserialize(serialize(encodePreparedNames(prepared))));
    assert.deepStrictEqual(restored, prepared);
    // the fixture does reach the optional fields
    const tokens = prepared.flatMap((p) => p.tokens);
    for (const field of ['generic', 'hebrew', 'korean', 'renderings'] as const) assert.ok(tokens.some((t) => t[field] !== undefined), field);
    for (const field of ['skipAcronyms', 'alternatives', 'vessel', 'holding', 'burmese'] as const) assert.ok(prepared.some((p) => p[field] !== undefined), field);
    assert.ok(prepared.some((p) => p.alternatives?.some((a) => a.reading)), 'a Hanja reading');
  });

  it('have the hidden class of freshly prepared names and tokens (checked with V8 natives in a child process)', () => {
    const script = `
      const { prepareName } = await import('./src/screening/matching/prepare.ts');
      const { decodePreparedNames, encodePreparedNames } = await import('./src/screening/matching/prepared-codec.ts');
      const { serialize, deserialize } = await import('node:v8');
      const same = new Function('a', 'b', 'return %HaveSameMap(a, b)');
      const names = ${JSON.stringify(NAMES)}.map(([n, s]) => prepareName(n, s ?? undefined));
      const restored = decodePreparedNames(deserialize(serialize(encodePreparedNames(names))));
      const plain = deserialize(serialize(names));
      const fresh = prepareName('John Smith', 'person');
      // former names and other readings included
      const all = restored.flatMap((p) => [p, ...(p.alternatives ?? [])]);
      const out = {
        names: all.every((p) => same(p, fresh)),
        tokens: all.flatMap((p) => p.tokens).every((t) => same(t, fresh.tokens[0])),
        // arrays too: a holey array has another hidden class than a packed one (an empty one's follows
        // what its allocation site met before: not compared)
        arrays: restored.every((p, i) => ['tokens', 'numbers', 'acronyms', 'notes'].every((f) => !p[f].length || same(p[f], names[i][f]))),
        freshNames: names.every((p) => same(p, fresh)),
        freshTokens: names.flatMap((p) => p.tokens).every((t) => same(t, fresh.tokens[0])),
        plainDeserialised: same(plain[0], fresh) || same(plain[0].tokens[0], fresh.tokens[0]),
      };
      process.stdout.write(JSON.stringify(out));`;
    const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), {
      names: true,
      tokens: true,
      arrays: true,
      freshNames: true,
      freshTokens: true,
      // what the column store avoids: objects read back by v8 get other hidden classes
      plainDeserialised: false,
    });
  });
});
