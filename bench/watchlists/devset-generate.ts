/**
 * Writes bench/watchlists/devset.jsonl: customer-vs-internal-list pairs with known truth (issue 21).
 *
 * Every pair is built from synthetic people, so the label is known by construction, not judged:
 * a "match" pair renders one person twice (the list entry, and the customer as another clerk typed
 * them: nickname, day/month swapped or one digit mistyped, "Street"/"St", flat written another way,
 * postcode spacing, phone with or without the country code); a "no_match" pair is two people who
 * share what namesakes share (the same name, the same surname and address, the same birthday, a
 * neighbouring house). Names come from bench/data (US Census frequency lists, already in the repo);
 * streets, towns and postcodes are invented in the UK style. Seeded, so the file is reproducible:
 *   npx tsx bench/watchlists/devset-generate.ts
 */
import { seededRandom } from './seeded-random';
import { readFileSync, writeFileSync } from 'node:fs';
import { englishGivenNames } from '../../src/screening/watchlists/given-names';
import type { WatchlistEntryLike, WatchlistSubject } from '../../src/screening/watchlists/match-policy';

export interface DevPair {
  id: string;
  class: string;
  label: 'match' | 'no_match';
  note: string;
  subject: WatchlistSubject;
  entry: WatchlistEntryLike;
}

const { rand, pick, int } = seededRandom(20261126);
const cap = (s: string) => s[0].toUpperCase() + s.slice(1);

const csvNames = (file: string, n: number) =>
  readFileSync(new URL(`../data/${file}`, import.meta.url), 'utf8').split('\n').slice(1, n + 1).map((l) => l.split(',')[0]).filter(Boolean);
const SURNAMES = csvNames('us_surnames.csv', 120);
const table = englishGivenNames();
/** Formal given names that have a short form (Robert → Bob…), from the project's table. */
const FORMAL = table.families.filter((f) => f.length > 1 && f[0].length > 3).map((f) => f[0]);
const nicknamesOf = (formal: string) => table.families.find((f) => f[0] === formal)!.slice(1).filter((n) => n.length > 1);
const COMMON_GIVEN = ['john', 'james', 'robert', 'michael', 'william', 'david', 'mary', 'patricia', 'jennifer', 'elizabeth'];
const COMMON_SURNAMES = ['Smith', 'Jones', 'Williams', 'Brown', 'Taylor', 'Johnson'];

const STREETS = ['High', 'Church', 'Mill', 'Station', 'Victoria', 'Park', 'Queen', 'King', 'Green', 'Manor', 'Kingsway', 'Oak', 'Elm', 'Albert', 'York', 'Windsor', 'Grange', 'Meadow', 'Chapel', 'Bridge'];
const TYPES: [string, string][] = [['Street', 'St'], ['Road', 'Rd'], ['Lane', 'Ln'], ['Avenue', 'Ave'], ['Drive', 'Dr'], ['Close', 'Cl'], ['Crescent', 'Cres'], ['Court', 'Ct'], ['Place', 'Pl'], ['Terrace', 'Ter']];
const TOWNS: [string, string][] = [['London', 'SW'], ['Leeds', 'LS'], ['Manchester', 'M'], ['Bristol', 'BS'], ['Birmingham', 'B'], ['Glasgow', 'G'], ['Cardiff', 'CF'], ['Norwich', 'NR'], ['York', 'YO'], ['Brighton', 'BN']];

interface Person {
  given: string;
  middle?: string;
  surname: string;
  dob: { y: number; m: number; d: number };
  house: number;
  flat?: number;
  street: string;
  type: [string, string];
  town: [string, string];
  postcode: string;
  phone: string;
  email: string;
}

function postcode(prefix: string): string {
  const letters = 'ABDEFGHJLNPQRSTUWXYZ';
  return `${prefix}${int(1, 20)} ${int(1, 9)}${letters[int(0, letters.length - 1)]}${letters[int(0, letters.length - 1)]}`;
}
function person(over: Partial<Person> = {}): Person {
  const town = pick(TOWNS);
  const given = pick(FORMAL);
  const surname = pick(SURNAMES);
  return {
    given,
    middle: rand() < 0.3 ? pick(FORMAL) : undefined,
    surname,
    dob: { y: int(1945, 2002), m: int(1, 12), d: int(1, 28) },
    house: int(1, 180),
    flat: rand() < 0.25 ? int(1, 12) : undefined,
    street: pick(STREETS),
    type: pick(TYPES),
    town,
    postcode: postcode(town[1]),
    phone: `07${int(100, 999)} ${int(100000, 999999)}`,
    email: `${given[0]}.${surname.toLowerCase()}${int(1, 99)}@${pick(['example.com', 'mail.example', 'post.example.org'])}`,
    ...over,
  };
}
const iso = (d: Person['dob']) => `${d.y}-${String(d.m).padStart(2, '0')}-${String(d.d).padStart(2, '0')}`;
const dayFirst = (d: Person['dob']) => `${String(d.d).padStart(2, '0')}/${String(d.m).padStart(2, '0')}/${d.y}`;

