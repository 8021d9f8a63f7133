/** docs/topics.md lists every event topic with the typed data schema of each event type it carries. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as commands from '../../../src/commands';
import { AvroRegistry, eventDataSchemaName } from '../../../src/infrastructure/bus/avro';
import { eventTopicForStream } from '../../../src/infrastructure/bus/topics';
import { eventTopics, renderTopicsDoc } from '../../../scripts/gen-topics-doc';

const registry = AvroRegistry.load();

/** A real stream name of each aggregate, from its own streamName function. */
const realStreams: Record<keyof typeof commands.eventTypesByAggregate, string> = {
  account: commands.account.streamName('42'),
  apiKeys: commands.apiKeys.streamName('42'),
  screening: commands.screening.streamName('501'),
  personCheck: commands.personCheck.streamName('SVC-0a1b2c3d-P'),
  subjectCheck: commands.subjectCheck.streamName('1001'),
  webhookEndpoint: commands.webhookEndpoint.streamName('s3', '42'),
  watchlist: commands.watchlist.streamName('0b6c2f1e-8d4a-4c1e-9a53-2f6d1b7e4c90'),
  offshoreLeakQuota: commands.offshoreLeakQuota.streamName('42', '2026-11'),
};

describe('event topics in docs/topics.md', () => {
  const topics = eventTopics(registry);

  it('maps each aggregate to the topic its real streams are relayed to', () => {
    for (const [aggregate, stream] of Object.entries(realStreams)) {
      const topic = topics.find((t) => t.aggregates.some((a) => a.aggregate === aggregate));
      assert.equal(topic?.topic, eventTopicForStream(stream), aggregate);
    }
    assert.deepEqual(topics.map((t) => t.topic), ['svc.events.account', 'svc.events.person', 'svc.events.quota', 'svc.events.screening', 'svc.events.subject', 'svc.events.watchlist', 'svc.events.webhook']);
  });

  it('lists every event type with its topic and data schema, and each data schema section names its topic', () => {
    const doc = renderTopicsDoc();
    for (const t of topics) {
      for (const a of t.aggregates) {
        for (const e of a.eventTypes) {
          assert.equal(e.dataSchema, eventDataSchemaName(a.aggregate, e.type));
          assert.ok(doc.includes(`| \`${t.topic}\` | \`${a.streamPrefix}…\` | ${a.aggregate} | ${e.type} | [\`${e.dataSchema}\`]`), `${e.type} row`);
          assert.ok(doc.includes(`### ${e.dataSchema}\n`), `${e.dataSchema} section`);
        }
      }
    }
    assert.equal(topics.flatMap((t) => t.aggregates.flatMap((a) => a.eventTypes)).length, commands.allEventTypes.length);
    assert.match(doc, /### com\.svc\.events\.screening\.ScreeningCompleted\n[\s\S]*?- Topics: `svc\.events\.screening`, in `com\.svc\.events\.EventEnvelope\.dataAvro`/);
    assert.match(doc, /Compatibility: BACKWARD for the envelope and for every data schema/);
    assert.match(doc, /\| `hits\[\]\.score` \| `double` \| required \|/, 'fields of records inside arrays are listed');
  });
});
