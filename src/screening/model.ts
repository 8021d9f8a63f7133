/**
 * The one normalised entity model every list parser produces and the matcher indexes.
 * Parsers fill what the source has; everything optional stays absent rather than guessed.
 */

export type EntitySchema = 'person' | 'organization' | 'vessel' | 'aircraft' | 'unknown';

/** Identifier of a list source, stable across versions. */
export type ListSourceId =
  | 'ofac_sdn'
  | 'ofac_cons'
  | 'ofac_enhanced'
  | 'un_sc'
  | 'us_csl'
  | 'us_dpl'
  | 'eu_fsf'
  | 'uk_sanctions'
  | 'opensanctions_peps'
  | 'opensanctions_ftm'
  | 'icij_offshore'
  | string;

/** What kind of risk a list carries: drives which agent uses it and how it scores. */
export type ListTopic = 'sanctions' | 'pep' | 'debarment' | 'offshore_leaks' | 'export_control';

export interface NameRecord {
  /** The name as the list wrote it. */
  value: string;
  /** primary: the listed name; strong: a good-quality alias; weak: low-quality a.k.a.; original_script: non-Latin form; former: f.k.a. */
  kind: 'primary' | 'strong_alias' | 'weak_alias' | 'original_script' | 'former';
  /** ISO 15924 script code when known (Cyrl, Arab, Hani, Hang, Grek, Hebr, Latn…). */
  script?: string;
  /**
   * Where the name comes from when it is not the entity's own snapshot: e.g. an alias from an older
   * OFAC ALT.CSV attached by ent_num to a newer SDN.CSV entity. Shown in a hit's explanation.
   */
  provenance?: string;
}

/** A date of birth: full date, year only, or a range of years (UN "BETWEEN"). */
export interface BirthDate {
  /** YYYY-MM-DD when the day is known, YYYY-MM when the month is, YYYY for a year. */
  date?: string;
  year?: number;
  fromYear?: number;
  toYear?: number;
  /** approximate ("circa") dates widen the tolerance */
  approximate?: boolean;
  raw?: string;
}

export interface Address {
  full?: string;
  street?: string;
  city?: string;
  region?: string;
  postalCode?: string;
  /** ISO 3166-1 alpha-2 when it can be resolved, else the raw country text in countryName. */
  country?: string;
  countryName?: string;
}

export interface Identifier {
  /** passport, national_id, tax_id, registration, imo, lei, swift_bic, email, website, call_sign, other… */
  type: string;
  value: string;
  country?: string;
  note?: string;
}

/** A relation kept as a link (FtM Ownership/Family/Directorship, ICIJ edges). */
export interface EntityLink {
  relation: string;
  targetId: string;
  role?: string;
}

export interface ListEntity {
  /** Unique within the whole engine: `${source}:${sourceId}`. */
  id: string;
  source: ListSourceId;
  /** The list's own id (ent_num, DATAID, OpenSanctions id…). */
  sourceId: string;
  /** Version id of the list this entity was loaded from (see ListVersion.id). */
  listVersion: string;
  topics: ListTopic[];
  schema: EntitySchema;
  primaryName: string;
  names: NameRecord[];
  birthDates: BirthDate[];
  birthPlaces: string[];
  /** ISO 3166-1 alpha-2 codes of nationality / citizenship / registration country. */
  nationalities: string[];
  /** Other associated countries (addresses, jurisdiction), alpha-2. */
  countries: string[];
  addresses: Address[];
  identifiers: Identifier[];
  programs: string[];
  listedOn?: string;
  remarks?: string;
  sourceUrl?: string;
  gender?: string;
  titles?: string[];
  links?: EntityLink[];
  /** Source-specific extras worth showing an analyst (vessel flag, tonnage, ICIJ jurisdiction, investigation). */
  extra?: Record<string, string>;
}

/** One loaded version of one list. */
export interface ListVersion {
  /** `${source}@${sha256 prefix}`. */
  id: string;
  source: ListSourceId;
  /** SHA-256 of the raw input bytes (all files of the list, in a fixed order). */
  contentHash: string;
  /** The issuer's publication date (ISO date): from the file when it states one, else see publishedAtSource. */
  publishedAt?: string;
  /** file: stated inside the file; manifest: the snapshot's manifest.json; download: HTTP Last-Modified of `svc lists update`; file_date: the file's modification time. */
  publishedAtSource?: 'file' | 'manifest' | 'download' | 'file_date';
  loadedAt: string;
  entityCount: number;
  files: string[];
}

/** FATF country risk for the country-risk step. */
export interface CountryRisk {
  iso2: string;
  iso3?: string;
  jurisdiction: string;
  list: 'high_risk_call_for_action' | 'increased_monitoring';
  measure?: string;
  asOf: string;
}

export interface ScreeningQuery {
  name: string;
  schema?: EntitySchema;
  /** YYYY, YYYY-MM or YYYY-MM-DD. */
  birthDate?: string;
  /** ISO alpha-2 or a country name. */
  country?: string;
  identifiers?: { type?: string; value: string }[];
}

export interface MatchOptions {
  /** Minimum score to return (default: the engine's default threshold). */
  threshold?: number;
  schemas?: EntitySchema[];
  sources?: ListSourceId[];
  topics?: ListTopic[];
  limit?: number;
}

export interface TokenAlignment {
  query: string;
  candidate: string;
  /** exact, phonetic, fuzzy (edit distance), initial, transliterated, legal_form, missing */
  how: string;
  similarity: number;
}

export interface QualifierApplied {
  /** dob_match, dob_conflict, country_match, country_conflict, identifier_match, schema_conflict… */
  kind: string;
  /** Score change it caused (positive or negative). */
  effect: number;
  detail: string;
}

export interface MatchExplanation {
  /** The name or alias of the entity that matched best. */
  matchedName: string;
  matchedNameKind: NameRecord['kind'];
  /** Score of the name comparison alone, before qualifiers. */
  nameScore: number;
  alignment: TokenAlignment[];
  qualifiers: QualifierApplied[];
  /** One human sentence summarising why. */
  summary: string;
}

export interface MatchResult {
  entity: ListEntity;
  /** Final score in [0,1]; 1.0 only for an exact name plus a corroborating attribute. */
  score: number;
  explanation: MatchExplanation;
}
