/**
 * The list matching thread: the list agents answered on a worker thread give what they give on the
 * main thread, take list updates in order, and hand matching back to the main thread if it dies.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createListAgents } from '../../../src/agents/lists/list-agents';
import { ListMatchingThread, threadedListAgents } from '../../../src/agents/lists/matching-thread';
import type { AgentOutcome, AgentSubject } from '../../../src/agents/runtime/agent';
import { ScreeningEngine } from '../../../src/screening/engine';
import { createLogger } from '../../../src/shared/logger';
import * as F from '../../unit/screening/matching/fixtures';
import { startTestService, type TestService } from '../../support/service';

const logger = createLogger({ level: 'silent' });
const context = { signal: new AbortController().signal };
const subject = (name: string, entityType: AgentSubject['entityType'] = 'individual'): AgentSubject => ({ workflow: 'screening-1', name, entityType });
const hitIds = (outcome: AgentOutcome) => outcome.hits.map((h) => `${h.entityId}@${h.score}`);


describe('list matching thread', () => {
  const engine = ScreeningEngine.build(F.ALL, []);
  const mainThreadAgents = createListAgents(() => engine);

  it('answers every list agent exactly as the main thread does', async () => {
    const thread = await ListMatchingThread.start({ entities: F.ALL, versions: [], recentQueries: 16 }, logger);
    try {
      const threaded = threadedListAgents(thread, mainThreadAgents);
      assert.deepEqual(threaded.map((a) => [a.name, a.label]), mainThreadAgents.map((a) => [a.name, a.label]));
      let compared = 0;
      for (const name of ['Vladimir Putin', 'Emma Daniels', 'Kim Jong Un', 'Nobody Atall']) {
        for (const [i, agent] of threaded.entries()) {
          const there = await agent.run(subject(name), context);
          const here = await mainThreadAgents[i]!.run(subject(name), context);
          assert.deepEqual(there, here, `${agent.name} on ${name}`);
          compared += there.hits.length;
        }
      }
      assert.ok(compared > 0, 'the comparison includes real hits');
    } finally {
      await thread.stop();
    }
  });

  it('answers with the new lists once replace() resolves', async () => {
    const thread = await ListMatchingThread.start({ entities: [F.EMMA_DANIELS], versions: [], recentQueries: 16 }, logger);
    try {
      assert.equal((await thread.run('sanctions', subject('Vladimir Putin'))).hits.length, 0, 'not on the first lists');
      await thread.replace(F.ALL, []);
      assert.ok((await thread.run('sanctions', subject('Vladimir Putin'))).hits.length > 0, 'on the new lists');
    } finally {
      await thread.stop();
    }
  });

  it('a thread that dies hands matching back to the main thread', async () => {
    const thread = await ListMatchingThread.start({ entities: [F.EMMA_DANIELS], versions: [], recentQueries: 16 }, logger);
    const threaded = threadedListAgents(thread, mainThreadAgents);
    await thread.stop();
    assert.equal(thread.running, false);
    await assert.rejects(thread.run('sanctions', subject('Vladimir Putin')), /not running/);
    // The fallback uses the main engine (all fixtures), so Putin is found although the thread's lists lacked him.
    const outcome = await threaded[0]!.run(subject('Vladimir Putin'), context);
    assert.ok(outcome.hits.length > 0);
    assert.deepEqual(hitIds(outcome), hitIds(await mainThreadAgents[0]!.run(subject('Vladimir Putin'), context)));
  });
});

describe('the service with the matching thread on', () => {
  let on: TestService;
  let off: TestService;
  before(async () => {
    [on, off] = await Promise.all([
      startTestService({ env: { LIST_MATCHING_THREAD: 'true', LISTS_ONLY: 'us_csl' } }),
      startTestService({ env: { LIST_MATCHING_THREAD: 'false', LISTS_ONLY: 'us_csl' } }),
    ]);
  });
  after(async () => {
    await Promise.all([on?.stop(), off?.stop()]);
  });

  it('reports the same sanctions hits over HTTP as with matching on the main thread', async () => {
    const screen = async (svc: TestService) => {
      const account = await svc.createAccount('enterprise');
      const { key } = await svc.createKey(account.accountId, 's1');
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const res = await fetch(`${svc.url}/api/v1/screening/cdd`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query: 'Vladimir Putin', entity_type: 'individual' }),
      });
      assert.equal(res.status, 201, await res.clone().text());
      const { screening } = (await res.json()) as { screening: { id: number; status: string } };
      assert.equal(screening.status, 'completed');
      const detail = await fetch(`${svc.url}/api/v1/screening/${screening.id}`, { headers });
      const hits = ((await detail.json()) as { screening: { hits: { sanctions: { entity_id?: string; entity_name: string; score: number }[] } } }).screening.hits.sanctions;
      return hits.map((h) => `${h.entity_name} ${h.score}`);
    };
    const [withThread, without] = await Promise.all([screen(on), screen(off)]);
    assert.ok(withThread.some((h) => /PUTIN/i.test(h)), `${withThread.join("; ")} / without the thread: ${without.join("; ")}`);
    assert.deepEqual(withThread, without);
  });
});
