/**
 * Word lists the matcher needs: legal forms, name particles, honorifics, organisation stop words
 * and very common given names (which must never carry a match on their own).
 * All entries are in the transliterated lowercase ASCII form produced by text.ts.
 */

/**
 * Company legal forms, grouped into equivalence classes. Multi-word phrases are matched on token
 * sequences (longest first) and replaced by one legal-form token `~class`.
 */
import { readFileSync } from 'node:fs';
import { foldToken } from './text';

const LEGAL_FORM_CLASSES: Record<string, string[]> = {
  // limited liability companies
  llc: [
    'llc', 'l l c', 'ooo', 'tov', 'too', 'limited liability company', 'limited liability co', 'limited liability partnership',
    'llp', 'obshchestvo s ogranichennoy otvetstvennostyu', 'obshchestvo s ogranichennoi otvetstvennostiu',
    'obshestvo s ogranichennoy otvetstvennostyu', 'tovarystvo z obmezhenoyu vidpovidalnistyu', 'tovaristvo z obmezhenoyu vidpovidalnistyu',
    'gmbh', 'mbh', 'sarl', 'srl', 's r l', 'sro', 's r o', 'spolka z ograniczona odpowiedzialnoscia', 'sp z o o', 'kft',
    'korlatolt felelossegu tarsasag', 'societe a responsabilite limitee', 'sociedad de responsabilidad limitada',
    'sociedade de responsabilidade limitada', 'societatea cu raspundere limitata', 'societa a responsabilita limitata',
    'yugen gaisha', 'yuxian gongsi', 'youxian gongsi', 'youxian zeren gongsi', 'ltda', 'lda', 'limitada', 'sac', 's a c', 'sa de cv', 's a de c v', 's de rl', 's de rl de cv', 's de r l de c v', 'sapi de cv', 'doo', 'd o o', 'eood', 'ood',
    'fzco', 'fze', 'fzc', 'fz llc', 'pte', 'pty', 'bhd', 'sdn bhd', 'oy', 'aps', 'llc fz',
    // Hebrew: בע"מ / B.M. (be'eravon mugbal, "with limited liability"), transliterated consonants
    'bm', 'b m', 'brbwn mwgbl', 'beeravon mugbal',
    // Chinese written in Han characters arrives as syllables
    'you xian gong si', 'you xian ze ren gong si', 'you xian hui she', 'yugen kaisha',
  ],
  // joint-stock / public companies
  jsc: [
    'jsc', 'ojsc', 'cjsc', 'pjsc', 'ao', 'zao', 'oao', 'pao', 'nao', 'at', 'pat', 'prat', 'tat', 'joint stock company',
    'joint stock co', 'open joint stock company', 'closed joint stock company', 'public joint stock company',
    'aktsionernoe obshchestvo', 'aktsionernoye obshchestvo', 'zakrytoe aktsionernoe obshchestvo',
    'otkrytoe aktsionernoe obshchestvo', 'publichnoe aktsionernoe obshchestvo', 'aktsionerne tovarystvo', 'aktsionerne tovaristvo',
    'publichne aktsionerne tovarystvo', 'ag', 'sa', 's a', 'spa', 's p a', 'nv', 'n v', 'plc', 'public limited company', 'as', 'a s',
    'asa', 'ab', 'oyj', 'kabushiki gaisha', 'kabushiki kaisha', 'kk', 'gufen youxian gongsi', 'tbk', 'pt', 'sae', 'sal', 'sak',
    'saog', 'psc', 'pjsc', 'qsc', 'qpsc', 'bsc', 'kscp', 'societe anonyme', 'sociedad anonima', 'sociedade anonima',
    'aktiengesellschaft', 'naamloze vennootschap', 'anonim sirketi', 'as', 'ad', 'dd', 'ead', 'a d',
    'gu fen you xian gong si', 'zhu shi hui she', 'kabushikigaisha',
  ],
  // generic "limited", "company", "corporation", "incorporated", partnerships and firms
  co: [
    'ltd', 'limited', 'co', 'company', 'corp', 'corporation', 'inc', 'incorporated', 'bv', 'b v', 'besloten vennootschap',
    'gongsi', 'gong si', 'youxian', 'yugen kaisha', 'company limited', 'co ltd', 'pvt', 'private limited', 'pvt ltd', 'private ltd', 'sas',
    'sasu', 'eurl', 'snc', 'gie', 'kg', 'ohg', 'gbr', 'ug', 'lp', 'l p', 'llp', 'partnership', 'firm', 'est', 'establishment',
    'sirketi', 'sti', 'ltd sti', 'kollektivnoe predpriyatie', 'chastnoe predpriyatie', 'pp', 'chp', 'ip', 'tic', 'trading est',
  ],
  // state enterprises and unitary companies
  state: [
    'fgup', 'gup', 'mup', 'federalnoe gosudarstvennoe unitarnoe predpriyatie', 'gosudarstvennoe unitarnoe predpriyatie',
    'state unitary enterprise', 'federal state unitary enterprise', 'soe', 'state owned enterprise', 'dp', 'derzhavne pidpryiemstvo',
  ],
  // non-profit forms
  npo: [
    'nko', 'ano', 'npo', 'nonprofit', 'non profit organization', 'non profit organisation', 'nekommercheskoe partnerstvo',
    'avtonomnaya nekommercheskaya organizatsiya', 'foundation', 'fund', 'fond', 'ev', 'e v', 'ngo',
  ],
};

