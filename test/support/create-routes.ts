/**
 * Every create route of every surface as data: how to call it with credentials from
 * surface-credentials.ts, and how to find in the store what one call created. Each call carries a tag
 * (unique text) in what it creates, so `created` counts the resources of that call alone. Used by the
 * kill -9 idempotency test (test/e2e/idempotency-kill.test.ts) and the chaos soak (bench/chaos.ts).
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { SurfaceCredentials } from './surface-credentials';

export type Surface = 's1' | 's2' | 's2_session' | 's3' | 'portal';

export interface CreateRoute {
  name: string;
  surface: Surface;
  /** The route as IDEMPOTENT_CREATE_ROUTES names it. */
  path: string;
  /** The URL to post to (a template's id filled in). */
  url(creds: SurfaceCredentials): string;
  headers(creds: SurfaceCredentials, spare: () => string): Record<string, string>;
  /** The request body for this tag: a JSON value, or a string sent as `contentType`. */
  body(tag: string): unknown;
  contentType?: string;
  /** The ids of what calls with this tag created, as recorded (events, or the batch_jobs table). */
  created(db: Pick<pg.Pool, 'query'>, tag: string): Promise<string[]>;
  /** How many resources one call creates. */
  perCall: number;
  /**
   * A retry after a crash that lost the answer: 'same' answers the created resource again; 'conflict'
   * (API keys) is a 409 naming the key, whose secret existed only in the lost answer.
   */
  afterCrash: 'same' | 'conflict';
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
const events = async (db: Pick<pg.Pool, 'query'>, sql: string, params: unknown[]) => ids((await db.query<{ id: string }>(sql, params)).rows);

/** Screenings whose query is the tag: their numeric id and uuid. */
const screenings = (db: Pick<pg.Pool, 'query'>, tag: string) =>
  events(db, `SELECT data->>'screeningId' || ' ' || (data->>'uuid') AS id FROM events WHERE event_type = 'ScreeningRequested' AND data->'subject'->>'query' = $1`, [tag]);
const personChecks = (db: Pick<pg.Pool, 'query'>, tag: string) =>
  events(db, `SELECT data->>'personCheckId' AS id FROM events WHERE event_type = 'PersonCheckRequested' AND data->>'fullName' LIKE '%' || $1`, [tag]);
const subjectChecks = (db: Pick<pg.Pool, 'query'>, tag: string) =>
  events(db, `SELECT data->>'subjectCheckId' AS id FROM events WHERE event_type = 'SubjectCheckStarted' AND data->>'lastName' LIKE $1 || '%'`, [tag]);
const keysNamed = (db: Pick<pg.Pool, 'query'>, tag: string) => events(db, `SELECT data->>'keyId' AS id FROM events WHERE event_type = 'ApiKeyCreated' AND data->>'name' = $1`, [tag]);
const listsNamed = (db: Pick<pg.Pool, 'query'>, tag: string) => events(db, `SELECT data->>'watchlistId' AS id FROM events WHERE event_type = 'WatchlistCreated' AND data->>'name' = $1`, [tag]);
const entriesNamed = (db: Pick<pg.Pool, 'query'>, tag: string) =>
  events(db, `SELECT data->'entry'->>'entryId' AS id FROM events WHERE event_type = 'EntryAdded' AND data->'entry'->>'primaryName' = $1`, [tag]);
const importsNamed = (db: Pick<pg.Pool, 'query'>, tag: string) => events(db, `SELECT data->>'importId' AS id FROM events WHERE event_type = 'ListImported' AND data->>'fileName' = $1`, [`${tag}.csv`]);

/** A person's name from a tag (letters only: names refuse digits). */
export function nameOf(tag: string): string {
  const letters = createHash('sha256').update(tag).digest('hex').replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]!);
  return `Q${letters.slice(0, 9)}`;
}

