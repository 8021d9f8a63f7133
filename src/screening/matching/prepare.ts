/**
 * Turns a raw name into typed tokens ready for indexing and comparison.
 * Done once per listed name at build time and once per query.
 */
import { doubleMetaphone } from 'double-metaphone';
import type { EntitySchema } from '../model';
import {
  AMBIGUOUS_LEGAL_FORMS,
  COMMON_GIVEN_NAMES,
  HONORIFICS,
  NAME_VARIANTS,
  ORG_STOP_WORDS,
  PARTICLES,
  PATRONYMIC,
  SUN_LETTER_ARTICLES,
  matchLegalForm,
} from './lexicon';
import { foldToken, skeleton, transliterateTokens, type RawToken, type TokenOrigin } from './text';

export type TokenKind = 'name' | 'particle' | 'legal' | 'number' | 'honorific' | 'stop';

export interface NameToken {
  /** What to show an analyst: the transliterated word (or the legal-form phrase). */
  display: string;
  norm: string;
  fold: string;
  skel: string;
  /** double-metaphone codes (primary, secondary), empty strings when not applicable. */
  meta: [string, string];
  origin: TokenOrigin;
  kind: TokenKind;
  /** Position among the name's tokens. */
  pos: number;
  /** A single letter: an initial. */
  initial: boolean;
  /** A very common given name: can match but cannot carry a match alone. */
  common: boolean;
  /** A Slavic patronymic: a middle name often left out. */
  patronymic: boolean;
}

export interface PreparedName {
  raw: string;
  tokens: NameToken[];
  /** Digits found in the name ("Sea Star 2" → ["2"]): they must agree. */
  numbers: string[];
  /** The space-joined fold of the name tokens, for exact-equality checks and dedup. */
  key: string;
}

export type SchemaHint = EntitySchema | undefined;

const ABD_PREFIX = /^(abd|abdu|abdul|abdel|abdal|abdol|abdoul|abdur|abdar|abdus|abdas|abdul|abed)$/;
const ABD_JOINED = /^(abdul|abdel|abdal|abdol|abdoul|abdur|abdus|abdu)(.{3,})$/;

function abdName(rest: string): string {
  if (/^(a|u|e)?ll?ah?$/.test(rest) || rest === 'lh') return 'abdallah';
  return `abd${rest.replace(/^(al|el|ul|ar|as|ur|us)(?=.{3,})/, '')}`;
}

/** Arabic theophoric names written in 1, 2 or 3 words ("Abd al-Rahman", "Abdul Rahman", "Abdulrahman") → one token. */
function mergeAbd(raw: RawToken[]): RawToken[] {
  const out: RawToken[] = [];
  for (let i = 0; i < raw.length; i++) {
    const t = raw[i];
    const norm = t.origin === 'abjad' && t.norm === 'bd' ? 'abd' : t.norm;
    if (ABD_PREFIX.test(norm) && i + 1 < raw.length) {
      let j = i + 1;
      if (PARTICLES[raw[j].norm] === 'al' && j + 1 < raw.length) j++;
      out.push({ norm: abdName(raw[j].norm), origin: t.origin });
      i = j;
      continue;
    }
    if (t.origin === 'abjad' && /^bd/.test(norm) && norm.length > 3) {
      // عبدالرحمن written as one word: "bdlrhmn"
      if (/^bda?ll?h$/.test(norm)) out.push({ norm: 'abdallah', origin: t.origin });
      else out.push({ norm: `abd${norm.slice(2).replace(/^a?l(?=.{3,})/, '')}`, origin: t.origin });
      continue;
    }
    const m = ABD_JOINED.exec(norm);
    if (m && !ABD_PREFIX.test(norm)) {
      out.push({ norm: abdName(m[2]), origin: t.origin });
      continue;
    }
    out.push(t);
  }
  return out;
}

const metaCache = new Map<string, [string, string]>();
function metaphone(norm: string): [string, string] {
  let m = metaCache.get(norm);
  if (!m) {
    if (norm.length < 2 || /\d/.test(norm)) m = ['', ''];
    else {
      const [p, s] = doubleMetaphone(norm);
      m = [p, s === p ? '' : s];
    }
    if (metaCache.size > 200_000) metaCache.clear();
    metaCache.set(norm, m);
  }
  return m;
}

