/**
 * A realistic finished screening for report and analysis tests. Names come from the real lists
 * in ../shared/data (OFAC/EU/UN entries, the Zakharov/Zala Aero cluster, the ICIJ sample), with
 * Cyrillic, Arabic and Chinese originals to exercise non-Latin rendering.
 */

import { computeRiskScore } from '../../../src/reports/risk-score';
import { emptyHits, RISK_SCALE, type ReportHit, type ScreeningReport } from '../../../src/reports/model';

/** The sample's exact matches are on distinctive names (the identity confirmed); the others are partial name matches. */
function hit(partial: Partial<ReportHit> & Pick<ReportHit, 'hitId' | 'category' | 'source' | 'entityName' | 'score'>): ReportHit {
  const confirmed = partial.score >= 0.96;
  return {
    entityId: `${partial.source}:${partial.hitId.split(':').pop()}`,
    matchedName: partial.entityName,
    matchedNameKind: 'primary',
    status: confirmed ? 'confirmed' : 'potential',
    ...(confirmed
      ? { assessment: 'identity_corroborated' as const, confirmation: { basis: 'distinctive_name' as const, detail: `exact match on a distinctive name: "${partial.entityName}"` } }
      : { assessment: 'name_match' as const, identityNote: 'name only: not an exact match; needs an identity fact (date of birth or identifier)' }),
    explanation: { summary: `Name matched "${partial.entityName}"`, qualifiers: [] },
    programs: [],
    ...partial,
  };
}

