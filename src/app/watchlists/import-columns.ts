/**
 * Which entry field an import column (CSV header or JSON key) fills, recognised without a mapping
 * for the layouts firms actually export (issue 30):
 *  - plain headers: full name, first name / surname, DOB, address line, city, state, postcode…;
 *  - the entity-resolution vendor layout (Senzing's attribute names): `[LABEL_]NAME_LAST/FIRST/MIDDLE/
 *    SUFFIX/FULL/ORG`, `[LABEL_]ADDR_LINE1..6/CITY/STATE/POSTAL_CODE/COUNTRY/FULL`, `PHONE_NUMBER`,
 *    `EMAIL_ADDRESS`, `SSN_NUMBER`, `DRIVERS_LICENSE_NUMBER/STATE`, `PASSPORT_NUMBER/COUNTRY`,
 *    `GENDER`, `DATE_OF_BIRTH`, `RECORD_TYPE`, `RECORD_ID`, `STATUS`. A name labelled PRIMARY (or not
 *    labelled) is the entry's name, any other label's full name an alias (`NATIVE_NAME_FULL`); each
 *    address label (HOME_, MAILING_…) is an address of its own;
 *  - the risk-intelligence vendor layout (World-Check style): `UID`, `LAST NAME`, `FIRST NAME`,
 *    `ALIASES`, `ALTERNATIVE SPELLING`, `DOB`/`DOBS`, `PASSPORTS`, `SSN`, `IDENTIFICATION NUMBERS`,
 *    `CITIZENSHIP`, `E/I`, `FURTHER INFORMATION`; its descriptive columns are recognised and ignored.
 * A header may also say the order of its dates ("Date of birth (MM/DD/YYYY)").
 */

export const importTargets = [
  'entry_id',
  'full_name',
  'first_name',
  'middle_name',
  'last_name',
  'suffix',
  'alias',
  'entity_type',
  'status',
  'gender',
  'date_of_birth',
  'nationality',
  'address_line',
  'city',
  'region',
  'postal_code',
  'country',
  'passport',
  'passport_country',
  'national_id',
  'ssn',
  'tax_id',
  'registration_number',
  'imo',
  'drivers_license',
  'drivers_license_region',
  'phone',
  'email',
  'other_id',
  'reason',
  'ignore',
] as const;
export type ImportTarget = (typeof importTargets)[number];

/** Header spellings recognised automatically (compared lower-case, letters and digits only). */
const HEADER_SYNONYMS: Record<ImportTarget, string[]> = {
  entry_id: ['entryid', 'id', 'ref', 'reference', 'customerid', 'customerref', 'recordid', 'externalid', 'clientid', 'uid'],
  full_name: ['name', 'fullname', 'primaryname', 'entityname', 'customername', 'clientname', 'companyname', 'legalname'],
  first_name: ['firstname', 'givenname', 'givennames', 'forename', 'forenames', 'first'],
  middle_name: ['middlename', 'middlenames', 'middle', 'middleinitial'],
  last_name: ['lastname', 'surname', 'familyname', 'last'],
  suffix: ['suffix', 'namesuffix', 'generation', 'generationalsuffix'],
  alias: ['alias', 'aliases', 'aka', 'othernames', 'alsoknownas', 'nickname', 'alternativespelling', 'alternativespellings', 'nativename', 'originalscriptname', 'nameoriginalscript'],
  entity_type: ['entitytype', 'type', 'kind', 'partytype', 'recordtype', 'ei', 'entityindividual'],
  status: ['status', 'recordstatus', 'entrystatus', 'liststatus'],
  gender: ['gender', 'sex'],
  date_of_birth: ['dob', 'dobs', 'dateofbirth', 'birthdate', 'born', 'birthday', 'dateofbirthddmmyyyy', 'dateofbirthmmddyyyy', 'dobddmmyyyy', 'dobmmddyyyy'],
  nationality: ['nationality', 'nationalities', 'citizenship'],
  address_line: ['address', 'addressline', 'addressline1', 'addressline2', 'addressline3', 'address1', 'address2', 'address3', 'street', 'streetaddress', 'line1', 'line2', 'fulladdress'],
  city: ['city', 'town', 'locality'],
  region: ['state', 'province', 'county', 'region', 'stateprovince', 'stateorprovince'],
  postal_code: ['postcode', 'postalcode', 'zip', 'zipcode'],
  country: ['country', 'countrycode', 'countryofresidence', 'residencecountry'],
  passport: ['passport', 'passports', 'passportnumber', 'passportno'],
  passport_country: ['passportcountry', 'passportissuingcountry'],
  national_id: ['nationalid', 'nationalidnumber', 'idnumber', 'nin', 'nationalinsurancenumber'],
  ssn: ['ssn', 'ssnnumber', 'socialsecuritynumber'],
  tax_id: ['taxid', 'tin', 'taxnumber', 'vat', 'vatnumber'],
  registration_number: ['registrationnumber', 'companynumber', 'regno', 'crn', 'companyregistrationnumber'],
  imo: ['imo', 'imonumber'],
  drivers_license: ['driverslicense', 'driverslicence', 'driverslicensenumber', 'driverslicencenumber', 'dlnumber', 'licensenumber', 'licencenumber'],
  drivers_license_region: ['driverslicensestate', 'driverslicencestate', 'driverslicenseregion', 'dlstate', 'licensestate', 'licencestate'],
  phone: ['phone', 'phonenumber', 'telephone', 'tel', 'mobile', 'mobilenumber'],
  email: ['email', 'emailaddress', 'mail'],
  other_id: ['otherid', 'identifier', 'otheridentifier', 'identificationnumbers'],
  reason: ['reason', 'notes', 'note', 'comment', 'comments', 'remarks', 'listingreason', 'furtherinformation'],
  // descriptive columns of vendor layouts: recognised, deliberately not imported
  ignore: [
    'datasource', 'lowqualityaliases', 'category', 'subcategory', 'title', 'position', 'age', 'agedate', 'asofdate', 'deceased', 'placeofbirth', 'locations',
    'countries', 'companies', 'linkedto', 'keywords', 'externalsources', 'entered', 'updated', 'editor', 'ssnlast4', 'addrtype', 'phonetype', 'nametype',
  ],
};
const byHeader = new Map<string, ImportTarget>();
for (const [target, names] of Object.entries(HEADER_SYNONYMS)) for (const n of names) byHeader.set(n, target as ImportTarget);

