/**
 * A small seeded random source (sfc32) for the hostile-input generator, so that every run with
 * the same seed sends the same requests in the same order and a failure can be replayed.
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, max). */
  below(max: number): number;
  pick<T>(items: readonly T[]): T;
  /** The items in a random order (a copy). */
  shuffle<T>(items: readonly T[]): T[];
  /** A random source of its own, derived from this one and a label (stable per label). */
  fork(label: string): Random;
}

/** A 32-bit hash of a text (FNV-1a), to derive seeds from labels. */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

export function seededRandom(seed: number): Random {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (a + b + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  // Warm up so that close seeds do not start alike.
  for (let index = 0; index < 16; index++) next();
  const random: Random = {
    next,
    below: (max) => Math.floor(next() * max),
    pick: (items) => {
      if (items.length === 0) throw new Error('random.pick: nothing to pick from');
      return items[Math.floor(next() * items.length)];
    },
    shuffle: (items) => {
      const out = [...items];
      for (let index = out.length - 1; index > 0; index--) {
        const other = Math.floor(next() * (index + 1));
        [out[index], out[other]] = [out[other], out[index]];
      }
      return out;
    },
    fork: (label) => seededRandom((seed ^ hashText(label)) >>> 0),
  };
  return random;
}
