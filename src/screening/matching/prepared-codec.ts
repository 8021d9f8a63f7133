/**
 * The listed names' prepared forms in an index snapshot, stored by column: every distinct string once
 * (a table), each name and each token a row of numbers in typed arrays. Stored as objects, the 57,000
 * prepared names of the bundled lists were 1.1 million strings and 240,000 objects for v8 to
 * deserialise in every batch worker, each with another hidden class than the matcher's hot code
 * expects (see newPrepared); by column a worker deserialises one string per distinct string and makes
 * each token once, with makeToken's literal.
 *
 * Round trip: decodePreparedNames(encodePreparedNames(names)) gives names deep-equal to `names`, with
 * every field of every token and name (test/unit/screening/matching/prepared-codec.test.ts).
 */
import { newPrepared, type NameToken, type PreparedName } from './prepare';

/** Lists of strings, one per row: row r's items are items[start[r] .. start[r+1]) (string ids); present[r] = 0 when the row has none (undefined). */
interface StringLists {
  start: Int32Array;
  items: Int32Array;
  present: Uint8Array;
}

export interface PreparedColumns {
  strings: string[];
  // per name
  raw: Int32Array;
  key: Int32Array;
  /** -1: none. */
  reading: Int32Array;
  /** PreparedName.commaAt, -1 when undefined. */
  commaAt: Int32Array;
  /** org (bit 0), then vessel, holding and burmese in two bits each: 0 undefined, 1 false, 2 true. */
  nameFlags: Uint8Array;
  tokenStart: Int32Array;
  numbers: StringLists;
  acronyms: StringLists;
  skipAcronyms: StringLists;
  notes: StringLists;
  /** The few names with former names or other readings: those, by column too. */
  alternatives: { name: number; alternatives: PreparedColumns }[];
  // per token
  display: Int32Array;
  norm: Int32Array;
  fold: Int32Array;
  skel: Int32Array;
  meta0: Int32Array;
  meta1: Int32Array;
  /** -1: none. */
  generic: Int32Array;
  hebrew: Int32Array;
  korean: Int32Array;
  native: Int32Array;
  /** String ids of the token's origin and kind. */
  origin: Int32Array;
  kind: Int32Array;
  pos: Int32Array;
  /** initial (1), common (2), patronymic (4), pinyin (8). */
  tokenFlags: Uint8Array;
  renderings: StringLists;
}

const triState = (b: boolean | undefined): number => (b === undefined ? 0 : b ? 2 : 1);
const fromTriState = (v: number): boolean | undefined => (v === 0 ? undefined : v === 2);

class StringTable {
  readonly strings: string[] = [];
  private readonly ids = new Map<string, number>();
  id(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(s);
      this.ids.set(s, id);
    }
    return id;
  }
  optionalId(s: string | undefined): number {
    return s === undefined ? -1 : this.id(s);
  }
}

function encodeLists(rows: (readonly string[] | undefined)[], table: StringTable): StringLists {
  const start = new Int32Array(rows.length + 1);
  const present = new Uint8Array(rows.length);
  const items: number[] = [];
  rows.forEach((row, r) => {
    start[r] = items.length;
    if (row) {
      present[r] = 1;
      for (const s of row) items.push(table.id(s));
    }
  });
  start[rows.length] = items.length;
  return { start, items: Int32Array.from(items), present };
}

function decodeList(lists: StringLists, r: number, strings: string[]): string[] | undefined {
  if (!lists.present[r]) return undefined;
  // (pushed, as prepareName fills its arrays: a packed array, not a holey one of another hidden class)
  const out: string[] = [];
  for (let k = lists.start[r]; k < lists.start[r + 1]; k++) out.push(strings[lists.items[k]]);
  return out;
}

