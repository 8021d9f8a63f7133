/**
 * Webhook signing secrets at rest: AES-256-GCM under an operator key (config), so a database
 * dump alone does not let anyone forge our signatures. The secret is decrypted only in memory,
 * right before signing, and is never logged.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export interface SecretBox {
  /** Encrypts a secret into a self-describing string `v1.<iv>.<tag>.<ciphertext>` (base64url parts). */
  seal(plaintext: string): string;
  /** Decrypts what `seal` produced; throws if it was tampered with or sealed under another key. */
  open(sealed: string): string;
}

/**
 * Builds a SecretBox from key material: 32 raw bytes, 64 hex characters, or any other string
 * (then stretched with SHA-256, acceptable for an operator-chosen high-entropy value only).
 */
export function createSecretBox(keyMaterial: Buffer | string): SecretBox {
  let key: Buffer;
  if (Buffer.isBuffer(keyMaterial)) key = keyMaterial;
  else if (/^[0-9a-fA-F]{64}$/.test(keyMaterial)) key = Buffer.from(keyMaterial, 'hex');
  else key = createHash('sha256').update(keyMaterial, 'utf8').digest();
  if (key.length !== 32) throw new Error('webhook secret key must be 32 bytes');
  if (key.every((b) => b === 0)) throw new Error('webhook secret key must not be all zeros');

  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return ['v1', iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join('.');
    },
    open(sealed) {
      const parts = sealed.split('.');
      if (parts.length !== 4 || parts[0] !== 'v1') throw new Error('unrecognised sealed secret format');
      const [, iv, tag, ciphertext] = parts as [string, string, string, string];
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
