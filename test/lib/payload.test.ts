// Typed payloads of the stream blocks: a Bundle through Fifo, SkidBuffer and RoundRobinArbiter, field by field; lint-clean SV; named errors for bad payloads.
import { describe, expect, test } from 'vitest';
import { Bool, Bundle, Clock, Decoupled, HdlError, UInt, Vec, defineModule, elaborate, flip, input, output, type Design } from '../../src/hdl/index.ts';
import { Fifo, RoundRobinArbiter, SkidBuffer } from '../../src/hdl/lib/index.ts';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { emitSystemVerilog } from '../../src/hdl/emit/index.ts';
import { icarusCompile, verilatorLint } from '../../src/hdl/cosim/rtlChecks.ts';
import { rtlSource } from '../../src/designs/synth/synthSource.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';

const seed = seedFromEnv();
const Word = Bundle({ a: UInt(5), b: Bool, c: UInt(9) });
type Fields = { a: bigint; b: bigint; c: bigint };

/** A Fifo of Words behind a SkidBuffer of Words, wired field by field through typed instance ports. */
const WordPipe = defineModule(
  'WordPipe',
  () => ({ enq: input(Decoupled(Word)), deq: output(Decoupled(Word)), count: output(UInt(3)) }),
  (m, io) => {
    const skid = m.instance(SkidBuffer, { payload: Word }, { name: 'skid' });
    const fifo = m.instance(Fifo, { payload: Word, depth: 4 }, { name: 'fifo' });
    m.connect(skid.io.enq, io.enq);
    m.connect(fifo.io.enq, skid.io.deq);
    io.deq.valid.set(fifo.io.deq.valid);
    fifo.io.deq.ready.set(io.deq.ready);
    // Field by field, as a caller reads a typed head word.
    io.deq.bits.a.set(fifo.io.deq.bits.a);
    io.deq.bits.b.set(fifo.io.deq.bits.b);
    io.deq.bits.c.set(fifo.io.deq.bits.c);
    io.count.set(fifo.io.count);
  },
);

const randomWord = (rng: ReturnType<typeof createRng>): Fields => ({ a: BigInt(rng.int(32)), b: BigInt(rng.int(2)), c: BigInt(rng.int(512)) });

describe('a Bundle payload passes each field unchanged and in order', () => {
  test(`through a SkidBuffer and a Fifo of Words (SEED=${seed})`, () => {
    const sim = compileSimulator(elaborate(WordPipe, undefined).design);
    const rng = createRng(seed);
    sim.reset(2);
    const sent: Fields[] = [];
    let received = 0;
    for (let c = 0; c < 4000; c++) {
      const w = randomWord(rng);
      const enq = rng.int(3) !== 0;
      const deq = rng.int(3) !== 0;
      sim.poke('enq_valid', enq ? 1 : 0);
      for (const k of ['a', 'b', 'c'] as const) sim.poke(`enq_bits_${k}`, w[k]);
      sim.poke('deq_ready', deq ? 1 : 0);
      if (sim.peek('deq_valid') === 1n) {
        const want = sent[received]!;
        for (const k of ['a', 'b', 'c'] as const) expect(sim.peek(`deq_bits_${k}`), `cycle ${c}, word ${received}, field ${k}`).toBe(want[k]);
        if (deq) received++;
      }
      if (enq && sim.peek('enq_ready') === 1n) sent.push(w);
      sim.step();
    }
    expect(received).toBeGreaterThan(1000);
  });

  test(`through a RoundRobinArbiter of 3 Words (SEED=${seed})`, () => {
    const sim = compileSimulator(elaborate(RoundRobinArbiter, { n: 3, payload: Word }).design);
    const rng = createRng(seed + 1);
    sim.reset(2);
    for (let c = 0; c < 2000; c++) {
      const words = [0, 1, 2].map(() => randomWord(rng));
      words.forEach((w, i) => {
        sim.poke(`in_${i}_valid`, rng.int(2));
        for (const k of ['a', 'b', 'c'] as const) sim.poke(`in_${i}_bits_${k}`, w[k]);
      });
      sim.poke('out_ready', rng.int(4) === 0 ? 0 : 1);
      if (sim.peek('out_valid') === 1n) {
        const chosen = words[Number(sim.peek('chosen'))]!;
        for (const k of ['a', 'b', 'c'] as const) expect(sim.peek(`out_bits_${k}`), `cycle ${c}, field ${k}`).toBe(chosen[k]);
      }
      sim.step();
    }
  });
});

