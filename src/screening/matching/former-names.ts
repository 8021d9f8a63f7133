/**
 * Former names written inside one name string: "X (ex-Y)", "X ex Y", "X f/k/a Y", "X formerly Y",
 * "X (formerly known as Y, 2019)", chains "X ex Y ex Z". Lists write names this way and so do users;
 * each part is matched as a name of its own (the current one first).
 */

// A former-name marker must follow the current name: "EX-CLE SOLUCIONES" (a name starting with EX) stays whole.
const MARKER =
  /(?:\s*[,;]\s*|\s*\(\s*|\s+)(?:ex[-.\s]+|f\.?\s?\/?k\.?\s?\/?a\.?\s+|formerly\s+known\s+as\s+|formerly\s+|previously\s+known\s+as\s+|previously\s+|former(?:ly)?\s+name\s*:?\s*|(?:vormals|ehemals|fr[üu]her)\s+|anciennement\s+|anteriormente\s+|antes\s+|ранее\s+|бывш(?:ее|ий|\.)?\s*)/giu;

export interface FormerNameSplit {
  current: string;
  former: string[];
}

/** Tidy a part: drop closing brackets, trailing years ("…, 2019", "until 2019") and separators. */
function tidy(part: string): string {
  return part
    .replace(/[)\]]+/g, ' ')
    .replace(/\(+\s*$/g, '')
    .replace(/[,;]?\s*(?:(?:until|till|to|bis|jusqu'en|hasta)\s+)?(?:19|20)\d{2}\s*$/i, '')
    .replace(/^[\s,;:(-]+|[\s,;:(-]+$/g, '')
    .trim();
}

/** The current and former names in a name string, or undefined when it holds only one name. */
export function splitFormerNames(raw: string): FormerNameSplit | undefined {
  if (raw.length < 6 || !/ex|k\s?\/?\.?\s?a|former|previous|vormals|ehemals|fr[üu]her|ancien|anterior|antes|ранее|бывш/i.test(raw)) return undefined;
  const parts: string[] = [];
  let last = 0;
  MARKER.lastIndex = 0;
  for (let m = MARKER.exec(raw); m; m = MARKER.exec(raw)) {
    // the marker needs a name before it and a name after it
    if (m.index === 0 || !/[\p{L}\p{N}]/u.test(raw.slice(last, m.index))) continue;
    const rest = raw.slice(m.index + m[0].length);
    if (!/^[\s"'“«]*[\p{L}\p{N}]/u.test(rest)) continue;
    // "ex" must stand alone ("ex-", "ex ", "ex."): "Exxon" and "Texas" never split
    parts.push(raw.slice(last, m.index));
    last = m.index + m[0].length;
  }
  if (!parts.length) return undefined;
  parts.push(raw.slice(last));
  const cleaned = parts.map(tidy).filter((p) => /[\p{L}\p{N}]{2,}/u.test(p));
  if (cleaned.length < 2) return undefined;
  return { current: cleaned[0], former: cleaned.slice(1) };
}