export function encodePreparedNames(names: readonly PreparedName[]): PreparedColumns {
  const table = new StringTable();
  const tokens = names.flatMap((p) => p.tokens);
  const n = names.length;
  const tokenStart = new Int32Array(n + 1);
  let t = 0;
  names.forEach((p, i) => {
    tokenStart[i] = t;
    t += p.tokens.length;
  });
  tokenStart[n] = t;
  const perName = (f: (p: PreparedName) => number) => Int32Array.from(names, f);
  const perToken = (f: (t: NameToken) => number) => Int32Array.from(tokens, f);
  return {
    raw: perName((p) => table.id(p.raw)),
    key: perName((p) => table.id(p.key)),
    reading: perName((p) => table.optionalId(p.reading)),
    commaAt: perName((p) => p.commaAt ?? -1),
    nameFlags: Uint8Array.from(names, (p) => (p.org ? 1 : 0) | (triState(p.vessel) << 1) | (triState(p.holding) << 3) | (triState(p.burmese) << 5)),
    tokenStart,
    numbers: encodeLists(names.map((p) => p.numbers), table),
    acronyms: encodeLists(names.map((p) => p.acronyms), table),
    skipAcronyms: encodeLists(names.map((p) => p.skipAcronyms), table),
    notes: encodeLists(names.map((p) => p.notes), table),
    alternatives: names.flatMap((p, name) => (p.alternatives ? [{ name, alternatives: encodePreparedNames(p.alternatives) }] : [])),
    display: perToken((tok) => table.id(tok.display)),
    norm: perToken((tok) => table.id(tok.norm)),
    fold: perToken((tok) => table.id(tok.fold)),
    skel: perToken((tok) => table.id(tok.skel)),
    meta0: perToken((tok) => table.id(tok.meta[0])),
    meta1: perToken((tok) => table.id(tok.meta[1])),
    generic: perToken((tok) => table.optionalId(tok.generic)),
    hebrew: perToken((tok) => table.optionalId(tok.hebrew)),
    korean: perToken((tok) => table.optionalId(tok.korean)),
    native: perToken((tok) => table.optionalId(tok.native)),
    origin: perToken((tok) => table.id(tok.origin)),
    kind: perToken((tok) => table.id(tok.kind)),
    pos: perToken((tok) => tok.pos),
    tokenFlags: Uint8Array.from(tokens, (tok) => (tok.initial ? 1 : 0) | (tok.common ? 2 : 0) | (tok.patronymic ? 4 : 0) | (tok.pinyin ? 8 : 0)),
    renderings: encodeLists(tokens.map((tok) => tok.renderings), table),
    strings: table.strings,
  };
}

export function decodePreparedNames(c: PreparedColumns): PreparedName[] {
  const s = c.strings;
  const optional = (id: number) => (id < 0 ? undefined : s[id]);
  const names = new Array<PreparedName>(c.raw.length);
  for (let i = 0; i < names.length; i++) {
    const tokens: NameToken[] = [];
    for (let t = c.tokenStart[i]; t < c.tokenStart[i + 1]; t++) {
      const flags = c.tokenFlags[t];
      // (the literal of makeToken, field for field: one shape)
      tokens.push({
        display: s[c.display[t]],
        norm: s[c.norm[t]],
        fold: s[c.fold[t]],
        skel: s[c.skel[t]],
        meta: [s[c.meta0[t]], s[c.meta1[t]]],
        origin: s[c.origin[t]] as NameToken['origin'],
        kind: s[c.kind[t]] as NameToken['kind'],
        pos: c.pos[t],
        initial: (flags & 1) !== 0,
        common: (flags & 2) !== 0,
        patronymic: (flags & 4) !== 0,
        renderings: decodeList(c.renderings, t, s),
        generic: optional(c.generic[t]),
        hebrew: optional(c.hebrew[t]),
        korean: optional(c.korean[t]),
        native: optional(c.native[t]),
        pinyin: (flags & 8) !== 0,
      });
    }
    const flags = c.nameFlags[i];
    const p = newPrepared(s[c.raw[i]], tokens, decodeList(c.numbers, i, s)!, s[c.key[i]], (flags & 1) !== 0, decodeList(c.acronyms, i, s)!, decodeList(c.notes, i, s)!);
    p.skipAcronyms = decodeList(c.skipAcronyms, i, s);
    p.vessel = fromTriState((flags >> 1) & 3);
    p.holding = fromTriState((flags >> 3) & 3);
    p.burmese = fromTriState((flags >> 5) & 3);
    p.reading = optional(c.reading[i]);
    p.commaAt = c.commaAt[i] < 0 ? undefined : c.commaAt[i];
    names[i] = p;
  }
  for (const { name, alternatives } of c.alternatives) names[name].alternatives = decodePreparedNames(alternatives);
  return names;
}
