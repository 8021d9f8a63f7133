/**
 * What a screening surface carries of a truth-set customer record (truthset-generate.ts), in one
 * place for the agent-path bench (truthset.ts) and the HTTP one (truthset-http.ts), so both send the
 * same facts. The address goes as the APIs take it: since issue 30 with its state apart
 * ({line, city, region, postal_code, country}); for a build whose APIs have no state field
 * (`stateApart: false`, main before issue 30) the state is joined to the line, as a caller with such a
 * file would.
 */
import type { TruthCustomer } from './truthset-generate';

/** The identifier types the screening APIs take (SUBJECT_IDENTIFIER_TYPES); phone and e-mail are fields of their own. */
const DOCUMENTS = new Set(['passport', 'national_id', 'tax_id', 'registration_number', 'imo', 'lei', 'other']);

export interface CarriedFacts {
  dateOfBirth?: string;
  identifiers?: { type: string; value: string }[];
  address?: { line?: string; city?: string; region?: string; postalCode?: string; country?: string };
  phone?: string;
  email?: string;
}

export type FactField = 'dateOfBirth' | 'documents' | 'address' | 'contacts';

/** The customer's facts a surface taking `fields` carries. */
export function carriedFacts(c: TruthCustomer, fields: readonly FactField[], options: { stateApart?: boolean; documentTypes?: (type: string) => boolean } = {}): CarriedFacts {
  const a = c.address;
  const stateApart = options.stateApart ?? true;
  const line = a && (stateApart ? a.line : [a.line, a.region].filter(Boolean).join(', '));
  const address = a && {
    ...(line ? { line } : {}),
    ...(a.city ? { city: a.city } : {}),
    ...(stateApart && a.region ? { region: a.region } : {}),
    ...(a.postalCode ? { postalCode: a.postalCode } : {}),
    ...(a.country ? { country: a.country } : {}),
  };
  const takes = options.documentTypes ?? ((type: string) => DOCUMENTS.has(type));
  const documents = (c.identifiers ?? []).filter((i) => takes(i.type)).map((i) => ({ type: i.type, value: i.value }));
  return {
    ...(fields.includes('dateOfBirth') && c.dateOfBirth ? { dateOfBirth: c.dateOfBirth } : {}),
    ...(fields.includes('documents') && documents.length ? { identifiers: documents } : {}),
    ...(fields.includes('address') && address && Object.keys(address).length ? { address } : {}),
    ...(fields.includes('contacts') && c.phone ? { phone: c.phone } : {}),
    ...(fields.includes('contacts') && c.email ? { email: c.email } : {}),
  };
}

/** The same facts as the JSON a screening request takes (S1/S3 CDD, the portal form). */
export function requestFacts(f: CarriedFacts): Record<string, unknown> {
  const a = f.address;
  return {
    ...(f.dateOfBirth ? { date_of_birth: f.dateOfBirth } : {}),
    ...(f.identifiers ? { identifiers: f.identifiers } : {}),
    ...(a
      ? {
          address: {
            ...(a.line ? { line: a.line } : {}),
            ...(a.city ? { city: a.city } : {}),
            ...(a.region ? { region: a.region } : {}),
            ...(a.postalCode ? { postal_code: a.postalCode } : {}),
            ...(a.country ? { country: a.country } : {}),
          },
        }
      : {}),
    ...(f.phone ? { phone: f.phone } : {}),
    ...(f.email ? { email: f.email } : {}),
  };
}
