/**
 * Person-check routes: S1 (`/api/v1/person-checks`, bearer `svc_`, authenticated and rate-limited by
 * the S1 gate before the body is read) and the S3 portal (`/api/person-checks`, JWT through the
 * injected `authenticate`). One service and one event stream type serve both.
 *
 * Order on creation: authentication → body validation (400/422: nothing recorded) → the decider's
 * FCRA rules (a refusal is a 422 and no event) → PersonCheckRequested → wait for completion.
 */
import { randomUUID } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import type { PersonCheckRequestInput, PersonCheckService, PersonCheckView } from '../../app/person-checks/person-check-service';
import type { CommandContext, Principal } from '../../app/services';
import { handle } from '../http/app';
import { ctxOf, idempotencyOf } from '../http/context';
import { ApiError } from '../http/errors';
import { withoutIdempotency, type Idempotent } from '../http/idempotency';
import { parseInput } from '../http/validation';
import { addressInput, subjectFactsInput } from '../http/subject-facts';
import { s1PrincipalOf } from '../s1/router';
import { PersonCheckIdParamsSchema, PersonCheckListQuerySchema, PortalPersonCheckRequestSchema, S1PersonCheckRequestSchema } from './schemas';

export const DEFAULT_PERSON_CHECK_WAIT_MS = 20_000;

function commandContext(res: Response, principal: Principal, surface: 's1' | 'portal'): CommandContext {
  const ctx = ctxOf(res);
  return {
    actor: {
      accountId: principal.accountId,
      ...(principal.keyId ? { keyId: principal.keyId } : {}),
      ...(principal.userId ? { userId: principal.userId } : {}),
      surface,
    },
    correlationId: ctx.correlationId,
    commandId: randomUUID(),
    ...idempotencyOf(res),
  };
}

function parseId(req: Request): string {
  const parsed = PersonCheckIdParamsSchema.safeParse(req.params);
  if (!parsed.success) throw new ApiError('bad_request', 'id: must look like SVC-<8 hex>-P', { errors: ['id: must look like SVC-<8 hex>-P'] });
  return parsed.data.id;
}

/** The S1 resource: the spec's fields first, then the documented extensions. Internal ids stay out. */
export function presentPersonCheck(view: PersonCheckView): Record<string, unknown> {
  const { accountId: _account, surface: _surface, ...rest } = view;
  return rest;
}

async function createAndWait(
  service: PersonCheckService,
  principal: Principal,
  input: PersonCheckRequestInput,
  ctx: CommandContext,
  waitMs: number,
): Promise<{ view: PersonCheckView; finished: boolean }> {
  const requested = await service.request(principal, input, ctx);
  const finished = await service.waitForCompletion(principal.accountId, requested.id, waitMs);
  return finished ? { view: finished, finished: true } : { view: (await service.get(principal.accountId, requested.id)) ?? requested, finished: false };
}

export interface PersonCheckRouterDeps {
  /** Idempotency-Key handling of the create routes (src/api/http/idempotency.ts); without it the header is ignored. */
  idempotent?: Idempotent;
  personChecks: PersonCheckService;
  /** How long creation waits for the pipeline before answering 202. */
  waitMs?: number;
}

/** S1 routes. Mount after the S1 gate (createS1Router mounts it too; it runs once per request). */
export function createS1PersonCheckRouter(deps: PersonCheckRouterDeps): Router {
  const router = express.Router();
  const waitMs = deps.waitMs ?? DEFAULT_PERSON_CHECK_WAIT_MS;
  router.use('/api/v1/person-checks', (_req, res, next) => (ctxOf(res).surface === 's1' ? next() : next('router')));

  router.post(
    '/api/v1/person-checks',
    (deps.idempotent ?? withoutIdempotency)(),
    handle(async (req, res) => {
      const principal = s1PrincipalOf(res);
      const body = parseInput(S1PersonCheckRequestSchema, req.body);
      const { view, finished } = await createAndWait(
        deps.personChecks,
        principal,
        {
          fullName: body.full_name,
          purpose: body.purpose as PersonCheckRequestInput['purpose'],
          fcraConsent: body.fcra_consent,
          // the facts that match, mapped as every screening surface maps them (src/api/http/subject-facts.ts)
          ...subjectFactsInput(body),
          ...addressInput(body.address),
          ...(body.locations ? { locations: body.locations } : {}),
          ...(body.associated_domain ? { associatedDomain: body.associated_domain } : {}),
          ...(body.aliases ? { aliases: body.aliases } : {}),
        },
        commandContext(res, principal, 's1'),
        waitMs,
      );
      if (!finished) res.setHeader('Location', `/api/v1/person-checks/${view.id}`);
      res.status(finished ? 201 : 202).json({ success: true, person_check: presentPersonCheck(view) });
    }),
  );

  router.get(
    '/api/v1/person-checks',
    handle(async (req, res) => {
      const principal = s1PrincipalOf(res);
      const query = parseInput(PersonCheckListQuerySchema, req.query, 'query');
      const { items, total } = await deps.personChecks.list(principal.accountId, {
        page: query.page,
        limit: query.limit,
        ...(query.result ? { result: query.result } : {}),
      });
      res.status(200).json({ success: true, person_checks: items, pagination: { page: query.page, limit: query.limit, total, pages: Math.ceil(total / query.limit) } });
    }),
  );

  router.get(
    '/api/v1/person-checks/:id',
    handle(async (req, res) => {
      const principal = s1PrincipalOf(res);
      const id = parseId(req);
      const view = await deps.personChecks.get(principal.accountId, id);
      if (!view) throw new ApiError('not_found', `Person check ${id} not found`);
      res.status(200).json({ success: true, person_check: presentPersonCheck(view) });
    }),
  );
  return router;
}

