/**
 * The command side of the domain: one pure decider per aggregate. Import an aggregate as a
 * namespace (`commands.screening.decide`, `commands.apiKeys.streamName`) or its named exports.
 */
import { accountEventTypes } from './account';
import { apiKeyEventTypes } from './api-keys';
import { personCheckEventTypes } from './person-check';
import { screeningEventTypes } from './screening';
import { subjectCheckEventTypes } from './subject-check';
import { webhookEndpointEventTypes } from './webhook-endpoint';
import { watchlistEventTypes } from './watchlist';
import { offshoreLeakQuotaEventTypes } from './offshore-leak-quota';

export * as account from './account';
export * as apiKeys from './api-keys';
export * as screening from './screening';
export * as personCheck from './person-check';
export * as subjectCheck from './subject-check';
export * as webhookEndpoint from './webhook-endpoint';
export * as watchlist from './watchlist';
export * as offshoreLeakQuota from './offshore-leak-quota';
export * from './errors';
export * from './decider';
export * from './plans';

/** Every event type by aggregate (for Avro schemas, topics and projections). Names are unique across aggregates. */
export const eventTypesByAggregate = {
  account: accountEventTypes,
  apiKeys: apiKeyEventTypes,
  screening: screeningEventTypes,
  personCheck: personCheckEventTypes,
  subjectCheck: subjectCheckEventTypes,
  webhookEndpoint: webhookEndpointEventTypes,
  watchlist: watchlistEventTypes,
  offshoreLeakQuota: offshoreLeakQuotaEventTypes,
} as const;

export const allEventTypes: readonly string[] = Object.values(eventTypesByAggregate).flat();

/** Stream-name prefixes by aggregate; the category of a stream is what precedes the id. */
export const streamPrefixes = {
  account: 'account-',
  apiKeys: 'account-keys-',
  screening: 'screening-',
  personCheck: 'person-check-',
  subjectCheck: 'subject-check-',
  webhookEndpoint: 'webhook-endpoint-',
  watchlist: 'watchlist-',
  offshoreLeakQuota: 'quota-offshore_leaks-',
} as const;