function entryOf(p: Person, withIds = true): WatchlistEntryLike {
  return {
    primaryName: [cap(p.given), p.middle && cap(p.middle), p.surname].filter(Boolean).join(' '),
    entityType: 'person',
    datesOfBirth: [iso(p.dob)],
    nationalities: ['GB'],
    addresses: [{ line: `${p.flat ? `Flat ${p.flat}, ` : ''}${p.house} ${p.street} ${p.type[0]}`, city: p.town[0], postalCode: p.postcode, country: 'GB' }],
    identifiers: withIds ? [{ kind: 'phone', value: p.phone, country: 'GB' }, { kind: 'email', value: p.email }] : [],
  };
}

interface Render {
  name?: string;
  dob?: string | null;
  address?: 'abbrev' | 'formal' | 'none' | 'unit_after';
  phone?: boolean;
  email?: boolean;
}
/** The customer as the firm's onboarding recorded them. */
function subjectOf(p: Person, r: Render = {}): WatchlistSubject {
  const addressStyle = r.address ?? pick(['abbrev', 'formal', 'unit_after'] as const);
  const line =
    addressStyle === 'formal'
      ? `${p.flat ? `Flat ${p.flat}, ` : ''}${p.house} ${p.street} ${p.type[0]}`
      : addressStyle === 'abbrev'
        ? `${p.flat ? `${pick(['Apt', 'Flat', 'Unit'])} ${p.flat} ` : ''}${p.house} ${p.street} ${p.type[1]}${pick(['', '.'])}`
        : `${p.house} ${p.street.toUpperCase()} ${p.type[1].toUpperCase()}${p.flat ? ` #${p.flat}` : ''}`;
  const ids: { type: string; value: string }[] = [];
  if (r.phone) ids.push({ type: 'phone', value: rand() < 0.5 ? `+44 ${p.phone.slice(1)}` : p.phone.replace(' ', '') });
  if (r.email) ids.push({ type: 'email', value: rand() < 0.5 ? p.email.toUpperCase() : p.email });
  return {
    name: r.name ?? [cap(p.given), p.middle && rand() < 0.5 ? cap(p.middle) : undefined, p.surname].filter(Boolean).join(' '),
    entityType: 'person',
    country: 'GB',
    birthDate: r.dob === null ? undefined : (r.dob ?? (rand() < 0.5 ? iso(p.dob) : dayFirst(p.dob))),
    address:
      addressStyle === 'none'
        ? undefined
        : { line, city: rand() < 0.2 ? p.town[0].toUpperCase() : p.town[0], postalCode: rand() < 0.5 ? p.postcode.replace(' ', '').toLowerCase() : p.postcode, country: 'GB' },
    identifiers: ids,
  };
}

const nick = (p: Person) => `${cap(pick(nicknamesOf(p.given)))} ${p.surname}`;
function swapped(d: Person['dob']): Person['dob'] {
  return { ...d, m: d.d, d: d.m };
}
function typo(d: Person['dob']): Person['dob'] {
  // change one digit of the day or month, keeping a real date
  for (;;) {
    const which = rand() < 0.6 ? 'd' : 'm';
    const v = d[which];
    const s = String(v).padStart(2, '0').split('');
    const pos = rand() < 0.5 ? 1 : 0;
    s[pos] = String(int(0, 9));
    const nv = Number(s.join(''));
    if (nv !== v && nv >= 1 && (which === 'd' ? nv <= 28 : nv <= 12)) return { ...d, [which]: nv };
  }
}
function otherDate(d: Person['dob'], sameYear = false): Person['dob'] {
  for (;;) {
    const o = { y: sameYear ? d.y : int(1945, 2002), m: int(1, 12), d: int(1, 28) };
    const a = `${o.y}${o.m}${o.d}`;
    if (o.y !== d.y || o.m !== d.m) if (a !== `${d.y}${d.m}${d.d}` && !(o.m === d.d && o.d === d.m)) return o;
  }
}

const pairs: DevPair[] = [];
function add(cls: string, label: DevPair['label'], note: string, subject: WatchlistSubject, entry: WatchlistEntryLike) {
  pairs.push({ id: `${cls}-${String(pairs.filter((p) => p.class === cls).length + 1).padStart(3, '0')}`, class: cls, label, note, subject, entry });
}