export interface LegalFormMatch {
  cls: string;
  length: number;
}

// Phrases are keyed on folded tokens, so spelling variants of one phrase
// ("obshchestvo s ogranichennoy", "obschestvo s ogranichennoi") hit the same entry.
// Short single words are matched exactly (folding would turn "Ko" into "co" and "Saal" into "sal").
const legalPhrases = new Map<string, string>(); // space-joined folded tokens → class
const legalWords = new Map<string, string>(); // exact single words → class
const legalFirstWords = new Set<string>(); // first word of every multi-word phrase (norm and fold)
let maxLegalPhraseTokens = 1;
for (const [cls, phrases] of Object.entries(LEGAL_FORM_CLASSES)) {
  for (const p of phrases) {
    const words = p.split(' ');
    if (words.length === 1 && !legalWords.has(p)) legalWords.set(p, cls);
    if (words.length > 1) legalFirstWords.add(words[0]).add(foldToken(words[0]));
    const key = phraseKey(words);
    if ((words.length > 1 || p.length >= 5) && !legalPhrases.has(key)) legalPhrases.set(key, cls);
    maxLegalPhraseTokens = Math.max(maxLegalPhraseTokens, words.length);
  }
}

/** Lookup key of a phrase: runs of single letters joined ("S.A. de C.V." = "SA de CV"), then folded. */
function phraseKey(words: string[]): string {
  const out: string[] = [];
  let run = false;
  for (const w of words) {
    if (w.length === 1 && run) out[out.length - 1] += w;
    else out.push(w);
    run = w.length === 1 || (run && w.length === 1);
  }
  return out.map(foldToken).join(' ');
}

/** Longest legal-form phrase starting at tokens[i] (norms and their folds), if any. */
export function matchLegalForm(norms: string[], folded: string[], i: number): LegalFormMatch | undefined {
  const mayStartPhrase = norms[i].length === 1 || legalFirstWords.has(norms[i]) || legalFirstWords.has(folded[i]);
  for (let len = mayStartPhrase ? Math.min(maxLegalPhraseTokens, folded.length - i) : 1; len >= 2; len--) {
    const cls = legalPhrases.get(phraseKey(norms.slice(i, i + len)));
    if (cls) return { cls, length: len };
  }
  const cls = legalWords.get(norms[i]) ?? (norms[i].length >= 5 ? legalPhrases.get(folded[i]) : undefined);
  return cls ? { cls, length: 1 } : undefined;
}

