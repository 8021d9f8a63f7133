/**
 * English given names and their diminutives (Bob/Robert, Peggy/Margaret, Sasha/Alexander), read
 * from data/english-given-names.tsv (source, licence and review notes at its top).
 * Two names agree when they are the same or share a family; a short form in several families
 * (Bert: Robert, Albert, Herbert) does not make those families agree with each other.
 */
import { readFileSync } from 'node:fs';
import anyAscii from 'any-ascii';

/** Lower-case ASCII letters only: "Zoë" → "zoe", "Jo-Jo" → "jojo". */
export function givenNameKey(name: string): string {
  return anyAscii(name).toLowerCase().replace(/[^a-z]/g, '');
}

/** Families as the data file lists them (formal name first). Throws on a malformed row. */
export function parseGivenNameFamilies(text: string, file = 'english-given-names.tsv'): string[][] {
  const families: string[][] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim() || line.startsWith('#')) return;
    const [formal, variants, extra] = line.split('\t');
    if (!formal || !variants || extra !== undefined) throw new Error(`${file} line ${i + 1}: expected "formal<TAB>variant,variant"`);
    const members = [formal, ...variants.split(',')].map(givenNameKey);
    if (members.some((m) => !m)) throw new Error(`${file} line ${i + 1}: an empty name`);
    families.push([...new Set(members)]);
  });
  return families;
}

export class GivenNameTable {
  private readonly byName = new Map<string, Set<number>>();

  constructor(readonly families: readonly (readonly string[])[]) {
    families.forEach((family, f) => {
      for (const name of family) {
        const set = this.byName.get(name) ?? new Set<number>();
        set.add(f);
        this.byName.set(name, set);
      }
    });
  }

  /** Whether two given names stand for each other: same name, or members of one family. */
  agree(a: string, b: string): boolean {
    const ka = givenNameKey(a);
    const kb = givenNameKey(b);
    if (!ka || !kb) return false;
    if (ka === kb) return true;
    const fa = this.byName.get(ka);
    const fb = this.byName.get(kb);
    if (!fa || !fb) return false;
    for (const f of fa) if (fb.has(f)) return true;
    return false;
  }

  /** Whether the table knows the name at all (known names that do not agree are different people's names). */
  knows(name: string): boolean {
    return this.byName.has(givenNameKey(name));
  }

  /** The formal name(s) a name may stand for, for explanations ("Bob" → ["robert"]). */
  formalNames(name: string): string[] {
    const fams = this.byName.get(givenNameKey(name));
    return fams ? [...fams].map((f) => this.families[f][0]) : [];
  }
}

let loaded: GivenNameTable | undefined;

/** The table from the bundled data file (read once). */
export function englishGivenNames(): GivenNameTable {
  loaded ??= new GivenNameTable(parseGivenNameFamilies(readFileSync(new URL('./data/english-given-names.tsv', import.meta.url), 'utf8')));
  return loaded;
}
