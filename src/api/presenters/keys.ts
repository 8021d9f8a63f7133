/** API keys as S3 presents them (`/api/v1/keys`); the portal's key list has its own shape (key-management-routes.ts). */
import type { ApiKeyView } from '../../app/services';

export function presentKey(key: ApiKeyView) {
  return { id: key.id, name: key.name, key_prefix: key.prefix, created_at: key.createdAt, last_used_at: key.lastUsedAt };
}