const formCache = new Map<string, { fold: string; skel: string }>();
function forms(norm: string): { fold: string; skel: string } {
  let f = formCache.get(norm);
  if (!f) {
    f = { fold: foldToken(norm), skel: skeleton(norm) };
    if (formCache.size > 300_000) formCache.clear();
    formCache.set(norm, f);
  }
  return f;
}

export function makeToken(norm: string, origin: TokenOrigin, kind: TokenKind, pos: number, display = norm): NameToken {
  const f = forms(norm);
  const fold = kind === 'particle' ? PARTICLES[norm] ?? norm : kind === 'name' ? NAME_VARIANTS.get(f.fold) ?? f.fold : f.fold;
  return {
    display,
    norm,
    fold,
    skel: f.skel,
    meta: kind === 'name' || kind === 'stop' ? metaphone(norm) : ['', ''],
    origin,
    kind,
    pos,
    initial: kind === 'name' && norm.length === 1,
    common: kind === 'name' && (COMMON_GIVEN_NAMES.has(norm) || COMMON_GIVEN_NAMES.has(fold)),
    patronymic: false,
  };
}

const COMMON_FOLDS = new Set([...COMMON_GIVEN_NAMES].map(foldToken));

/** Prepare a name. `schema` steers legal-form detection (never for persons) and patronymics (never for organisations). */
export function prepareName(raw: string, schema?: SchemaHint): PreparedName {
  const isPerson = schema === 'person';
  const isOrgLike = schema === 'organization' || schema === 'vessel' || schema === 'aircraft';
  const rawTokens = mergeAbd(transliterateTokens(raw));
  const norms = rawTokens.map((t) => t.norm);
  const folds = norms.map(foldToken);
  const tokens: NameToken[] = [];
  const numbers: string[] = [];
  const n = rawTokens.length;
  let hasLegal = false;
  for (let i = 0; i < n; i++) {
    const t = rawTokens[i];
    const pos = tokens.length;
    if (/^\d+$/.test(t.norm)) {
      numbers.push(String(Number(t.norm)));
      tokens.push(makeToken(String(Number(t.norm)), t.origin, 'number', pos, t.norm));
      continue;
    }
    if (!isPerson && n > 1) {
      const lf = matchLegalForm(norms, folds, i);
      const nextIsLegal = () => i + 1 < n && !!matchLegalForm(norms, folds, i + 1);
      if (lf && (lf.length > 1 || !AMBIGUOUS_LEGAL_FORMS.has(norms[i]) || i === 0 || i + lf.length === n || nextIsLegal()) && lf.length < n) {
        const phrase = norms.slice(i, i + lf.length).join(' ');
        const tok = makeToken(`~${lf.cls}`, t.origin, 'legal', pos, phrase);
        tok.fold = `~${lf.cls}`;
        tokens.push(tok);
        hasLegal = true;
        i += lf.length - 1;
        continue;
      }
    }
    const particle = PARTICLES[t.norm];
    if (particle && n > 1 && !(SUN_LETTER_ARTICLES.has(t.norm) && (t.origin !== 'abjad' || i + 1 >= n))) {
      // "y"/"e"/"and"/"of" are particles only between words; "al"/"bin"/"abu" anywhere but alone.
      const between = i > 0 && i + 1 < n;
      if (!['y', 'of', 'the'].includes(particle) || between || particle === 'the') {
        tokens.push(makeToken(t.norm, t.origin, 'particle', pos));
        continue;
      }
    }
    if (HONORIFICS.has(t.norm) && n > 1) {
      tokens.push(makeToken(t.norm, t.origin, 'honorific', pos));
      continue;
    }
    const kind: TokenKind = !isPerson && ORG_STOP_WORDS.has(t.norm) && n > 1 ? 'stop' : 'name';
    const tok = makeToken(t.norm, t.origin, kind, pos);
    if (kind === 'name') {
      if (isOrgLike) tok.common = false;
      else if (COMMON_FOLDS.has(tok.fold)) tok.common = true;
      if (!isOrgLike && tok.norm.length > 6 && PATRONYMIC.test(tok.norm)) tok.patronymic = true;
    }
    tokens.push(tok);
  }
  // In an organisation name (legal form present), given names are just words.
  if (hasLegal) for (const t of tokens) t.common = false;
  const key = tokens
    .filter((t) => t.kind !== 'honorific')
    .map((t) => t.fold)
    .sort()
    .join(' ');
  return { raw, tokens, numbers, key };
}
