/**
 * A bounded memo of token similarities keyed by two token class ids (compare.ts tokenClassId), kept
 * by the engine across queries: a batch repeats its surnames and given names, and the similarity of
 * two token classes never changes.
 *
 * Open addressing over typed arrays rather than nested Maps: a lookup is a hash and a probe, and the
 * table is a few flat arrays the garbage collector never walks, whatever the number of entries. The
 * memory is fixed when it is made (10 bytes a slot); once it is 60 % full it starts afresh (a class
 * pair seen again is worked out again, the same).
 */
const MAX_LOAD = 0.6;

/** What is memoised: compare.ts's TokenSim (a kind of match and a similarity; never changed once made). */
export interface MemoSim {
  readonly how: string;
  readonly sim: number;
}

export class SimilarityMemo<V extends MemoSim = MemoSim> {
  private readonly first: Int32Array;
  private readonly second: Int32Array;
  /** 0 = empty slot, else 1 + the index of the value in `values`. */
  private readonly slot: Uint16Array;
  private readonly mask: number;
  private readonly limit: number;
  /** The distinct similarities stored (a handful: how × a few values), shared by every entry. */
  private values: V[] = [];
  private valueIndex = new Map<string, number>();
  private used = 0;
  /** How many times the table filled up and started afresh. */
  restarts = 0;

  /** `slotsLog2`: the table has 2^slotsLog2 slots (default 2^20: 10 MiB, up to 629,145 pairs). */
  constructor(slotsLog2 = 20) {
    const slots = 1 << slotsLog2;
    this.first = new Int32Array(slots);
    this.second = new Int32Array(slots);
    this.slot = new Uint16Array(slots);
    this.mask = slots - 1;
    this.limit = Math.floor(slots * MAX_LOAD);
  }

  get size(): number {
    return this.used;
  }

  get(a: number, b: number): V | undefined {
    const mask = this.mask;
    let i = hash(a, b) & mask;
    for (;;) {
      const v = this.slot[i];
      if (v === 0) return undefined;
      if (this.first[i] === a && this.second[i] === b) return this.values[v - 1];
      i = (i + 1) & mask;
    }
  }

  set(a: number, b: number, sim: V): void {
    const value = this.valueOf(sim);
    if (this.used >= this.limit) this.restart();
    const mask = this.mask;
    let i = hash(a, b) & mask;
    while (this.slot[i] !== 0) {
      if (this.first[i] === a && this.second[i] === b) break;
      i = (i + 1) & mask;
    }
    if (this.slot[i] === 0) this.used++;
    this.first[i] = a;
    this.second[i] = b;
    this.slot[i] = value;
  }

  private valueOf(sim: V): number {
    const key = `${sim.how}\u0000${sim.sim}`;
    let v = this.valueIndex.get(key);
    if (v === undefined) {
      // (a similarity is one of a few kinds with one of a few values, far fewer than 65,535; were
      // there ever more, the table would start afresh with its values)
      if (this.values.length >= 0xffff) {
        this.restart();
        this.values = [];
        this.valueIndex.clear();
      }
      this.values.push(sim);
      v = this.values.length;
      this.valueIndex.set(key, v);
    }
    return v;
  }

  private restart(): void {
    this.slot.fill(0);
    this.used = 0;
    this.restarts++;
  }
}

function hash(a: number, b: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77);
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) ^ (h >>> 13);
}
