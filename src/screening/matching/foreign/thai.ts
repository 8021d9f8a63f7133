/**
 * A foreign name written in Thai, read back (issue 32).
 *
 * Source: the Royal Institute of Thailand's rules for transcribing foreign words (หลักเกณฑ์การทับศัพท์,
 * with its tables for English and other languages), read in the other direction: each consonant letter
 * stands for the foreign consonant of its class (ด d, ต t, ท t, บ b, ป p, พ p, ฟ f, ว v/w, ซ s, ช ch/sh,
 * จ j/ch, ค k/kh, ร r, ล l), a vowel written before its consonant (เ e, แ ae, โ o, ไ ใ ai) is read after
 * it, a consonant with no vowel sign may carry an unwritten a or o or none (a cluster or a final), tone
 * marks and the shortening mark are spelling only, and a letter under the cancellation mark ์ is silent.
 */
import { type Segment } from './pattern';

const CONSONANTS: Record<string, Segment> = {
  ก: ['k', 'g'], ข: ['k', 'h', 'g'], ฃ: ['k', 'h'], ค: ['k', 'h', 'g'], ฅ: ['k', 'h'], ฆ: ['k', 'g', 'h'], ง: ['ng', 'n', 'g'],
  จ: ['j', 'C', 'T'], ฉ: ['C', 'S'], ช: ['C', 'S', 'j', 'Z'], ซ: ['s', 'z', 'S', 'T'], ฌ: ['C', 'S'], ญ: ['i', 'n', ''], ฎ: ['d', 't'], ฏ: ['t', 'd'],
  ฐ: ['t', 'd'], ฑ: ['t', 'd'], ฒ: ['t', 'd'], ณ: ['n'], ด: ['d', 't'], ต: ['t', 'd'], ถ: ['t', 'd'], ท: ['t', 'd'], ธ: ['t', 'd'],
  น: ['n'], บ: ['b', 'p', 'v'], ป: ['p', 'b'], ผ: ['p', 'f'], ฝ: ['f', 'v'], พ: ['p', 'f', 'b'], ฟ: ['f', 'v'], ภ: ['p', 'f'], ม: ['m'],
  ย: ['i', ''], ร: ['r', 'l'], ฤ: ['ri', 'ru', 'r'], ล: ['l', 'r'], ฦ: ['lu'], ว: ['v', 'w', 'u', 'o'], ศ: ['s', 'S'], ษ: ['s', 'S'],
  ส: ['s', 'S', 'z'], ห: ['h', ''], ฬ: ['l'], อ: [''], ฮ: ['h'],
};
const AFTER: Record<string, Segment> = {
  'ะ': ['a'], 'ั': ['a', 'u', 'o'], 'า': ['a'], 'ำ': ['am'], 'ิ': ['i', 'e'], 'ี': ['i', 'e'], 'ึ': ['u', 'i', 'e'], 'ื': ['u', 'i', 'e'],
  'ุ': ['u', 'o'], 'ู': ['u', 'o'], 'ํ': ['m', 'n'],
};
const LEADING: Record<string, Segment> = { เ: ['e', 'ie', 'i'], แ: ['e', 'a', 'ai'], โ: ['o'], ใ: ['ai', 'i'], ไ: ['ai', 'i', 'ei'] };
const INHERENT: Segment = ['', 'a', 'o'];

export const RE_THAI_WORD = /^[\u0E01-\u0E5B]+$/u;

/** A word in Thai as segments, or undefined. */
export function thaiPattern(word: string): Segment[] | undefined {
  // tone marks and the shortening mark are spelling only
  const w = word.replace(/[\u0E48-\u0E4B\u0E47]/g, '');
  const chars = [...w];
  const out: Segment[] = [];
  let leading: Segment | undefined;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    if (LEADING[ch]) {
      leading = LEADING[ch];
      continue;
    }
    // a letter under the cancellation mark ์ is silent in Thai, but a foreign name writes it for its sound (วลาดิมีร์: r)
    if (CONSONANTS[ch] && chars[i + 1] === '\u0E4C') {
      out.push([...CONSONANTS[ch].filter(Boolean), '']);
      i++;
      continue;
    }
    if (ch === '\u0E4C') continue;
    const cons = CONSONANTS[ch];
    if (cons) {
      // a leading vowel before two consonants, the second ร ล ว with no vowel of its own: after either
      // (เซร ser, เคร kre), so the vowel may stand after the first or the second
      if (leading && CONSONANTS[chars[i + 1]] && /[รลว]/.test(chars[i + 1]) && !AFTER[chars[i + 2]] && chars[i + 2] !== 'อ') {
        out.push(cons, [...leading, ''], CONSONANTS[chars[i + 1]], [...leading, '']);
        leading = undefined;
        i++;
        continue;
      }
      // a leading vowel belongs after the consonant it is written before
      if (leading) {
        out.push(ch === 'อ' ? [''] : cons);
        // เ-า ao, เ-ีย ia, เ-ือ ua, เ-อ oe
        const next = chars[i + 1];
        if (leading[0] === 'e' && next === 'า') {
          out.push(['ao', 'au', 'o']);
          i++;
        } else if (leading[0] === 'e' && next === 'ี' && chars[i + 2] === 'ย') {
          out.push(['ia', 'ie', 'i']);
          i += 2;
        } else if (leading[0] === 'e' && next === 'ื' && chars[i + 2] === 'อ') {
          out.push(['ua', 'u']);
          i += 2;
        } else if (leading[0] === 'e' && next === 'อ') {
          out.push(['e', 'o', 'oe']);
          i++;
        } else out.push(leading);
        leading = undefined;
        continue;
      }
      out.push(ch === 'อ' && out.length ? ['o', ''] : cons);
      const next = chars[i + 1];
      if (AFTER[next]) {
        out.push(AFTER[next]);
        i++;
        // ัว ua
        if (next === 'ั' && chars[i + 1] === 'ว') {
          out[out.length - 1] = ['ua', 'wa', 'o'];
          i++;
        }
      } else if (next === 'อ' && !AFTER[chars[i + 2]] && !LEADING[chars[i + 2]]) {
        out.push(['o', 'a']); // -อ: the vowel o (บอ bo)
        i++;
      } else if (ch !== 'อ' && (!next || CONSONANTS[next] || LEADING[next])) out.push(INHERENT);
      continue;
    }
    if (AFTER[ch]) {
      out.push(AFTER[ch]);
      continue;
    }
    if (ch === 'ๆ' || ch === 'ฯ') continue;
    return undefined;
  }
  return out.length ? out : undefined;
}

/** Thai patronymic endings (-วิช -vich, -วนา -vna). */
export const THAI_PATRONYMIC = /(วิช|วิตช์|วิตซ์|วนา)$/u;
