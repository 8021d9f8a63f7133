/**
 * Country names (as the lists write them) → ISO 3166-1 alpha-2.
 * One line per country: `CODE|ISO3|Name|variant|variant…`. Variants cover the spellings seen in the
 * OFAC, UN, CSL, DPL and FATF files (e.g. "Korea, North", "Burma", "Iran (Islamic Republic of)") and
 * nationality adjectives used in remarks ("Iranian", "Russian").
 */
const TABLE = `
AF|AFG|Afghanistan|Afghan|Islamic Republic of Afghanistan|Islamic Emirate of Afghanistan
AX|ALA|Aland Islands|Åland Islands
AL|ALB|Albania|Albanian
DZ|DZA|Algeria|Algerian
AS|ASM|American Samoa
AD|AND|Andorra|Andorran
AO|AGO|Angola|Angolan
AI|AIA|Anguilla
AQ|ATA|Antarctica
AG|ATG|Antigua and Barbuda|Antigua & Barbuda|Antigua
AR|ARG|Argentina|Argentine|Argentinian
AM|ARM|Armenia|Armenian
AW|ABW|Aruba
AU|AUS|Australia|Australian
AT|AUT|Austria|Austrian
AZ|AZE|Azerbaijan|Azerbaijani|Azeri
BS|BHS|Bahamas|Bahamas, The|The Bahamas|Bahamian
BH|BHR|Bahrain|Bahraini
BD|BGD|Bangladesh|Bangladeshi
BB|BRB|Barbados
BY|BLR|Belarus|Belarusian|Byelorussia|Belorussia
BE|BEL|Belgium|Belgian
BZ|BLZ|Belize
BJ|BEN|Benin|Beninese
BM|BMU|Bermuda
BT|BTN|Bhutan
BO|BOL|Bolivia|Bolivia (Plurinational State of)|Plurinational State of Bolivia|Bolivian
BQ|BES|Bonaire, Sint Eustatius and Saba|Caribbean Netherlands
BA|BIH|Bosnia and Herzegovina|Bosnia-Herzegovina|Bosina-Herzegovina|Bosnia|Bosnia & Herzegovina|Bosnian
BW|BWA|Botswana
BV|BVT|Bouvet Island
BR|BRA|Brazil|Brazilian
IO|IOT|British Indian Ocean Territory
VG|VGB|Virgin Islands, British|British Virgin Islands|BVI
BN|BRN|Brunei|Brunei Darussalam
BG|BGR|Bulgaria|Bulgarian
BF|BFA|Burkina Faso
BI|BDI|Burundi|Burundian
CV|CPV|Cabo Verde|Cape Verde
KH|KHM|Cambodia|Cambodian
CM|CMR|Cameroon|Cameroonian
CA|CAN|Canada|Canadian
KY|CYM|Cayman Islands
CF|CAF|Central African Republic|CAR
TD|TCD|Chad|Chadian
CL|CHL|Chile|Chilean
CN|CHN|China|People's Republic of China|PRC|Chinese|China, People's Republic of
CX|CXR|Christmas Island
CC|CCK|Cocos (Keeling) Islands|Cocos Islands
CO|COL|Colombia|Colombian
KM|COM|Comoros|Comoros Islands|Comorian
CG|COG|Congo, Republic of the|Republic of the Congo|Congo|Congo-Brazzaville|Congo (Brazzaville)
CD|COD|Congo, Democratic Republic of the|Democratic Republic of the Congo|DRC|DR Congo|Congo, Dem. Rep.|Congo-Kinshasa|Congo (Kinshasa)|Democratic Republic of Congo|Zaire|Congolese
CK|COK|Cook Islands
CR|CRI|Costa Rica|Costa Rican
CI|CIV|Cote d'Ivoire|Côte d'Ivoire|Cote d Ivoire|Ivory Coast|Ivorian
HR|HRV|Croatia|Croatian
CU|CUB|Cuba|Cuban
CW|CUW|Curacao|Curaçao
CY|CYP|Cyprus|Cypriot
CZ|CZE|Czech Republic|Czechia|Czech
DK|DNK|Denmark|Danish
DJ|DJI|Djibouti
DM|DMA|Dominica
DO|DOM|Dominican Republic|Dominican
EC|ECU|Ecuador|Ecuadorian
EG|EGY|Egypt|Egyptian|Arab Republic of Egypt
SV|SLV|El Salvador|Salvadoran
GQ|GNQ|Equatorial Guinea
ER|ERI|Eritrea|Eritrean
EE|EST|Estonia|Estonian
SZ|SWZ|Eswatini|Swaziland
ET|ETH|Ethiopia|Ethiopian
FK|FLK|Falkland Islands|Falkland Islands (Malvinas)
FO|FRO|Faroe Islands
FJ|FJI|Fiji
FI|FIN|Finland|Finnish
FR|FRA|France|French
GF|GUF|French Guiana
PF|PYF|French Polynesia
TF|ATF|French Southern Territories
GA|GAB|Gabon|Gabonese
GM|GMB|Gambia|The Gambia|Gambia, The|Gambian
GE|GEO|Georgia|Georgian
DE|DEU|Germany|German|Federal Republic of Germany
GH|GHA|Ghana|Ghanaian
GI|GIB|Gibraltar
GR|GRC|Greece|Greek
GL|GRL|Greenland
GD|GRD|Grenada
GP|GLP|Guadeloupe
GU|GUM|Guam
GT|GTM|Guatemala|Guatemalan
GG|GGY|Guernsey
GN|GIN|Guinea|Guinean
GW|GNB|Guinea-Bissau|Guinea Bissau
GY|GUY|Guyana|Guyanese
HT|HTI|Haiti|Haitian
HM|HMD|Heard Island and McDonald Islands
VA|VAT|Holy See|Vatican|Vatican City
HN|HND|Honduras|Honduran
HK|HKG|Hong Kong|Hong Kong SAR|Hong Kong, China
HU|HUN|Hungary|Hungarian
IS|ISL|Iceland|Icelandic
IN|IND|India|Indian
ID|IDN|Indonesia|Indonesian
IR|IRN|Iran|Iran (Islamic Republic of)|Islamic Republic of Iran|Iran, Islamic Republic of|Iranian|Persia
IQ|IRQ|Iraq|Iraqi
IE|IRL|Ireland|Irish
IM|IMN|Isle of Man|Man, Isle of
IL|ISR|Israel|Israeli
IT|ITA|Italy|Italian
JM|JAM|Jamaica|Jamaican
JP|JPN|Japan|Japanese
JE|JEY|Jersey
JO|JOR|Jordan|Jordanian
KZ|KAZ|Kazakhstan|Kazakh|Kazakhstani
KE|KEN|Kenya|Kenyan
KI|KIR|Kiribati
KP|PRK|Korea, North|North Korea|Democratic People's Republic of Korea|DPRK|Korea, Democratic People's Republic of|Korea (Democratic People's Republic of)|North Korean
KR|KOR|Korea, South|South Korea|Republic of Korea|Korea, Republic of|Korea|South Korean
XK|XKX|Kosovo|Kosovar
KW|KWT|Kuwait|Kuwaiti
KG|KGZ|Kyrgyzstan|Kyrgyz Republic|Kyrgyz
LA|LAO|Laos|Lao People's Democratic Republic|Lao PDR|Lao
LV|LVA|Latvia|Latvian
LB|LBN|Lebanon|Lebanese
LS|LSO|Lesotho
LR|LBR|Liberia|Liberian
LY|LBY|Libya|Libyan|Libyan Arab Jamahiriya
LI|LIE|Liechtenstein
LT|LTU|Lithuania|Lithuanian
LU|LUX|Luxembourg
MO|MAC|Macau|Macao|Macau SAR
MG|MDG|Madagascar
MW|MWI|Malawi
MY|MYS|Malaysia|Malaysian
MV|MDV|Maldives|Maldivian
ML|MLI|Mali|Malian
MT|MLT|Malta|Maltese
MH|MHL|Marshall Islands
MQ|MTQ|Martinique
MR|MRT|Mauritania|Mauritanian
MU|MUS|Mauritius
YT|MYT|Mayotte
MX|MEX|Mexico|Mexican
FM|FSM|Micronesia|Micronesia, Federated States of
MD|MDA|Moldova|Republic of Moldova|Moldova, Republic of|Moldovan
MC|MCO|Monaco
MN|MNG|Mongolia|Mongolian
ME|MNE|Montenegro|Montenegrin
MS|MSR|Montserrat
MA|MAR|Morocco|Moroccan
MZ|MOZ|Mozambique|Mozambican
MM|MMR|Myanmar|Burma|Burmese|Myanmar (Burma)
NA|NAM|Namibia|Namibian
NR|NRU|Nauru
NP|NPL|Nepal|Nepalese
NL|NLD|Netherlands|The Netherlands|Holland|Dutch
AN|ANT|Netherlands Antilles
NC|NCL|New Caledonia
NZ|NZL|New Zealand
NI|NIC|Nicaragua|Nicaraguan
NE|NER|Niger|Nigerien
NG|NGA|Nigeria|Nigerian
NU|NIU|Niue
NF|NFK|Norfolk Island
MK|MKD|North Macedonia|Macedonia|The Former Yugoslav Republic of Macedonia|Macedonia, The Former Yugoslav Republic of|Macedonian
MP|MNP|Northern Mariana Islands
NO|NOR|Norway|Norwegian
OM|OMN|Oman|Omani
PK|PAK|Pakistan|Pakistani
PW|PLW|Palau
PS|PSE|Palestine|State of Palestine|Palestinian|Palestinian Territories|Palestinian Authority|Occupied Palestinian Territory|West Bank|Gaza|Gaza Strip|West Bank and Gaza
PA|PAN|Panama|Panamanian
PG|PNG|Papua New Guinea
PY|PRY|Paraguay|Paraguayan
PE|PER|Peru|Peruvian
PH|PHL|Philippines|the Philippines|Phillipines|Filipino
PN|PCN|Pitcairn
PL|POL|Poland|Polish
PT|PRT|Portugal|Portuguese
PR|PRI|Puerto Rico
QA|QAT|Qatar|Qatari
RE|REU|Reunion|Réunion
RO|ROU|Romania|Romanian
RU|RUS|Russia|Russian Federation|the Russian Federation|Russian
RW|RWA|Rwanda|Rwandan
BL|BLM|Saint Barthelemy
SH|SHN|Saint Helena
KN|KNA|Saint Kitts and Nevis|St Kitts and Nevis|St. Kitts and Nevis
LC|LCA|Saint Lucia|St Lucia
MF|MAF|Saint Martin
PM|SPM|Saint Pierre and Miquelon
VC|VCT|Saint Vincent and the Grenadines|St Vincent and the Grenadines|St. Vincent and the Grenadines
WS|WSM|Samoa
SM|SMR|San Marino
ST|STP|Sao Tome and Principe|São Tomé and Príncipe
SA|SAU|Saudi Arabia|Saudi|Saudi Arabian
SN|SEN|Senegal|Senegalese
RS|SRB|Serbia|Serbian
CS|SCG|Serbia and Montenegro
SC|SYC|Seychelles
SL|SLE|Sierra Leone|Sierra Leonean
SG|SGP|Singapore|Singaporean
SX|SXM|Sint Maarten
SK|SVK|Slovakia|Slovak Republic|Slovak
SI|SVN|Slovenia|Slovenian
SB|SLB|Solomon Islands
SO|SOM|Somalia|Somali
ZA|ZAF|South Africa|South African
GS|SGS|South Georgia and the South Sandwich Islands
SS|SSD|South Sudan|South Sudanese
ES|ESP|Spain|Spanish
LK|LKA|Sri Lanka|Sri Lankan
SD|SDN|Sudan|Sudanese
SR|SUR|Suriname
SJ|SJM|Svalbard and Jan Mayen
SE|SWE|Sweden|Swedish
CH|CHE|Switzerland|Swiss
SY|SYR|Syria|Syrian Arab Republic|Syrian
TW|TWN|Taiwan|Taiwan, Province of China|Chinese Taipei|Taiwanese
TJ|TJK|Tajikistan|Tajik
TZ|TZA|Tanzania|United Republic of Tanzania|Tanzania, United Republic of|Tanzanian
TH|THA|Thailand|Thai
TL|TLS|Timor-Leste|East Timor
TG|TGO|Togo|Togolese
TK|TKL|Tokelau
TO|TON|Tonga
TT|TTO|Trinidad and Tobago|Trinidad & Tobago
TN|TUN|Tunisia|Tunisian
TR|TUR|Turkey|Türkiye|Turkiye|Turkish
TM|TKM|Turkmenistan|Turkmen
TC|TCA|Turks and Caicos Islands
TV|TUV|Tuvalu
UG|UGA|Uganda|Ugandan
UA|UKR|Ukraine|Ukrainian
AE|ARE|United Arab Emirates|UAE|U.A.E.|Emirati
GB|GBR|United Kingdom|UK|U.K.|Great Britain|Britain|British|England|Scotland|Wales|Northern Ireland|United Kingdom of Great Britain and Northern Ireland
US|USA|United States|United States of America|USA|U.S.A.|U.S.|US|American
UM|UMI|United States Minor Outlying Islands
UY|URY|Uruguay|Uruguayan
UZ|UZB|Uzbekistan|Uzbek
VU|VUT|Vanuatu
VE|VEN|Venezuela|Venezuela (Bolivarian Republic of)|Bolivarian Republic of Venezuela|Venezuelan
VN|VNM|Vietnam|Viet Nam|Vietnamese
VI|VIR|Virgin Islands, U.S.|U.S. Virgin Islands
WF|WLF|Wallis and Futuna
EH|ESH|Western Sahara
YE|YEM|Yemen|Yemeni
ZM|ZMB|Zambia|Zambian
ZW|ZWE|Zimbabwe|Zimbabwean
SU|SUN|USSR|Soviet Union|former Soviet Union|Union of Soviet Socialist Republics
YU|YUG|Yugoslavia|ex-Yugoslavia|Federal Republic of Yugoslavia
UA-43|UKR|Crimea|Region: Crimea
`;

