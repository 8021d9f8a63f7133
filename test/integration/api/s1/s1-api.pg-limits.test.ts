/**
 * The S1 HTTP suite with the real PostgreSQL limiter (PgLimitService) behind the rate limit and the
 * monthly quota; keys and screenings are still the test doubles.
 */
import { PgLimitService } from '../../../../src/app/limits';
import { makeFakeS1Services } from '../../../support/fake-services';
import { createTestDatabase } from '../../../support/postgres';
import { s1ApiSuite } from './suite';

s1ApiSuite('PostgreSQL limiter', async () => {
  const services = await makeFakeS1Services();
  const db = await createTestDatabase();
  return {
    ...services,
    limits: new PgLimitService(db.pool, services.clock),
    async close() {
      await services.close();
      await db.drop();
    },
  };
});
