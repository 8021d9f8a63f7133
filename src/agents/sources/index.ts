/**
 * The outside sources, built from the environment (see docs/sources.md). The composition root
 * calls `createExternalSources(sourceSettings(config))` once (the validated variables of the zod config) and hands the list to the pipeline's agents.
 */

import { AdverseMediaSearchSource } from './adverse-media';
import { CommercialScreeningSource } from './commercial-screening';
import { CompaniesHouseSource } from './companies-house';
import { GleifSource } from './gleif';
import { IcijOffshoreSource } from './icij-offshore';
import { OpenCorporatesSource } from './opencorporates';
import type { Env, ExternalSource } from './types';

export * from './types';
export { httpJson, httpClient, HttpSourceError, realSleep, type HttpJson, type HttpJsonOptions, type Sleep } from './http';
export { nameSimilarity } from './base';
export { countryToIso2 } from './countries';
export { AdverseMediaSearchSource, CommercialScreeningSource, CompaniesHouseSource, GleifSource, IcijOffshoreSource, OpenCorporatesSource };
export { toReportHit } from './to-report';
export { querySource, DEFAULT_AGENT_TIMEOUT_MS, type QuerySourceOptions } from './run';

export function createExternalSources(env: Env): ExternalSource[] {
  return [
    new CommercialScreeningSource(env),
    new AdverseMediaSearchSource(env),
    new IcijOffshoreSource(env),
    new OpenCorporatesSource(env),
    new CompaniesHouseSource(env),
    new GleifSource(env),
  ];
}
