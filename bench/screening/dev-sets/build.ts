/**
 * Builds the list-derived development sets of bench/screening/dev-sets/ (see README.md there):
 * `npx tsx bench/screening/dev-sets/build.ts [--data ../shared/data]`.
 *
 * Deterministic (seeded PRNG over the bundled lists). The output TSVs are committed, so the bench
 * reads fixed files; re-run this only to regenerate them after a list change, and review the diff.
 * Columns: class, query, listed, schema, label (1 = same entity, 0 = different), how (the recipe).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listsFromRoot, loadAllLists } from '../../../src/screening/lists/index';
import type { ListEntity } from '../../../src/screening/model';
import { editDistance } from '../../../src/screening/matching/similarity';
import { foldToken } from '../../../src/screening/matching/text';
import { dataDirArg, rng, sample, type ClassPairRow as Row } from '../devsets';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const dataDir = dataDirArg(args);


const SCHEMA: Record<string, string> = { person: 'Person', organization: 'Company', vessel: 'Vessel', aircraft: 'Vessel', unknown: 'LegalEntity' };
const latin = (s: string) => /^[\x20-\x7E]*$/.test(s);
const simple = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
const toks = (s: string) => simple(s).split(' ').filter(Boolean);
const natural = (n: string) => (n.includes(',') ? `${n.slice(n.indexOf(',') + 1).trim()} ${n.slice(0, n.indexOf(',')).trim()}` : n);
const clean = (s: string) => s.replace(/\t/g, ' ').trim();

// Words that are not distinctive in organisation names (for picking the distinctive one).
const GENERIC = new Set(
  ('the of and for in de la el al del y company co ltd limited llc inc corp corporation group holding holdings trading trade ' +
    'international intl industries industry industrial services service general import export bank investment investments ' +
    'development management technology technologies shipping sa s a jsc ojsc pjsc cjsc gmbh ag plc fze fzco fzc pte llp ' +
    'organization organisation association center centre national foreign commercial commerce agency network enterprise ' +
    'enterprises engineering construction petroleum oil gas energy marine maritime logistics electronics global')
    .split(' '),
);

async function main() {
  const loaded = await loadAllLists({ lists: listsFromRoot(dataDir, { includeOptIn: true }) }, { progressBar: false });
  const ents = loaded.entities.filter((e) => latin(e.primaryName) && e.source !== 'icij_offshore');
  const rand = rng(2020);
  const rows: Row[] = [];
  const tokenDf = new Map<string, number>();
  for (const e of ents) for (const t of new Set(toks(e.primaryName))) tokenDf.set(t, (tokenDf.get(t) ?? 0) + 1);

  // ---------- one_word: a listed surname / distinctive company word alone (true); a word one or two edits from a listed word (false)
  {
    const persons = ents.filter((e) => e.schema === 'person' && e.primaryName.includes(',') && toks(e.primaryName).length >= 2);
    const truePairs: Row[] = [];
    for (const e of sample(persons, 3000, rand)) {
      const last = toks(e.primaryName.split(',')[0]);
      if (last.length !== 1 || last[0].length < 5 || (tokenDf.get(last[0]) ?? 0) > 3) continue;
      truePairs.push({ cls: 'one_word', query: last[0].toUpperCase(), listed: e.primaryName, schema: 'Person', label: 1, how: 'listed surname alone' });
      if (truePairs.length >= 30) break;
    }
    const orgs = ents.filter((e) => e.schema === 'organization' && toks(e.primaryName).length >= 2);
    let n = 0;
    for (const e of sample(orgs, 4000, rand)) {
      const dist = toks(e.primaryName).filter((t) => t.length >= 6 && !GENERIC.has(t) && (tokenDf.get(t) ?? 0) <= 2);
      if (dist.length !== 1 || toks(e.primaryName).length > 4) continue;
      truePairs.push({ cls: 'one_word', query: dist[0].toUpperCase(), listed: e.primaryName, schema: 'LegalEntity', label: 1, how: 'distinctive company word alone' });
      if (++n >= 20) break;
    }
    rows.push(...truePairs);
    // false: the query is a listed word of one entity; the listed name of another entity has a word 1–2 edits away
    const byLen = new Map<number, { w: string; e: ListEntity }[]>();
    for (const e of ents) {
      if (e.schema === 'unknown') continue;
      for (const w of new Set(toks(e.primaryName))) {
        if (w.length < 5 || GENERIC.has(w) || /\d/.test(w)) continue;
        (byLen.get(w.length) ?? byLen.set(w.length, []).get(w.length)!).push({ w, e });
      }
    }
    let f = 0;
    for (const { w, e } of sample([...byLen.values()].flat(), 20000, rand)) {
      if (f >= 50) break;
      const near = [...(byLen.get(w.length) ?? []), ...(byLen.get(w.length + 1) ?? [])];
      // spelling variants of one word (Faisal/Faysal, Aboud/Abbud) are the same word: not a false pair
      const other = near.find((x) => x.e !== e && x.w !== w && x.w[0] === w[0] && editDistance(x.w, w, 1) === 1 && foldToken(x.w) !== foldToken(w) && !toks(x.e.primaryName).some((t) => foldToken(t) === foldToken(w)));
      if (!other) continue;
      rows.push({ cls: 'one_word', query: w.toUpperCase(), listed: other.e.primaryName, schema: other.e.schema === 'person' ? 'Person' : 'LegalEntity', label: 0, how: `one edit from listed word ${other.w}` });
      f++;
    }
  }

  // ---------- former_name: "X (ex-Y)" and its many spellings, at query time and at load time
  {
    const withFormer = ents.filter((e) => e.schema !== 'person' && e.names.some((n) => n.kind === 'former' && latin(n.value) && simple(n.value) !== simple(e.primaryName)));
    const forms = [
      (x: string, y: string) => `${x} (ex-${y})`,
      (x: string, y: string) => `${x} ex ${y}`,
      (x: string, y: string) => `${x} f/k/a ${y}`,
      (x: string, y: string) => `${x}, formerly ${y}`,
      (x: string, y: string) => `${x} (formerly known as ${y}, 2019)`,
      (x: string, y: string) => `${x} (EX ${y})`,
      (x: string, y: string) => `${x} F.K.A. ${y}`,
    ];
    const picked = sample(withFormer, withFormer.length, rand).slice(0, 40);
    picked.forEach((e, i) => {
      const former = e.names.filter((n) => n.kind === 'former' && latin(n.value)).map((n) => n.value);
      const y = former[0];
      const chain = former.length >= 2 && i % 5 === 0;
      const combined = chain ? `${e.primaryName} (ex-${former[0]}, ex-${former[1]})` : forms[i % forms.length](e.primaryName, y);
      const schema = SCHEMA[e.schema];
      // the query carries both names; the list has the former name alone (query-time split)
      if (i % 2 === 0) rows.push({ cls: 'former_name', query: combined, listed: y, schema, label: 1, how: 'query has current+former, list has former' });
      // the list writes both names in one string; the query gives the former name (load-time split)
      else rows.push({ cls: 'former_name', query: chain ? former[1] : y, listed: combined, schema, label: 1, how: 'list has current+former, query has former' });
    });
    // false: the same combined forms against a different entity that shares a word with either name
    const byWord = new Map<string, ListEntity[]>();
    for (const e of ents) for (const w of new Set(toks(e.primaryName))) if (w.length >= 4 && !GENERIC.has(w)) (byWord.get(w) ?? byWord.set(w, []).get(w)!).push(e);
    let f = 0;
    for (const e of sample(withFormer, withFormer.length, rand)) {
      if (f >= 40) break;
      const y = e.names.find((n) => n.kind === 'former' && latin(n.value))!.value;
      const words = [...toks(e.primaryName), ...toks(y)].filter((w) => w.length >= 4 && !GENERIC.has(w));
      // the same entity on another list shares its distinctive words: only entities that do not are false pairs
      const distinct = (s: string) => toks(s).filter((w) => w.length >= 3 && !GENERIC.has(w));
      const mine = new Set([...distinct(e.primaryName), ...distinct(y)]);
      const other = words.flatMap((w) => byWord.get(w) ?? []).find((o) => {
        if (o === e || e.names.some((n) => simple(n.value) === simple(o.primaryName))) return false;
        const theirs = distinct(o.primaryName);
        const shared = theirs.filter((w) => mine.has(w)).length;
        return shared >= 1 && shared < theirs.length && shared < distinct(e.primaryName).length && shared < distinct(y).length + 1;
      });
      if (!other) continue;
      rows.push({ cls: 'former_name', query: forms[f % forms.length](e.primaryName, y), listed: other.primaryName, schema: SCHEMA[e.schema], label: 0, how: 'shares a word with current or former name' });
      f++;
    }
  }

  // ---------- title: a title or honorific in one of many languages before the name
  {
    const titles = ['President', 'Präsident', 'Presidente', 'Président', 'Prezydent', 'Президент', 'Sheikh', 'Shaykh', 'General', 'Generał', 'Général', 'Генерал',
      'Minister', 'Ministre', 'Ministro', 'Министр', 'Dr.', 'Prof. Dr.', 'H.E.', 'His Excellency', 'Senator', 'Senador', 'Governor', 'Gobernador', 'Colonel', 'Coronel',
      'Brigadier General', 'Major General', 'Ayatollah', 'Mullah', 'Mufti', 'Herr', 'Monsieur', 'Señor', 'Prime Minister', 'Premier', 'Ambassador', 'Botschafter', 'Deputy', 'Депутат'];
    const persons = ents.filter((e) => e.schema === 'person' && toks(e.primaryName).length >= 2 && toks(e.primaryName).length <= 4);
    const picked = sample(persons, 60, rand).slice(0, 45);
    picked.forEach((e, i) => rows.push({ cls: 'title', query: `${titles[i % titles.length]} ${natural(e.primaryName)}`, listed: e.primaryName, schema: 'Person', label: 1, how: 'title before the listed name' }));
    // false: title + person A against person B who shares A's surname or given name
    const bySurname = new Map<string, ListEntity[]>();
    for (const e of persons) {
      if (!e.primaryName.includes(',')) continue;
      const k = simple(e.primaryName.split(',')[0]);
      (bySurname.get(k) ?? bySurname.set(k, []).get(k)!).push(e);
    }
    let f = 0;
    for (const group of sample([...bySurname.values()].filter((g) => g.length >= 2), 2000, rand)) {
      if (f >= 45) break;
      const [a, b] = group;
      if (simple(a.primaryName) === simple(b.primaryName) || toks(a.primaryName).sort().join() === toks(b.primaryName).sort().join()) continue;
      const firstA = toks(a.primaryName.split(',')[1] ?? '');
      const firstB = toks(b.primaryName.split(',')[1] ?? '');
      if (!firstA.length || !firstB.length || firstA.some((w) => firstB.includes(w))) continue;
      rows.push({ cls: 'title', query: `${titles[f % titles.length]} ${natural(a.primaryName)}`, listed: b.primaryName, schema: 'Person', label: 0, how: 'same surname, other given names' });
      f++;
    }
  }

  // ---------- generic_words: generic business words written in another language
  {
    const TRANSLATIONS: [RegExp, string[]][] = [
      [/\bBANK\b/, ['BANCO', 'BANQUE', 'BANKASI', 'BANCA']],
      [/\bSHIPPING\b/, ['NAVIERA', 'SCHIFFFAHRT', 'DENIZCILIK', 'KESHTIRANI', 'SUDOKHODSTVO']],
      [/\bTRADING\b/, ['HANDEL', 'TICARET', 'COMERCIAL', 'TEJARAT', 'TORGOVLYA']],
      [/\bHOLDINGS?\b/, ['HOLDING', 'KHOLDING', 'HOLDINGGESELLSCHAFT']],
      [/\bINVESTMENTS?\b/, ['INVERSIONES', 'INVESTISSEMENTS', 'YATIRIM', 'INVESTITSII']],
      [/\bINDUSTRIES\b|\bINDUSTRY\b/, ['INDUSTRIAS', 'INDUSTRIE', 'SANAYI', 'PROMYSHLENNOST']],
      [/\bGROUP\b/, ['GRUPO', 'GRUPPE', 'GROUPE', 'GRUPPA']],
      [/\bCONSTRUCTION\b/, ['CONSTRUCCIONES', 'BAU', 'INSAAT', 'STROITELSTVO']],
      [/\bINTERNATIONAL\b/, ['INTERNACIONAL', 'INTERNATIONALE', 'ULUSLARARASI', 'MEZHDUNARODNAYA']],
    ];
    const orgs = ents.filter((e) => e.schema === 'organization' && toks(e.primaryName).length >= 2 && toks(e.primaryName).length <= 6);
    let t = 0;
    for (const e of sample(orgs, orgs.length, rand)) {
      if (t >= 45) break;
      const up = e.primaryName.toUpperCase();
      const rule = TRANSLATIONS.find(([re]) => re.test(up));
      if (!rule) continue;
      const distinct = toks(up).filter((w) => !GENERIC.has(w) && w.length >= 3);
      if (!distinct.length) continue;
      const tr = rule[1][t % rule[1].length];
      rows.push({ cls: 'generic_words', query: up.replace(rule[0], tr), listed: e.primaryName, schema: 'Company', label: 1, how: `generic word translated (${tr})` });
      t++;
    }
    // false: two different organisations sharing the generic words but not the distinctive one
    const byGenericSkeleton = new Map<string, ListEntity[]>();
    for (const e of orgs) {
      const ws = toks(e.primaryName);
      const g = ws.filter((w) => GENERIC.has(w));
      const d = ws.filter((w) => !GENERIC.has(w));
      if (!g.length || d.length !== 1 || d[0].length < 4) continue;
      const k = `${g.join(' ')}|${ws.length}`;
      (byGenericSkeleton.get(k) ?? byGenericSkeleton.set(k, []).get(k)!).push(e);
    }
    let f = 0;
    for (const group of sample([...byGenericSkeleton.values()].filter((g) => g.length >= 2), 5000, rand)) {
      if (f >= 45) break;
      const [a, b] = sample(group, 2, rand);
      const da = toks(a.primaryName).filter((w) => !GENERIC.has(w))[0];
      const db = toks(b.primaryName).filter((w) => !GENERIC.has(w))[0];
      if (da === db || editDistance(da, db, 2) <= 2) continue;
      const up = a.primaryName.toUpperCase();
      const rule = TRANSLATIONS.find(([re]) => re.test(up));
      const q = rule && f % 2 === 0 ? up.replace(rule[0], rule[1][f % rule[1].length]) : a.primaryName;
      rows.push({ cls: 'generic_words', query: q, listed: b.primaryName, schema: 'Company', label: 0, how: 'same generic words, other distinctive word' });
      f++;
    }
  }

  // ---------- abbreviation: word abbreviations and acronyms
  {
    const ABBR: [RegExp, string][] = [
      [/\bINTERNATIONAL\b/, 'INTL'], [/\bMANUFACTURING\b/, 'MFG'], [/\bCORPORATION\b/, 'CORP'], [/\bINDUSTRIES\b/, 'INDS'],
      [/\bENGINEERING\b/, 'ENGG'], [/\bTECHNOLOGY\b/, 'TECH'], [/\bTECHNOLOGIES\b/, 'TECH'], [/\bTRADING\b/, 'TRDG'], [/\bSERVICES\b/, 'SVCS'],
      [/\bBROTHERS\b/, 'BROS'], [/\bASSOCIATION\b/, 'ASSN'], [/\bDEVELOPMENT\b/, 'DEV'], [/\bNATIONAL\b/, 'NATL'], [/\bMANAGEMENT\b/, 'MGMT'],
      [/\bDEPARTMENT\b/, 'DEPT'], [/\bELECTRONICS\b/, 'ELECTR'], [/\bENTERPRISES?\b/, 'ENT'], [/\bINSTITUTE\b/, 'INST'], [/\bEQUIPMENT\b/, 'EQUIP'],
    ];
    const orgs = ents.filter((e) => e.schema === 'organization' && toks(e.primaryName).length >= 2);
    let t = 0;
    for (const e of sample(orgs, orgs.length, rand)) {
      if (t >= 30) break;
      const up = e.primaryName.toUpperCase();
      const rule = ABBR.find(([re]) => re.test(up));
      if (!rule) continue;
      rows.push({ cls: 'abbreviation', query: up.replace(rule[0], rule[1]), listed: e.primaryName, schema: 'Company', label: 1, how: `word abbreviation ${rule[1]}` });
      t++;
    }
    // acronym aliases that are the initials of the entity's own name
    const initials = (s: string) => toks(s).filter((w) => !['of', 'the', 'and', 'for', 'de', 'la', 'el', 'al', 'y'].includes(w)).map((w) => w[0]).join('');
    const acr: { e: ListEntity; a: string }[] = [];
    for (const e of ents) {
      if (e.schema !== 'organization') continue;
      for (const n of e.names) {
        const v = n.value.trim();
        if (/^[A-Z]{3,6}$/.test(v) && initials(e.primaryName) === v.toLowerCase() && toks(e.primaryName).length >= 3) acr.push({ e, a: v });
      }
    }
    const acrSample = sample(acr, acr.length, rand).filter((x, i, xs) => xs.findIndex((y) => y.a === x.a) === i).slice(0, 15);
    for (const { e, a } of acrSample) rows.push({ cls: 'abbreviation', query: a, listed: e.primaryName, schema: 'Company', label: 1, how: 'acronym of the listed name' });
    // false: an acronym against another organisation whose initials differ; an abbreviated name against a sibling
    let f = 0;
    for (const { e, a } of sample(acr, acr.length, rand)) {
      if (f >= 20) break;
      const first = toks(e.primaryName)[0];
      const other = orgs.find((o) => o !== e && toks(o.primaryName)[0] === first && initials(o.primaryName) !== a.toLowerCase() && toks(o.primaryName).length >= 3);
      if (!other) continue;
      rows.push({ cls: 'abbreviation', query: a, listed: other.primaryName, schema: 'Company', label: 0, how: 'acronym against another name with the same first word' });
      f++;
    }
    const bySkel = new Map<string, ListEntity[]>();
    for (const e of orgs) {
      const up = e.primaryName.toUpperCase();
      if (!ABBR.some(([re]) => re.test(up))) continue;
      const ws = toks(up);
      for (let i = 0; i < ws.length; i++) {
        if (GENERIC.has(ws[i])) continue;
        const k = [...ws.slice(0, i), '*', ...ws.slice(i + 1)].join(' ');
        (bySkel.get(k) ?? bySkel.set(k, []).get(k)!).push(e);
      }
    }
    for (const group of sample([...bySkel.values()].filter((g) => g.length >= 2), 3000, rand)) {
      if (f >= 45) break;
      const [a, b] = group;
      if (simple(a.primaryName) === simple(b.primaryName)) continue;
      const up = a.primaryName.toUpperCase();
      const rule = ABBR.find(([re]) => re.test(up))!;
      rows.push({ cls: 'abbreviation', query: up.replace(rule[0], rule[1]), listed: b.primaryName, schema: 'Company', label: 0, how: 'abbreviated sibling name (one word differs)' });
      f++;
    }
  }

  // ---------- discriminators: numerals, written-out numerals, sibling names that differ in one word
  {
    const WORDS = ['ZERO', 'ONE', 'TWO', 'THREE', 'FOUR', 'FIVE', 'SIX', 'SEVEN', 'EIGHT', 'NINE', 'TEN', 'ELEVEN', 'TWELVE'];
    const numbered = ents.filter((e) => /\b([1-9]|1[0-2])\b/.test(e.primaryName) && e.schema !== 'person' && toks(e.primaryName).length >= 2);
    let t = 0;
    let f = 0;
    for (const e of sample(numbered, numbered.length, rand)) {
      const m = /\b([1-9]|1[0-2])\b/.exec(e.primaryName)!;
      const d = Number(m[1]);
      const schema = SCHEMA[e.schema];
      if (t < 25) {
        rows.push({ cls: 'discriminator', query: e.primaryName.replace(/\b([1-9]|1[0-2])\b/, WORDS[d]), listed: e.primaryName, schema, label: 1, how: 'numeral written out' });
        t++;
      } else if (f < 25) {
        const other = d === 8 ? 3 : 8;
        const q = f % 2 ? e.primaryName.replace(/\b([1-9]|1[0-2])\b/, WORDS[other]) : e.primaryName.replace(/\b([1-9]|1[0-2])\b/, String(other));
        rows.push({ cls: 'discriminator', query: q, listed: e.primaryName, schema, label: 0, how: 'other numeral (digits or words)' });
        f++;
      }
    }
    // siblings: two different entities whose names share all words but one (same word count ≥ 3)
    const orgs = ents.filter((e) => e.schema !== 'person' && toks(e.primaryName).length >= 3 && toks(e.primaryName).length <= 6);
    const bySkel = new Map<string, ListEntity[]>();
    for (const e of orgs) {
      const ws = toks(e.primaryName);
      for (let i = 0; i < ws.length; i++) {
        if (GENERIC.has(ws[i]) || ws[i].length < 3) continue;
        const k = [...ws.slice(0, i), '*', ...ws.slice(i + 1)].join(' ');
        (bySkel.get(k) ?? bySkel.set(k, []).get(k)!).push(e);
      }
    }
    let s = 0;
    for (const group of sample([...bySkel.values()].filter((g) => g.length >= 2), 5000, rand)) {
      if (s >= 35) break;
      const [a, b] = group;
      if (simple(a.primaryName) === simple(b.primaryName) || a.names.some((n) => simple(n.value) === simple(b.primaryName))) continue;
      rows.push({ cls: 'discriminator', query: a.primaryName, listed: b.primaryName, schema: SCHEMA[a.schema], label: 0, how: 'sibling name: all words but one shared' });
      s++;
    }
  }

  const header = 'class\tquery\tlisted\tschema\tlabel\thow';
  const byClass = new Map<string, Row[]>();
  for (const r of rows) (byClass.get(r.cls) ?? byClass.set(r.cls, []).get(r.cls)!).push(r);
  for (const [cls, rs] of byClass) {
    const file = path.join(here, `${cls}.generated.tsv`);
    writeFileSync(file, [header, ...rs.map((r) => [r.cls, clean(r.query), clean(r.listed), r.schema, r.label, r.how].join('\t'))].join('\n') + '\n');
    console.log(`${cls}: ${rs.length} pairs (${rs.filter((r) => r.label).length} true) → ${path.relative(process.cwd(), file)}`);
  }
}

await main();
