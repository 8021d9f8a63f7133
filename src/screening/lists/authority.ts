/**
 * Which authority issued a list, from its source id (ofac_* / us_* → us, un_* → un, eu_* → eu,
 * uk_* / gb_* → uk, else other). One mapping for the list agents, the scorer and the grouping of rows.
 */
export type IssuingAuthority = 'us' | 'un' | 'eu' | 'uk' | 'other';

export function authorityOfSource(source: string): IssuingAuthority {
  const s = source.toLowerCase();
  if (s.startsWith('ofac') || s.startsWith('us_') || s === 'us') return 'us';
  if (s.startsWith('un_') || s === 'un') return 'un';
  if (s.startsWith('eu_') || s === 'eu') return 'eu';
  if (s.startsWith('uk_') || s.startsWith('gb_') || s === 'uk') return 'uk';
  return 'other';
}
