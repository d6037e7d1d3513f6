// Byte-level mutations of fuzz inputs: bit flips, interesting bytes, deletions, duplications, splices
// with other corpus entries, dictionary tokens and line shuffles, a few stacked per input.
import type { Rng } from '../../src/util/seededRandom.ts';

const INTERESTING = [0, 1, 0x7f, 0x80, 0xff, 0x0a, 0x0d, 0x09, 0x20, 0x22, 0x23, 0x2c, 0x2d, 0x2e, 0x2f, 0x30, 0x39, 0x3a, 0x3b, 0x40, 0x5c, 0xc3, 0xe2];
/** Inputs stay below this, so that every input is cheap and a size limit is never the finding. */
export const MAX_INPUT_BYTES = 1 << 16;

const encoder = new TextEncoder();

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

type Mutation = (b: Uint8Array, rng: Rng, corpus: readonly Uint8Array[], dictionary: readonly Uint8Array[]) => Uint8Array;

const pos = (b: Uint8Array, rng: Rng) => (b.length ? rng.int(b.length + 1) : 0);

const MUTATIONS: readonly Mutation[] = [
  // Flip one bit.
  (b, rng) => {
    if (!b.length) return b;
    const c = b.slice();
    c[rng.int(c.length)]! ^= 1 << rng.int(8);
    return c;
  },
  // An interesting byte in place of one.
  (b, rng) => {
    if (!b.length) return new Uint8Array([INTERESTING[rng.int(INTERESTING.length)]!]);
    const c = b.slice();
    c[rng.int(c.length)] = INTERESTING[rng.int(INTERESTING.length)]!;
    return c;
  },
  // Insert random bytes.
  (b, rng) => {
    const at = pos(b, rng);
    const n = 1 + rng.int(8);
    return concat(b.subarray(0, at), Uint8Array.from({ length: n }, () => rng.int(256)), b.subarray(at));
  },
  // Delete a range.
  (b, rng) => {
    if (!b.length) return b;
    const at = rng.int(b.length);
    const n = 1 + rng.int(Math.min(64, b.length - at));
    return concat(b.subarray(0, at), b.subarray(at + n));
  },
  // Duplicate a range (repeats stress counters and limits).
  (b, rng) => {
    if (!b.length) return b;
    const at = rng.int(b.length);
    const n = 1 + rng.int(Math.min(256, b.length - at));
    const piece = b.subarray(at, at + n);
    const times = 1 + rng.int(rng.int(4) === 0 ? 64 : 3);
    return concat(b.subarray(0, at + n), ...Array.from({ length: times }, () => piece), b.subarray(at + n));
  },
  // Splice: this input's head with another's tail.
  (b, rng, corpus) => {
    const other = corpus[rng.int(corpus.length)]!;
    return concat(b.subarray(0, pos(b, rng)), other.subarray(pos(other, rng)));
  },
  // A dictionary token (a keyword, a number at the edge of its range).
  (b, rng, _c, dict) => {
    if (!dict.length) return b;
    const at = pos(b, rng);
    const token = dict[rng.int(dict.length)]!;
    const replace = rng.int(2) === 0 ? Math.min(b.length - at, token.length) : 0;
    return concat(b.subarray(0, at), token, b.subarray(at + replace));
  },
  // Swap two lines, or repeat one.
  (b, rng) => {
    const lines: Uint8Array[] = [];
    let start = 0;
    for (let i = 0; i <= b.length; i++)
      if (i === b.length || b[i] === 0x0a) {
        lines.push(b.subarray(start, Math.min(i + 1, b.length)));
        start = i + 1;
      }
    if (lines.length < 2) return b;
    const i = rng.int(lines.length);
    const j = rng.int(lines.length);
    if (rng.int(2) === 0) [lines[i], lines[j]] = [lines[j]!, lines[i]!];
    else lines.splice(i, 0, lines[j]!);
    return concat(...lines);
  },
];

export class Mutator {
  private readonly dictionary: readonly Uint8Array[];
  constructor(
    private readonly rng: Rng,
    dictionary: readonly string[],
  ) {
    this.dictionary = dictionary.map((t) => (/^[\x00-\xff]*$/.test(t) && /[\x80-\xff\x00]/.test(t) ? Uint8Array.from(t, (c) => c.charCodeAt(0)) : encoder.encode(t)));
  }

  /** A new input from a corpus entry: one to eight stacked mutations, cut to MAX_INPUT_BYTES. */
  mutate(input: Uint8Array, corpus: readonly Uint8Array[]): Uint8Array {
    let b = input;
    const n = 1 + this.rng.int(this.rng.int(4) === 0 ? 8 : 3);
    for (let i = 0; i < n; i++) b = MUTATIONS[this.rng.int(MUTATIONS.length)]!(b, this.rng, corpus, this.dictionary);
    return b.length > MAX_INPUT_BYTES ? b.subarray(0, MAX_INPUT_BYTES) : b;
  }
}
