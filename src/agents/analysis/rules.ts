/**
 * Rule-based EDD, M&A and SOW analyses: deterministic markdown from the findings digest and the
 * declared fields. Every sentence is either a finding restated, a declared field quoted, or a
 * fixed rule ("if a confirmed sanctions hit, do not proceed"). Nothing is inferred beyond that.
 */

import type { HitCategory } from '../../reports/model';
import type { FindingsDigest } from './findings';

type Hits = FindingsDigest['hits'][HitCategory];

/** A declared field quoted safely: one line, bounded, markdown emphasis characters escaped. */
export function quoteDeclared(text: string | undefined, max = 600): string | undefined {
  if (text === undefined) return undefined;
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();
  if (!clean) return undefined;
  const cut = clean.length > max ? `${clean.slice(0, max)}…` : clean;
  return cut.replace(/([\\*_`#[\]<>|])/g, '\\$1');
}

function esc(text: string): string {
  return quoteDeclared(text, 300) ?? '';
}

function count(hits: Hits, status?: 'confirmed' | 'potential'): number {
  return status ? hits.filter((h) => h.status === status).length : hits.length;
}

function hitLine(h: Hits[number]): string {
  const extras = [
    h.position ? `position: ${esc(h.position)}` : undefined,
    h.investigation ? `investigation: ${esc(h.investigation)}` : undefined,
    h.programs && h.programs.length > 0 ? `programs: ${h.programs.map(esc).join(', ')}` : undefined,
  ].filter(Boolean);
  const label = h.title ? `${esc(h.title)}` : `${esc(h.entityName)}`;
  return `- **${label}** (${esc(h.source)}), ${h.status}, score ${h.score}${extras.length > 0 ? `; ${extras.join('; ')}` : ''}`;
}

function hitsBlock(title: string, hits: Hits): string[] {
  if (hits.length === 0) return [`- ${title}: no hits.`];
  return [`- ${title}: ${count(hits, 'confirmed')} confirmed, ${count(hits, 'potential')} potential.`, ...hits.slice(0, 10).map((h) => `  ${hitLine(h)}`), ...(hits.length > 10 ? [`  - … and ${hits.length - 10} more (see the hit sections).`] : [])];
}

function countryLines(d: FindingsDigest): string[] {
  if (d.countryRisk.length === 0) return ['- Country risk: no jurisdiction assessed.'];
  return d.countryRisk.map((c) => {
    const status =
      c.fatfStatus === 'high_risk_call_for_action'
        ? `FATF black list (call for action${c.measure ? `, ${esc(c.measure)}` : ''})`
        : c.fatfStatus === 'increased_monitoring'
          ? 'FATF grey list (increased monitoring)'
          : 'not on an FATF list';
    return `- Country risk: ${esc(c.country)} is ${status}, FATF statement of ${c.asOf}.`;
  });
}

function gapLines(d: FindingsDigest): string[] {
  const lines = [...d.dataGaps.map((g) => `- ${esc(g)}`), ...d.sourcesNotSearched.map((s) => `- Not searched: ${esc(s)}`)];
  return lines.length > 0 ? lines : ['- None recorded.'];
}

function hasConfirmedSanctions(d: FindingsDigest): boolean {
  return d.flags.includes('confirmed_sanctions_hit') || d.hits.sanctions.some((h) => h.status === 'confirmed');
}

function potentialCount(d: FindingsDigest): number {
  return Object.values(d.hits).reduce((n, hits) => n + count(hits, 'potential'), 0);
}

/** The recommendation paragraph, shared by every analysis kind. */
function recommendation(d: FindingsDigest, what: string): string[] {
  const lines: string[] = [];
  if (hasConfirmedSanctions(d)) {
    lines.push(
      `**Do not proceed.** A confirmed sanctions match was found. Escalate to the MLRO, do not make funds or economic resources available, and assess reporting and asset-freeze obligations before any further contact.`,
    );
  } else if (d.riskLevel === 'critical') {
    lines.push(`**Do not proceed** with the ${what}: the risk score of ${d.riskScore} is critical on the S1 scale.`);
  } else if (d.riskLevel === 'high') {
    lines.push(`**Proceed only with senior-management approval** after the enhanced measures below: the risk score of ${d.riskScore} is high (EDD required).`);
  } else if (d.riskLevel === 'medium') {
    lines.push(`**Proceed with enhanced monitoring**: the risk score of ${d.riskScore} is medium (monitor closely).`);
  } else {
    lines.push(`**No significant flags** (risk score ${d.riskScore}, low). Standard due diligence applies; keep the declared information on file.`);
  }
  const potential = potentialCount(d);
  if (potential > 0) lines.push(`- Review the ${potential} potential match${potential === 1 ? '' : 'es'} (score 80–94) and record a disposition for each before deciding.`);
  if (d.flags.includes('pep') || d.hits.pep.length > 0) lines.push('- PEP exposure: obtain senior-management approval and establish source of wealth and funds (FATF R.12).');
  if (d.flags.includes('fatf_black_list')) lines.push('- FATF black-list jurisdiction: apply the countermeasures or enhanced measures the FATF calls for.');
  if (d.dataGaps.length + d.sourcesNotSearched.length > 0) lines.push('- Some sources were not searched (section "Data gaps"): the absence of a hit there is not evidence of absence.');
  return lines;
}

function header(title: string, d: FindingsDigest, note: string): string[] {
  return [
    `# ${title}: ${esc(d.subject.query)}`,
    '',
    `_${note}_`,
    '',
    `Risk score **${d.riskScore}/100** (${d.riskLevel}). Entity type ${d.subject.entityType}${d.subject.jurisdiction ? `, jurisdiction ${esc(d.subject.jurisdiction)}` : ''}.`,
    '',
  ];
}

export const RULES_NOTE = 'Generated by rules: no language model configured.';

export function rulesEdd(d: FindingsDigest, note = RULES_NOTE): string {
  const edd = d.subject.edd ?? {};
  const ownership = quoteDeclared(edd.beneficialOwnership);
  const wealth = quoteDeclared(edd.sourceOfWealth);
  const funds = quoteDeclared(edd.sourceOfFunds);
  const purpose = quoteDeclared(edd.purposeOfRelationship);
  const pepDeclared = quoteDeclared(edd.pepRelationships);
  const uk = d.ukRegistry;
  const out = header('Enhanced due diligence', d, note);

  out.push('## Beneficial ownership', '');
  out.push(ownership ? `- Declared ownership: "${ownership}"` : '- Declared ownership: **not provided**; obtain the ownership structure down to natural persons holding 25% or more.');
  if (uk) {
    out.push(
      uk.pscNotRegisteredOrExempt
        ? `- Companies House ${esc(uk.companyNumber)}: no person with significant control registered, or the company is exempt; verify ownership independently.`
        : `- Companies House ${esc(uk.companyNumber)}: persons with significant control are registered${uk.controllerCountries && uk.controllerCountries.length > 0 ? ` (countries: ${uk.controllerCountries.map(esc).join(', ')})` : ''}.`,
    );
  }
  for (const r of d.registry.filter((r) => r.officers && r.officers.length > 0)) out.push(`- ${esc(r.source)} lists: ${r.officers!.map(esc).join('; ')}.`);
  if (d.hits.offshore_leaks.length > 0) out.push(`- The subject appears in offshore-leak data (${d.hits.offshore_leaks.length} record${d.hits.offshore_leaks.length === 1 ? '' : 's'}); offshore structures can conceal beneficial owners: obtain the full chain of ownership.`);
  if (!ownership && !uk && d.registry.length === 0 && d.hits.offshore_leaks.length === 0) out.push('- No registry or leak data about ownership was found.');
  out.push('');

  out.push('## Source of wealth and funds', '');
  out.push(wealth ? `- Declared source of wealth: "${wealth}"` : '- Declared source of wealth: **not provided**; it must be obtained and evidenced.');
  out.push(funds ? `- Declared source of funds: "${funds}"` : '- Declared source of funds: **not provided**; it must be obtained and evidenced.');
  if (purpose) out.push(`- Declared purpose of the relationship: "${purpose}"`);
  out.push('- The screening cannot verify declarations by itself: corroborate them with documents (tax returns, audited accounts, sale agreements, bank statements).');
  const adverse = d.hits.adverse_media.length;
  if (adverse > 0) out.push(`- ${adverse} adverse-media article${adverse === 1 ? '' : 's'} found: check that the declared wealth is not linked to the reported conduct.`);
  out.push('');

  out.push('## AML risk', '');
  out.push(...hitsBlock('Sanctions', d.hits.sanctions));
  out.push(...hitsBlock('PEP', d.hits.pep));
  if (d.hits.pep.length > 0 && !pepDeclared) out.push('  - PEP matches were found but **no PEP relationship was declared**: clarify with the subject.');
  if (pepDeclared) out.push(`  - Declared PEP relationships: "${pepDeclared}"`);
  out.push(...hitsBlock('Adverse media', d.hits.adverse_media));
  out.push(...hitsBlock('Offshore leaks', d.hits.offshore_leaks));
  out.push(...hitsBlock('Debarment and enforcement', d.hits.debarment));
  out.push(...countryLines(d));
  if (d.scoreBreakdown.length > 0) {
    out.push('- Score contributions:');
    for (const c of d.scoreBreakdown) out.push(`  - +${c.points}: ${esc(c.reason)}`);
  }
  out.push('', '## Data gaps', '', ...gapLines(d), '');

  out.push('## Recommendation', '', ...recommendation(d, 'relationship'));
  return `${out.join('\n').trimEnd()}\n`;
}

export function rulesMa(d: FindingsDigest, note = RULES_NOTE): string {
  const ma = d.subject.ma ?? {};
  const out = header('M&A due diligence', d, note);
  const uk = d.ukRegistry;
  const dealType = quoteDeclared(ma.dealType);
  const dealValue = quoteDeclared(ma.dealValue);
  const industry = quoteDeclared(ma.targetIndustry);
  const acquirer = quoteDeclared(ma.acquirerName);
  const context = quoteDeclared(ma.additionalContext);

  out.push('## Deal', '');
  out.push(`- Target: ${esc(d.subject.query)}${d.subject.jurisdiction ? ` (${esc(d.subject.jurisdiction)})` : ''}`);
  out.push(`- Acquirer: ${acquirer ?? 'not stated'}; deal type: ${dealType ?? 'not stated'}; value: ${dealValue ?? 'not stated'}; industry: ${industry ?? 'not stated'}.`);
  if (context) out.push(`- Context given: "${context}"`);
  out.push('');

  out.push('## Financial risk', '');
  if (d.registry.length > 0) {
    for (const r of d.registry.slice(0, 5)) {
      out.push(`- ${esc(r.source)}: ${esc(r.legalName ?? '(no name)')}${r.number ? `, number ${esc(r.number)}` : ''}${r.status ? `, status ${esc(r.status)}` : ''}${r.lei ? `, LEI ${esc(r.lei)}` : ''}.`);
    }
  } else {
    out.push('- No registry record was found for the target; its legal existence and standing must be confirmed.');
  }
  if (uk?.struckOff || (uk?.status ?? '').includes('dissolved')) out.push('- The UK registry shows the company dissolved or struck off: assets may have passed to the Crown (bona vacantia); confirm what is being acquired.');
  out.push('- Financial statements and market data are outside this screening unless listed above: obtain audited accounts for at least three years.');
  out.push('');

  out.push('## Legal risk', '');
  out.push(...hitsBlock('Sanctions', d.hits.sanctions));
  if (d.hits.sanctions.length > 0) out.push('  - A sanctioned target, or one owned 50% or more by sanctioned persons, can make the transaction itself prohibited.');
  out.push(...hitsBlock('Debarment and enforcement', d.hits.debarment));
  if (uk?.pscNotRegisteredOrExempt) out.push('- No person with significant control is registered (or the company is exempt): ownership must be established before signing.');
  out.push('');

  out.push('## Reputational risk', '');
  out.push(...hitsBlock('PEP', d.hits.pep));
  out.push(...hitsBlock('Adverse media', d.hits.adverse_media));
  out.push(...hitsBlock('Offshore leaks', d.hits.offshore_leaks));
  out.push('');

  out.push('## Integration risk', '');
  out.push(...countryLines(d));
  if (uk?.controllerCountries && uk.controllerCountries.length > 0) out.push(`- Controllers are resident in: ${uk.controllerCountries.map(esc).join(', ')}.`);
  out.push('- Sanctions, AML and anti-bribery controls of the target must be brought to the acquirer\'s standard; plan re-screening of the target\'s customers and counterparties after closing.');
  out.push('', '## Data gaps', '', ...gapLines(d), '');

  out.push('## Recommendation', '', ...recommendation(d, 'transaction'));
  return `${out.join('\n').trimEnd()}\n`;
}

export function rulesSow(d: FindingsDigest, note = RULES_NOTE): string {
  const sow = d.subject.sow ?? {};
  const a = d.sow ?? {};
  const out = header('Source-of-wealth verification', d, note);

  out.push('## Declared source of wealth', '');
  const declared = quoteDeclared(sow.declaredSourceOfWealth);
  out.push(declared ? `- Declared: "${declared}"` : '- Declared source of wealth: **not provided**.');
  if (sow.declaredNetWorth) out.push(`- Declared net worth: ${quoteDeclared(sow.declaredNetWorth)}`);
  if (sow.occupation || sow.employer) out.push(`- Occupation: ${quoteDeclared(sow.occupation) ?? 'not stated'}; employer: ${quoteDeclared(sow.employer) ?? 'not stated'}.`);
  out.push(`- Attestation: ${sow.attestation ? `"${quoteDeclared(sow.attestation)}"` : 'none provided'}; evidence documents: ${sow.evidence?.length ?? 0}.`);
  out.push('');

  out.push('## Corroboration', '');
  if (a.corroborationGauge !== undefined) out.push(`- Corroboration gauge: **${a.corroborationGauge}/100**${a.riskTier ? `, risk tier ${a.riskTier}` : ''}.`);
  if (a.corroboration && a.corroboration.length > 0) {
    for (const c of a.corroboration) out.push(`- ${esc(c.source)}: ${c.status.replace(/_/g, ' ')}${c.detail ? ` (${esc(c.detail)})` : ''}.`);
  } else {
    out.push('- No corroboration results were supplied.');
  }
  out.push('');

  out.push('## Red flags', '');
  const flags = [
    ...(a.redFlags ?? []).map((f) => `- ${esc(f)}`),
    ...(d.hits.sanctions.length > 0 ? [`- ${d.hits.sanctions.length} sanctions hit(s).`] : []),
    ...(d.hits.pep.length > 0 ? [`- ${d.hits.pep.length} PEP hit(s): wealth may derive from public office.`] : []),
    ...(d.hits.offshore_leaks.length > 0 ? [`- ${d.hits.offshore_leaks.length} offshore-leak record(s).`] : []),
    ...(d.hits.adverse_media.length > 0 ? [`- ${d.hits.adverse_media.length} adverse-media article(s).`] : []),
  ];
  out.push(...(flags.length > 0 ? flags : ['- None found.']));
  out.push('');

  out.push('## Jurisdictional requirements', '');
  out.push(...countryLines(d));
  for (const r of a.jurisdictionalRequirements ?? []) out.push(`- ${esc(r)}`);
  out.push('', '## Data gaps', '', ...gapLines(d), '');

  out.push('## Recommendation', '', ...recommendation(d, 'relationship'));
  if (a.corroborationGauge !== undefined && a.corroborationGauge < 50) out.push('- Less than half of the declared wealth is corroborated: request further evidence before accepting the declaration.');
  return `${out.join('\n').trimEnd()}\n`;
}
