/**
 * An entity-resolution truth set for the firm's own lists (issue 30), in the spirit of a public
 * truth set: a watchlist of fraud and risk people exported in a common vendor layout, a customer
 * file screened against it, and a key saying which customer is which listed person. Everything is
 * synthetic and written here (names from bench/data, the US Census frequency lists already in the
 * repo; streets, towns, numbers invented), so the key is known by construction.
 *
 * The customers who ARE a listed person come the ways a firm meets them again: a short form and the
 * file's "SURNAME, Given" order, a changed surname (same given name, birthday and home), the same
 * SSN or passport under another name, day and month swapped, the same phone or e-mail, moved house,
 * a mistyped birthday, the same driver's licence; addresses mostly on one line. The customers who are
 * NOT are the near misses that make a fraud list hard: a son (Jr) at his father's (Sr) address and
 * phone, a spouse and siblings at the same address, twins, a mother and daughter of one name,
 * namesakes elsewhere, people born the same day, a shared office phone; and unrelated customers.
 *
 * Split: every listed person, and every customer built around one, belongs to the tuning half (even
 * index) or the held-back half (odd); unrelated customers alternate. Tune on `tuning` only.
 *
 * Writes bench/watchlists/truthset/: watchlist.csv (the vendor layout: PRIMARY_NAME_*, ADDR_*,
 * SSN_NUMBER, DRIVERS_LICENSE_*, GENDER, RECORD_TYPE, STATUS, month-first dates, some with two-digit
 * years, a row with no name, a native-script name), watchlist.jsonl (the same records in the
 * vendor's nested JSON form, FEATURES: [...]), entries.json (the records as list entries, what an
 * import must produce) and customers.jsonl (each customer's facts, half, class and the listed ids
 * it matches: the key). Seeded: `npx tsx bench/watchlists/truthset-generate.ts` writes the same files.
 */
import { seededRandom } from './seeded-random';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { WatchlistEntry } from '../../src/screening/watchlists/model';

const { rand, pick, int } = seededRandom(30_2026);
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

const csvNames = (file: string, n: number) =>
  readFileSync(new URL(`../data/${file}`, import.meta.url), 'utf8').split('\n').slice(1, n + 1).map((l) => l.split(',')[0]!).filter(Boolean);
const SURNAMES = csvNames('us_surnames.csv', 200);
const ALL_GIVEN = csvNames('us_given_names.csv', 300);

/** Given names with the short forms people use (written here; a few are outside the policy's table on purpose: Jock, Rab). */
const MALE: [string, ...string[]][] = [
  ['Robert', 'Bob', 'Rob', 'Bobby'], ['William', 'Bill', 'Will', 'Billy'], ['James', 'Jim', 'Jimmy'], ['Richard', 'Rick', 'Dick'], ['Thomas', 'Tom', 'Tommy'],
  ['Michael', 'Mike'], ['Joseph', 'Joe'], ['Charles', 'Charlie', 'Chuck'], ['Daniel', 'Dan', 'Danny'], ['Anthony', 'Tony'], ['Edward', 'Ed', 'Eddie', 'Ted'],
  ['Christopher', 'Chris'], ['Matthew', 'Matt'], ['Steven', 'Steve'], ['Kenneth', 'Ken', 'Kenny'], ['Andrew', 'Andy', 'Drew'], ['Timothy', 'Tim'],
  ['Raymond', 'Ray'], ['Gregory', 'Greg'], ['Lawrence', 'Larry'], ['Gerald', 'Jerry'], ['Samuel', 'Sam'], ['Douglas', 'Doug'], ['Peter', 'Pete'],
  ['John', 'Jack', 'Johnny', 'Jock'], ['Nicholas', 'Nick'], ['Jonathan', 'Jon'], ['Benjamin', 'Ben'], ['Frederick', 'Fred'], ['Walter', 'Walt'],
];
const FEMALE: [string, ...string[]][] = [
  ['Elizabeth', 'Liz', 'Beth', 'Betty'], ['Margaret', 'Peggy', 'Maggie'], ['Katherine', 'Kathy', 'Kate', 'Katie'], ['Jennifer', 'Jen', 'Jenny'],
  ['Patricia', 'Pat', 'Patty', 'Trish'], ['Susan', 'Sue', 'Susie'], ['Deborah', 'Deb', 'Debbie'], ['Rebecca', 'Becky'], ['Barbara', 'Barb'],
  ['Jessica', 'Jess'], ['Christine', 'Chris', 'Tina'], ['Victoria', 'Vicky', 'Tori'], ['Kimberly', 'Kim'], ['Samantha', 'Sam'], ['Melissa', 'Mel', 'Missy'],
  ['Pamela', 'Pam'], ['Cynthia', 'Cindy'], ['Stephanie', 'Steph'], ['Nancy'], ['Karen'], ['Sandra', 'Sandy'], ['Donna'], ['Carol'], ['Linda'],
  ['Mary', 'Molly', 'Polly'], ['Dorothy', 'Dot', 'Dottie'], ['Theresa', 'Terri', 'Tess'], ['Angela', 'Angie'], ['Judith', 'Judy'], ['Virginia', 'Ginny'],
];
const MIDDLES = ['A', 'J', 'M', 'L', 'R', 'Lee', 'Ann', 'Marie', 'James', 'Lynn', 'Ray', 'Jean', 'Paul', 'Edward', 'Louise'];

