/**
 * Acronyms that skip words of the name ("Mobile Telecommunication Company of Iran" → MCI): the initials
 * of the first word and of the following words in order, with any generic, legal-form or stop words left
 * out and at most one distinctive word left out, never the last distinctive one. Only ever a potential match (compare.ts), only for
 * acronyms of 3–7 letters, and only when the acronym is distinctive (not a word that several listed
 * names use). Computed once per listed name at index build time.
 */
/** What this module reads of a prepared token (prepare.ts NameToken). */
interface NameToken {
  kind: string;
  norm: string;
  display: string;
  generic?: string;
}

interface Word {
  letters: string;
  distinctive: boolean;
}

const MAX_VARIANTS = 24;

/**
 * Skip-word acronyms of an organisation name's words (articles already removed), excluding those in
 * `full` (the acronyms of every word, which match more strongly).
 */
export function skipAcronymsOf(words: NameToken[], full: string[]): string[] {
  if (words.length < 3 || words.length > 8) return [];
  const ws: Word[] = words.map((t) => ({
    letters: t.kind === 'legal' ? t.display.split(' ').map((w) => w[0]).join('') : t.norm[0],
    distinctive: t.kind === 'name' && !t.generic,
  }));
  const out = new Set<string>();
  // the first word always starts the acronym; then each later word is kept or skipped
  const walk = (i: number, acc: string, skippedDistinctive: boolean, skippedAny: boolean) => {
    if (out.size >= MAX_VARIANTS) return;
    if (i === ws.length) {
      if (skippedAny && acc.length >= 3 && acc.length <= 7 && /^[a-z]+$/.test(acc) && !full.includes(acc)) out.add(acc);
      return;
    }
    walk(i + 1, acc + ws[i].letters, skippedDistinctive, skippedAny);
    if (!ws[i].distinctive) walk(i + 1, acc, skippedDistinctive, true);
    else if (!skippedDistinctive && i !== lastDistinctive) walk(i + 1, acc, true, true);
  };
  // the first and the last distinctive word are always spelt (MCI keeps Mobile and Iran)
  let lastDistinctive = -1;
  ws.forEach((w, i) => {
    if (w.distinctive) lastDistinctive = i;
  });
  walk(1, ws[0].letters, false, false);
  return [...out];
}

/** The words of `spelled` an acronym skips, for the explanation ("Telecommunication"). */
export function skippedWords(acronym: string, words: NameToken[]): string[] {
  const letters = words.map((t) => (t.kind === 'legal' ? t.display.split(' ').map((w) => w[0]).join('') : t.norm[0]));
  // greedy from the left, keeping the first word; good enough to name what was left out
  const skipped: string[] = [];
  let j = 0;
  words.forEach((t, i) => {
    if (acronym.startsWith(letters[i], j) && (i === 0 || j < acronym.length)) j += letters[i].length;
    else skipped.push(t.display);
  });
  return skipped;
}
