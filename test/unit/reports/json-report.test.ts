import { notSearchedWords } from '../../../src/reports/plain-words';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildJsonReport } from '../../../src/reports/json-report';
import { renderScreeningReportPdf } from '../../../src/reports/pdf/screening-report';
import { SECTION_TITLES } from '../../../src/reports/sections';
import { pdfText } from './pdf-text';
import { sampleReport } from './sample-report';

describe('structured JSON report', () => {
  it('has the 13 sections of the PDF, numbered and titled the same', () => {
    const json = buildJsonReport(sampleReport(), { generatedAt: '2026-03-02T10:00:00Z' });
    assert.deepEqual(
      json.sections.map((s) => [s.number, s.title]),
      SECTION_TITLES.map((t, i) => [i + 1, t]),
    );
    assert.equal(json.generated_at, '2026-03-02T10:00:00.000Z');
    assert.deepEqual(json.screening, {
      id: 1042,
      uuid: '7d0f4c1e-2b7a-4c47-9a54-3f1c2b9e8a10',
      sow_screening_id: null,
      screening_type: 'EDD',
      status: 'completed',
      created_at: '2026-03-02T09:15:00.000Z',
      completed_at: '2026-03-02T09:15:00.840Z',
      risk_score: 100,
      risk_level: 'critical',
    });
  });

  it('carries every hit with its detail record, keeping original-script names', () => {
    const report = sampleReport();
    const json = buildJsonReport(report, { generatedAt: '2026-03-02T10:00:00Z' });
    const sanctions = json.sections.find((s) => s.key === 'sanctions');
    assert.ok(sanctions && sanctions.key === 'sanctions');
    assert.equal(sanctions.content.count, 3);
    assert.equal(sanctions.content.confirmed, 1);
    const first = sanctions.content.hits[0]!;
    assert.deepEqual(
      [first.list, first.entity_id, first.matched_name, first.score, first.status, first.programs, first.source_url],
      ['ofac_sdn', 'ofac_sdn:32090', 'ZALA AERO GROUP', 100, 'confirmed', ['RUSSIA-EO14024'], 'https://sanctionssearch.ofac.treas.gov/'],
    );
    assert.deepEqual(first.explanation.qualifiers, [{ kind: 'country_match', effect: 0.02, detail: 'RU = RU' }]);
    assert.equal(sanctions.content.hits[2]!.entity_name, 'صدام حسين التكريتي');
    const pep = json.sections.find((s) => s.key === 'pep');
    assert.ok(pep && pep.key === 'pep');
    assert.equal(pep.content.hits[0]!.matched_name, 'Захаров Александр Вячеславович');
    assert.equal(pep.content.hits[0]!.position, 'Chief designer, Zala Aero Group');
  });

  it('counts the hits as they stand: a false positive on the corroborated hit moves it from confirmed to dismissed, the machine\'s assessment kept apart', () => {
    const report = sampleReport();
    const sectionOf = (r: ReturnType<typeof sampleReport>) => {
      const s = buildJsonReport(r, { generatedAt: '2026-03-02T10:00:00Z' }).sections.find((x) => x.key === 'sanctions');
      assert.ok(s && s.key === 'sanctions');
      return s.content;
    };
    const before = sectionOf(report);
    assert.deepEqual([before.confirmed, before.potential, before.dismissed], [1, 2, 0]);
    const best = report.hits.sanctions[0]!;
    best.disposition = { decision: 'false_positive', by: 'ann@northgate.test', at: '2026-03-02T10:00:00Z', note: 'other entity' };
    const after = sectionOf(report);
    assert.deepEqual([after.confirmed, after.potential, after.dismissed], [0, 2, 1]);
    assert.match(after.by_standing, /dismissed 1$/);
    assert.deepEqual([after.hits[0]!.assessment, after.hits[0]!.machine_label], ['dismissed', 'identity corroborated']);
  });

  it('risk section shows the scale, breakdown and cap; audit shows list versions and events', () => {
    const report = sampleReport();
    const json = buildJsonReport(report, { generatedAt: '2026-03-02T10:00:00Z' });
    const risk = json.sections[2]!;
    assert.ok(risk.key === 'risk');
    assert.equal(risk.content.capped, true);
    assert.equal(risk.content.uncapped_score, report.verdict.uncappedScore);
    assert.equal(risk.content.scale.length, 4);
    assert.equal(risk.content.breakdown.reduce((n, c) => n + c.points, 0), report.verdict.uncappedScore);
    const audit = json.sections[12]!;
    assert.ok(audit.key === 'audit');
    assert.equal(audit.content.list_versions[0]!.content_hash, report.audit.listVersions[0]!.contentHash);
    assert.deepEqual(audit.content.events.map((e) => e.type), ['ScreeningRequested', 'AgentResultRecorded', 'ScreeningCompleted']);
    assert.equal(audit.content.agents[2]!.queried, false);
    const cover = json.sections[0]!;
    assert.ok(cover.key === 'cover');
    assert.deepEqual(cover.content.flags.map((f) => f.flag), ['confirmed_sanctions_hit', 'pep', 'fatf_black_list']);
  });

  it('is plain JSON (round-trips) and is the same content the PDF prints', async () => {
    const report = sampleReport();
    const json = buildJsonReport(report, { generatedAt: '2026-03-02T10:00:00Z' });
    assert.deepEqual(JSON.parse(JSON.stringify(json)), json);
    const { flat } = pdfText(await renderScreeningReportPdf(report, { generatedAt: '2026-03-02T10:00:00Z' }), 'same.pdf');
    for (const section of json.sections) {
      if (section.key === 'sanctions' || section.key === 'debarment' || section.key === 'adverse_media') {
        for (const h of section.content.hits) assert.ok(flat.includes(h.entity_id), h.entity_id);
      }
      if (section.key === 'registry') for (const r of section.content.records) assert.ok(flat.includes(r.legal_name!), r.legal_name);
      if (section.key === 'data_gaps') for (const s of section.content.sources_not_searched) assert.ok(flat.includes(notSearchedWords(s.reason)), s.reason);
    }
  });

  it('says when there is no analysis (CDD)', () => {
    const json = buildJsonReport(sampleReport({ kind: 'cdd', analysis: undefined }), { generatedAt: '2026-03-02T10:00:00Z' });
    const analysis = json.sections[10]!;
    assert.ok(analysis.key === 'analysis');
    assert.deepEqual(analysis.content, { kind: null, note: 'Not part of a CDD screening (EDD, M&A and SOW screenings carry an analysis).' });
    assert.equal(json.screening.screening_type, 'CDD');
  });
});