const STREETS = ['Main', 'Oak', 'Maple', 'Cedar', 'Pine', 'Elm', 'Washington', 'Lake', 'Hill', 'Sunset', 'Desert Inn', 'Charleston', 'Sahara', 'Flamingo',
  'Tropicana', 'Rancho', 'Lincoln', 'Jefferson', 'Madison', 'Franklin', 'Highland', 'Ridgeview', 'Willow', 'Spring', 'Meadow', 'Valley', 'Forest', 'River'];
const TYPES: [string, string][] = [['Street', 'St'], ['Avenue', 'Ave'], ['Road', 'Rd'], ['Boulevard', 'Blvd'], ['Drive', 'Dr'], ['Lane', 'Ln'], ['Court', 'Ct'], ['Place', 'Pl'], ['Way', 'Way'], ['Circle', 'Cir']];
const DIRS: [string, string][] = [['North', 'N'], ['South', 'S'], ['East', 'E'], ['West', 'W']];
const TOWNS: { city: string; state: string; zip: number; area: number }[] = [
  { city: 'Las Vegas', state: 'NV', zip: 89101, area: 702 }, { city: 'Henderson', state: 'NV', zip: 89002, area: 702 }, { city: 'Reno', state: 'NV', zip: 89501, area: 775 },
  { city: 'Phoenix', state: 'AZ', zip: 85003, area: 602 }, { city: 'Tucson', state: 'AZ', zip: 85701, area: 520 }, { city: 'Salt Lake City', state: 'UT', zip: 84101, area: 801 },
  { city: 'Denver', state: 'CO', zip: 80202, area: 303 }, { city: 'Albuquerque', state: 'NM', zip: 87102, area: 505 }, { city: 'San Diego', state: 'CA', zip: 92101, area: 619 },
  { city: 'Boise', state: 'ID', zip: 83702, area: 208 }, { city: 'Springfield', state: 'IL', zip: 62701, area: 217 }, { city: 'Austin', state: 'TX', zip: 78701, area: 512 },
];
const STATES_FULL: Record<string, string> = { NV: 'Nevada', AZ: 'Arizona', UT: 'Utah', CO: 'Colorado', NM: 'New Mexico', CA: 'California', ID: 'Idaho', IL: 'Illinois', TX: 'Texas' };
const MAIL_DOMAINS = ['example.com', 'example.net', 'example.org', 'mail.example', 'inbox.example'];
const REASONS = ['Card fraud: chargebacks on 14 accounts', 'Identity fraud: synthetic identity', 'Mule account: received and forwarded stolen funds', 'Loan fraud: falsified income documents',
  'Cheque kiting across branches', 'Account takeover of an elderly customer', 'Law-enforcement production order', 'Exited: refused due-diligence documents'];

interface Home {
  number: number;
  dir?: [string, string];
  street: string;
  type: [string, string];
  unit?: number;
  town: (typeof TOWNS)[number];
  zip: string;
  plus4?: string;
}

interface Person {
  given: string;
  nick: string[];
  middle?: string;
  surname: string;
  suffix?: 'Sr' | 'Jr';
  gender: 'M' | 'F';
  dob: { y: number; m: number; d: number };
  home: Home;
  phone: string;
  email: string;
  ssn?: string;
  dl?: { number: string; state: string };
  passport?: string;
}

export interface TruthCustomer {
  id: string;
  half: 'tuning' | 'heldback';
  class: string;
  /** a customer record as a firm's file holds it */
  name: string;
  dateOfBirth?: string;
  nationality?: string;
  address?: { line?: string; city?: string; region?: string; postalCode?: string; country?: string };
  phone?: string;
  email?: string;
  identifiers?: { type: string; value: string; country?: string }[];
  /** the key: the listed records that are this customer */
  matches: string[];
  note: string;
}

const isoDob = (d: Person['dob']) => `${d.y}-${pad(d.m)}-${pad(d.d)}`;
const randomDob = (): Person['dob'] => ({ y: int(1942, 2001), m: int(1, 12), d: int(1, 28) });

