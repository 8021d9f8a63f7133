/**
 * What an API handler does before appending RegisterWebhook / ConfigureKeyWebhook: check the URL
 * against SSRF rules, mint a signing secret, seal it for storage. The plaintext secret is returned
 * once to the integrator and appears in no event, row or log.
 */
import { createHash } from 'node:crypto';
import type { SecretBox } from './secrets';
import { generateSigningSecret } from './signing';
import { checkWebhookUrl, type Resolver, type UrlGuardError } from './url-guard';

export type PreparedRegistration =
  | {
      ok: true;
      /** The URL as normalised by the WHATWG parser (what will be stored and called). */
      url: string;
      /** Plaintext, for the registration response only. */
      signingSecret: string;
      /** AES-256-GCM sealed secret for events and the endpoints table. */
      secretCiphertext: string;
      /** SHA-256 hex of the secret, lets support confirm a secret without decrypting it. */
      secretHash: string;
    }
  | { ok: false; error: UrlGuardError };

export async function prepareWebhookRegistration(input: {
  url: string;
  secrets: SecretBox;
  allowPrivate: boolean;
  resolver?: Resolver;
}): Promise<PreparedRegistration> {
  const checked = await checkWebhookUrl(input.url, { allowPrivate: input.allowPrivate, resolver: input.resolver });
  if (!checked.ok) return { ok: false, error: checked.error };
  const signingSecret = generateSigningSecret();
  return {
    ok: true,
    url: checked.url.toString(),
    signingSecret,
    secretCiphertext: input.secrets.seal(signingSecret),
    secretHash: createHash('sha256').update(signingSecret).digest('hex'),
  };
}
