/**
 * Family names the Arabic and Persian pools imply or lack, for scripts/build-name-frequency.ts
 * (docs/name-frequency.md, "Family names of the Arabic and Persian pools"; issue 27, round 4).
 * faker's fa surname pool holds 144 names and its ar pool 76 (mostly Maghrebi), so the most common
 * family names of both cultures were in no pool, and every partial match on them ("Mohammed Khaled
 * Al-Masri" for AL-MASRI, Mohammed; "Ali Mirzaei" for MIRZAEI, Mohammad Ali) looked like one on a rare
 * name and alerted. The fa given pool also lacks the Islamic given names most Iranians carry (Mohammad,
 * Ali, Hossein, Reza): those are added to it. Two families of names are added to the surname pools:
 *
 * - Persian: the adjective in -i of each given name of the Persian and Arabic pools (جعفر → جعفری Jafari, رضا → رضایی
 *   Rezaei, حسین → حسینی Hosseini), the largest family of Iranian surnames (the 1920s civil registry
 *   gave many families their forebear's name as an adjective), as the English pools derive Daniels
 *   from Daniel.
 * - Arabic: the nisbas of the Arab countries and their large cities (al-Masri, "the Egyptian";
 *   al-Baghdadi) and of the large tribes of the Arabian Peninsula (al-Otaibi, al-Qahtani,
 *   al-Shammari), each carried by hundreds of thousands of people or more. Written for this model from
 *   general knowledge of Arab family names, not from any screening data; an order of magnitude, like
 *   the pools' populations. A family name made of the article and a given name (al-Hasan, al-Ali) needs
 *   no entry: the pools are keyed by consonant skeleton, and its skeleton is the given name's.
 */

/** Nisbas of Arab countries and large cities, and of the large tribes of the Arabian Peninsula. */
const ARABIC_NISBAS = (
  // countries and regions
  'المصري الشامي العراقي السوري اللبناني الفلسطيني الأردني اليمني الحجازي النجدي المغربي التونسي الجزائري الليبي السوداني ' +
  'الكويتي العماني البحريني القطري ' +
  // cities
  'البغدادي الحلبي الدمشقي الموصلي البصري الحمصي المكي المدني القدسي النابلسي الخليلي الطرابلسي البيروتي الصنعاني ' +
  // tribes and large clans
  'العتيبي القحطاني الشمري الزهراني الغامدي الحربي المطيري الدوسري العنزي التميمي السبيعي الشهري العسيري المالكي ' +
  'الجهني الهاشمي القرشي الشمراني البلوشي الكعبي الرشيدي الخالدي الزبيدي الجبوري الدليمي العبيدي الكبيسي'
).split(' ');

/**
 * Given names among the most carried in Iran that faker's fa pool lacks (it holds names of Iranian
 * origin only: no Mohammad, Ali or Hossein), written as Persian writes them (general knowledge, like
 * the nisbas above): added to the fa given pool, and their -i family names derived.
 */
const IRANIAN_GIVEN = 'محمد علی حسین رضا جواد کاظم باقر میرزا رحمان هادی مهدی مجتبی مرتضی مصطفی عباس قاسم حمید سعید مجید امیر حیدر صادق اکبر اسد جلال عزیز صالح کریم رحیم ابراهیم طاهر ناصر منصور قربان رمضان تقی نقی جعفر نجف'.split(' ');

/** An Arabic-written name in Persian letters (ي → ی, ك → ک, ة → ه), as Persian writes it. */
function persianLetters(name: string): string {
  return name.replace(/[يى]/gu, 'ی').replace(/ك/gu, 'ک').replace(/ة/gu, 'ه');
}

/** A Persian given name's adjective in -i, as written (رضا → رضایی, جعفر → جعفری); undefined for a name of several words. */
function persianAdjective(given: string): string | undefined {
  const word = given.trim();
  if (!/^[\u0600-\u06FF]+$/u.test(word)) return undefined;
  // after a long vowel written ا or و the ending is written یی (رضا → رضایی, موسی has its own ی)
  if (/[اآو]$/u.test(word)) return `${word}یی`;
  if (/[یيى]$/u.test(word)) return undefined; // already an adjective, or ends in a vowel written ی
  if (/ه$/u.test(word)) return undefined; // a final silent ه (فاطمه) makes no family name by -i
  return `${word}ی`;
}

/** Given names `group`'s given-name pool lacks (for fa: the most carried Iranian given names). */
export function givenNames(group: string): string[] {
  // (each also in Arabic letters, ي and ك, as many keyboards type Persian: the matcher reads علي as Ali)
  return group === 'fa' ? [...new Set([...IRANIAN_GIVEN, ...IRANIAN_GIVEN.map(arabicLetters)])] : [];
}

/** A Persian-written name in Arabic letters (ی → ي, ک → ك). */
function arabicLetters(name: string): string {
  return name.replace(/ی/gu, 'ي').replace(/ک/gu, 'ك');
}

/**
 * The family names `group`'s surname pool lacks, derived from its given names or listed above. Persian
 * family names derive from the given names Iranians carry, which are the Persian pool's and the Arabic
 * (Islamic) given names of the Arabic pool (`arabicGiven`), and the most carried Iranian given names
 * both lack (IRANIAN_GIVEN: حسین, رضا, کاظم are in no fa pool of faker).
 */
export function familyNames(group: string, given: readonly string[], arabicGiven: readonly string[]): string[] {
  if (group === 'fa') return [...new Set([...given, ...arabicGiven.map(persianLetters), ...IRANIAN_GIVEN].map(persianAdjective).filter((s): s is string => s !== undefined))];
  if (group === 'ar') return ARABIC_NISBAS;
  return [];
}