function newHome(town = pick(TOWNS)): Home {
  const zip = String(town.zip + int(0, 30)).padStart(5, '0');
  return {
    number: int(100, 9899),
    ...(rand() < 0.3 ? { dir: pick(DIRS) } : {}),
    street: pick(STREETS),
    type: pick(TYPES),
    ...(rand() < 0.35 ? { unit: int(1, 40) } : {}),
    town,
    zip,
    ...(rand() < 0.3 ? { plus4: pad(int(1, 9999), 4) } : {}),
  };
}

const phoneDigits = (area: number) => `${area}${int(200, 989)}${pad(int(0, 9999), 4)}`;
function phoneAs(digits: string, style: number): string {
  const [a, b, c] = [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6)];
  return [`${a}-${b}-${c}`, `(${a}) ${b}-${c}`, `+1 ${a} ${b} ${c}`, `${a}.${b}.${c}`, digits][style % 5]!;
}
const ssnOf = () => `${int(100, 665)}-${pad(int(1, 99))}-${pad(int(1, 9999), 4)}`;

function newPerson(gender: 'M' | 'F', surname = pick(SURNAMES), home = newHome()): Person {
  const [given, ...nick] = pick(gender === 'M' ? MALE : FEMALE);
  const first = given.toLowerCase();
  const digits = phoneDigits(home.town.area);
  return {
    given,
    nick,
    ...(rand() < 0.6 ? { middle: pick(MIDDLES) } : {}),
    surname,
    gender,
    dob: randomDob(),
    home,
    phone: digits,
    email: `${first}${rand() < 0.5 ? '.' : ''}${surname.toLowerCase()}${rand() < 0.5 ? int(1, 99) : ''}@${pick(MAIL_DOMAINS)}`,
    ...(rand() < 0.6 ? { ssn: ssnOf() } : {}),
    ...(rand() < 0.35 ? { dl: { number: `${String.fromCharCode(65 + int(0, 25))}${int(1000000, 9999999)}`, state: home.town.state } } : {}),
    ...(rand() < 0.25 ? { passport: String(int(500000000, 599999999)) } : {}),
  };
}

/** The street line as the list's export writes it (full words). */
const listLine = (h: Home) => `${h.number} ${h.dir ? `${h.dir[0]} ` : ''}${h.street} ${h.type[0]}${h.unit ? `, Apt ${h.unit}` : ''}`;
/** The whole address on one line, as a customer file keeps it, in one of several clerks' styles. */
function customerLine(h: Home, style = int(0, 4)): string {
  const dir = h.dir ? `${style % 2 ? h.dir[1] : h.dir[0]} ` : '';
  const type = style % 2 ? h.type[1] : h.type[0];
  const unit = h.unit ? [` Apt ${h.unit}`, ` #${h.unit}`, `, Unit ${h.unit}`, ` APT ${h.unit}`, ` Suite ${h.unit}`][style]! : '';
  const zip = style === 3 && h.plus4 ? `${h.zip}-${h.plus4}` : h.zip;
  const line = [
    `${h.number} ${dir}${h.street} ${type}${unit}, ${h.town.city}, ${h.town.state} ${zip}`,
    `${h.number} ${dir}${h.street} ${type}${unit} ${h.town.city} ${h.town.state} ${zip}`.toUpperCase(),
    `${h.number} ${dir}${h.street} ${type}${unit}, ${h.town.city} ${h.town.state} ${zip}`,
    `${h.number} ${dir}${h.street} ${type}${unit}, ${h.town.city}, ${STATES_FULL[h.town.state] ?? h.town.state} ${zip}, USA`,
    `${h.number} ${dir}${h.street} ${type}${unit}, ${h.town.city} ${h.town.state} ${zip}`.toUpperCase(),
  ][style]!;
  return line;
}
const fullName = (p: Person, opts: { nick?: boolean; middle?: boolean; surnameFirst?: boolean; upper?: boolean } = {}) => {
  const given = opts.nick && p.nick.length ? pick(p.nick) : p.given;
  const middle = opts.middle !== false && p.middle ? ` ${p.middle}` : '';
  const suffix = p.suffix ? ` ${p.suffix}` : '';
  const name = opts.surnameFirst ? `${p.surname}${suffix}, ${given}${middle}` : `${given}${middle} ${p.surname}${suffix}`;
  return opts.upper ? name.toUpperCase() : name;
};
/** Month-first, the way the vendor export writes dates; some with a two-digit year. */
const vendorDate = (d: Person['dob'], short: boolean) => `${d.m}/${d.d}/${short ? pad(d.y % 100) : d.y}`;

// ---- the list ----
interface Listed {
  id: string;
  person: Person;
  half: 'tuning' | 'heldback';
  status: 'Active' | 'Inactive';
  reason: string;
  /** address exported in one field (ADDR_FULL) instead of parts */
  addrFull: boolean;
  nativeName?: string;
  noName?: boolean;
}

