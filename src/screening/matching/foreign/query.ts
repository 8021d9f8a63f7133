/**
 * A query name prepared for screening (issue 32): its titles in any language dropped (titles.ts), and
 * its foreign-name readings (readings.ts) attached as alternatives. Only queries: listed names are
 * prepared by prepare.ts alone.
 */
import { makeToken, newPrepared, prepareAsPerson, prepareName, type PreparedName, type SchemaHint } from '../prepare';
import { transliterateTokens } from '../text';
import { foreignReadings, readsAsNameWord } from './readings';
import { stripTitles } from './titles';

export interface PreparedQueryName {
  /** The query as it comes (with `schema`). */
  q: PreparedName;
  /** Read as a person's name, for listed persons when no schema was given (prepareAsPerson: often q itself). */
  qPerson: PreparedName;
  /**
   * Its foreign-name readings (readings.ts): not attached to q, so a caller keeps what each finds apart
   * (engine.ts compares a reading's candidates through the reading only).
   */
  readings: PreparedName[];
}

/** The query prepared; `readings` false leaves out the foreign-name readings (to measure them: bench/screening/foreign). */
export function prepareQueryName(name: string, schema: SchemaHint, readings = true): PreparedQueryName {
  const orgLike = schema === 'organization' || schema === 'vessel' || schema === 'aircraft';
  const { name: bare, dropped } = orgLike ? { name, dropped: [] } : stripTitles(name, readsAsNameWord);
  const q = prepareName(bare, schema);
  const qPerson = !schema || schema === 'unknown' ? prepareAsPerson(bare, q) : q;
  const both = q === qPerson ? [q] : [q, qPerson];
  if (dropped.length) for (const p of both) p.notes.push(`title ${dropped.map((d) => `"${d}"`).join(', ')} is not part of the name`);
  for (const p of both) {
    initialsNotWords(p);
    markFollowingInitials(p);
  }
  return { q, qPerson, readings: readings ? foreignReadings(bare, schema) : [] };
}

/** A letter written as an initial: a capital alone or any letter with a full stop (D. A., D.A., Д.А.); not the "u" of Hong In-u. */
const WRITTEN_INITIAL = /(?:^|[\s,.])(?:\p{Lu}(?=$|[\s,.])|\p{L}\.)/u;

/**
 * The query without its initials, to look candidates up by (issue 32: "D. A. Medvedev", "Medvedev D.A."):
 * an initial is looked up as a one-letter word, which only a listed name written with initials has, so a
 * listed "MEDVEDEV, Dmitry Anatolievich" is reached through the surname alone, and can be outranked by
 * the many names a weak key of the surname and the initials' letters bring. Undefined when the query has
 * no initial or no other name word. The candidates are compared with the whole query (initials agreeing).
 */
export function withoutInitials(q: PreparedName): PreparedName | undefined {
  if (!q.tokens.some((t) => t.initial) || !WRITTEN_INITIAL.test(q.raw)) return undefined;
  const tokens = q.tokens.filter((t) => !t.initial);
  if (!tokens.some((t) => t.kind === 'name')) return undefined;
  return newPrepared(q.raw, tokens, q.numbers, q.key, q.org, [], []);
}

/**
 * A one-letter word written with a full stop is an initial, never the stop word the letter also is
 * (English "a", Russian "а", "и"): "А. А. Кострубицкий", "D. A. Medvedev" name Aleksey Aleksandrovich,
 * Dmitry Anatolievich, and only as initials do those letters agree with the listed names.
 */
function initialsNotWords(p: PreparedName): void {
  const written = new Set<string>();
  for (const m of p.raw.matchAll(/(?<=^|[\s,.])(\p{L})\./gu)) for (const t of transliterateTokens(m[1])) written.add(t.norm);
  if (!written.size) return;
  p.tokens.forEach((t, i) => {
    if (t.kind === 'stop' && t.norm.length === 1 && written.has(t.norm)) p.tokens[i] = makeToken(t.norm, t.origin, 'name', t.pos, t.display);
  });
}

/** Marks each initial written right after another ("D. A. Medvedev", "Medvedev D.A."): compare.ts lets it stand for a patronymic. */
function markFollowingInitials(p: PreparedName): void {
  const names = p.tokens.filter((t) => t.kind === 'name');
  for (let i = 1; i < names.length; i++) if (names[i].initial && names[i - 1].initial) names[i].followsInitial = true;
}