describe('width: n is payload: UInt(n)', () => {
  const svOf = (design: Design) => emitSystemVerilog(design).files.map((f) => f.text.replaceAll(design.top, 'TOP')).join('\n');
  test.each([
    ['Fifo', () => elaborate(Fifo, { width: 8, depth: 5 }).design, () => elaborate(Fifo, { payload: UInt(8), depth: 5 }).design],
    ['SkidBuffer', () => elaborate(SkidBuffer, { width: 3 }).design, () => elaborate(SkidBuffer, { payload: UInt(3) }).design],
    ['RoundRobinArbiter', () => elaborate(RoundRobinArbiter, { n: 3, width: 4 }).design, () => elaborate(RoundRobinArbiter, { n: 3, payload: UInt(4) }).design],
  ] as const)('%s: the same SystemVerilog but for the module name', (_, byWidth, byPayload) => {
    expect(svOf(byPayload())).toBe(svOf(byWidth()));
  });
});

const designs: { readonly name: string; readonly design: () => Design }[] = [
  { name: 'WordPipe (typed SkidBuffer and Fifo)', design: () => elaborate(WordPipe, undefined).design },
  { name: 'Fifo of a Vec of Bundles, depth 3', design: () => elaborate(Fifo, { payload: Vec(2, Word), depth: 3 }).design },
  { name: 'Fifo of a Bool, depth 1', design: () => elaborate(Fifo, { payload: Bool, depth: 1 }).design },
  { name: 'RoundRobinArbiter of 3 Words', design: () => elaborate(RoundRobinArbiter, { n: 3, payload: Word }).design },
];

describe('typed stream blocks emit lint-clean SystemVerilog', () => {
  for (const d of designs) {
    test(`${d.name}: verilator --lint-only -Wall and iverilog -g2012 -Wall print nothing`, async () => {
      const src = rtlSource(d.design());
      const [v, i] = await Promise.all([verilatorLint(src), icarusCompile(src)]);
      expect(v.output).toBe('');
      expect(v.ok).toBe(true);
      expect(i.output).toBe('');
      expect(i.ok).toBe(true);
    }, 300_000);
  }
});

/** The diagnostic elaborating `params` raises: one InvalidArgument error at this file's line. */
function paramsError(def: typeof Fifo | typeof SkidBuffer, params: unknown): string {
  try {
    elaborate(def as typeof Fifo, params as { width: number; depth: number });
  } catch (e) {
    expect(e).toBeInstanceOf(HdlError);
    const [d] = (e as HdlError).diagnostics;
    expect(d!.code).toBe('InvalidArgument');
    expect(d!.loc.file).toMatch(/payload\.test\.ts$/);
    return d!.message;
  }
  throw new Error('no error');
}

describe('a bad payload is a named error at the line that gives it', () => {
  test('neither or both of payload and width', () => {
    expect(paramsError(Fifo, { depth: 4 })).toBe('Fifo: give either payload (the data type of a word, such as a Bundle) or width (a UInt of that many bits), not both or neither');
    expect(paramsError(SkidBuffer, { width: 8, payload: Word })).toMatch(/^SkidBuffer: give either payload/);
  });
  test('a payload that is no data type', () => {
    expect(paramsError(Fifo, { payload: 8, depth: 4 })).toBe('Fifo: payload must be a data type (UInt, SInt, Bool, an Enum, or a Bundle or Vec of them), got the number 8 (for a UInt of 8 bits, give width: 8)');
    expect(paramsError(Fifo, { payload: { a: UInt(3) }, depth: 4 })).toMatch(/got an object with keys a \(wrap fields in Bundle\(\{ … \}\)\)$/);
    expect(paramsError(Fifo, { payload: Clock, depth: 4 })).toMatch(/got Clock \(a clock is no data\)$/);
  });
  test('an interface (flipped fields) as payload', () => {
    expect(paramsError(Fifo, { payload: Decoupled(UInt(8)), depth: 4 })).toBe('Fifo: payload.ready is flipped: a payload is data that travels one way (give the data type, not an interface such as Decoupled)');
    expect(paramsError(Fifo, { payload: Bundle({ inner: Vec(2, Bundle({ x: UInt(2), back: flip(Bool) })) }), depth: 4 })).toMatch(/^Fifo: payload\.inner\[i\]\.back is flipped/);
  });
});