const LISTED_COUNT = 40;
const listed: Listed[] = [];
for (let i = 0; i < LISTED_COUNT; i++) {
  const gender = i % 3 === 1 ? 'F' : 'M';
  const person = newPerson(gender);
  // fathers listed with their suffix (the son is a near miss), and one son listed as Jr
  if (gender === 'M' && i % 5 === 0) person.suffix = i % 10 === 0 ? 'Sr' : 'Jr';
  listed.push({ id: `WL-${pad(i + 1, 4)}`, person, half: i % 2 === 0 ? 'tuning' : 'heldback', status: 'Active', reason: pick(REASONS), addrFull: i % 4 === 3 });
}
// two inactive records (kept, not screened: a customer who is one of them must not alert)
for (let i = 0; i < 2; i++) listed.push({ id: `WL-9${pad(i + 1, 3)}`, person: newPerson(i ? 'F' : 'M'), half: i ? 'heldback' : 'tuning', status: 'Inactive', reason: 'Cleared after review', addrFull: false });
// a row with no name but a strong identifier (an SSN and an e-mail seen on fraudulent applications)
const noName = newPerson('M');
noName.ssn = ssnOf();
listed.push({ id: 'WL-9101', person: noName, half: 'tuning', status: 'Active', reason: 'Synthetic identity: SSN and e-mail used on 6 applications', addrFull: false, noName: true });
const noName2 = newPerson('F');
noName2.ssn = ssnOf();
listed.push({ id: 'WL-9102', person: noName2, half: 'heldback', status: 'Active', reason: 'Synthetic identity: SSN used on 4 applications', addrFull: false, noName: true });
// a record known by a native-script name only (the vendor's NATIVE_NAME_FULL)
const native = newPerson('M', 'Petrov');
native.given = 'Ivan';
native.nick = ['Vanya'];
native.middle = undefined;
listed.push({ id: 'WL-9201', person: native, half: 'tuning', status: 'Active', reason: 'Mule account', addrFull: false, nativeName: 'Иван Петров' });

// ---- customers ----
const customers: TruthCustomer[] = [];
let cid = 0;
const nextId = () => `C-${pad(++cid, 5)}`;
function customer(half: TruthCustomer['half'], cls: string, matches: string[], note: string, facts: Omit<TruthCustomer, 'id' | 'half' | 'class' | 'matches' | 'note'>): void {
  customers.push({ id: nextId(), half, class: cls, ...facts, matches, note });
}
const lineOf = (h: Home) => ({ line: customerLine(h) });
const swap = (d: Person['dob']) => ({ ...d, m: d.d, d: d.m });

const HARD_CLASSES = ['moved_dob_typo', 'unknown_short_form_phone', 'initial_email', 'surname_typo_ssn', 'swap_only', 'doppelganger', 'neighbour_same_name'] as const;
const MATCH_CLASSES = ['nickname_line', 'changed_surname', 'same_ssn', 'dob_swap_line', 'shared_phone', 'shared_email', 'moved_same_dob', 'dob_typo_address', 'same_passport', 'same_licence'] as const;

