/**
 * A bounded memo of token similarities keyed by two token class ids (compare.ts tokenClassId), kept
 * by the engine across queries: a batch repeats its surnames and given names, and the similarity of
 * two token classes never changes.
 *
 * Open addressing over one typed array rather than nested Maps: a lookup is a hash and a probe, and
 * the table is one flat array the garbage collector never walks, whatever the number of entries. A
 * slot's two ids and its value sit side by side (3 int32s), so a probe reads one cache line, not one in
 * each of three arrays: the table is far bigger than the CPU caches and a batch probes it ~200 times a
 * name. The memory is fixed when it is made (12 bytes a slot); once it is 60 % full it starts afresh
 * (a class pair seen again is worked out again, the same).
 */
const MAX_LOAD = 0.6;

/** What is memoised: compare.ts's TokenSim (a kind of match and a similarity; never changed once made). */
export interface MemoSim {
  readonly how: string;
  readonly sim: number;
}

export class SimilarityMemo<V extends MemoSim = MemoSim> {
  /** Slot i is table[3i .. 3i+2]: first id, second id, value (0 = empty slot, else 1 + the index of the value in `values`). */
  private readonly table: Int32Array;
  private readonly mask: number;
  private readonly limit: number;
  /** The distinct similarities stored (a handful: how × a few values), shared by every entry. */
  private values: V[] = [];
  private valueIndex = new Map<string, Map<number, number>>();
  private used = 0;
  /** How many times the table filled up and started afresh. */
  restarts = 0;

  /** `slotsLog2`: the table has 2^slotsLog2 slots (default 2^20: 12 MiB, up to 629,145 pairs). */
  constructor(slotsLog2 = 20) {
    const slots = 1 << slotsLog2;
    this.table = new Int32Array(slots * 3);
    this.mask = slots - 1;
    this.limit = Math.floor(slots * MAX_LOAD);
  }

  get size(): number {
    return this.used;
  }

  get(a: number, b: number): V | undefined {
    const table = this.table;
    const mask = this.mask;
    let i = hash(a, b) & mask;
    for (;;) {
      const at = i * 3;
      const v = table[at + 2];
      if (v === 0) return undefined;
      if (table[at] === a && table[at + 1] === b) return this.values[v - 1];
      i = (i + 1) & mask;
    }
  }

  set(a: number, b: number, sim: V): void {
    const value = this.valueOf(sim);
    if (this.used >= this.limit) this.restart();
    const table = this.table;
    const mask = this.mask;
    let i = hash(a, b) & mask;
    while (table[i * 3 + 2] !== 0) {
      if (table[i * 3] === a && table[i * 3 + 1] === b) break;
      i = (i + 1) & mask;
    }
    const at = i * 3;
    if (table[at + 2] === 0) this.used++;
    table[at] = a;
    table[at + 1] = b;
    table[at + 2] = value;
  }

  private valueOf(sim: V): number {
    // (by kind, then value: no key string is built for each pair stored)
    let byValue = this.valueIndex.get(sim.how);
    if (!byValue) this.valueIndex.set(sim.how, (byValue = new Map()));
    let v = byValue.get(sim.sim);
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
      let again = this.valueIndex.get(sim.how);
      if (!again) this.valueIndex.set(sim.how, (again = new Map()));
      again.set(sim.sim, v);
    }
    return v;
  }

  private restart(): void {
    this.table.fill(0);
    this.used = 0;
    this.restarts++;
  }
}

function hash(a: number, b: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77);
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) ^ (h >>> 13);
}
