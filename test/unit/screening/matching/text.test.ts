/** Transliteration, folding, skeletons and name preparation. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prepareName } from '../../../../src/screening/matching/prepare';
import { editDistance, jaroWinkler } from '../../../../src/screening/matching/similarity';

/** The reference: optimal-string-alignment distance over the whole table, no bound. */
function fullEditDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
import { detectScript, foldToken, skeleton, transliterateTokens } from '../../../../src/screening/matching/text';

const norms = (s: string) => transliterateTokens(s).map((t) => t.norm);

describe('transliteration', () => {
  it('detects scripts', () => {
    assert.equal(detectScript('Путин'), 'Cyrl');
    assert.equal(detectScript('صدام'), 'Arab');
    assert.equal(detectScript('김정은'), 'Hang');
    assert.equal(detectScript('旷视'), 'Hani');
    assert.equal(detectScript('Όμιλος'), 'Grek');
    assert.equal(detectScript('נתניהו'), 'Hebr');
    assert.equal(detectScript('Putin'), 'Latn');
  });
  it('Russian and Ukrainian Cyrillic', () => {
    assert.deepEqual(norms('Захаров Никита Александрович'), ['zakharov', 'nikita', 'aleksandrovich']);
    assert.deepEqual(norms('Захаров Микита Олександрович'), ['zakharov', 'mikita', 'oleksandrovich']);
    assert.deepEqual(norms('Григорій'), ['hryhoriy']);
  });
  it('Arabic article split off as a particle; common Arabic given names with their vowels; Hangul as syllables; a Han name as surname + given name', () => {
    assert.deepEqual(norms('صدام حسين التكريتي'), ['sdm', 'husayn', 'al', 'tkryty']);
    assert.deepEqual(norms('محمد محمود'), ['muhammad', 'mahmud']);
    assert.deepEqual(norms('김정은'), ['kim', 'jong', 'un']);
    assert.deepEqual(norms('习近平'), ['xi', 'jinping']);
    assert.deepEqual(norms('中国'), ['zhong', 'guo']);
  });
  it('apostrophes join, hyphens and punctuation split, diacritics go', () => {
    assert.deepEqual(norms("O'Brien-Smith, José"), ['obrien', 'smith', 'jose']);
  });
});

describe('folding and skeletons', () => {
  it('folds transliteration variants to one key', () => {
    for (const group of [['yevgeniy', 'evgeny', 'evgenii'], ['khabib', 'habib'], ['aleksei', 'alexey'], ['mueller', 'muller']]) {
      assert.equal(new Set(group.map(foldToken)).size, 1, group.join('/'));
    }
  });
  it('consonant skeletons equate vowelled and unvowelled spellings', () => {
    assert.equal(skeleton('mohammed'), skeleton('mhmd'));
    assert.equal(skeleton('hussein'), skeleton('hsyn'));
    assert.equal(skeleton('ibrahim'), skeleton('brhym'));
    assert.notEqual(skeleton('hussein'), skeleton('mohammed'));
  });
  it('similarity primitives', () => {
    assert.equal(editDistance('putin', 'puitn'), 1, 'transposition counts one');
    assert.equal(editDistance('abc', 'xyz', 1), 2, 'stops above max');
    assert.equal(jaroWinkler('martha', 'marhta').toFixed(3), '0.961');
    assert.equal(jaroWinkler('same', 'same'), 1);
  });
  it('the edit distance (worked out in a band around the diagonal) is the full one up to max, and max + 1 above it', () => {
    let seed = 5;
    const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const word = (n: number) => Array.from({ length: n }, () => 'abcd'[Math.floor(rand() * 4)]).join('');
    const pairs: [string, string][] = [['putin', 'puitn'], ['abc', 'xyz'], ['', 'ab'], ['mohammed', 'muhammad'], ['a'.repeat(150), `${'a'.repeat(148)}ba`]];
    for (let k = 0; k < 20000; k++) {
      const a = word(Math.floor(rand() * 12));
      // (half the pairs near each other: a letter changed, dropped or two swapped)
      const p = Math.floor(rand() * a.length);
      const near = [a.slice(0, p) + 'd' + a.slice(p + 1), a.slice(0, p) + a.slice(p + 1), a.slice(0, p) + a.slice(p + 1, p + 2) + a.slice(p, p + 1) + a.slice(p + 2)];
      pairs.push([a, rand() < 0.5 ? near[Math.floor(rand() * 3)] : word(Math.floor(rand() * 12))]);
    }
    let within = 0;
    for (const [a, b] of pairs) {
      for (const max of [1, 2, 3]) {
        const full = fullEditDistance(a, b);
        if (full <= max) within++;
        assert.equal(editDistance(a, b, max), full <= max ? full : max + 1, `${a} / ${b} (max ${max})`);
      }
    }
    assert.ok(within > 10000, `only ${within} pairs within max`);
  });
});

describe('prepareName', () => {
  it('types tokens: legal forms, particles, numbers, honorifics, patronymics, common given names', () => {
    const org = prepareName('Limited Liability Company "Sea Star 2"', 'organization');
    assert.deepEqual(org.tokens.map((t) => t.kind), ['legal', 'name', 'name', 'number']);
    assert.equal(org.tokens[0].fold, '~llc');
    assert.deepEqual(org.numbers, ['2']);
    const p = prepareName('Haji Mohammed bin Abdullah Vladimirovich', 'person');
    assert.deepEqual(p.tokens.map((t) => t.kind), ['honorific', 'name', 'particle', 'name', 'name']);
    assert.equal(p.tokens[1].common, true);
    assert.equal(p.tokens[4].patronymic, true);
    assert.equal(p.tokens[3].norm, 'abdallah');
  });
  it('never reads legal forms into a person name', () => {
    assert.deepEqual(prepareName('Ali Sa', 'person').tokens.map((t) => t.kind), ['name', 'name']);
  });
  it('the name key is order-insensitive', () => {
    assert.equal(prepareName('PUTIN, Vladimir').key, prepareName('Vladimir Putin').key);
  });
});