/** Short legal-form abbreviations that could be a person's initials or a real word: only taken at the ends of a name. */
export const AMBIGUOUS_LEGAL_FORMS = new Set(['sa', 'as', 'ab', 'ag', 'at', 'ad', 'dd', 'ip', 'pp', 'pt', 'kk', 'ev', 'co', 'ao', 'ug', 'dp', 'est', 'fund', 'firm', 'lp', 'fond', 'ano']);

/** Name particles: canonical form per spelling. Weighted very low and never required. */
export const PARTICLES: Record<string, string> = {
  al: 'al', el: 'al', ul: 'al', ad: 'al', ar: 'al', as: 'al', ash: 'al', at: 'al', az: 'al', an: 'al', ud: 'al', ur: 'al', us: 'al', un: 'al',
  bin: 'bin', ibn: 'bin', ben: 'bin', bint: 'bin', binti: 'bin', bn: 'bin', ould: 'bin', walad: 'bin', oglu: 'bin', ogly: 'bin', kyzy: 'bin',
  abu: 'abu', abou: 'abu', abo: 'abu', bou: 'abu', umm: 'umm', um: 'umm',
  de: 'de', da: 'de', di: 'de', du: 'de', del: 'de', della: 'de', dos: 'de', das: 'de', do: 'de', van: 'van', von: 'van',
  der: 'der', den: 'der', la: 'la', le: 'la', y: 'y', e: 'y', und: 'y', and: 'y', of: 'of', the: 'the',
};

/** Particles that only count as particles when the source is Arabic-style (ad/ar/as/at… are sun-letter articles). */
export const SUN_LETTER_ARTICLES = new Set(['ad', 'ar', 'as', 'ash', 'at', 'az', 'an', 'ud', 'ur', 'us', 'un']);

/** Honorifics and titles that appear inside listed names. */
export const HONORIFICS = new Set([
  'mr', 'mrs', 'ms', 'miss', 'dr', 'prof', 'sir', 'sheikh', 'shaikh', 'shaykh', 'sheik', 'haji', 'hajji',
  'hadji', 'mullah', 'mulla', 'maulavi', 'mawlawi', 'maulvi', 'maulana', 'mawlana', 'qari', 'imam',
  // (King, Prince, Major, Lord are also surnames: not here)
  'general', 'gen', 'col', 'colonel', 'capt', 'captain', 'lt', 'admiral', 'emir', 'hon', 'honorable', 'rev', 'mv', 'mt', 'm v', 'ss', 'jr', 'sr', 'ii', 'iii',
]);

/**
 * Titles and offices written before a person's name, in many languages (transliterated as text.ts does:
 * "Präsident" → prasident, "Президент" → prezident, "الشيخ" → al + shykh). They are dropped from the front
 * of a name that is not an organisation (never from the middle: "General" is also an organisation word),
 * and the hit's explanation says so. Words that are also given names or surnames (King, Prince, Major,
 * Amir, Sultan, Rais) are not here.
 */
