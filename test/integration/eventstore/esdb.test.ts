/**
 * The EventStoreDB/KurrentDB adapter against a real server: set ESDB_URL (docker-compose provides
 * one, e.g. ESDB_URL=esdb://localhost:2113?tls=false). No server can run on the dev/CI machine, so
 * without ESDB_URL the whole suite is skipped with that reason printed.
 */
import { EsdbEventStore } from '../../../src/infrastructure/eventstore/esdb/store';
import { eventStoreContract } from './contract';

const url = process.env.ESDB_URL;
const skip = url ? false : 'ESDB_URL is not set: no EventStoreDB/KurrentDB server to run the contract against (docker compose up kurrentdb, then ESDB_URL=esdb://localhost:2113?tls=false)';
if (skip) console.log(`# skipping EventStoreDB contract: ${skip}`);

eventStoreContract('EventStoreDB/KurrentDB', async () => ({
  store: new EsdbEventStore({ connectionString: url! }),
  teardown: async () => undefined,
}), { skip });
