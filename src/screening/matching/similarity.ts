/** String similarity primitives (implemented here; small strings, so simple loops are fastest). */

const JW_A = new Uint8Array(128);
const JW_B = new Uint8Array(128);

/** Jaro-Winkler similarity in [0,1] (prefix scale 0.1, prefix up to 4). */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return a.length ? 1 : 0;
  const la = a.length;
  const lb = b.length;
  if (!la || !lb) return 0;
  const window = Math.max(0, (Math.max(la, lb) >> 1) - 1);
  const aMatch = la <= 128 ? JW_A.fill(0, 0, la) : new Uint8Array(la);
  const bMatch = lb <= 128 ? JW_B.fill(0, 0, lb) : new Uint8Array(lb);
  let matches = 0;
  for (let i = 0; i < la; i++) {
    const lo = Math.max(0, i - window);
    const hi = Math.min(lb - 1, i + window);
    for (let j = lo; j <= hi; j++) {
      if (!bMatch[j] && a.charCodeAt(i) === b.charCodeAt(j)) {
        aMatch[i] = 1;
        bMatch[j] = 1;
        matches++;
        break;
      }
    }
  }
  if (!matches) return 0;
  let t = 0;
  let k = 0;
  for (let i = 0; i < la; i++) {
    if (!aMatch[i]) continue;
    while (!bMatch[k]) k++;
    if (a.charCodeAt(i) !== b.charCodeAt(k)) t++;
    k++;
  }
  const jaro = (matches / la + matches / lb + (matches - t / 2) / matches) / 3;
  let prefix = 0;
  while (prefix < 4 && prefix < la && prefix < lb && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

const ED_ROWS = [new Int32Array(128), new Int32Array(128), new Int32Array(128)];

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transposition) when it is at most
 * `max`, else max + 1. Only the cells within `max` of the diagonal are worked out: a path of cost
 * <= max never leaves that band (an insertion or a deletion moves it one diagonal off, a
 * transposition stays on its diagonal), so the cells outside it count as max + 1. Every caller asks
 * only whether two spellings are within one or two edits.
 */
export function editDistance(a: string, b: string, max = 3): number {
  if (a === b) return 0;
  const la = a.length;
  const lb = b.length;
  const over = max + 1;
  if (Math.abs(la - lb) > max) return over;
  const big = lb + 1 > 128;
  let prev2 = big ? new Int32Array(lb + 1) : ED_ROWS[0];
  let prev = big ? new Int32Array(lb + 1) : ED_ROWS[1];
  let cur = big ? new Int32Array(lb + 1) : ED_ROWS[2];
  for (let j = 0; j <= lb; j++) prev[j] = j <= max ? j : over;
  for (let i = 1; i <= la; i++) {
    const lo = i - max > 1 ? i - max : 1;
    const hi = i + max < lb ? i + max : lb;
    cur[0] = i <= max ? i : over;
    if (lo > 1) cur[lo - 1] = over;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      const bj = b.charCodeAt(j - 1);
      let v = prev[j - 1] + (ai === bj ? 0 : 1);
      if (prev[j] + 1 < v) v = prev[j] + 1;
      if (cur[j - 1] + 1 < v) v = cur[j - 1] + 1;
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj && prev2[j - 2] + 1 < v) v = prev2[j - 2] + 1;
      if (v > over) v = over;
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (hi < lb) cur[hi + 1] = over;
    if (rowMin > max) return over;
    const spare = prev2;
    prev2 = prev;
    prev = cur;
    cur = spare;
  }
  return prev[lb] < over ? prev[lb] : over;
}