export const TITLES = new Set(
  (
    // heads of state and government, offices
    'president presidente presidenta president prasident praesident prezydent prezident prezidentas presidentti ' +
    'vice vicepresident vicepresidente vizeprasident premier prime minister ministre ministro minister ministr ministar bakan vazir wazir ' +
    'chancellor kanzler kanzlerin senator senador senatore senatorin governor gobernador governatore gouverneur gubernator ' +
    'ambassador ambassadeur embajador botschafter posol burgermeister maire alcalde deputy depute diputado deputat ' +
    'chairman chairwoman chairperson ' +
    // forms of address
    'mr mrs ms miss mister herr frau monsieur madame mme mlle senor senora sra signor signora gospodin gospozha ' +
    'excellency excellence his exc hon honorable honourable comrade tovarishch ' +
    // academic
    'dr prof professor doctor doktor dott ' +
    // military and police ranks
    'general gen generale generaal generalleutnant generalmajor lt lieutenant leytenant ' +
    'colonel col coronel colonnello oberst polkovnik brigadier brig marshal feldmarschall ' +
    'admiral adm commander cmdr captain capt kapitan sergeant sgt ' +
    // religious and traditional
    'sheikh shaikh shaykh sheik shykh cheikh sayyid seyed sayed ayatollah ayatullah hojatoleslam hujjat mullah mulla mawlawi maulavi ' +
    'maulvi maulana mawlana mufti imam qari haji hajji hadji alhaji alhaj hajj rabbi rav reverend rev patriarch ' +
    'metropolitan archbishop emir dato datuk datin ' +
    // Burmese honorifics before a name (U, Daw; written ဦး, ဒေါ်): never part of the name
    'u daw sayadaw bogyoke'
  )
    .split(/\s+/)
    .filter(Boolean),
);

/** Written-out numerals (1–20) in the languages of the lists' vessel and company names → their value. */
export const NUMERAL_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20,
  first: 1, second: 2, third: 3,
  uno: 1, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, nueve: 9, diez: 10,
  deux: 2, trois: 3, quatre: 4, cinq: 5, sept: 7, huit: 8, neuf: 9, dix: 10,
  eins: 1, zwei: 2, drei: 3, vier: 4, funf: 5, fuenf: 5, sechs: 6, sieben: 7, acht: 8, neun: 9, zehn: 10,
  odin: 1, dva: 2, tri: 3, chetyre: 4, pyat: 5, shest: 6, vosem: 8, devyat: 9, desyat: 10,
};
/** Roman numerals in non-person names ("SEA STAR II"): persons keep ii/iii as generational suffixes. */
export const ROMAN_NUMERALS: Record<string, number> = {
  ii: 2, iii: 3, iv: 4, vi: 6, vii: 7, viii: 8, ix: 9, xi: 11, xii: 12, xiii: 13, xiv: 14, xv: 15, xvi: 16, xvii: 17, xviii: 18, xix: 19, xx: 20,
};

interface BusinessWord {
  concept: string;
  kind: 'generic' | 'abbr';
}
/** data/business-words.tsv: generic business words with their translations, and word abbreviations. */
export const BUSINESS_WORDS = new Map<string, BusinessWord>();
/** Two-word generic phrases ("bwdwt pr": Hebrew עבודות עפר, earthworks), keyed "first second". */
export const BUSINESS_PHRASES = new Map<string, BusinessWord>();
for (const line of readFileSync(new URL('./data/business-words.tsv', import.meta.url), 'utf8').split('\n')) {
  if (!line.trim() || line.startsWith('#')) continue;
  const [concept, word, kind] = line.split('\t');
  if (kind !== 'generic' && kind !== 'abbr') throw new Error(`business-words.tsv: bad kind "${kind}" for "${word}"`);
  const entry = { concept, kind } as BusinessWord;
  if (word.includes(' ')) BUSINESS_PHRASES.set(word, entry);
  else BUSINESS_WORDS.set(word, entry);
}

/** Words that carry little identity in organisation names (weighted down, not dropped). */
export const ORG_STOP_WORDS = new Set([
  'the', 'of', 'and', 'for', 'in', 'on', 'at', 'to', 'a', 'an', 'group', 'holding', 'holdings', 'international', 'intl',
  'trading', 'trade', 'industries', 'industry', 'industrial', 'enterprise', 'enterprises', 'services', 'service', 'global',
  'general', 'import', 'export', 'company', 'bank', 'investment', 'investments', 'development', 'management', 'technology',
  'technologies', 'shipping', 'import export', 'organization', 'organisation', 'association', 'center', 'centre', 'national',
  'foreign', 'commercial', 'commerce', 'agency', 'network', 'de', 'la', 'el', 'al', 'society', 'institute', 'research',
]);