// 1. nicknames: the customer goes by a short form
for (let i = 0; i < 30; i++) {
  const p = person();
  add('nickname', 'match', 'short form, same DOB and address', subjectOf({ ...p, middle: undefined }, { name: nick(p) }), entryOf(p));
}
for (let i = 0; i < 20; i++) {
  const p = person();
  const other = person({ given: p.given, surname: p.surname });
  add('nickname', 'no_match', 'short form of the same name, another person (other DOB and address)', subjectOf(other, { name: nick(other) }), entryOf(p));
}
// 2. DOB day/month swapped
for (let i = 0; i < 25; i++) {
  let p = person();
  if (p.dob.d > 12) p = { ...p, dob: { ...p.dob, d: int(1, 12) } };
  if (p.dob.d === p.dob.m) p = { ...p, dob: { ...p.dob, d: (p.dob.m % 12) + 1 } };
  add('dob_swap', 'match', 'day and month swapped, same address', subjectOf(p, { dob: iso(swapped(p.dob)) }), entryOf(p));
}
for (let i = 0; i < 20; i++) {
  const p = person();
  const other = person({ given: p.given, surname: p.surname, dob: otherDate(p.dob, true) });
  add('dob_swap', 'no_match', 'same name, another date in the same year, another address', subjectOf(other), entryOf(p));
}
// 3. DOB one-digit typos
for (let i = 0; i < 25; i++) {
  const p = person();
  add('dob_typo', 'match', 'one digit of the DOB mistyped, same address', subjectOf(p, { dob: iso(typo(p.dob)), address: rand() < 0.5 ? 'abbrev' : 'unit_after' }), entryOf(p));
}
for (let i = 0; i < 20; i++) {
  const p = person();
  const other = person({ given: p.given, surname: p.surname, dob: typo(p.dob) });
  add('dob_typo', 'no_match', 'same name, DOB one digit away by coincidence, another town', subjectOf(other), entryOf(p));
}
// 4. address abbreviations
for (let i = 0; i < 30; i++) {
  const p = person({ flat: rand() < 0.5 ? int(1, 12) : undefined });
  add('address_abbrev', 'match', 'Street/St, Lane/Ln…, flat written another way, postcode spacing', subjectOf(p, { address: rand() < 0.5 ? 'abbrev' : 'unit_after' }), entryOf(p));
}
for (let i = 0; i < 20; i++) {
  const p = person();
  const neighbour = person({ given: p.given, surname: p.surname, street: p.street, type: p.type, town: p.town, postcode: p.postcode, house: (p.house % 180) + int(1, 9) });
  add('address_abbrev', 'no_match', 'same name on the same street, another house, another DOB', subjectOf(neighbour, { address: 'abbrev' }), entryOf(p));
}
// 5. shared phone or e-mail (onboarded without a full address)
for (let i = 0; i < 30; i++) {
  const p = person();
  const phone = rand() < 0.5;
  add('shared_contact', 'match', `same ${phone ? 'phone' : 'e-mail'}, name as given, no address`, subjectOf(p, { name: rand() < 0.5 ? nick(p) : undefined, phone, email: !phone, address: 'none', dob: null }), entryOf(p));
}
for (let i = 0; i < 20; i++) {
  const p = person();
  const other = person({ given: p.given, surname: p.surname });
  add('shared_contact', 'no_match', 'same name, own phone and e-mail, another DOB', subjectOf(other, { phone: true, email: true, address: 'none' }), entryOf(p));
}
// 6. namesakes: the same full name, a different person
for (let i = 0; i < 40; i++) {
  const p = person();
  const other = person({ given: p.given, middle: p.middle, surname: p.surname });
  const sameTown = rand() < 0.4;
  const o = sameTown ? { ...other, town: p.town, postcode: postcode(p.town[1]) } : other;
  add('namesake', 'no_match', sameTown ? 'same name, same town, another DOB and street' : 'same name, another DOB and address', subjectOf(o), entryOf(p));
}
for (let i = 0; i < 15; i++) {
  const p = person();
  add('namesake', 'match', 'same name, the listed person (formatting differs)', subjectOf(p), entryOf(p));
}
// 7. very common names (John Smith): many namesakes, some sharing a birth year or town
for (let i = 0; i < 40; i++) {
  const p = person({ given: pick(COMMON_GIVEN), middle: undefined, surname: pick(COMMON_SURNAMES) });
  const other = person({ given: p.given, middle: undefined, surname: p.surname, dob: otherDate(p.dob, rand() < 0.5), town: p.town });
  add('common_name', 'no_match', 'a common name, same town, another date', subjectOf({ ...other, postcode: postcode(p.town[1]) }), entryOf(p));
}
for (let i = 0; i < 15; i++) {
  const p = person({ given: pick(COMMON_GIVEN), middle: undefined, surname: pick(COMMON_SURNAMES) });
  add('common_name', 'match', 'a common name, the listed person', subjectOf(p, { name: rand() < 0.5 && nicknamesOf(p.given).length ? nick(p) : undefined }), entryOf(p));
}
// 8. relatives: same surname and address, another given name and DOB
for (let i = 0; i < 30; i++) {
  const p = person();
  let given = pick(FORMAL);
  while (table.agree(given, p.given)) given = pick(FORMAL);
  const relative = { ...p, given, middle: undefined, dob: otherDate(p.dob) };
  add('relative', 'no_match', 'family member at the same address', subjectOf(relative, { phone: rand() < 0.3 }), entryOf(p));
}
for (let i = 0; i < 10; i++) {
  const p = person();
  add('relative', 'match', 'the listed person at the family address, by short form', subjectOf({ ...p, middle: undefined }, { name: nick(p), dob: rand() < 0.5 ? iso(swapped(p.dob)) : undefined }), entryOf(p));
}

