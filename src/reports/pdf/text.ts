/**
 * Text that pdfkit's built-in fonts can draw. The 14 standard PDF fonts only cover WinAnsi
 * (Latin-1 plus a few typographic characters); anything else would print as garbage. Such text
 * is transliterated to ASCII with any-ascii and labelled with its script, so "Захаров" becomes
 * "Zakharov (Cyrillic script, transliterated)". With a Unicode font configured the original is
 * kept and the transliteration follows in parentheses.
 */

import anyAscii from 'any-ascii';

/** Characters of WinAnsiEncoding beyond Latin-1 (the 0x80–0x9F block). */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

export function winAnsiRenderable(ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  return (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff) || WIN_ANSI_EXTRA.has(ch) || ch === '\n';
}

const SCRIPTS: [string, RegExp][] = [
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Chinese', /\p{Script=Han}/u],
  ['Japanese', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['Korean', /\p{Script=Hangul}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Georgian', /\p{Script=Georgian}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Persian/Urdu', /\p{Script=Arabic}/u],
];

export function scriptsOf(text: string): string[] {
  const out: string[] = [];
  for (const [name, re] of SCRIPTS) if (re.test(text) && !out.includes(name) && !(name === 'Persian/Urdu' && out.includes('Arabic'))) out.push(name);
  return out;
}

/** A letter of a non-Latin script (these get transliterated and labelled). */
function foreignScript(ch: string): boolean {
  return /\p{L}/u.test(ch) && !/\p{Script=Latin}/u.test(ch);
}

/** Removes control characters (a hostile name must not break the layout). */
export function stripControl(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '');
}

/**
 * Text for display. Each run of non-Latin letters (with the spaces and punctuation inside it)
 * that the font cannot draw is replaced by its transliteration, labelled with its script; other
 * undrawable characters (Ł, ő, symbols) become their ASCII form; the rest is left alone.
 *
 * `unicodeFont`: false for the built-in fonts (WinAnsi); true, or a coverage test of the
 * embedded Unicode font, to keep originals the font can draw, followed by their transliteration.
 */
export function displayText(text: string, unicodeFont: boolean | ((ch: string) => boolean) = false): string {
  const clean = stripControl(text);
  const chars = [...clean];
  const unicode = unicodeFont !== false;
  const canDraw = typeof unicodeFont === 'function' ? (ch: string) => ch === '\n' || unicodeFont(ch) : unicode ? () => true : winAnsiRenderable;
  if (!unicode && chars.every(winAnsiRenderable)) return clean;
  let out = '';
  let i = 0;
  while (i < chars.length) {
    const ch = chars[i]!;
    if (!foreignScript(ch)) {
      out += canDraw(ch) ? ch : anyAscii(ch);
      i++;
      continue;
    }
    // a run of foreign-script letters, with the spaces, punctuation and marks between them
    const script = scriptsOf(ch)[0];
    let j = i + 1;
    let end = j;
    while (j < chars.length) {
      if (foreignScript(chars[j]!)) {
        if (scriptsOf(chars[j]!)[0] !== script) break;
        end = j + 1;
      } else if (!/[\s\p{P}\p{M}]/u.test(chars[j]!)) break;
      j++;
    }
    const run = chars.slice(i, end).join('');
    const ascii = anyAscii(run).replace(/\s+/g, ' ').trim();
    if (unicode && [...run].every(canDraw)) {
      out += ascii && ascii !== run ? `${run} (${ascii})` : run;
    } else {
      const scripts = scriptsOf(run);
      const label = scripts.length > 0 ? `${scripts.join('/')} script` : 'non-Latin characters';
      out += `${ascii || '?'} (${label}, transliterated)`;
    }
    i = end;
  }
  return out;
}