export interface PersonCheckPortalRouterDeps extends PersonCheckRouterDeps {
  /** The portal session (JWT bearer or cookie `token`): the principal, or undefined when absent/invalid. */
  authenticate: (req: Request) => Promise<Principal | undefined>;
}

function presentPortal(view: PersonCheckView): Record<string, unknown> {
  return { ...presentPersonCheck(view), confidence_level: view.confidence };
}

/** Portal routes (S3 JWT). The caller wires `authenticate` to the portal session service. */
export function createPersonCheckPortalRouter(deps: PersonCheckPortalRouterDeps): Router {
  const router = express.Router();
  const waitMs = deps.waitMs ?? DEFAULT_PERSON_CHECK_WAIT_MS;
  const principalOf = async (req: Request): Promise<Principal> => {
    const principal = await deps.authenticate(req);
    if (!principal) throw new ApiError('unauthenticated', 'Authentication required');
    return principal;
  };

  router.post(
    '/api/person-checks',
    (deps.idempotent ?? withoutIdempotency)({
      credentialOf: async (req) => {
        const principal = await deps.authenticate(req);
        return principal?.userId ? { accountId: principal.accountId, credential: `user:${principal.userId}` } : undefined;
      },
    }),
    handle(async (req, res) => {
      const principal = await principalOf(req);
      const body = parseInput(PortalPersonCheckRequestSchema, req.body);
      const identifiers = [
        ...Object.entries(body.identifiers ?? {}).map(([type, value]) => ({ type, value })),
        ...(body.additional_identifiers ?? []),
      ];
      const { view, finished } = await createAndWait(
        deps.personChecks,
        { ...principal, surface: 'portal' },
        {
          fullName: [body.first_name, body.middle_name, body.last_name].filter(Boolean).join(' '),
          firstName: body.first_name,
          ...(body.middle_name ? { middleName: body.middle_name } : {}),
          lastName: body.last_name,
          purpose: body.purpose as PersonCheckRequestInput['purpose'],
          fcraConsent: body.fcra_consent,
          ...subjectFactsInput({ date_of_birth: body.dob, identifiers, phone: body.phone, email: body.email }),
          ...addressInput(body.address),
          aliases: body.aliases,
          locations: body.locations,
        },
        commandContext(res, principal, 'portal'),
        waitMs,
      );
      if (!finished) res.setHeader('Location', `/api/person-checks/${view.id}`);
      res.status(finished ? 201 : 202).json({ person_check: presentPortal(view) });
    }),
  );

  router.get(
    '/api/person-checks',
    handle(async (req, res) => {
      const principal = await principalOf(req);
      const query = parseInput(PersonCheckListQuerySchema, req.query, 'query');
      const { items, total } = await deps.personChecks.list(principal.accountId, {
        page: query.page,
        limit: query.limit,
        ...(query.result ? { result: query.result } : {}),
      });
      res.status(200).json({ person_checks: items, pagination: { page: query.page, limit: query.limit, total, pages: Math.ceil(total / query.limit) } });
    }),
  );

  router.get(
    '/api/person-checks/:id',
    handle(async (req, res) => {
      const principal = await principalOf(req);
      const id = parseId(req);
      const view = await deps.personChecks.get(principal.accountId, id);
      if (!view) throw new ApiError('not_found', `Person check ${id} not found`);
      res.status(200).json({ person_check: presentPortal(view) });
    }),
  );

  router.get(
    '/api/person-checks/:id/pdf',
    handle(async (req, res) => {
      const principal = await principalOf(req);
      const id = parseId(req);
      const view = await deps.personChecks.get(principal.accountId, id);
      if (!view) throw new ApiError('not_found', `Person check ${id} not found`);
      if (view.status === 'running') throw new ApiError('conflict', `Person check ${id} is still running; its report is available once it completes`);
      const pdf = await deps.personChecks.pdf(principal.accountId, id);
      if (!pdf) throw new ApiError('not_found', `Person check ${id} not found`);
      res.status(200);
      res.setHeader('Content-Type', 'application/pdf');
      res.setHeader('Content-Disposition', `attachment; filename="person-check-${id}.pdf"`);
      res.setHeader('Content-Length', String(pdf.length));
      res.end(pdf);
    }),
  );
  return router;
}
