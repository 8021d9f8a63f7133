export { ListParseError, type ProgressEvent } from './common';
export { LIST_DEFINITIONS, listDefinition, type ListDefinition } from './catalog';
export { listsConfig, listsFromRoot, BUNDLED_LISTS_DIR, REPO_ROOT, type ListConfig, type ListsConfig, type ListsSettings } from './config';
export { toIso2, countryInfo, iso3ToIso2 } from './countries';
export { extractRemarks, parseOfacDob } from './ofac-remarks';
export { ListRegistry, type ReloadOutcome } from './registry';
export { listFreshness, listsFreshness, ListsStaleError, staleWarning, ageInDays, maxAgeFor, listLabel, type FreshnessPolicy, type ListFreshness } from './freshness';
export * from './load';
