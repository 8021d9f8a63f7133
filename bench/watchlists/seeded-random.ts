/** A seeded random source (mulberry32) for the development sets: the same seed writes the same files. */
export function seededRandom(seed: number): { rand: () => number; pick: <T>(xs: readonly T[]) => T; int: (lo: number, hi: number) => number } {
  let state = seed;
  const rand = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { rand, pick: <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!, int: (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1)) };
}