export interface CountryInfo {
  iso2: string;
  iso3: string;
  name: string;
}

const byKey = new Map<string, CountryInfo>();
const byIso2 = new Map<string, CountryInfo>();
/** Every other name a country goes by (variants, former names, adjectives), by alpha-2. */
const otherNamesByIso2 = new Map<string, string[]>();
const byIso3 = new Map<string, CountryInfo>();

/** Lower-case, strip accents and punctuation noise so "Côte d’Ivoire" and "Cote d Ivoire" agree. */
export function countryKey(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[’'`´]/g, "'")
    .replace(/\s+/g, ' ')
    .replace(/^the /, '')
    .replace(/[.\s]+$/, '')
    .trim();
}

for (const line of TABLE.split('\n')) {
  const parts = line.split('|').map((p) => p.trim());
  if (parts.length < 3) continue;
  const [code, iso3, name, ...variants] = parts;
  // Crimea is a region, not a country: map it to Ukraine's code.
  const iso2 = code.length === 2 ? code : code.slice(0, 2);
  const info: CountryInfo = { iso2, iso3, name };
  if (code.length === 2) {
    byIso2.set(iso2, info);
    byIso3.set(iso3, info);
    otherNamesByIso2.set(iso2, variants.filter((v) => v !== name));
  }
  for (const v of [name, ...variants]) {
    const k = countryKey(v);
    if (!byKey.has(k)) byKey.set(k, info);
  }
}

/**
 * Resolve a country name, variant, adjective, alpha-2 or alpha-3 code to ISO alpha-2.
 * Returns undefined when it cannot be resolved (callers keep the raw text).
 */
export function toIso2(raw: string | undefined | null): string | undefined {
  if (!raw) return undefined;
  let s = raw.trim();
  if (!s || s === '-0-') return undefined;
  if (/^[A-Za-z]{2}$/.test(s)) {
    const up = s.toUpperCase();
    if (up === 'UK') return 'GB';
    return byIso2.has(up) ? up : undefined;
  }
  if (/^[A-Z]{3}$/.test(s) && byIso3.has(s)) return byIso3.get(s)!.iso2;
  const direct = byKey.get(countryKey(s));
  if (direct) return direct.iso2;
  // "possibly Palestinian", "Gaza (Palestinian Authority)", "Tunisi (Tunisia)"
  s = s.replace(/^(possibly|probably|reportedly)\s+/i, '');
  const paren = /\(([^)]+)\)\s*$/.exec(s);
  if (paren) {
    const inner = byKey.get(countryKey(paren[1]));
    if (inner) return inner.iso2;
    const outer = byKey.get(countryKey(s.slice(0, paren.index)));
    if (outer) return outer.iso2;
  }
  const again = byKey.get(countryKey(s));
  if (again) return again.iso2;
  // "Tehran, Iran" / "Sarajevo Bosnia-Herzegovina": try the last comma part, then trailing words.
  const comma = s.split(',');
  if (comma.length > 1) {
    const last = byKey.get(countryKey(comma[comma.length - 1]));
    if (last) return last.iso2;
  }
  const words = s.split(/\s+/);
  for (let n = Math.min(4, words.length - 1); n >= 1; n--) {
    const tail = byKey.get(countryKey(words.slice(-n).join(' ')));
    if (tail) return tail.iso2;
  }
  return undefined;
}

/**
 * The country a whole text names (a name, variant, "UK", alpha-2 or alpha-3 code), without
 * toIso2's guesses from parts of the text: an address parser asks whether its last words are a country.
 */
export function countryNamed(raw: string): string | undefined {
  const s = raw.trim();
  if (/^[A-Za-z]{2}$/.test(s)) {
    const up = s.toUpperCase();
    return up === 'UK' ? 'GB' : byIso2.has(up) ? up : undefined;
  }
  if (/^[A-Za-z]{3}$/.test(s) && byIso3.has(s.toUpperCase())) return byIso3.get(s.toUpperCase())!.iso2;
  return byKey.get(countryKey(s))?.iso2;
}

export function countryInfo(iso2: string): CountryInfo | undefined {
  return byIso2.get(iso2.toUpperCase());
}

/**
 * The other names of a country as people type them ("North Korea", "DPRK", "Burma", "Russian"):
 * the portal suggests and accepts them beside the list's own name.
 */
export function countryOtherNames(iso2: string): readonly string[] {
  return otherNamesByIso2.get(iso2.toUpperCase()) ?? [];
}

export function iso3ToIso2(iso3: string): string | undefined {
  return byIso3.get(iso3.toUpperCase())?.iso2;
}