/**
 * Very common given names across the regions the lists cover (transliterated, folded later).
 * They may match, but a match on them alone must not reach the threshold.
 */
export const COMMON_GIVEN_NAMES = new Set(
  (
    // English-speaking
    'james john robert michael william david richard joseph thomas charles christopher daniel matthew anthony mark donald ' +
    'steven paul andrew joshua kenneth kevin brian george timothy ronald edward jason jeffrey ryan jacob gary nicholas eric ' +
    'jonathan stephen larry justin scott brandon benjamin samuel gregory alexander frank patrick raymond jack dennis jerry ' +
    'tyler aaron jose adam nathan henry douglas zachary peter kyle noah ethan jeremy walter christian keith roger terry austin ' +
    'sean gerald carl harold dylan arthur lawrence jordan jesse bryan billy bruce gabriel joe logan albert willie alan eugene ' +
    'russell vincent philip bobby johnny bradley roy ralph louis randy wayne harry howard fred martin victor ' +
    'mary patricia jennifer linda elizabeth barbara susan jessica sarah karen lisa nancy betty sandra margaret ashley kimberly ' +
    'emily donna michelle carol amanda melissa deborah stephanie dorothy rebecca sharon laura cynthia amy kathleen angela ' +
    'shirley brenda emma anna pamela nicole samantha katherine christine helen debra rachel carolyn janet maria catherine ' +
    'heather diane olivia julie joyce victoria ruth virginia lauren kelly christina joan evelyn judith andrea hannah megan ' +
    'cheryl jacqueline martha madison teresa gloria sara janice ann kathryn abigail sophia frances jean alice judy isabella ' +
    'julia grace amber denise danielle marilyn beverly charlotte natalie theresa diana brittany doris kayla alexis lori marie ' +
    'tom tim bob bill jim mike dave steve chris dan ben sam tony nick joan jane rose lily kate anne ' +
    // Spanish/Portuguese/Italian/French/German
    'juan carlos luis jorge pedro miguel manuel francisco antonio javier rafael fernando ricardo alejandro roberto sergio ' +
    'pablo diego eduardo andres alberto mario marco giuseppe giovanni luca paolo pierre jean jacques michel philippe alain ' +
    'francois nicolas hans klaus jurgen wolfgang stefan andreas thomas ana carmen rosa isabel lucia elena laura marta ' +
    'francesca giulia sophie marie claire anne monika petra sabine ' +
    // Arabic/Persian/Turkic
    'mohammed muhammad mohamed mohammad mohamad muhammed ahmed ahmad ali hassan hasan hussein husain husayn hussain omar umar ' +
    'abdullah abdallah ibrahim khalid khaled mahmoud mahmud mustafa mostafa yusuf youssef yousef said saeed saleh salih ' +
    'abdul karim kareem rahman abdelrahman hamid hameed hamza ismail ismael jamal kamal nasser nasir tariq fatima aisha ' +
    'maryam zainab reza hossein mehdi amir ali mehmet murat ' +
    // Slavic
    'vladimir sergei sergey alexander aleksandr alexei aleksei alexey andrei andrey dmitry dmitri dmitriy ivan nikolai ' +
    'nikolay mikhail yuri yuriy igor oleg viktor victor pavel evgeny evgeniy yevgeny anatoly boris maxim maksim roman ' +
    'olga elena yelena tatiana tatyana natalia natalya irina svetlana anna ekaterina yekaterina maria mariya marina ' +
    'volodymyr oleksandr olena ' +
    // East and South Asian
    'wei jun li ming hui lei jian hong yan ying min young jin jung sung hyun raj kumar ram amit sunil anil vijay'
  ).split(/\s+/).filter(Boolean),
);

