/**
 * Given-name variants for person checks (phase 1 standardisation): English diminutives
 * (Bill/William, Peggy/Margaret), spelling variants (Jon/John) and the Slavic, German, Romance
 * and Arabic forms people commonly go by or appear under on lists (Sasha/Aleksandr/Alexander).
 *
 * Each group is one family of names that may stand for each other. A name can belong to several
 * families (Alex: Alexander and Alexandra; Chris: Christopher and Christine), so variants are the
 * union of every family the name is in. Lookups are case- and accent-insensitive.
 */
import anyAscii from 'any-ascii';

/** Families of given names; the first entry is the formal name. */
export const NAME_FAMILIES: readonly (readonly string[])[] = [
  ['william', 'bill', 'billy', 'will', 'willy', 'liam', 'wilhelm', 'guillermo', 'guillaume'],
  ['robert', 'bob', 'bobby', 'rob', 'robbie', 'bert', 'roberto'],
  ['richard', 'dick', 'rick', 'ricky', 'rich', 'richie', 'ricardo'],
  ['margaret', 'peggy', 'maggie', 'meg', 'marge', 'margie', 'greta', 'rita', 'margarita', 'margarete'],
  ['elizabeth', 'liz', 'lizzie', 'beth', 'betty', 'betsy', 'eliza', 'bess', 'libby', 'elisabeth', 'isabel'],
  ['katherine', 'kate', 'kathy', 'katie', 'kat', 'catherine', 'kathryn', 'cathy', 'ekaterina', 'yekaterina', 'katya', 'katia'],
  ['aleksandr', 'alexander', 'aleksander', 'alexandr', 'alyaksandr', 'oleksandr', 'alejandro', 'alessandro', 'sasha', 'sacha', 'alex', 'sandy', 'shura', 'xander'],
  ['alexandra', 'aleksandra', 'sasha', 'alex', 'sandra', 'sandy', 'lexi'],
  ['james', 'jim', 'jimmy', 'jamie', 'diego', 'jaime', 'jacques', 'seamus'],
  ['john', 'jon', 'jack', 'johnny', 'ivan', 'juan', 'jean', 'johann', 'hans', 'giovanni', 'sean', 'ian', 'evan', 'yahya'],
  ['jonathan', 'jon', 'jonny', 'nathan'],
  ['joseph', 'joe', 'joey', 'jose', 'giuseppe', 'josef', 'yosef', 'iosif', 'osip', 'pepe', 'yusuf'],
  ['michael', 'mike', 'mikey', 'mick', 'mikhail', 'misha', 'miguel', 'michel', 'michele', 'mykhailo'],
  ['thomas', 'tom', 'tommy', 'tomas', 'foma'],
  ['charles', 'charlie', 'chuck', 'chas', 'carlos', 'carl', 'karl', 'carlo'],
  ['christopher', 'chris', 'kit', 'topher', 'cristobal', 'christoph'],
  ['christine', 'chris', 'christina', 'tina', 'kristina', 'kristin', 'kirsten'],
  ['daniel', 'dan', 'danny', 'danilo', 'daniil'],
  ['david', 'dave', 'davey', 'dai', 'davide', 'dawid'],
  ['edward', 'ed', 'eddie', 'ted', 'teddy', 'ned', 'eduardo', 'edouard'],
  ['theodore', 'ted', 'teddy', 'theo', 'fyodor', 'feodor', 'fedor', 'teodoro'],
  ['anthony', 'tony', 'antonio', 'anton', 'antoine', 'antony'],
  ['andrew', 'andy', 'drew', 'andrei', 'andrey', 'andriy', 'andres', 'andrea', 'andreas', 'andre'],
  ['nicholas', 'nick', 'nicky', 'nikolai', 'nikolay', 'mykola', 'kolya', 'nicolas', 'nicola', 'klaus', 'niko'],
  ['stephen', 'steve', 'steven', 'stevie', 'stepan', 'esteban', 'stefan', 'etienne', 'stefano'],
  ['peter', 'pete', 'pyotr', 'petr', 'petro', 'pedro', 'pierre', 'pietro', 'petya'],
  ['paul', 'pavel', 'pablo', 'paolo', 'pasha', 'paulo'],
  ['george', 'georgy', 'georgiy', 'yuri', 'yury', 'jorge', 'giorgio', 'georg', 'zhora'],
  ['gregory', 'greg', 'grigory', 'grigoriy', 'gregorio', 'grisha'],
  ['benjamin', 'ben', 'benny', 'benji'],
  ['samuel', 'sam', 'sammy'],
  ['samantha', 'sam', 'sammy'],
  ['matthew', 'matt', 'matvey', 'mateo', 'matteo', 'mathieu', 'matthias'],
  ['patrick', 'pat', 'paddy', 'patricio'],
  ['patricia', 'pat', 'patty', 'trish', 'tricia'],
  ['timothy', 'tim', 'timmy', 'timofey'],
  ['kenneth', 'ken', 'kenny'],
  ['ronald', 'ron', 'ronnie'],
  ['donald', 'don', 'donnie'],
  ['gerald', 'jerry', 'gerry'],
  ['jeremy', 'jerry', 'jeremiah'],
  ['lawrence', 'larry', 'laurence', 'lorenzo', 'laurent'],
  ['leonard', 'leo', 'len', 'lenny', 'leonardo'],
  ['raymond', 'ray', 'ramon', 'raimundo'],
  ['eugene', 'gene', 'yevgeny', 'evgeny', 'yevhen', 'zhenya'],
  ['vladimir', 'volodymyr', 'volodya', 'vova', 'vlad', 'wladimir', 'wlodzimierz'],
  ['dmitry', 'dmitri', 'dmitriy', 'dmytro', 'dima', 'demetrius'],
  ['sergey', 'sergei', 'serhiy', 'sergio', 'serge', 'seryozha'],
  ['mohammed', 'muhammad', 'mohammad', 'mohamed', 'muhammed', 'mehmet', 'mohd', 'hamoudi'],
  ['abdullah', 'abdallah', 'abdulla', 'abdellah'],
  ['ahmed', 'ahmad', 'ahmet'],
  ['hussein', 'husayn', 'hussain', 'husain', 'huseyin'],
  ['mary', 'molly', 'polly', 'mae', 'maria', 'marie', 'mariya', 'masha', 'maryam', 'miriam'],
  ['susan', 'sue', 'susie', 'suzanne', 'susanna'],
  ['deborah', 'debbie', 'deb', 'debra'],
  ['rebecca', 'becky', 'becca'],
  ['jennifer', 'jen', 'jenny'],
  ['jessica', 'jess', 'jessie'],
  ['victoria', 'vicky', 'tori', 'viktoria'],
  ['dorothy', 'dot', 'dolly', 'dottie', 'dorothea'],
  ['barbara', 'barb', 'babs', 'barbie'],
  ['sarah', 'sara', 'sally', 'sadie'],
  ['helen', 'helena', 'elena', 'yelena', 'olena', 'lena', 'ellen', 'nell', 'nellie'],
  ['anna', 'ann', 'anne', 'annie', 'hannah', 'anya', 'nancy', 'anita'],
  ['natalia', 'natalie', 'natasha', 'nataliya', 'natalya', 'talia'],
  ['olga', 'olya', 'helga'],
  ['tatiana', 'tatyana', 'tanya', 'tania'],
  ['svetlana', 'sveta', 'lana'],
  ['lyudmila', 'ludmila', 'lyuda', 'mila'],
  ['valentina', 'valya', 'tina'],
  ['francis', 'frank', 'frankie', 'fran', 'francesco', 'francisco', 'francois', 'paco', 'pancho', 'franz'],
  ['frances', 'fran', 'fanny', 'francesca', 'francine'],
  ['frederick', 'fred', 'freddie', 'fritz', 'federico'],
  ['alfred', 'alf', 'alfie', 'fred', 'alfredo'],
  ['henry', 'hank', 'harry', 'hal', 'enrique', 'henri', 'heinrich', 'enrico'],
  ['harold', 'harry', 'hal'],
  ['albert', 'al', 'bert', 'alberto'],
  ['alan', 'al', 'allan', 'allen'],
  ['arthur', 'art', 'artie', 'arturo', 'artur'],
  ['walter', 'walt', 'wally'],
  ['gabriel', 'gabe', 'gavriil', 'gabriele'],
  ['raphael', 'rafael', 'rafa', 'raffaele'],
  ['susannah', 'susanna', 'sukey'],
  ['abigail', 'abby', 'gail'],
  ['virginia', 'ginny', 'ginger'],
  ['eleanor', 'ellie', 'nora', 'elinor', 'leonor'],
  ['louis', 'lou', 'luis', 'luigi', 'ludwig', 'lewis'],
  ['louise', 'lou', 'louisa', 'luisa'],
  ['vincent', 'vince', 'vinny', 'vincenzo', 'vicente'],
  ['zachary', 'zach', 'zack'],
  ['nathaniel', 'nate', 'nat', 'nathan'],
  ['jacob', 'jake', 'yakov', 'jakob', 'jacopo', 'yaakov', 'yaqub'],
  ['isaac', 'ike', 'isaak', 'ishaq'],
  ['abraham', 'abe', 'avraham', 'ibrahim'],
  ['solomon', 'sol', 'shlomo', 'suleiman', 'sulayman'],
  ['moses', 'moe', 'moshe', 'musa'],
  ['ezekiel', 'zeke'],
  ['augustus', 'gus', 'august', 'augusto'],
  ['douglas', 'doug'],
  ['gordon', 'gordy'],
  ['phillip', 'phil', 'philip', 'felipe', 'filipp', 'philippe'],
  ['bernard', 'bernie', 'bernardo'],
  ['herbert', 'herb', 'bert'],
  ['mitchell', 'mitch'],
  ['terence', 'terry', 'terrence'],
  ['theresa', 'terry', 'tess', 'tessa', 'teresa'],
  ['cynthia', 'cindy'],
  ['lucinda', 'cindy', 'lucy'],
  ['judith', 'judy', 'jude'],
  ['pamela', 'pam'],
  ['sandra', 'sandy'],
  ['stanislav', 'stas', 'stanislaw', 'stanley', 'stan'],
  ['yaroslav', 'slava'],
  ['vyacheslav', 'slava'],
  ['konstantin', 'kostya', 'constantine', 'constantin'],
  ['mikhail', 'misha'],
  ['boris', 'borya'],
  ['leonid', 'lyonya'],
  ['viktor', 'victor', 'vitya', 'vic'],
  ['igor', 'igorek'],
  ['oleg', 'olezhka'],
  ['roman', 'roma'],
  ['ruslan', 'rus'],
  ['marina', 'marinka'],
  ['irina', 'ira', 'irene'],
  ['evelyn', 'eve', 'evie'],
  ['josephine', 'jo', 'josie'],
  ['joanna', 'jo', 'joanne', 'joan', 'juana', 'giovanna', 'johanna'],
  ['caroline', 'carol', 'carrie', 'carolina'],
  ['angela', 'angie'],
  ['jacqueline', 'jackie'],
  ['madeline', 'maddie', 'madeleine'],
  ['melissa', 'mel', 'missy'],
  ['melvin', 'mel'],
  ['clifford', 'cliff'],
  ['randolph', 'randy'],
  ['rodney', 'rod'],
  ['calvin', 'cal'],
  ['wesley', 'wes'],
  ['jefferson', 'jeff'],
  ['jeffrey', 'jeff', 'geoffrey', 'geoff'],
  ['marcus', 'marc', 'mark', 'marco', 'marko'],
  ['maximilian', 'max', 'maxim', 'maksim', 'massimo'],
];

const CANONICAL = /[^a-z]/g;

function key(name: string): string {
  return anyAscii(name).toLowerCase().replace(CANONICAL, '');
}

let index: Map<string, Set<string>> | undefined;

function variantIndex(): Map<string, Set<string>> {
  if (index) return index;
  index = new Map();
  for (const family of NAME_FAMILIES) {
    for (const member of family) {
      const set = index.get(member) ?? new Set<string>();
      for (const other of family) if (other !== member) set.add(other);
      index.set(member, set);
    }
  }
  return index;
}

/** Other forms of a given name (lower case, without the name itself); empty when the table has none. */
export function givenNameVariants(name: string): string[] {
  const found = variantIndex().get(key(name));
  return found ? [...found].sort() : [];
}

/** Whether two given names stand for each other (same name, or in a shared family). */
export function sameGivenName(a: string, b: string): boolean {
  const ka = key(a);
  const kb = key(b);
  return ka === kb || (variantIndex().get(ka)?.has(kb) ?? false);
}

/** Number of distinct (name, variant) pairs the table knows, for documentation and tests. */
export function nicknamePairCount(): number {
  let pairs = 0;
  for (const set of variantIndex().values()) pairs += set.size;
  return pairs / 2;
}
