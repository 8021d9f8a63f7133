/**
 * Hand-made ListEntity fixtures. Names, dates and countries are taken from real list entries
 * (OFAC SDN, UN consolidated list, OFAC Enhanced XML, OpenSanctions FtM) unless a comment says otherwise.
 */
import type { ListEntity, NameRecord } from '../../../../src/screening/model';

let seq = 0;
export function entity(p: Partial<ListEntity> & { primaryName: string }): ListEntity {
  seq++;
  const source = p.source ?? 'ofac_sdn';
  const sourceId = p.sourceId ?? String(seq);
  return {
    id: `${source}:${sourceId}`,
    source,
    sourceId,
    listVersion: `${source}@test`,
    topics: p.topics ?? ['sanctions'],
    schema: p.schema ?? 'person',
    primaryName: p.primaryName,
    names: p.names ?? [{ value: p.primaryName, kind: 'primary' }],
    birthDates: p.birthDates ?? [],
    birthPlaces: p.birthPlaces ?? [],
    nationalities: p.nationalities ?? [],
    countries: p.countries ?? [],
    addresses: p.addresses ?? [],
    identifiers: p.identifiers ?? [],
    programs: p.programs ?? [],
    ...(p.extra ? { extra: p.extra } : {}),
  };
}

const names = (primary: string, ...others: [string, NameRecord['kind']][]): NameRecord[] => [
  { value: primary, kind: 'primary' },
  ...others.map(([value, kind]) => ({ value, kind })),
];

export const PUTIN = entity({
  primaryName: 'PUTIN, Vladimir Vladimirovich',
  sourceId: '35096',
  birthDates: [{ date: '1952-10-07', raw: '07 Oct 1952' }],
  nationalities: ['RU'],
  programs: ['RUSSIA-EO14024'],
});
export const PRIGOZHIN = entity({
  primaryName: 'PRIGOZHIN, Yevgeniy Viktorovich',
  sourceId: '21131',
  names: names('PRIGOZHIN, Yevgeniy Viktorovich', ['PRIGOZHIN, Evgeny', 'weak_alias']),
  birthDates: [{ date: '1961-06-01' }],
  nationalities: ['RU'],
});
export const HABBASH = entity({ primaryName: 'HABBASH, George', sourceId: '2984', birthDates: [{ year: 1926, raw: '1926' }] });
// Emma Daniels is the brief's example of an innocent name, not a list entry.
export const EMMA_DANIELS = entity({ primaryName: 'Emma Daniels', source: 'opensanctions_peps', sourceId: 'NK-test', topics: ['pep'] });
export const SADDAM = entity({
  primaryName: 'SADDAM HUSSEIN AL-TIKRITI',
  source: 'un_sc',
  sourceId: '6908048',
  names: names('SADDAM HUSSEIN AL-TIKRITI', ['Abu Ali', 'weak_alias'], ['Abou Ali', 'weak_alias']),
  birthDates: [{ date: '1937-04-28', raw: '1937-04-28' }],
  nationalities: ['IQ'],
});
// Original-script name only (as the UN list gives it for Saddam's half-brother Barzan), to test Latin → Arabic.
export const BARZAN_ARABIC = entity({
  primaryName: 'برزان إبراهيم حسن التكريتي',
  source: 'un_sc',
  sourceId: '6908029',
  names: [{ value: 'برزان إبراهيم حسن التكريتي', kind: 'original_script', script: 'Arab' }],
  birthDates: [{ year: 1951 }],
});
export const BIN_LADEN = entity({
  primaryName: 'BIN LADIN, Usama bin Muhammad bin Awad',
  sourceId: '6365',
  names: names('BIN LADIN, Usama bin Muhammad bin Awad', ['BIN LADEN, Osama', 'strong_alias'], ['AL-QUDWA, Abu Abdallah', 'weak_alias']),
  birthDates: [{ year: 1957 }],
  nationalities: ['SA'],
});
export const UMAROV_CYRILLIC = entity({
  primaryName: 'DOKU KHAMATOVICH UMAROV',
  source: 'un_sc',
  sourceId: '2779993',
  names: names('DOKU KHAMATOVICH UMAROV', ['Умаров Доку Хаматович', 'original_script']),
  birthDates: [{ year: 1964, raw: '1964' }, { fromYear: 1954, toYear: 1955, raw: 'BETWEEN 1954 AND 1955' }],
  nationalities: ['RU'],
});
export const KIM_JONG_UN = entity({
  primaryName: 'KIM, Jong Un',
  sourceId: '20157',
  birthDates: [{ date: '1984-01-08' }],
  nationalities: ['KP'],
});
export const MEGVII = entity({
  primaryName: 'MEGVII TECHNOLOGY LIMITED',
  source: 'ofac_enhanced',
  sourceId: '36611',
  schema: 'organization',
  names: names('MEGVII TECHNOLOGY LIMITED', ['旷视科技有限公司', 'original_script']),
  countries: ['CN'],
});
export const KALASHNIKOV = entity({
  primaryName: 'CONCERN KALASHNIKOV',
  source: 'opensanctions_ftm',
  sourceId: 'NK-kalashnikov',
  schema: 'organization',
  names: names('CONCERN KALASHNIKOV', ['Όμιλος JSC Kalashnikov', 'strong_alias'], ['Kalashnikov Concern JSC', 'strong_alias']),
  countries: ['RU'],
});
export const AEROSCAN = entity({
  primaryName: 'LIMITED LIABILITY COMPANY AEROSCAN',
  source: 'opensanctions_ftm',
  sourceId: 'NK-aeroscan',
  schema: 'organization',
  names: names('LIMITED LIABILITY COMPANY AEROSCAN', ['Общество с ограниченной ответственностью "Аэроскан"', 'original_script'], ['OOO AEROSKAN', 'strong_alias']),
  countries: ['RU'],
  identifiers: [{ type: 'registration', value: '1157746357730', country: 'RU' }],
});
export const SEA_STAR_2 = entity({ primaryName: 'SEA STAR 2', sourceId: '91001', schema: 'vessel', identifiers: [{ type: 'imo', value: 'IMO 9187629' }] });
export const HAMAS = entity({ primaryName: 'HAMAS', sourceId: '4695', schema: 'organization', names: names('HAMAS', ['HARAKAT AL-MUQAWAMA AL-ISLAMIYA', 'strong_alias']) });
// Hebrew: no list in ../shared/data carries Hebrew script; this entity is the Hebrew spelling of a Latin name.
export const HEBREW_NAME = entity({ primaryName: 'בנימין נתניהו', source: 'opensanctions_peps', sourceId: 'NK-hebrew', topics: ['pep'], names: [{ value: 'בנימין נתניהו', kind: 'original_script', script: 'Hebr' }] });

export const ALL = [PUTIN, PRIGOZHIN, HABBASH, EMMA_DANIELS, SADDAM, BARZAN_ARABIC, BIN_LADEN, UMAROV_CYRILLIC, KIM_JONG_UN, MEGVII, KALASHNIKOV, AEROSCAN, SEA_STAR_2, HAMAS, HEBREW_NAME];