/** Slavic patronymic endings: a middle name that is often left out. */
export const PATRONYMIC = /(ovich|evich|ovych|evych|ich|ovna|evna|ivna|ichna|yevich|ievich|ovitch|evitch|auna|euna|avich|ovic|evic)$/;

/**
 * One given name in its Russian, Ukrainian and Belarusian forms (the same person is listed under
 * either). These are language variants of one name, not nicknames: nicknames are not aliases.
 */
const NAME_VARIANT_GROUPS = [
  'aleksandr oleksandr aliaksandr alexander aleksander',
  'vladimir volodymyr uladzimir',
  'nikolai mykola mikalai nikolay',
  'aleksei oleksii oleksiy aliaksei alexei alexey',
  'sergei serhii serhiy siarhei sergey',
  'andrei andrii andriy andrey',
  'dmitri dmytro dzmitry dmitry dmitriy',
  'gennadi hennadii hennadiy henadz gennady gennadiy',
  'grigori hryhorii hryhoriy ryhor grigory',
  'igor ihor',
  'pyotr petro piotr petr',
  'pavel pavlo paval',
  'mikhail mykhailo mikhail mikhas',
  'vasili vasyl vasil vasily',
  'oleg oleh aleh',
  'yelena olena alena elena',
  'yekaterina kateryna katsiaryna ekaterina',
  'natalya nataliia natallia natalia nataliya',
  'yevgeni yevhen yauhen evgeny evgeniy yevgeny',
  'viktor victor',
  'anatoli anatolii anatol anatoly',
  'valeri valerii valery valeriy',
  'yuri yurii yury yuriy',
  'ivan ivan ivan',
  'mariya mariia maria',
  // The common Arabic given names in their English, French, Turkish and West African spellings
  'muhammad mohammed mohamed mohammad mohamad muhammed mouhamed mohamud muhamed mohammod mehmet mehmed mahomed',
  'ahmad ahmed ahmet ahmat',
  'husayn hussein husein hussain husain huseyin hossein hosein',
  'hasan hassan hasen',
  'mahmud mahmoud mahmood mahmut',
  'umar omar omer',
  'yusuf youssef yousef yusef yousuf yousif jusuf',
  'ibrahim ebrahim ibragim',
  'khalid khaled halid',
  'mustafa mostafa moustafa mustapha',
  'abdallah abdullah abdulla',
  'said saeed saaid',
  'ali aly',
  // Korean surnames in DPRK, Revised and McCune-Reischauer romanisations
  'ri lee yi rhee li i',
  'pak park bak',
  'choe choi chwe',
  'jong jeong jung chung chong',
  'kim gim',
  'kang gang',
  'ryu yoo yu',
  'o oh',
  'rim lim im',
  'ro roh no noh',
  'ryang yang',
  // Burmese syllables in their common Latin spellings (burmese.ts writes the first of each group)
  'htun tun',
  'htay htai hte tay',
  'htoo htu too',
  'soe so',
  'aye ay',
  'kyi gyi',
  'nyunt nyun',
  // Chinese surnames in pinyin and Wade-Giles
  'zhang chang cheung',
  'zhou chou chow',
  'xu hsu',
];
export const NAME_VARIANTS = new Map<string, string>();
/** The fold every variant of a group maps to: two different heads are two different names (Muhammad ≠ Mahmud). */
export const NAME_VARIANT_HEADS = new Set<string>();
const groupOf = new Map<string, number>();
NAME_VARIANT_GROUPS.forEach((group, g) => {
  const folds = group.split(' ').map(foldToken);
  for (const f of folds) {
    // one fold may belong to one group only, else unrelated names would chain together
    if (groupOf.has(f) && groupOf.get(f) !== g) throw new Error(`name variant "${f}" is in two groups`);
    groupOf.set(f, g);
  }
  for (const f of folds.slice(1)) if (f !== folds[0]) NAME_VARIANTS.set(f, folds[0]);
  NAME_VARIANT_HEADS.add(folds[0]);
});
