/**
 * Tokens of two names aligned together, as compare.ts's alignment records them: the query's tokens
 * q0 .. q0+qn-1 with the listed name's c0 .. c0+cn-1 (one side a single token, the other one token or a
 * run merged into it). The order rules that read an alignment (arabic-roles.ts, korean.ts) take it so.
 */
export interface AlignedSpan {
  q0: number;
  qn: number;
  c0: number;
  cn: number;
}

/** The span the query's token i is aligned in, if any. */
export function spanOfQueryToken<S extends AlignedSpan>(spans: readonly S[], i: number): S | undefined {
  return spans.find((p) => i >= p.q0 && i < p.q0 + p.qn);
}

/** The span the listed name's token j is aligned in, if any. */
export function spanOfListedToken<S extends AlignedSpan>(spans: readonly S[], j: number): S | undefined {
  return spans.find((p) => j >= p.c0 && j < p.c0 + p.cn);
}
