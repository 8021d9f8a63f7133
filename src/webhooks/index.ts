/** Signed webhook delivery for S1, S2 and S3 (docs/webhooks.md). */
export * from './url-guard';
export * from './signing';
export * from './secrets';
export * from './payloads';
export * from './policy';
export * from './outbox';
export * from './dispatcher';
export * from './projector';
export * from './registration';
export { postWebhook, type PostOptions } from './transport';
