import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { agentsForPhase, nextPipelineStep, planPipeline, type PipelineContext } from '../../../src/commands/screening';

const ctx = (over: Partial<PipelineContext>): PipelineContext => ({ kind: 'cdd', entityType: 'company', plan: 'enterprise', ...over });

describe('screening pipeline: phase table and tier gates', () => {
  it('phase 0 enrichment runs for companies only', () => {
    assert.deepEqual(agentsForPhase('0', ctx({ entityType: 'company' })), ['entity_enrichment']);
    assert.deepEqual(agentsForPhase('0', ctx({ entityType: 'individual' })), []);
  });

  it('phase 1 runs for every plan', () => {
    const expected = ['sanctions', 'pep', 'adverse_media', 'offshore_leaks', 'debarment', 'osint', 'public_company'];
    for (const plan of ['starter', 'essentials', 'professional', 'enterprise'] as const) {
      assert.deepEqual(agentsForPhase('1', ctx({ plan })), expected);
    }
  });

  it('gates 1b and browser verification at Essentials, 3 at Professional, 4 at Enterprise', () => {
    const phasesFor = (plan: PipelineContext['plan']) => planPipeline(ctx({ plan })).map((p) => `${p.phase}:${p.agents.join('+')}`);
    assert.deepEqual(phasesFor('starter'), [
      '0:entity_enrichment',
      '1:sanctions+pep+adverse_media+offshore_leaks+debarment+osint+public_company',
      '2:financial_due_diligence',
      '5:country_risk+risk_score+merged_adverse_media+data_gaps+summary+verification',
    ]);
    assert.deepEqual(
      phasesFor('essentials').filter((p) => /^(1b|2|3|4):/.test(p)),
      ['1b:company_registries+market_data', '2:financial_due_diligence+browser_verification'],
    );
    assert.deepEqual(
      phasesFor('professional').filter((p) => /^(3|4):/.test(p)),
      ['3:litigation+bankruptcy+consumer_complaints+esg+adverse_media_engine'],
    );
    assert.deepEqual(phasesFor('enterprise').filter((p) => /^4:/.test(p)), ['4:arbitration+web_archive+beneficial_ownership']);
  });

  it('individuals skip enrichment and financials', () => {
    const phases = planPipeline(ctx({ entityType: 'individual', plan: 'essentials' }));
    assert.deepEqual(phases.map((p) => p.phase), ['1', '1b', '2', '5']);
    assert.deepEqual(phases.find((p) => p.phase === '2')?.agents, ['browser_verification']);
  });

  it('EDD adds its analysis, M&A adds securities filings and its analysis, SOW adds its nine steps and its analysis', () => {
    assert.ok(agentsForPhase('5', ctx({ kind: 'edd', plan: 'professional' })).includes('edd_analysis'));
    assert.ok(agentsForPhase('2', ctx({ kind: 'ma' })).includes('securities_filings'));
    assert.ok(agentsForPhase('5', ctx({ kind: 'ma' })).includes('ma_analysis'));
    assert.ok(!agentsForPhase('5', ctx({ kind: 'cdd' })).some((a) => a.endsWith('_analysis')));
    const sow = [...agentsForPhase('2', ctx({ kind: 'sow', entityType: 'individual' })), ...agentsForPhase('5', ctx({ kind: 'sow', entityType: 'individual' }))];
    assert.equal(sow.filter((a) => a.startsWith('sow_') && a !== 'sow_analysis').length, 9);
    assert.ok(sow.includes('sow_analysis'));
  });

  it('phase 5 is sequential and ends with verification', () => {
    const five = planPipeline(ctx({})).at(-1)!;
    assert.equal(five.phase, '5');
    assert.equal(five.mode, 'sequential');
    assert.equal(five.agents.at(-1), 'verification');
  });
});

describe('screening pipeline: next step', () => {
  const pipeline = planPipeline(ctx({ entityType: 'individual', plan: 'starter' })); // phases 1 and 5
  it('starts the first phase, dispatches its agents, completes it, then moves on', () => {
    assert.deepEqual(nextPipelineStep({ status: 'running', pipeline, phases: {}, recorded: {} }), {
      action: 'start_phase',
      phase: '1',
      agents: pipeline[0]!.agents,
      mode: 'parallel',
    });
    const step = nextPipelineStep({ status: 'running', pipeline, phases: { '1': { status: 'running' } }, recorded: { '1/sanctions': {} } });
    assert.equal(step.action, 'dispatch');
    assert.ok(step.action === 'dispatch' && step.agents.length === 6 && !step.agents.includes('sanctions'));
    const all = Object.fromEntries(pipeline[0]!.agents.map((a) => [`1/${a}`, {}]));
    assert.deepEqual(nextPipelineStep({ status: 'running', pipeline, phases: { '1': { status: 'running' } }, recorded: all }), {
      action: 'complete_phase',
      phase: '1',
    });
    assert.equal(nextPipelineStep({ status: 'running', pipeline, phases: { '1': { status: 'completed' } }, recorded: all }).action, 'start_phase');
  });

  it('dispatches a sequential phase one agent at a time, in order', () => {
    const phases = { '1': { status: 'completed' as const }, '5': { status: 'running' as const } };
    const step = nextPipelineStep({ status: 'running', pipeline, phases, recorded: new Set(['5/country_risk']) });
    assert.deepEqual(step, {
      action: 'dispatch',
      phase: '5',
      agents: ['risk_score'],
      pending: ['risk_score', 'merged_adverse_media', 'data_gaps', 'summary', 'verification'],
    });
  });

  it('asks for completion when every phase is done, and nothing once terminal', () => {
    const done = { '1': { status: 'completed' as const }, '5': { status: 'completed' as const } };
    assert.deepEqual(nextPipelineStep({ status: 'running', pipeline, phases: done, recorded: {} }), { action: 'complete_screening' });
    assert.deepEqual(nextPipelineStep({ status: 'completed', pipeline, phases: done, recorded: {} }), { action: 'none', reason: 'completed' });
    assert.deepEqual(nextPipelineStep({ status: 'failed', pipeline, phases: {}, recorded: {} }), { action: 'none', reason: 'failed' });
  });
});