listed.forEach((l, i) => {
  const p = l.person;
  const key = l.status === 'Active' ? [l.id] : [];
  if (l.noName) {
    customer(l.half, 'no_name_entry', key, 'the listed SSN and e-mail under a name', { name: `${pick(ALL_GIVEN)} ${pick(SURNAMES)}`, dateOfBirth: isoDob(randomDob()), identifiers: [{ type: 'national_id', value: p.ssn!.replace(/-/g, '') }], email: p.email });
    return;
  }
  if (l.nativeName) {
    customer(l.half, 'native_script', key, 'the romanised name of a native-script entry, same DOB and home', { name: 'Ivan Petrov', dateOfBirth: isoDob(p.dob), address: lineOf(p.home) });
    return;
  }
  if (l.status === 'Inactive') {
    customer(l.half, 'inactive_entry', [], 'the person of an inactive entry (cleared): no alert', { name: fullName(p), dateOfBirth: isoDob(p.dob), address: lineOf(p.home) });
    return;
  }
  // one or two customers who are the listed person
  // both halves get every class: the class follows the pair index (i / 2), the half the parity
  const k = Math.floor(i / 2);
  const classes = [MATCH_CLASSES[k % MATCH_CLASSES.length]!, ...(i % 3 === 0 ? [MATCH_CLASSES[(k + 5) % MATCH_CLASSES.length]!] : [])];
  for (const cls of classes) {
    switch (cls) {
      case 'nickname_line':
        customer(l.half, cls, key, 'short form, the file\'s SURNAME, Given order, same DOB, same home on one line', {
          name: fullName(p, { nick: true, surnameFirst: true, upper: rand() < 0.5 }), dateOfBirth: isoDob(p.dob), address: lineOf(p.home), phone: phoneAs(phoneDigits(p.home.town.area), 0),
        });
        break;
      case 'changed_surname':
        customer(l.half, cls, key, 'same given name, DOB and home, another surname (married)', { name: `${p.given} ${pick(SURNAMES)}`, dateOfBirth: isoDob(p.dob), address: lineOf(p.home) });
        break;
      case 'same_ssn':
        if (!p.ssn) p.ssn = ssnOf();
        customer(l.half, cls, key, 'the listed SSN and DOB under another surname', { name: `${p.given} ${pick(SURNAMES)}`, dateOfBirth: isoDob(p.dob), identifiers: [{ type: 'national_id', value: p.ssn.replace(/-/g, '') }] });
        break;
      case 'dob_swap_line':
        customer(l.half, cls, key, 'day and month swapped, the same home written on one line', { name: fullName(p, { middle: false }), dateOfBirth: isoDob(p.dob.d <= 12 ? swap(p.dob) : p.dob), address: lineOf(p.home) });
        break;
      case 'shared_phone':
        customer(l.half, cls, key, 'a short form and the listed phone written another way, nothing else', { name: fullName(p, { nick: true, middle: false }), phone: phoneAs(p.phone, i + 1) });
        break;
      case 'shared_email':
        customer(l.half, cls, key, 'the listed e-mail in other case, name surname first', { name: fullName(p, { surnameFirst: true, middle: rand() < 0.5 }), email: p.email.toUpperCase() });
        break;
      case 'moved_same_dob':
        customer(l.half, cls, key, 'moved house, same DOB and name', { name: fullName(p), dateOfBirth: isoDob(p.dob), address: lineOf(newHome()) });
        break;
      case 'dob_typo_address':
        customer(l.half, cls, key, 'one digit of the DOB mistyped, same home in fields', {
          name: fullName(p, { nick: true }), dateOfBirth: isoDob({ ...p.dob, d: p.dob.d === 28 ? 18 : p.dob.d + 1 }),
          address: { line: `${p.home.number} ${p.home.dir ? `${p.home.dir[1]} ` : ''}${p.home.street} ${p.home.type[1]}${p.home.unit ? ` #${p.home.unit}` : ''}`, city: p.home.town.city, region: p.home.town.state, postalCode: p.home.zip },
        });
        break;
      case 'same_passport':
        if (!p.passport) p.passport = String(int(500000000, 599999999));
        customer(l.half, cls, key, 'the listed passport, surname spelt one letter off', { name: `${p.given} ${p.surname.slice(0, -1)}${p.surname.endsWith('e') ? 'a' : 'e'}`, identifiers: [{ type: 'passport', value: p.passport }] });
        break;
      case 'same_licence':
        if (!p.dl) p.dl = { number: `${String.fromCharCode(65 + int(0, 25))}${int(1000000, 9999999)}`, state: p.home.town.state };
        customer(l.half, cls, key, 'the listed driver\'s licence, same name, nothing else', { name: fullName(p, { middle: false }), identifiers: [{ type: 'other', value: p.dl.number }] });
        break;
    }
  }
  // one harder case per listed person: some the policy cannot get right by design (nothing tells
  // them from a namesake), written before looking at any result of theirs
  const hard = HARD_CLASSES[(k + i) % HARD_CLASSES.length]!;
  switch (hard) {
    case 'moved_dob_typo':
      customer(l.half, hard, key, 'moved house and the DOB mistyped: nothing left to tell them from a namesake', { name: fullName(p), dateOfBirth: isoDob({ ...p.dob, d: p.dob.d === 28 ? 18 : p.dob.d + 1 }), address: lineOf(newHome()) });
      break;
    case 'unknown_short_form_phone': {
      const short = p.gender === 'M' ? pick(['Jock', 'Sonny', 'Buddy']) : pick(['Bunny', 'Sissy', 'Dolly']);
      customer(l.half, hard, key, `a pet name no table holds ("${short}") and the listed phone`, { name: `${short} ${p.surname}`, phone: phoneAs(p.phone, 4) });
      break;
    }
    case 'initial_email':
      customer(l.half, hard, key, 'an initial for the given name and the listed e-mail', { name: `${p.given[0]}. ${p.surname}`, email: p.email });
      break;
    case 'surname_typo_ssn':
      if (!p.ssn) p.ssn = ssnOf();
      customer(l.half, hard, key, 'the surname misspelt and the listed SSN', { name: `${p.given} ${p.surname.length > 4 ? p.surname.slice(0, 2) + p.surname[3] + p.surname[2] + p.surname.slice(4) : p.surname + 's'}`, identifiers: [{ type: 'national_id', value: p.ssn }] });
      break;
    case 'swap_only':
      customer(l.half, hard, key, 'the name and the DOB with day and month swapped, nothing else', { name: fullName(p), dateOfBirth: isoDob(p.dob.d <= 12 && p.dob.d !== p.dob.m ? swap(p.dob) : p.dob) });
      break;
    case 'doppelganger': {
      const twin = newPerson(p.gender, p.surname);
      customer(l.half, hard, [], 'another person of the same name born the same day, elsewhere (alerts by design: nothing tells them apart)', { name: fullName(p), dateOfBirth: isoDob(p.dob), address: lineOf(twin.home) });
      break;
    }
    case 'neighbour_same_name': {
      const h = { ...p.home, number: p.home.number + 2, unit: undefined };
      customer(l.half, hard, [], 'a namesake two doors down, born another year', { name: fullName(p, { middle: false }), dateOfBirth: isoDob({ ...p.dob, y: p.dob.y + 9 }), address: lineOf(h) });
      break;
    }
  }
  // near misses around the listed person (never the same person)
  const kin = (gender: 'M' | 'F', given?: string) => {
    const k = newPerson(gender, p.surname, p.home);
    if (given) k.given = given;
    return k;
  };
  const misses = Math.floor(i / 2) % 4;
  if (p.suffix) {
    const son = kin('M', p.given);
    son.middle = p.middle;
    son.suffix = p.suffix === 'Sr' ? 'Jr' : 'Sr';
    son.dob = { ...p.dob, y: p.suffix === 'Sr' ? p.dob.y + 26 : p.dob.y - 27 };
    customer(l.half, 'father_son', [], `the ${son.suffix === 'Jr' ? 'son' : 'father'} (${son.suffix}) at the listed person's home, on the same phone`, { name: fullName(son), address: lineOf(p.home), phone: phoneAs(p.phone, 1) });
    customer(l.half, 'father_son', [], `the ${son.suffix === 'Jr' ? 'son' : 'father'} (${son.suffix}) with his own DOB`, { name: fullName(son), dateOfBirth: isoDob(son.dob), address: lineOf(p.home) });
  }
  const spouse = kin(p.gender === 'M' ? 'F' : 'M');
  customer(l.half, 'spouse', [], 'the spouse: same surname, home and phone', { name: fullName(spouse), dateOfBirth: isoDob(spouse.dob), address: lineOf(p.home), phone: phoneAs(p.phone, 3) });
  const sibling = kin(p.gender);
  while (sibling.given === p.given) sibling.given = pick(p.gender === 'M' ? MALE : FEMALE)[0];
  customer(l.half, 'sibling', [], 'a sibling at the family home', { name: fullName(sibling), dateOfBirth: isoDob(sibling.dob), address: lineOf(p.home) });
  const namesake = newPerson(p.gender, p.surname);
  namesake.given = p.given;
  namesake.middle = p.middle;
  customer(l.half, 'namesake', [], 'the same name, born another day, living elsewhere', { name: fullName(namesake), dateOfBirth: isoDob(namesake.dob), address: lineOf(namesake.home), phone: phoneAs(namesake.phone, 0) });
  if (misses === 0) {
    const twin = kin(p.gender);
    while (twin.given === p.given) twin.given = pick(p.gender === 'M' ? MALE : FEMALE)[0];
    twin.dob = { ...p.dob };
    customer(l.half, 'twin', [], 'a twin: same surname, DOB and home, another given name', { name: fullName(twin), dateOfBirth: isoDob(twin.dob), address: lineOf(p.home) });
  }
  if (misses === 1) {
    const born = newPerson(p.gender);
    born.dob = { ...p.dob };
    customer(l.half, 'same_birthday', [], 'another person born the same day', { name: fullName(born), dateOfBirth: isoDob(born.dob), address: lineOf(born.home) });
  }
  if (misses === 2 && p.gender === 'F') {
    const daughter = kin('F', p.given);
    daughter.dob = { ...p.dob, y: p.dob.y + 24 };
    customer(l.half, 'mother_daughter', [], 'a daughter of the same name at the same home', { name: `${p.given} ${p.surname}`, dateOfBirth: isoDob(daughter.dob), address: lineOf(p.home) });
  }
  if (misses === 3) {
    const colleague = newPerson(rand() < 0.5 ? 'M' : 'F');
    customer(l.half, 'shared_office_phone', [], 'a colleague on the same office phone', { name: fullName(colleague), phone: phoneAs(p.phone, 2), address: lineOf(colleague.home) });
  }
  if (misses === 2 && p.gender === 'M') {
    customer(l.half, 'name_only', [], 'the same name and nothing else: a name alone never alerts', { name: fullName(p) });
  }
});
// unrelated customers
for (let i = 0; i < 80; i++) {
  const p = newPerson(i % 2 ? 'F' : 'M');
  customer(i % 2 ? 'heldback' : 'tuning', 'unrelated', [], 'an ordinary customer', {
    name: rand() < 0.3 ? fullName(p, { surnameFirst: true }) : fullName(p), dateOfBirth: isoDob(p.dob), address: lineOf(p.home), phone: phoneAs(p.phone, i), email: p.email,
    ...(p.ssn && rand() < 0.5 ? { identifiers: [{ type: 'national_id', value: p.ssn }] } : {}),
  });
}

// ---- the vendor export ----
const COLUMNS = [
  'RECORD_ID', 'RECORD_TYPE', 'STATUS', 'PRIMARY_NAME_LAST', 'PRIMARY_NAME_FIRST', 'PRIMARY_NAME_MIDDLE', 'PRIMARY_NAME_SUFFIX', 'PRIMARY_NAME_FULL', 'NATIVE_NAME_FULL', 'GENDER',
  'DATE_OF_BIRTH', 'ADDR_LINE1', 'ADDR_LINE2', 'ADDR_CITY', 'ADDR_STATE', 'ADDR_POSTAL_CODE', 'ADDR_COUNTRY', 'ADDR_FULL', 'PHONE_NUMBER', 'EMAIL_ADDRESS', 'SSN_NUMBER',
  'DRIVERS_LICENSE_NUMBER', 'DRIVERS_LICENSE_STATE', 'PASSPORT_NUMBER', 'PASSPORT_COUNTRY', 'REASON',
] as const;
type Row = Partial<Record<(typeof COLUMNS)[number], string>>;

function vendorRow(l: Listed, i: number): Row {
  const p = l.person;
  const h = p.home;
  const row: Row = { RECORD_ID: l.id, RECORD_TYPE: 'PERSON', STATUS: l.status, GENDER: p.gender, REASON: l.reason };
  if (l.nativeName) row.NATIVE_NAME_FULL = l.nativeName;
  else if (!l.noName) {
    // most records parsed, some as one full name
    if (i % 6 === 5) row.PRIMARY_NAME_FULL = fullName(p);
    else Object.assign(row, { PRIMARY_NAME_LAST: p.surname, PRIMARY_NAME_FIRST: p.given, ...(p.middle ? { PRIMARY_NAME_MIDDLE: p.middle } : {}), ...(p.suffix ? { PRIMARY_NAME_SUFFIX: p.suffix } : {}) });
  }
  if (!l.noName) row.DATE_OF_BIRTH = vendorDate(p.dob, i % 7 === 3);
  if (l.addrFull) row.ADDR_FULL = `${listLine(h)}, ${h.town.city}, ${h.town.state} ${h.zip}${h.plus4 ? `-${h.plus4}` : ''}`;
  else {
    Object.assign(row, {
      ADDR_LINE1: `${h.number} ${h.dir ? `${h.dir[0]} ` : ''}${h.street} ${h.type[0]}`,
      ...(h.unit ? { ADDR_LINE2: `Apt ${h.unit}` } : {}),
      ADDR_CITY: h.town.city,
      ADDR_STATE: h.town.state,
      ADDR_POSTAL_CODE: `${h.zip}${h.plus4 ? `-${h.plus4}` : ''}`,
      ADDR_COUNTRY: 'US',
    });
  }
  if (!l.noName || i % 2) row.PHONE_NUMBER = phoneAs(p.phone, i);
  row.EMAIL_ADDRESS = p.email;
  if (p.ssn) row.SSN_NUMBER = p.ssn;
  if (p.dl) Object.assign(row, { DRIVERS_LICENSE_NUMBER: p.dl.number, DRIVERS_LICENSE_STATE: p.dl.state });
  if (p.passport) Object.assign(row, { PASSPORT_NUMBER: p.passport, PASSPORT_COUNTRY: 'US' });
  return row;
}

const csvCell = (v: string | undefined) => (v === undefined ? '' : /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const rows = listed.map(vendorRow);
const csv = [COLUMNS.join(','), ...rows.map((r) => COLUMNS.map((c) => csvCell(r[c])).join(','))].join('\r\n') + '\r\n';

/** The same record in the vendor's nested JSON form: one object per line, its features in a list. */
function nestedJson(r: Row): Record<string, unknown> {
  const features: Record<string, string>[] = [];
  const take = (...cols: (keyof Row)[]) => {
    const f: Record<string, string> = {};
    for (const c of cols) if (r[c] !== undefined) f[c.replace(/^PRIMARY_/, '').replace(/^NATIVE_/, '')] = r[c]!;
    return f;
  };
  features.push({ RECORD_TYPE: r.RECORD_TYPE! });
  const name = take('PRIMARY_NAME_LAST', 'PRIMARY_NAME_FIRST', 'PRIMARY_NAME_MIDDLE', 'PRIMARY_NAME_SUFFIX', 'PRIMARY_NAME_FULL');
  if (Object.keys(name).length) features.push({ NAME_TYPE: 'PRIMARY', ...name });
  if (r.NATIVE_NAME_FULL) features.push({ NAME_TYPE: 'NATIVE', NAME_FULL: r.NATIVE_NAME_FULL });
  if (r.GENDER) features.push({ GENDER: r.GENDER });
  if (r.DATE_OF_BIRTH) features.push({ DATE_OF_BIRTH: r.DATE_OF_BIRTH });
  const addr = take('ADDR_LINE1', 'ADDR_LINE2', 'ADDR_CITY', 'ADDR_STATE', 'ADDR_POSTAL_CODE', 'ADDR_COUNTRY', 'ADDR_FULL');
  if (Object.keys(addr).length) features.push({ ADDR_TYPE: 'HOME', ...addr });
  if (r.PHONE_NUMBER) features.push({ PHONE_TYPE: 'HOME', PHONE_NUMBER: r.PHONE_NUMBER });
  if (r.EMAIL_ADDRESS) features.push({ EMAIL_ADDRESS: r.EMAIL_ADDRESS });
  if (r.SSN_NUMBER) features.push({ SSN_NUMBER: r.SSN_NUMBER });
  if (r.DRIVERS_LICENSE_NUMBER) features.push({ DRIVERS_LICENSE_NUMBER: r.DRIVERS_LICENSE_NUMBER, DRIVERS_LICENSE_STATE: r.DRIVERS_LICENSE_STATE! });
  if (r.PASSPORT_NUMBER) features.push({ PASSPORT_NUMBER: r.PASSPORT_NUMBER, PASSPORT_COUNTRY: r.PASSPORT_COUNTRY! });
  return { DATA_SOURCE: 'WATCHLIST', RECORD_ID: r.RECORD_ID, STATUS: r.STATUS, FEATURES: features, REASON: r.REASON };
}

// ---- the entries an import must produce (the key of the import, and the screening benches' list) ----
function entryOf(l: Listed, row: Row): WatchlistEntry {
  const p = l.person;
  const h = p.home;
  const primaryName = l.nativeName ?? (l.noName ? '' : row.PRIMARY_NAME_FULL ?? [p.given, p.middle, p.surname, p.suffix].filter(Boolean).join(' '));
  return {
    entryId: l.id,
    entityType: 'person',
    primaryName,
    aliases: [],
    datesOfBirth: l.noName ? [] : [isoDob(p.dob)],
    nationalities: [],
    addresses: [
      l.addrFull
        ? { line: row.ADDR_FULL! }
        : { line: `${row.ADDR_LINE1}${h.unit ? `, Apt ${h.unit}` : ''}`, city: h.town.city, region: h.town.state, postalCode: row.ADDR_POSTAL_CODE!, country: 'US' },
    ],
    identifiers: [
      ...(row.PHONE_NUMBER ? [{ kind: 'phone' as const, value: row.PHONE_NUMBER }] : []),
      { kind: 'email' as const, value: p.email },
      ...(p.ssn ? [{ kind: 'national_id' as const, value: p.ssn, country: 'US' }] : []),
      ...(p.dl ? [{ kind: 'drivers_license' as const, value: p.dl.number, country: 'US', region: p.dl.state }] : []),
      ...(p.passport ? [{ kind: 'passport' as const, value: p.passport, country: 'US' }] : []),
    ],
    reason: l.reason,
    ...(l.status === 'Inactive' ? { status: 'inactive' as const } : {}),
    gender: p.gender === 'M' ? 'male' : 'female',
    addedBy: 'import',
    addedAt: '2026-11-01T00:00:00.000Z',
  };
}

const dir = new URL('./truthset/', import.meta.url);
mkdirSync(dir, { recursive: true });
writeFileSync(new URL('watchlist.csv', dir), csv);
writeFileSync(new URL('watchlist.jsonl', dir), rows.map((r) => JSON.stringify(nestedJson(r))).join('\n') + '\n');
writeFileSync(new URL('entries.json', dir), JSON.stringify(listed.map((l, i) => entryOf(l, rows[i]!)), null, 1) + '\n');
writeFileSync(new URL('customers.jsonl', dir), customers.map((c) => JSON.stringify(c)).join('\n') + '\n');
const pairs = customers.reduce((n, c) => n + c.matches.length, 0);
const byHalf = (h: string) => customers.filter((c) => c.half === h);
console.log(
  `listed ${listed.length} (${listed.filter((l) => l.status === 'Active').length} active), customers ${customers.length} (tuning ${byHalf('tuning').length}, held back ${byHalf('heldback').length}), true pairs ${pairs} (held back ${byHalf('heldback').reduce((n, c) => n + c.matches.length, 0)})`,
);