/** Senzing attribute names (after the optional label) and what they fill. */
const VENDOR_ATTRIBUTES: Record<string, ImportTarget> = {
  name_last: 'last_name', name_first: 'first_name', name_middle: 'middle_name', name_full: 'full_name', name_org: 'full_name', name_suffix: 'suffix', name_prefix: 'ignore',
  addr_line1: 'address_line', addr_line2: 'address_line', addr_line3: 'address_line', addr_line4: 'address_line', addr_line5: 'address_line', addr_line6: 'address_line',
  addr_full: 'address_line', addr_city: 'city', addr_state: 'region', addr_postal_code: 'postal_code', addr_country: 'country', addr_type: 'ignore',
  addr_from_date: 'ignore', addr_thru_date: 'ignore', phone_number: 'phone', phone_type: 'ignore', email_address: 'email', website_address: 'ignore',
  ssn_number: 'ssn', ssn_last4: 'ignore', drivers_license_number: 'drivers_license', drivers_license_state: 'drivers_license_region',
  passport_number: 'passport', passport_country: 'passport_country', national_id_number: 'national_id', tax_id_number: 'tax_id', tax_id_type: 'ignore',
  other_id_number: 'other_id', other_id_type: 'ignore', date_of_birth: 'date_of_birth', gender: 'gender', nationality: 'nationality', citizenship: 'nationality',
  record_type: 'entity_type', record_id: 'entry_id', status: 'status', data_source: 'ignore', place_of_birth: 'ignore', date_of_death: 'ignore',
};
/** A vendor header: an optional label (PRIMARY, HOME, NATIVE…) and an attribute. */
const VENDOR_HEADER = new RegExp(`^(?:([a-z0-9]+)_)?(${Object.keys(VENDOR_ATTRIBUTES).sort((a, b) => b.length - a.length).join('|')})$`);
/** Labels that mark a person's own name (the others' full names are aliases). */
const PRIMARY_LABELS = new Set(['', 'primary', 'main', 'legal']);

const headerKey = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, '');
const vendorKey = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

export interface RecognisedColumn {
  target: ImportTarget;
  /** an address label: the columns of one label make one address ("" for the unlabelled one) */
  group: string;
  /** the order the header states for its dates (…(MM/DD/YYYY)) */
  dateOrder?: 'dmy' | 'mdy';
}

/** What a header is recognised as, if anything. */
export function recogniseColumn(header: string): RecognisedColumn | undefined {
  const key = headerKey(header);
  const dateOrder = /mmdd/.test(key) ? 'mdy' : /ddmm/.test(key) ? 'dmy' : undefined;
  const plain = byHeader.get(key);
  if (plain) return { target: plain, group: '', ...(dateOrder ? { dateOrder } : {}) };
  const m = VENDOR_HEADER.exec(vendorKey(header));
  if (!m) return undefined;
  const label = m[1] ?? '';
  const attribute = m[2]!;
  let target = VENDOR_ATTRIBUTES[attribute]!;
  if (attribute.startsWith('name_') && !PRIMARY_LABELS.has(label)) {
    // another label's name (NATIVE_, AKA_, ALIAS_): its full name is an alias, its parts are not read
    target = attribute === 'name_full' || attribute === 'name_org' ? 'alias' : 'ignore';
  }
  return { target, group: attribute.startsWith('addr_') ? label : '' };
}

/** The target a header is recognised as, if any. */
export function detectColumn(header: string): ImportTarget | undefined {
  return recogniseColumn(header)?.target;
}
