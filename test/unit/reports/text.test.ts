import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { displayText, stripControl, winAnsiRenderable } from '../../../src/reports/pdf/text';
import { parseInline } from '../../../src/reports/pdf/writer';

describe('displayText for the built-in PDF fonts', () => {
  it('keeps Latin-1 text unchanged', () => {
    assert.equal(displayText('Müller, José – “Straße”'), 'Müller, José – “Straße”');
  });
  it('folds Latin letters outside Latin-1 to ASCII without a label', () => {
    assert.equal(displayText('Łódź Şahin Őry'), 'Lódz Sahin Ory');
  });
  it('transliterates each non-Latin run and labels its script', () => {
    assert.equal(displayText('Захаров Александр, Zala'), 'Zakharov Aleksandr (Cyrillic script, transliterated), Zala');
    assert.equal(displayText('Co. 天盛工贸'), 'Co. TianShengGongMao (Chinese script, transliterated)');
  });
  it('keeps the original with a Unicode font, transliteration in parentheses', () => {
    assert.equal(displayText('Захаров', true), 'Захаров (Zakharov)');
    const noHan = (ch: string) => !/\p{Script=Han}/u.test(ch);
    assert.equal(displayText('Захаров 天盛', noHan), 'Захаров (Zakharov) TianSheng (Chinese script, transliterated)');
  });
  it('removes control and bidi-override characters', () => {
    assert.equal(stripControl('a\u0000b\u202ec\u0007d'), 'abcd');
    assert.equal(winAnsiRenderable('€'), true);
    assert.equal(winAnsiRenderable('Ж'), false);
  });
});

describe('inline Markdown', () => {
  it('parses bold, italic, code, escapes and links', () => {
    assert.deepEqual(
      parseInline('a **b** _c_ `d_e` \\*f\\* [g](http://h)').map((r) => [r.text, r.bold, r.italic, r.code]),
      [
        ['a ', false, false, false],
        ['b', true, false, false],
        [' ', false, false, false],
        ['c', false, true, false],
        [' ', false, false, false],
        ['d_e', false, false, true],
        [' *f* g (http://h)', false, false, false],
      ],
    );
  });
  it('leaves underscores inside words alone', () => {
    assert.deepEqual(parseInline('not_configured uk_registry').map((r) => r.text), ['not_configured uk_registry']);
  });
});
