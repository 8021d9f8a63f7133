/**
 * What a screened name says about itself before it is matched: whether it names anything at all
 * (a query that is empty, only punctuation or only a legal form cannot be screened), and whether
 * it reads as an organisation (legal form or institution word) when the caller gave no type.
 * Pure functions, used at every API edge and by the list agents.
 */
import type { EntitySchema } from './model';
import { HONORIFICS, matchLegalForm } from './matching/lexicon';
import { prepareName } from './matching/prepare';
import { foldToken } from './matching/text';

/** Words that make a name an organisation's in any list language (legal forms are found by the matcher's lexicon). */
const INSTITUTION_WORDS = new Set([
  'bank', 'banco', 'banque', 'banca', 'bankasi', 'sberbank', 'shipping', 'ship', 'shipyard', 'maritime', 'navigation', 'lines', 'airlines',
  'airline', 'airways', 'aviation', 'trading', 'trade', 'company', 'companies', 'corporation', 'corp', 'incorporated', 'holding', 'holdings',
  'group', 'industries', 'industrial', 'industry', 'enterprise', 'enterprises', 'ministry', 'ministerio', 'ministere', 'foundation',
  'fundacion', 'fondation', 'university', 'universidad', 'institute', 'instituto', 'agency', 'agencia', 'association', 'committee',
  'council', 'organization', 'organisation', 'organizacion', 'party', 'partido', 'army', 'brigade', 'brigades', 'battalion', 'front',
  'frente', 'movement', 'petroleum', 'oil', 'gas', 'energy', 'bureau', 'office', 'services', 'logistics', 'exchange', 'fund', 'trust',
  'capital', 'investment', 'investments', 'finance', 'financial', 'insurance', 'telecom', 'factory', 'plant', 'works', 'society',
  'union', 'center', 'centre', 'centro', 'hospital', 'school', 'embassy', 'government', 'department', 'authority', 'commission',
  'establishment', 'empresa', 'compania', 'sociedad', 'societe', 'import', 'export', 'technologies', 'technology', 'electronics',
  'manufacturing', 'construction', 'engineering', 'development', 'resources', 'mining', 'chemical', 'chemicals', 'pharmaceutical',
  'pharmaceuticals', 'airport', 'port', 'network', 'media', 'consulting', 'solutions', 'systems', 'products', 'international',
]);

const words = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** 'organization' when the name carries a legal form or an institution word; undefined when it reads as a person's. */
export function inferSchemaFromName(name: string): EntitySchema | undefined {
  if (words(name).some((w) => INSTITUTION_WORDS.has(w))) return 'organization';
  if (prepareName(name, 'organization').tokens.some((t) => t.kind === 'legal')) return 'organization';
  return undefined;
}

const FILLER = new Set(['the', 'a', 'an', 'and', 'of', 'und', 'et', 'y', 'e']);

export type ScreenableName = { ok: true } | { ok: false; reason: string };

/**
 * Whether a name can be screened: it must contain a letter or digit, and something besides legal
 * forms and honorifics ("LLC", "Ltd.", "Mr." alone name nobody).
 */
export function screenableName(name: string | undefined): ScreenableName {
  const s = (name ?? '').trim();
  if (!s) return { ok: false, reason: 'must not be empty' };
  if (!/[\p{L}\p{N}]/u.test(s)) return { ok: false, reason: 'must contain letters or digits, not only punctuation' };
  // legal forms, honorifics and joining words, skipped one phrase at a time; anything left is a name
  const norms = words(s);
  const folded = norms.map(foldToken);
  for (let i = 0; i < norms.length; ) {
    const legal = matchLegalForm(norms, folded, i);
    if (legal) {
      i += legal.length;
      continue;
    }
    if (HONORIFICS.has(norms[i]!) || FILLER.has(norms[i]!)) {
      i++;
      continue;
    }
    return { ok: true };
  }
  return { ok: false, reason: 'names only a legal form or title: give the name itself' };
}
