/**
 * The summary's matches sentence written again as the hits stand (issue 31 item 3): the first
 * sentence and the coverage sentences after it are kept as the summary step recorded them, in the
 * words it uses now ("1 source", "15 sources") and in those of summaries recorded before ("source(s)").
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { withMatchesSentence } from '../../../src/reports/match-summary';

const NOW = '1 match (dismissed 1): none stands after the analysts\' decisions.';

describe('withMatchesSentence', () => {
  for (const coverage of ['1 source could not be searched; see data gaps.', '15 sources could not be searched; see data gaps.', '15 source(s) could not be searched; see data gaps.']) {
    it(`given a recorded summary ending "${coverage}", when its matches are counted again, then only the matches sentence changes`, () => {
      const recorded = `Li Wei (individual) was screened against 4 sources. 1 potential match(es), 1 confirmed: LI, Wei on OFAC SDN List (97). ${coverage}`;
      assert.equal(withMatchesSentence(recorded, NOW), `Li Wei (individual) was screened against 4 sources. ${NOW} ${coverage}`);
    });
  }

  it('given the offshore-leak sentence after the matches, then it is kept with what follows', () => {
    const recorded = 'Acme Ltd (company) was screened against 3 sources. No match. Offshore leaks were not searched: monthly checks used up. 2 sources could not be searched; see data gaps.';
    assert.equal(withMatchesSentence(recorded, NOW), `Acme Ltd (company) was screened against 3 sources. ${NOW} Offshore leaks were not searched: monthly checks used up. 2 sources could not be searched; see data gaps.`);
  });

  it('given a summary of another shape (not the summary step\'s), then it is returned unchanged', () => {
    assert.equal(withMatchesSentence('Reviewed by hand.', NOW), 'Reviewed by hand.');
  });
});
