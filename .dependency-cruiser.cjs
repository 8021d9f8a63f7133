/**
 * The layer rules (docs/architecture.md), checked by `npm run check:deps` and by
 * test/unit/architecture/layers.test.ts. Layers point down:
 *
 *   bootstrap, main.ts, cli          the composition root and entry points (construct everything)
 *   api                              HTTP surfaces (S1, S2, S3, portal)
 *   app                              application services
 *   commands, agents, projections,   deciders and the command handler, agents and orchestrators,
 *   webhooks                         read models, webhook delivery
 *   screening, reports               domain: lists, matching, the engine, the report model and scoring
 *   infrastructure, shared, config   adapters behind ports, small shared kernels, the zod config
 */
const MIDDLE = '^src/(commands|agents|projections|webhooks)/';
const DOMAIN = '^src/(screening|reports)/';
const BASE = '^src/(infrastructure|shared|config)/';

/**
 * Known upward imports that later steps of issue 17 remove (each one named, so nothing new slips in):
 * none left (the screening report fold is src/projections/screening-report.ts, read through the
 * screening-detail read model).
 */
const KNOWN = [];

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'No import cycles.', from: { path: '^src/' }, to: { circular: true } },
    {
      name: 'bootstrap-is-the-root',
      severity: 'error',
      comment: 'Only the entry point imports the composition root: nothing else constructs the service.',
      from: { path: '^src/', pathNot: ['^src/bootstrap/', '^src/main\\.ts$'] },
      to: { path: '^src/bootstrap/' },
    },
    {
      name: 'cli-only-from-main',
      severity: 'error',
      comment: 'Operator commands (src/cli) are wired by src/main.ts only.',
      from: { path: '^src/', pathNot: ['^src/cli/', '^src/main\\.ts$', '^src/bootstrap/'] },
      to: { path: '^src/cli/' },
    },
    {
      name: 'api-is-top',
      severity: 'error',
      comment: 'Application services and everything below them do not import the HTTP layer.',
      from: { path: ['^src/app/', MIDDLE, DOMAIN, BASE] },
      to: { path: '^src/api/' },
    },
    {
      name: 'app-above-commands',
      severity: 'error',
      comment: 'Commands, agents, projections, webhooks and the domain do not import application services.',
      from: { path: [MIDDLE, DOMAIN, BASE] },
      to: { path: '^src/app/', pathNot: KNOWN },
    },
    {
      name: 'domain-below-commands',
      severity: 'error',
      comment: 'The domain (screening engine, lists, report model and scoring) does not import commands, agents, projections or webhooks.',
      from: { path: DOMAIN },
      to: { path: MIDDLE },
    },
    {
      name: 'infrastructure-at-the-bottom',
      severity: 'error',
      comment: 'Infrastructure, shared kernels and the config import nothing above them.',
      from: { path: BASE },
      to: { path: ['^src/(app|api|bootstrap|cli|commands|agents|projections|webhooks|screening|reports)/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|web|dist)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js', '.json'] },
  },
};