export function sampleReport(overrides: Partial<ScreeningReport> = {}): ScreeningReport {
  const hits = emptyHits();
  hits.sanctions.push(
    hit({
      hitId: 'sanctions:ofac_sdn:32090',
      category: 'sanctions',
      source: 'ofac_sdn',
      sourceLabel: 'OFAC SDN List',
      entityName: 'ZALA AERO GROUP',
      matchedName: 'ZALA AERO GROUP',
      score: 1,
      programs: ['RUSSIA-EO14024'],
      sourceUrl: 'https://sanctionssearch.ofac.treas.gov/',
      explanation: {
        summary: 'Exact match on the primary name; country Russia corroborates.',
        qualifiers: [{ kind: 'country_match', effect: 0.02, detail: 'RU = RU' }],
      },
    }),
    hit({
      hitId: 'sanctions:eu_fsf:eu-zala',
      category: 'sanctions',
      source: 'eu_fsf',
      sourceLabel: 'EU Financial Sanctions Files',
      entityName: 'Zala Aero',
      matchedName: 'ZALA AERO',
      matchedNameKind: 'strong_alias',
      score: 0.91,
      programs: ['UKR'],
    }),
    hit({
      hitId: 'sanctions:un_sc:IQi.001',
      category: 'sanctions',
      source: 'un_sc',
      sourceLabel: 'UN Security Council Consolidated List',
      entityName: 'صدام حسين التكريتي',
      matchedName: 'صدام حسين التكريتي',
      matchedNameKind: 'original_script',
      score: 0.82,
      programs: ['Iraq'],
    }),
  );
  hits.pep.push(
    hit({
      hitId: 'pep:opensanctions:NK-zakharov',
      category: 'pep',
      source: 'commercial_screening',
      sourceLabel: 'Commercial sanctions and PEP screening API',
      entityName: 'Alexander Vyacheslavovich ZAKHAROV',
      matchedName: 'Захаров Александр Вячеславович',
      matchedNameKind: 'original_script',
      score: 0.96,
      position: 'Chief designer, Zala Aero Group',
    }),
  );
  hits.adverse_media.push(
    hit({
      hitId: 'adverse_media:news:1',
      category: 'adverse_media',
      source: 'adverse_media_search',
      entityName: 'Zala Aero drones used in strikes, investigation finds',
      title: 'Zala Aero drones used in strikes, investigation finds',
      matchedName: 'Zala Aero Group',
      score: 0.85,
      publishedAt: '2025-03-01',
      sourceUrl: 'https://news.example/zala',
    }),
  );
  hits.offshore_leaks.push(
    hit({
      hitId: 'offshore_leaks:icij:10000001',
      category: 'offshore_leaks',
      source: 'icij_offshore',
      entityName: 'TIANSHENG INDUSTRY AND TRADING CO., LTD. 天盛工贸有限公司',
      matchedName: 'TIANSHENG INDUSTRY AND TRADING CO., LTD.',
      score: 0.97,
      investigation: 'Panama Papers',
      sourceUrl: 'https://offshoreleaks.icij.org/nodes/10000001',
    }),
  );
  hits.debarment.push(
    hit({
      hitId: 'debarment:us_dpl:dpl-17',
      category: 'debarment',
      source: 'us_dpl',
      sourceLabel: 'BIS Denied Persons List',
      entityName: 'ZALA AERO SERVICES',
      score: 0.88,
      programs: ['Standard Order'],
    }),
  );
  const countryRisk = [
    { iso2: 'RU', jurisdiction: 'Russia', fatfStatus: 'none' as const, asOf: '2026-02-13', basis: 'subject_jurisdiction' },
    { iso2: 'IR', jurisdiction: 'Iran', fatfStatus: 'high_risk_call_for_action' as const, measure: 'countermeasures', asOf: '2026-02-13', basis: 'registry_controller' },
  ];
  const ukRegistry = { companyNumber: '01234567', companyName: 'ZALA AERO UK LIMITED', status: 'dissolved', struckOff: true, pscNotRegisteredOrExempt: true, controllerCountries: ['IR'] };
  const assessment = computeRiskScore({ hits, countryRisk, ukRegistry });

  return {
    id: 1042,
    uuid: '7d0f4c1e-2b7a-4c47-9a54-3f1c2b9e8a10',
    kind: 'edd',
    accountId: '17',
    status: 'completed',
    createdAt: '2026-03-02T09:15:00.000Z',
    completedAt: '2026-03-02T09:15:00.840Z',
    subject: {
      query: 'Zala Aero Group',
      entityType: 'company',
      jurisdiction: 'Russia',
      jurisdictionIso2: 'RU',
      edd: {
        sourceOfWealth: 'Defence contracts with *state* customers',
        sourceOfFunds: 'Operating revenue',
        purposeOfRelationship: 'Trade finance',
        beneficialOwnership: 'Held via JSC Kalashnikov Concern',
      },
    },
    verdict: {
      riskScore: assessment.riskScore,
      riskLevel: assessment.riskLevel,
      scale: RISK_SCALE,
      breakdown: assessment.breakdown,
      uncappedScore: assessment.uncappedScore,
      summary: 'Confirmed OFAC SDN designation; PEP and offshore-leak links.',
    },
    hits,
    countryRisk,
    enrichment: {
      canonicalName: 'Zala Aero Group',
      registryNumber: '1127746',
      jurisdiction: 'RU',
      registries: [
        {
          source: 'companies_house',
          legalName: 'ZALA AERO UK LIMITED',
          registrationNumber: '01234567',
          jurisdiction: 'GB',
          status: 'dissolved',
          officers: [{ name: 'Mr Ali Example', role: 'PSC' }],
          sourceUrl: 'https://find-and-update.company-information.service.gov.uk/company/01234567',
        },
        { source: 'gleif', legalName: 'Zala Aero Group', lei: '5299000J2N45DDNE4Y28', jurisdiction: 'RU', status: 'ACTIVE' },
      ],
      ukRegistry,
    },
    analysis: {
      kind: 'edd',
      generatedBy: 'rules',
      markdown: [
        '# Enhanced due diligence: Zala Aero Group',
        '',
        '_Generated by rules: no language model configured._',
        '',
        '## Beneficial ownership',
        '',
        '- Declared ownership: "Held via JSC Kalashnikov Concern"',
        '  - nested point with **bold words** inside',
        '',
        '## Recommendation',
        '',
        '**Do not proceed.** A confirmed sanctions match was found.',
        '1. Escalate to the MLRO',
      ].join('\n'),
    },
    agents: [
      { agent: 'sanctions', phase: '1', queried: true, durationMs: 3, matchCount: 3 },
      { agent: 'commercial_screening', phase: '1', queried: true, durationMs: 412, matchCount: 1 },
      { agent: 'opencorporates', phase: '1b', queried: false, error: 'not configured: set OPENCORPORATES_API_TOKEN', durationMs: 0, matchCount: 0 },
    ],
    dataGaps: [{ code: 'uk_list_not_loaded', description: 'UK Sanctions List not loaded' }],
    sourcesNotSearched: [
      { source: 'opencorporates', reason: 'not configured: set OPENCORPORATES_API_TOKEN' },
      { source: 'litigation', reason: 'not in plan tier (Professional+)' },
    ],
    audit: {
      listVersions: [
        { source: 'ofac_sdn', label: 'OFAC SDN', versionId: 'ofac_sdn@3f9a1c2b', contentHash: '3f9a1c2b7e0d4a55aa01bb02cc03dd04ee05ff0611223344556677889900aabb', publishedAt: '2021-07-07', loadedAt: '2026-03-01T00:00:00.000Z', entityCount: 8976 },
        { source: 'un_sc', label: 'UN SC', versionId: 'un_sc@9c8d7e6f', contentHash: '9c8d7e6f00112233445566778899aabbccddeeff00112233445566778899aabb', publishedAt: '2026-02-27', loadedAt: '2026-03-01T00:00:00.000Z', entityCount: 1003 },
      ],
      matcherVersion: 'matcher-1.0.0',
      events: [
        { type: 'ScreeningRequested', occurredAt: '2026-03-02T09:15:00.000Z', eventId: 'e1', position: '0' },
        { type: 'AgentResultRecorded', occurredAt: '2026-03-02T09:15:00.420Z', eventId: 'e2', position: '1' },
        { type: 'ScreeningCompleted', occurredAt: '2026-03-02T09:15:00.840Z', eventId: 'e3', position: '2' },
      ],
      streamHeadHash: 'ab12cd34ef56',
    },
    ...overrides,
  };
}

/** A completed CDD screening of an individual with no hit, no analysis and no country assessed. */
export function cleanSampleReport(query: string): ScreeningReport {
  return sampleReport({
    kind: 'cdd',
    hits: emptyHits(),
    analysis: undefined,
    countryRisk: [],
    verdict: { riskScore: 0, riskLevel: 'low', scale: RISK_SCALE, breakdown: [], uncappedScore: 0, flags: [] },
    subject: { query, entityType: 'individual' },
  });
}
