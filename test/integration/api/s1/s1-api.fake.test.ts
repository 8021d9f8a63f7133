/** The S1 HTTP suite on the in-memory test doubles (test/support/fake-services.ts). */
import { makeFakeS1Services } from '../../../support/fake-services';
import { s1ApiSuite } from './suite';

s1ApiSuite('test doubles', makeFakeS1Services);