// 9. hard cases the attributes cannot settle, or settle the wrong way: people move, marry, go by a
// short form the English table does not hold, and two people can share a name and a birthday.
const OUTSIDE_TABLE: [string, string][] = [['john', 'Jock'], ['john', 'Sean'], ['robert', 'Rab'], ['james', 'Hamish'], ['alexander', 'Aleksandr'], ['margaret', 'Mags'], ['elizabeth', 'Lilibet'], ['william', 'Wilf'], ['catherine', 'Cat'], ['edward', 'Teddie']];
for (let i = 0; i < 15; i++) {
  const p = person({ middle: undefined });
  const moved = { ...p, house: int(1, 180), street: pick(STREETS), town: pick(TOWNS), flat: undefined };
  const typoDob = rand() < 0.4;
  add('hard', 'match', `moved house since listed${typoDob ? ', DOB mistyped' : ''}`, subjectOf({ ...moved, postcode: postcode(moved.town[1]) }, { dob: typoDob ? iso(typo(p.dob)) : undefined }), entryOf(p));
}
for (let i = 0; i < 10; i++) {
  const p = person({ middle: undefined });
  add('hard', 'match', 'married since listed: another surname, same DOB and address', subjectOf({ ...p, surname: pick(SURNAMES) }), entryOf(p));
}
for (let i = 0; i < 10; i++) {
  const [formal, short] = OUTSIDE_TABLE[i];
  const p = person({ given: formal, middle: undefined });
  add('hard', 'match', `short form "${short}" not in the English table`, subjectOf(p, { name: `${short} ${p.surname}` }), entryOf(p));
}
for (let i = 0; i < 10; i++) {
  const p = person();
  const twin = person({ given: p.given, middle: p.middle, surname: p.surname, dob: p.dob });
  add('hard', 'no_match', 'another person with the same name and birthday, elsewhere', subjectOf(twin), entryOf(p));
}
for (let i = 0; i < 10; i++) {
  const p = person({ middle: undefined });
  const junior = { ...p, dob: { ...p.dob, y: p.dob.y + int(22, 35) > 2005 ? p.dob.y - int(22, 35) : p.dob.y + int(22, 35) } };
  add('hard', 'no_match', 'father and son of one name at one address (Jr/Sr not written)', subjectOf(junior, { phone: rand() < 0.5 }), entryOf(p));
}
for (let i = 0; i < 10; i++) {
  const p = person({ middle: undefined });
  const other = person({ given: p.given, surname: p.surname, dob: { ...otherDate(p.dob, true) }, town: p.town, street: p.street, type: p.type, postcode: postcode(p.town[1]) });
  add('hard', 'no_match', 'same name, same birth year, same street name in the same town, another postcode', subjectOf({ ...other, dob: p.dob.d <= 12 ? other.dob : other.dob }, { dob: String(p.dob.y) }), entryOf(p));
}

writeFileSync(new URL('./devset.jsonl', import.meta.url), pairs.map((p) => JSON.stringify(p)).join('\n') + '\n');
const counts = new Map<string, number>();
for (const p of pairs) counts.set(`${p.class}/${p.label}`, (counts.get(`${p.class}/${p.label}`) ?? 0) + 1);
console.log(`${pairs.length} pairs`, Object.fromEntries(counts));
