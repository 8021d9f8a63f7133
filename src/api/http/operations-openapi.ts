/**
 * registerOperations: the operator endpoints of ./app.ts that answer JSON without a credential
 * (GET /readyz and GET /lists) in the OpenAPI document. docs/lists.md explains list ages.
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from '../openapi/zod';

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });

export const ListStatusSchema = z
  .object({
    list: z.string().openapi({ example: 'ofac_sdn' }),
    label: z.string().openapi({ example: 'OFAC SDN list' }),
    version: z.string().openapi({ example: 'ofac_sdn@3f9a1c2b7e0d4a55' }),
    published_at: z.string().nullable().openapi({ description: 'Publication date (YYYY-MM-DD); null when nothing states it.', example: '2024-05-03' }),
    published_at_source: z.enum(['file', 'manifest', 'download', 'file_date']).nullable().openapi({
      description: 'Where published_at comes from: stated in the `file`, the bundled snapshot `manifest`, the HTTP Last-Modified of a `download` (svc lists update), else the `file_date`.',
    }),
    loaded_at: z.string().openapi({ description: 'When this process loaded the version.' }),
    age_days: z.number().int().nullable().openapi({ description: 'Whole days from publication to now (the service clock).', example: 937 }),
    max_age_days: z.number().int().nullable().openapi({ description: 'LISTS_MAX_AGE_DAYS for sanctions and export-control lists, the list\'s own default for FATF (180), ICIJ (730) and PEPs (30), LISTS_MAX_AGE per list; null: no maximum (turned off, or a list the catalog does not know).', example: 7 }),
    stale: z.boolean(),
    warning: z.string().optional().openapi({ example: 'OFAC SDN list is 937 days old: update the lists before relying on this result' }),
  })
  .openapi('ListStatus');

export const ListsStatusSchema = z
  .object({
    stale_policy: z.enum(['warn', 'refuse']).openapi({ description: 'LISTS_STALE_POLICY: warn (answer with list_warnings) or refuse (503 lists_stale).' }),
    lists: z.array(ListStatusSchema),
  })
  .openapi('ListsStatus');

export const ReadinessSchema = z
  .object({
    status: z.enum(['ready', 'degraded', 'not_ready']),
    checks: z.record(z.string(), z.boolean()).openapi({ description: 'database, store, lists, projections.' }),
    degraded: z.array(z.string()).optional().openapi({ description: 'Why the service is degraded: one warning per stale list.' }),
    lists_stale_policy: z.enum(['warn', 'refuse']).optional(),
    lists: z.array(ListStatusSchema).optional(),
  })
  .openapi('Readiness');

export function registerOperations(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/readyz',
    tags: ['Operations'],
    summary: 'Readiness: database, event store, lists, read models; list ages',
    description:
      'No credential. 200 `ready`, or 200 `degraded` when a list is older than its maximum age (the reasons in `degraded`; the service still answers, with `list_warnings` on results, or refuses screenings with 503 `lists_stale` under LISTS_STALE_POLICY=refuse). 503 `not_ready` when a dependency fails.',
    security: [],
    responses: {
      200: { description: 'Ready or degraded.', content: json(ReadinessSchema) },
      503: { description: 'Not ready: the failing checks are false.', content: json(ReadinessSchema) },
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/lists',
    tags: ['Operations'],
    summary: 'Every list in service: publication date, age and maximum age',
    description: 'No credential (the same facts as /readyz and `svc lists status`). See docs/lists.md.',
    security: [],
    responses: { 200: { description: 'The lists in service.', content: json(ListsStatusSchema) } },
  });
}