const subject = (last: string) => ({ first_name: 'Margaret', last_name: last, locations: [{ country: 'GB', city: 'Leeds' }], purpose: 'employment', consent: { certified: true } });
const today = () => new Date().toISOString().slice(0, 10);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export const CREATE_ROUTES: CreateRoute[] = [
  ...(['cdd', 'edd', 'ma'] as const).flatMap((kind): CreateRoute[] => [
    {
      name: `S1 ${kind}`,
      surface: 's1',
      path: `/api/v1/screening/${kind}`,
      url: () => `/api/v1/screening/${kind}`,
      headers: (c) => bearer(c.s1Key),
      body: (tag) => (kind === 'ma' ? { target_name: nameOf(tag) } : { query: nameOf(tag) }),
      created: (db, tag) => screenings(db, nameOf(tag)),
      perCall: 1,
      afterCrash: 'same',
    },
    {
      name: `S3 ${kind}`,
      surface: 's3',
      path: `/api/v1/screening/${kind}`,
      url: () => `/api/v1/screening/${kind}`,
      headers: (c) => ({ 'x-api-key': c.s3Key }),
      body: (tag) => ({ query: nameOf(tag) }),
      created: (db, tag) => screenings(db, nameOf(tag)),
      perCall: 1,
      afterCrash: 'same',
    },
  ]),
  {
    name: 'S3 sow',
    surface: 's3',
    path: '/api/v1/screening/sow',
    url: () => '/api/v1/screening/sow',
    headers: (c) => ({ 'x-api-key': c.s3Key }),
    body: (tag) => ({
      query: nameOf(tag),
      jurisdiction: 'GB',
      declared_source_of_wealth: 'Salary as a surgeon',
      wealth_sources: [{ type: 'employment', description: 'Consultant surgeon salary', amount: 600_000, currency: 'GBP', evidence: [{ type: 'payslip', issuer: 'St Example Hospital Trust', issued_on: today() }] }],
    }),
    created: (db, tag) => screenings(db, nameOf(tag)),
    perCall: 1,
    afterCrash: 'same',
  },
  {
    name: 'S3 batch job',
    surface: 's3',
    path: '/api/v1/batches',
    url: () => '/api/v1/batches',
    headers: (c) => ({ 'x-api-key': c.s3Key }),
    contentType: 'text/csv',
    body: (tag) => `name,country\n${nameOf(tag)},GB\n`,
    created: async (db, tag) => {
      const sha = createHash('sha256').update(`name,country\n${nameOf(tag)},GB\n`).digest('hex');
      return ids((await db.query<{ id: string }>('SELECT job_id::text AS id FROM batch_jobs WHERE input_sha256 = $1', [sha])).rows);
    },
    perCall: 1,
    afterCrash: 'same',
  },
  {
    name: 'S1 person check',
    surface: 's1',
    path: '/api/v1/person-checks',
    url: () => '/api/v1/person-checks',
    headers: (c) => bearer(c.s1Key),
    body: (tag) => ({ full_name: `Theodora ${nameOf(tag)}`, purpose: 'employment', fcra_consent: true }),
    created: (db, tag) => personChecks(db, nameOf(tag)),
    perCall: 1,
    afterCrash: 'same',
  },
  {
    name: 'portal person check',
    surface: 'portal',
    path: '/api/person-checks',
    url: () => '/api/person-checks',
    headers: (c) => bearer(c.portalToken),
    body: (tag) => ({ first_name: 'Theodora', last_name: nameOf(tag), purpose: 'employment', fcra_consent: true }),
    created: (db, tag) => personChecks(db, nameOf(tag)),
    perCall: 1,
    afterCrash: 'same',
  },
  {
    name: 'S3 API key',
    surface: 's3',
    path: '/api/v1/keys',
    url: () => '/api/v1/keys',
    headers: (c) => ({ 'x-api-key': c.s3Key }),
    body: (tag) => ({ name: tag }),
    created: keysNamed,
    perCall: 1,
    afterCrash: 'conflict',
  },
  {
    name: 'S2 subject check',
    surface: 's2',
    path: '/api/v1/compliance/subject-checks',
    url: () => '/api/v1/compliance/subject-checks',
    headers: (c) => bearer(c.s2Key),
    body: (tag) => subject(nameOf(tag)),
    created: (db, tag) => subjectChecks(db, nameOf(tag)),
    perCall: 1,
    afterCrash: 'same',
  },
  {
    name: 'S2 subject-check batch',
    surface: 's2',
    path: '/api/v1/compliance/subject-checks/batch',
    url: () => '/api/v1/compliance/subject-checks/batch',
    headers: (c) => bearer(c.s2Key),
    body: (tag) => ({ subjects: [subject(`${nameOf(tag)}a`), { first_name: '' }, subject(`${nameOf(tag)}b`)] }),
    created: (db, tag) => subjectChecks(db, nameOf(tag)),
    perCall: 2,
    afterCrash: 'same',
  },
  {
    name: 'S2 webhook endpoint',
    surface: 's2',
    path: '/api/v1/compliance/webhooks',
    url: () => '/api/v1/compliance/webhooks',
    // One endpoint per account: each call takes a spare key (an account of its own).
    headers: (_c, spare) => bearer(spare()),
    body: (tag) => ({ url: `https://127.0.0.1:9/hooks/${encodeURIComponent(tag)}` }),
    created: (db, tag) =>
      events(db, `SELECT data->>'endpointId' AS id FROM events WHERE event_type = 'WebhookEndpointRegistered' AND data->>'url' = $1`, [`https://127.0.0.1:9/hooks/${encodeURIComponent(tag)}`]),
    perCall: 1,
    afterCrash: 'same',
  },
  {
    name: 'S2 account API key (session)',
    surface: 's2_session',
    path: '/api/account/api-keys',
    url: () => '/api/account/api-keys',
    headers: (c) => ({ cookie: `auth_token=${c.s2SessionCookie}` }),
    body: (tag) => ({ name: tag }),
    created: keysNamed,
    perCall: 1,
    afterCrash: 'conflict',
  },
  {
    name: 'portal screening',
    surface: 'portal',
    path: '/api/portal/screenings',
    url: () => '/api/portal/screenings',
    headers: (c) => bearer(c.portalToken),
    body: (tag) => ({ kind: 'cdd', query: nameOf(tag) }),
    created: (db, tag) => screenings(db, nameOf(tag)),
    perCall: 1,
    afterCrash: 'same',
  },
  {
    name: 'portal API key',
    surface: 'portal',
    path: '/api/portal/keys',
    url: () => '/api/portal/keys',
    headers: (c) => bearer(c.portalToken),
    body: (tag) => ({ surface: 's2', name: tag }),
    created: keysNamed,
    perCall: 1,
    afterCrash: 'conflict',
  },
  {
    name: 'S3 watchlist',
    surface: 's3',
    path: '/api/v1/watchlists',
    url: () => '/api/v1/watchlists',
    headers: (c) => ({ 'x-api-key': c.s3Key }),
    body: (tag) => ({ name: tag, severity: 'review', owner: 'fincrime' }),
    created: listsNamed,
    perCall: 1,
    afterCrash: 'same',
  },
  {
    name: 'portal watchlist',
    surface: 'portal',
    path: '/api/portal/watchlists',
    url: () => '/api/portal/watchlists',
    headers: (c) => bearer(c.portalToken),
    body: (tag) => ({ name: tag, severity: 'note', owner: 'mlro' }),
    created: listsNamed,
    perCall: 1,
    afterCrash: 'same',
  },
  {
    name: 'S3 watchlist entry',
    surface: 's3',
    path: '/api/v1/watchlists/{id}/entries',
    url: (c) => `/api/v1/watchlists/${c.lists.s3}/entries`,
    headers: (c) => ({ 'x-api-key': c.s3Key }),
    body: (tag) => ({ primary_name: nameOf(tag), nationalities: ['GB'] }),
    created: (db, tag) => entriesNamed(db, nameOf(tag)),
    perCall: 1,
    afterCrash: 'same',
  },
  {
    name: 'portal watchlist entry',
    surface: 'portal',
    path: '/api/portal/watchlists/{id}/entries',
    url: (c) => `/api/portal/watchlists/${c.lists.portal}/entries`,
    headers: (c) => bearer(c.portalToken),
    body: (tag) => ({ primary_name: nameOf(tag) }),
    created: (db, tag) => entriesNamed(db, nameOf(tag)),
    perCall: 1,
    afterCrash: 'same',
  },
  {
    name: 'S3 watchlist import',
    surface: 's3',
    path: '/api/v1/watchlists/{id}/imports',
    url: (c) => `/api/v1/watchlists/${c.lists.s3}/imports`,
    headers: (c) => ({ 'x-api-key': c.s3Key }),
    contentType: 'text/csv',
    body: (tag) => `full_name,date_of_birth\n${nameOf(tag)},1971-04-03\n`,
    created: importsNamed,
    perCall: 1,
    afterCrash: 'same',
  },
  {
    name: 'portal watchlist import',
    surface: 'portal',
    path: '/api/portal/watchlists/{id}/imports',
    url: (c) => `/api/portal/watchlists/${c.lists.portal}/imports`,
    headers: (c) => bearer(c.portalToken),
    contentType: 'application/x-ndjson',
    body: (tag) => `${JSON.stringify({ full_name: nameOf(tag), date_of_birth: '1980-02-01' })}\n`,
    created: importsNamed,
    perCall: 1,
    afterCrash: 'same',
  },
];

/** An import's file name carries its tag (the query parameter), so `created` finds it. */
export function urlWithTag(route: CreateRoute, creds: SurfaceCredentials, tag: string): string {
  const url = route.url(creds);
  return route.path.endsWith('/imports') ? `${url}?file_name=${encodeURIComponent(`${tag}.csv`)}` : url;
}

/** Every id-like value of an answer (id, uuid, *_id), for "the answer names what was created". */
export function idsInAnswer(body: unknown): Set<string> {
  const out = new Set<string>();
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) {
        if ((key === 'id' || key === 'uuid' || key.endsWith('_id')) && (typeof v === 'string' || typeof v === 'number')) out.add(String(v));
        walk(v);
      }
    }
  };
  walk(body);
  return out;
}
