/**
 * Every topic schema must stay BACKWARD compatible: the current .avsc must read data written with
 * every earlier version in schemas/history/ and with the last committed version that differs
 * from the working copy (when git is available). A change that breaks old data fails here.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { backwardIncompatibility } from '../../../src/infrastructure/bus/avro/compatibility';
import { AvroRegistry, fingerprintOf, parseSchema } from '../../../src/infrastructure/bus/avro/registry';
import { defaultSchemasDir, readSchemaFiles } from '../../../src/infrastructure/bus/avro/schema-files';

const files = readSchemaFiles(defaultSchemasDir);
const currents = files.filter((f) => f.current);

function git(args: string[], cwd: string): string | undefined {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

const repoRoot = git(['rev-parse', '--show-toplevel'], defaultSchemasDir)?.trim();

/** The newest committed version of a schema file that differs (canonically) from the working copy. */
function lastDifferentCommittedVersion(path: string, current: object): { commit: string; schema: object } | undefined {
  if (!repoRoot) return undefined;
  const repoPath = relative(repoRoot, join(defaultSchemasDir, path));
  const commits = git(['log', '--format=%H', '-n', '20', 'HEAD', '--', repoPath], repoRoot)?.split('\n').filter(Boolean) ?? [];
  const currentFingerprint = fingerprintOf(parseSchema(current));
  for (const commit of commits) {
    const text = git(['show', `${commit}:${repoPath}`], repoRoot);
    if (text === undefined) continue; // deleted or moved in that commit
    const schema = JSON.parse(text) as object;
    if (fingerprintOf(parseSchema(schema)) !== currentFingerprint) return { commit, schema };
  }
  return undefined;
}

describe('topic schemas', () => {
  it('loads every schema, each a namespaced record, with distinct fingerprints', () => {
    const registry = AvroRegistry.load();
    assert.ok(currents.length >= 3, 'EventEnvelope, AgentTask and AgentResult at least');
    for (const name of ['com.svc.events.EventEnvelope', 'com.svc.agents.AgentTask', 'com.svc.agents.AgentResult']) {
      assert.ok(registry.names().includes(name), `${name} is loaded`);
    }
    // com.svc.<area>.<Type>, or com.svc.events.<aggregate>.<EventType> for typed event data
    for (const f of currents) assert.match(f.fullName, /^com\.svc\.[a-z]+(\.[a-z][A-Za-z]*)?\.[A-Z]\w+$/);
    const prints = currents.map((f) => registry.current(f.fullName).fingerprint);
    assert.equal(new Set(prints).size, prints.length);
  });

  for (const current of currents) {
    it(`${current.fullName} reads data written with every previous version`, () => {
      const previous = files.filter((f) => f.fullName === current.fullName && !f.current);
      for (const old of previous) {
        const problem = backwardIncompatibility(current.schema, old.schema);
        assert.equal(problem, undefined, `${current.path} cannot read ${old.path}: ${problem}`);
      }
      const committed = lastDifferentCommittedVersion(current.path, current.schema);
      if (!committed) return; // unchanged since it was first committed (or no git here)
      const problem = backwardIncompatibility(current.schema, committed.schema);
      assert.equal(problem, undefined, `${current.path} cannot read its version committed in ${committed.commit.slice(0, 10)}: ${problem}`);
    });
  }
});

describe('the backward-compatibility check itself', () => {
  const v1 = {
    type: 'record',
    name: 'Sample',
    namespace: 'com.svc.test',
    fields: [
      { name: 'id', type: 'string' },
      { name: 'count', type: 'int' },
    ],
  };
  const withField = (field: object) => ({ ...v1, fields: [...v1.fields, field] });

  it('rejects a new field without a default', () => {
    const problem = backwardIncompatibility(withField({ name: 'reason', type: 'string' }), v1);
    assert.ok(problem, 'must be rejected');
    assert.match(problem, /reason/);
  });

  it('rejects an incompatible type change', () => {
    const changed = { ...v1, fields: [v1.fields[0], { name: 'count', type: 'string' }] };
    assert.ok(backwardIncompatibility(changed, v1));
  });

  it('accepts a new optional field with a default, a removed field and a promotion int → long', () => {
    assert.equal(backwardIncompatibility(withField({ name: 'reason', type: ['null', 'string'], default: null }), v1), undefined);
    assert.equal(backwardIncompatibility({ ...v1, fields: [v1.fields[0]] }, v1), undefined);
    assert.equal(backwardIncompatibility({ ...v1, fields: [v1.fields[0], { name: 'count', type: 'long' }] }, v1), undefined);
  });

  it('catches a breaking edit of a real schema (EventEnvelope gains a required field)', () => {
    const envelope = currents.find((f) => f.fullName === 'com.svc.events.EventEnvelope')!;
    const broken = {
      ...envelope.schema,
      fields: [...(envelope.schema.fields as object[]), { name: 'tenantId', type: 'string' }],
    };
    assert.match(backwardIncompatibility(broken, envelope.schema) ?? '', /tenantId/);
  });

  it('uses the schemas directory of this repository', () => {
    assert.equal(resolve(defaultSchemasDir), resolve(repoRoot ?? defaultSchemasDir, 'schemas'));
  });
});
