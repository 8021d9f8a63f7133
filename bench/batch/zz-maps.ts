import { readFileSync, readdirSync } from 'node:fs';
import { deserialize } from 'node:v8';
import { prepareName } from '../../src/screening/matching/prepare';
const dir = '/tmp/b20/cache';
const f = readdirSync(dir).find((x) => x.endsWith('.v8'))!;
const snap = deserialize(readFileSync(`${dir}/${f}`)) as any;
const same = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: unknown, b: unknown) => boolean;
function classes(objs: object[]) {
  const reps: { o: object; n: number; keys: string }[] = [];
  for (const o of objs) {
    const r = reps.find((r) => same(r.o, o));
    if (r) r.n++;
    else reps.push({ o, n: 1, keys: Reflect.ownKeys(o).map(String).join(',') });
  }
  return reps.sort((a, b) => b.n - a.n);
}
const listedNames = snap.index.prepared as any[];
const listedToks = listedNames.flatMap((p) => p.tokens);
console.log('listed prepared names', listedNames.length, 'maps:'); for (const r of classes(listedNames).slice(0, 12)) console.log('  ', r.n, r.keys);
console.log('listed tokens', listedToks.length, 'maps:'); for (const r of classes(listedToks).slice(0, 12)) console.log('  ', r.n, r.keys);
const qs = readFileSync('/tmp/b20/in50k.csv', 'utf8').split('\n').slice(1, 3001).map((l) => prepareName(l.split(',')[0], l.split(',')[1] as any));
const qt = qs.flatMap((p) => p.tokens);
console.log('query names maps:'); for (const r of classes(qs).slice(0, 12)) console.log('  ', r.n, r.keys);
console.log('query tokens maps:'); for (const r of classes(qt).slice(0, 12)) console.log('  ', r.n, r.keys);
console.log('query vs listed name same map?', same(qs[0], listedNames[0]), 'token', same(qt[0], listedToks[0]));
