/** The shape of each surface's API key (the key's prefix names the surface: src/api/http/surfaces.ts). */
export const S1_KEY_PATTERN = /^svc_[A-Za-z0-9_-]{16,128}$/;
export const S2_KEY_PATTERN = /^svca_[A-Za-z0-9_-]{16,128}$/;
export const S3_KEY_PATTERN = /^svcc_live_[0-9a-f]{40}$/;
