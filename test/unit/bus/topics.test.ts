import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { AvroRegistry } from '../../../src/infrastructure/bus/avro/registry';
import { defaultSchemasDir } from '../../../src/infrastructure/bus/avro/schema-files';
import { AGENT_RESULTS_TOPIC, agentTaskTopic, eventTopicForStream, streamCategory } from '../../../src/infrastructure/bus/topics';
import { readTopicCatalogue, renderTopicsDoc } from '../../../scripts/gen-topics-doc';

describe('topic naming', () => {
  it('maps a stream to the topic of its category', () => {
    assert.equal(eventTopicForStream('screening-42'), 'svc.events.screening');
    assert.equal(eventTopicForStream('account-7f3a-11'), 'svc.events.account');
    assert.equal(eventTopicForStream('settings'), 'svc.events.settings');
    assert.equal(streamCategory('api key-1'), 'api_key');
    assert.equal(streamCategory('-odd'), '-odd');
    assert.equal(agentTaskTopic('sanctions'), 'svc.agents.tasks.sanctions');
    assert.equal(AGENT_RESULTS_TOPIC, 'svc.agents.results');
    assert.throws(() => agentTaskTopic(''));
  });
});

describe('topic catalogue and docs/topics.md', () => {
  it('names only schemas that exist, with a BACKWARD rule', () => {
    const registry = AvroRegistry.load();
    const topics = readTopicCatalogue();
    assert.ok(topics.length >= 3);
    for (const t of topics) {
      // Only the dead-letter topic carries other topics' messages as they were, with no schema of its own.
      if (t.schema === null) assert.equal(t.topic, 'svc.deadletter');
      else assert.ok(registry.names().includes(t.schema), `${t.topic}: unknown schema ${t.schema}`);
      assert.equal(t.compatibility, 'BACKWARD');
      assert.ok(t.key.length > 0);
    }
    assert.equal(topics.find((t) => t.schema === 'com.svc.events.EventEnvelope')?.example, eventTopicForStream('screening-1'));
  });

  it('docs/topics.md is the generated one (run npx tsx scripts/gen-topics-doc.ts after changing schemas/)', () => {
    const committed = readFileSync(join(defaultSchemasDir, '..', 'docs', 'topics.md'), 'utf8');
    assert.equal(committed, renderTopicsDoc());
  });
});
