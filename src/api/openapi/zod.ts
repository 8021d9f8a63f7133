/**
 * zod with the `.openapi()` extension of @asteasolutions/zod-to-openapi. Every schema that validates
 * a request or documents a response imports `z` from here, so the extension is applied before any
 * schema is built (ESM evaluates this module first) and the OpenAPI description is generated from
 * the very schemas that validate requests.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export { z };
