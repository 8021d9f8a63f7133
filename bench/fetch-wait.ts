/**
 * Does a held fetch return when a message arrives? (a script, not a test):
 *   npx tsx bench/fetch-wait.ts
 *
 * Against the test broker (librdkafka's mock cluster, test/support/kafka.ts; or KAFKA_BROKERS, a real
 * cluster, whose topic `fetch-wait-probe` must exist), one kafkajs consumer per fetch wait
 * (BENCH_WAITS, default 10,100,500 ms) idles on a topic; a producer then sends BENCH_PROBES messages
 * (default 20) at random moments, one at a time, and the time from the send's acknowledgement to the
 * consumer's handler is printed: a broker that answers a held fetch as soon as data arrives (Kafka)
 * gives a few ms whatever the wait; one that holds it (the mock) gives about half the wait on average.
 */
import { Kafka, logLevel } from 'kafkajs';
import { startMockKafka } from '../test/support/kafka';

const WAITS = (process.env.BENCH_WAITS ?? '10,100,500').split(',').map(Number);
const PROBES = Number(process.env.BENCH_PROBES ?? 20);
const TOPIC = 'fetch-wait-probe';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main() {
  const mock = process.env.KAFKA_BROKERS ? undefined : await startMockKafka({ topics: [{ name: TOPIC, partitions: 1 }] });
  const brokers = mock?.brokers ?? process.env.KAFKA_BROKERS!.split(',');
  const kafka = new Kafka({ brokers, clientId: 'fetch-wait-probe', logLevel: logLevel.NOTHING });
  const producer = kafka.producer();
  await producer.connect();
  try {
    for (const wait of WAITS) {
      const consumer = kafka.consumer({ groupId: `fetch-wait-${wait}-${Date.now()}`, maxWaitTimeInMs: wait });
      await consumer.connect();
      await consumer.subscribe({ topics: [TOPIC], fromBeginning: false });
      let arrived: (() => void) | undefined;
      await consumer.run({ eachMessage: async () => arrived?.() });
      await new Promise((resolve) => setTimeout(resolve, 3_000)); // joined and idling
      const latencies: number[] = [];
      for (let i = 0; i < PROBES; i++) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * wait + 20));
        const got = new Promise<void>((resolve) => (arrived = resolve));
        await producer.send({ topic: TOPIC, acks: -1, messages: [{ value: String(i) }] });
        const sent = performance.now();
        await got;
        latencies.push(performance.now() - sent);
      }
      await consumer.disconnect();
      const sorted = latencies.sort((a, b) => a - b);
      const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
      process.stdout.write(
        `${JSON.stringify({ broker: mock ? 'librdkafka mock' : 'KAFKA_BROKERS', fetchWaitMs: wait, probes: PROBES, meanMs: Math.round(mean * 10) / 10, p50Ms: Math.round(percentile(sorted, 50) * 10) / 10, maxMs: Math.round(sorted[sorted.length - 1]! * 10) / 10 })}\n`,
      );
    }
  } finally {
    await producer.disconnect();
    await mock?.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
