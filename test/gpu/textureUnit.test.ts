// The TXD texture unit against the golden sampleTxd (through the ISS's txd operand mapping), bit for bit: random requests on a host image
// with valid and invalid headers and samplers, directed edge coordinates under every wrap mode and filter, one request per cycle on cache
// hits, the textured-floor stream's issue rate and hit rate, TextureMemory's ports, and lockstep on Verilator and Icarus.
import { describe, expect, test } from 'vitest';
import { elaborate } from '../../src/hdl/index.ts';
import { createRng, seedFromEnv, type Rng } from '../../src/util/seededRandom.ts';
import { fromNumber } from '../../src/golden/float32.ts';
import { TxdStatus, decodeTextureSampler, type TextureHeader } from '../../src/golden/texture/index.ts';
import { encodeTxdControl, encodeTxdHandle } from '../../src/isa/index.ts';
import { TextureMemory, TextureUnit, defaultTextureUnitParams, textureUnitLatency } from '../../src/gpu/index.ts';
import {
  expectedTxd,
  textureUnitCosimDesign,
  textureUnitGolden,
  textureUnitStimulus,
  textureUnitTestSystem,
  txdRequestFromInputs,
  type TxdRequestItem,
} from '../../src/designs/catalogue/textureUnitCosim.ts';
import { floorStream } from '../../src/designs/bench/textureFloorStream.ts';
import { expectLintClean, expectLockstepOnThree } from './threeSimulators.ts';
import { VectorBench } from './vectorBench.ts';
import { runTxdStream } from '../../src/designs/bench/txdStream.ts';

const seed = seedFromEnv();
console.log(`textureUnit.test seed=${seed} (rerun with SEED=${seed})`);

const system = () => textureUnitTestSystem();
const f = fromNumber;

/** The sampler pool entries of the test image by filter (valid ones only). */
function samplersByFilter(): Record<'nearest' | 'bilinear' | 'trilinear', number[]> {
  const { image } = system();
  const out = { nearest: [] as number[], bilinear: [] as number[], trilinear: [] as number[] };
  for (const s of image.samplers) {
    const d = decodeTextureSampler(image.memory.subarray(2 * s.index, 2 * s.index + 2));
    if (d.ok) out[d.sampler.filter].push(s.index);
  }
  return out;
}

const request = (over: Partial<TxdRequestItem> & { handle: number }): TxdRequestItem => ({
  s: f(0.3),
  t: f(0.6),
  control: 0,
  dsdx: f(1 / 64),
  dsdy: 0,
  dtdx: 0,
  dtdy: f(1 / 64),
  writeMask: 15,
  dest: [1, 2, 3, 4],
  tag: 0,
  ...over,
});

function expectAllMatch(items: readonly TxdRequestItem[], answers: readonly { rgba: readonly number[]; status: number; tag: number }[]): void {
  const { image } = system();
  expect(answers.length).toBe(items.length);
  items.forEach((x, k) => expect(answers[k], `request ${k} ${JSON.stringify(x)} (SEED=${seed})`).toEqual(expectedTxd(image.memory, x)));
}

describe('parameters', () => {
  test('latency: descriptor register, decode, LOD 64, level select 2, coordinates 34, address, two queues, blends 24 + 12, output register, answer queue', () => {
    expect(textureUnitLatency(defaultTextureUnitParams)).toBe(1 + 1 + 64 + 2 + 34 + 1 + 2 + 24 + 12 + 1 + 1);
  });

  test('bad parameters are named', () => {
    expect(() => elaborate(TextureUnit, { ...defaultTextureUnitParams, texelLines: 8 })).toThrow(/TextureUnit: texelLines must be an integer 16 … 256, got 8/);
    expect(() => elaborate(TextureUnit, { ...defaultTextureUnitParams, queueDepth: 0 })).toThrow(/queueDepth must be an integer 2 … 1024/);
    expect(() => elaborate(TextureUnit, { ...defaultTextureUnitParams, float: { ...defaultTextureUnitParams.float, fmul: -1 } })).toThrow(/TextureUnit: fmul latency/);
    expect(() => elaborate(TextureMemory, { readLatency: 0 })).toThrow(/readLatency must be an integer 1 … 32, got 0/);
  });
});

describe('TextureMemory', () => {
  test('words written on the load port come back as lines readLatency cycles after the request; the preload reads too', () => {
    const design = elaborate(TextureMemory, { readLatency: 3, init: [0x11, 0x22, 0x33, 0x44, 0x55] }).design;
    const bench = new VectorBench(design);
    const load = (addr: number, data: number) => ({ load_we: 1n, load_waddr: BigInt(addr), load_wdata: BigInt(data) });
    const read = (line: number) => ({ read_req_valid: 1n, read_req_line: BigInt(line) });
    const outs = bench.run([load(0x3fffc, 0xa), load(0x3fffd, 0xb), load(0x3ffff, 0xd), load(5, 0x66), read(0xffff), read(0), read(1), {}, {}, {}, {}]);
    const line = (words: number[]) => words.reduceRight((acc, w) => (acc << 32n) | BigInt(w), 0n);
    expect(outs.map((o) => Number(o.read_resp_valid)).join('')).toBe('00000001110');
    expect(outs[7]!.read_resp_data).toBe(line([0xa, 0xb, 0, 0xd]));
    expect(outs[8]!.read_resp_data).toBe(line([0x11, 0x22, 0x33, 0x44]));
    expect(outs[9]!.read_resp_data).toBe(line([0x55, 0x66, 0, 0]));
    expect(outs[10]!.read_resp_data).toBe(0n);
  });

  test('a load (start, then words from 0) empties the memory: words at or past its length read zero, a shorter load included', () => {
    const design = elaborate(TextureMemory, { readLatency: 2, init: [1, 2, 3, 4, 5, 6] }).design;
    const bench = new VectorBench(design);
    const load = (addr: number, data: number) => ({ load_we: 1n, load_waddr: BigInt(addr), load_wdata: BigInt(data) });
    const read = (line: number) => ({ read_req_valid: 1n, read_req_line: BigInt(line) });
    const line = (words: number[]) => words.reduceRight((acc, w) => (acc << 32n) | BigInt(w), 0n);
    // The preload reads (its length is the image's); a load of 7 words; then one of 3 words.
    const outs = bench.run([read(1), {}, { load_start: 1n }, ...[0, 1, 2, 3, 4, 5, 6].map((a) => load(a, 0x10 + a)), read(0), read(1), {}, { load_start: 1n }, load(0, 0xa), load(1, 0xb), load(2, 0xc), read(0), read(1), read(0xffff), {}, {}]);
    expect(outs[2]!.read_resp_data).toBe(line([5, 6, 0, 0]));
    expect(outs[12]!.read_resp_data).toBe(line([0x10, 0x11, 0x12, 0x13]));
    expect(outs[13]!.read_resp_data).toBe(line([0x14, 0x15, 0x16, 0]));
    expect(outs[19]!.read_resp_data).toBe(line([0xa, 0xb, 0xc, 0]));
    expect(outs[20]!.read_resp_data).toBe(0n);
    expect(outs[21]!.read_resp_data).toBe(0n);
  });
});

describe('against sampleTxd', () => {
  test('random requests every cycle (valid and invalid headers and samplers, special derivatives, offsets, masks): every answer, in order', () => {
    const { image, design } = system();
    const bench = new VectorBench(design);
    const rng = createRng(seed);
    const stimulus = textureUnitStimulus(image);
    const rows = Array.from({ length: 8000 }, (_, c) => stimulus(c, rng));
    const outs = bench.run(rows);
    const golden = textureUnitGolden(image.memory);
    const statuses = new Map<number, number>();
    const kinds = new Set<string>();
    const taken: TxdRequestItem[] = [];
    rows.forEach((row, c) => {
      expect(golden.check(c, row, outs[c]!), `cycle ${c} (SEED=${seed})`).toBeNull();
      // As the golden model: the answer out before the edge first, then what the edge takes (nothing under reset).
      if (outs[c]!.resp_valid === 1n && row.resp_ready === 1n) {
        const x = taken.shift()!;
        const want = expectedTxd(image.memory, x);
        statuses.set(want.status, (statuses.get(want.status) ?? 0) + 1);
        const header = image.headers.find((h) => h.index === (x.handle & 0xfffff))?.header;
        const sampler = decodeTextureSampler(image.memory.subarray(2 * (x.handle >>> 20), 2 * (x.handle >>> 20) + 2));
        if (want.status === 0 && header && sampler.ok) kinds.add(`${header.format} ${sampler.sampler.filter} ${header.wrapS}`);
      }
      if (row.rst_n === 0n) taken.length = 0;
      else if (row.req_valid === 1n && outs[c]!.req_ready === 1n) taken.push(txdRequestFromInputs(row));
    });
    console.log(`random: ${[...statuses].map(([s, n]) => `status ${s}: ${n}`).join(', ')}; ${kinds.size} format/filter/wrap kinds answered`);
    for (const s of [TxdStatus.ok, TxdStatus.invalidHeader, TxdStatus.invalidSampler, TxdStatus.outOfMemory]) expect(statuses.get(s) ?? 0, `status ${s}`).toBeGreaterThan(3);
    expect(statuses.get(TxdStatus.ok)).toBeGreaterThan(150);
    expect(kinds.size).toBe(2 * 3 * 3);
  }, 300_000);

  test('edges under every wrap mode, filter and format: texel centres and edges at 0 and 1, just outside, far outside, NaN and ±inf coordinates, offsets −8 and +7, masks', () => {
    const { image, design } = system();
    const rng = createRng(seed ^ 0x5eed);
    const filters = samplersByFilter();
    const edge = (size: number, r: Rng): number =>
      [f(0), f(1), f(0.5 / size), f(1 - 0.5 / size), f(-1e-7), f(1 + 1e-7), f(-1 / size), f(1 + 1 / size), f(-3.25), f(7.75), 0x7fc00000, 0x7f800000, 0xff800000, f(1e30), 0x80000000][r.int(15)]!;
    const derivative = (size: number, r: Rng): number => [0, f(1 / size), f(0.5 / size), f(4 / size), f(1e-30), 1, 0x7f800000, 0x7fc00000, f(1e20), f(-2 / size)][r.int(10)]!;
    const items: TxdRequestItem[] = [];
    for (const h of image.headers.filter((x): x is { index: number; header: TextureHeader } => x.header !== undefined)) {
      for (const filter of ['nearest', 'bilinear', 'trilinear'] as const) {
        for (let k = 0; k < 3; k++) {
          const sampler = filters[filter][rng.int(filters[filter].length)]!;
          const { width, height } = h.header;
          items.push({
            s: edge(width, rng),
            t: edge(height, rng),
            handle: encodeTxdHandle(h.index, sampler),
            control: encodeTxdControl(rng.int(4) === 0 ? rng.int(0x1000) : 0, [-8, 7, 0, rng.int(16) - 8][rng.int(4)]!, [-8, 7, 0, rng.int(16) - 8][rng.int(4)]!),
            dsdx: derivative(width, rng),
            dsdy: derivative(width, rng),
            dtdx: derivative(height, rng),
            dtdy: derivative(height, rng),
            writeMask: rng.int(16),
            dest: [rng.u32(), rng.u32(), rng.u32(), rng.u32()],
            tag: items.length & 0xff,
          });
        }
      }
    }
    const run = runTxdStream(design, items, { idleBefore: (k) => (k % 7 === 0 ? 3 : 0) });
    expectAllMatch(items, run.answers);
  }, 300_000);

  test('invalid headers and samplers, chains past memory, handles past memory: every request answered, zeroes in the written lanes and the status, never a hang', () => {
    const { image, design } = system();
    const invalidHeaders = [...image.headers.filter((h) => h.header === undefined).map((h) => h.index), 0x10000, 0xfffff];
    const samplers = [0, ...image.samplers.filter((x) => !x.valid).map((x) => x.index)];
    const items = invalidHeaders.flatMap((h) => samplers.map((sm, k) => request({ handle: encodeTxdHandle(h, sm), writeMask: [15, 5, 8][k % 3]!, dest: [7, 8, 9, 10], tag: (h + k) & 0xff })));
    items.push(request({ handle: encodeTxdHandle(image.headers[0]!.index, samplers[1]!) }));
    const run = runTxdStream(design, items);
    expectAllMatch(items, run.answers);
    expect(run.answers.every((a) => a.status !== 0)).toBe(true);
    const statuses = new Set(run.answers.map((a) => a.status));
    for (const s of [TxdStatus.invalidHeader, TxdStatus.invalidSampler, TxdStatus.invalidHeader | TxdStatus.invalidSampler, TxdStatus.outOfMemory, TxdStatus.outOfMemory | TxdStatus.invalidSampler]) expect(statuses.has(s), `status ${s}`).toBe(true);
    expect(run.counters.texel_lookups).toBe(0);
  }, 300_000);

  test('requests that hit issue one per cycle, and an answer takes textureUnitLatency cycles once the lines are cached', () => {
    const { image, design } = system();
    const slot = image.headers[0]!.index; // the 16×16 RGBA8 texture, trilinear default sampler
    const items = Array.from({ length: 300 }, (_, k) => request({ handle: encodeTxdHandle(slot, 0), s: f(0.3 + (k % 2) * 0.01), dsdx: f(1.5 / 16), dtdy: f(1.5 / 16), tag: k & 0xff }));
    // The first request alone (it fetches the lines), then the rest back to back.
    const run = runTxdStream(design, items, { idleBefore: (k) => (k === 1 ? 400 : 0) });
    expectAllMatch(items, run.answers);
    expect(run.answeredAt[1]! - run.takenAt[1]!).toBe(textureUnitLatency(defaultTextureUnitParams));
    const rest = run.takenAt.slice(1);
    expect(rest.at(-1)! - rest[0]!).toBe(items.length - 2);
    expect(run.answeredAt.slice(1).every((c, k) => c === run.answeredAt[1]! + k)).toBe(true);
    // Only the first request fetched lines (at most its 8 texels' lines).
    expect(run.counters.issued).toBe(items.length);
    expect(run.counters.texel_fills).toBeGreaterThan(0);
    expect(run.counters.texel_fills).toBeLessThanOrEqual(8);
  });

  test('answers held back (resp_ready low for the first 600 cycles, then one cycle in three): the unit stops issuing, loses nothing, keeps the order', () => {
    const { design } = system();
    const { image } = system();
    const items = floorStream({ width: 32, height: 24, handle: encodeTxdHandle(image.headers.find((h) => h.header?.width === 64)!.index, 0), repeatsPerUnit: 1, tile: 8 });
    const run = runTxdStream(design, items, { ready: (c) => c > 600 && (c < 900 || c % 3 === 0) });
    expectAllMatch(items, run.answers);
    expect(run.answeredAt.every((c) => c % 3 === 0 || (c > 600 && c < 900))).toBe(true);
  }, 300_000);

  test('textured floor (64×48, 8×8 tiles, 64×64 RGBA8 trilinear): bit-exact, txdFetchesPerCycle ≥ 0.9, hit rate reported', () => {
    const { image, design } = system();
    const big = image.headers.find((h) => h.header?.width === 64)!;
    const report: string[] = [];
    for (const repeatsPerUnit of [0.5, 2]) {
      const items = floorStream({ width: 64, height: 48, handle: encodeTxdHandle(big.index, 0), repeatsPerUnit, tile: 8 });
      const run = runTxdStream(design, items);
      expectAllMatch(items, run.answers);
      const c = run.counters;
      const rate = c.issued / run.issueSpan;
      const hitRate = c.texel_hits / c.texel_lookups;
      report.push(`${repeatsPerUnit} repeats/unit: ${items.length} txd in ${run.issueSpan} cycles, txdFetchesPerCycle ${rate.toFixed(3)}, texel hit rate ${(100 * hitRate).toFixed(1)} % (${c.texel_lookups} lookups, ${c.texel_fills} line fills), stall cycles ${c.stall_cycles}`);
      expect(c.issued).toBe(items.length);
      expect(rate).toBeGreaterThanOrEqual(0.9);
      expect(hitRate).toBeGreaterThan(0.85);
    }
    console.log(`textured floor: ${report.join('; ')}`);
  }, 300_000);
});

describe('RTL', () => {
  test('texture_unit in lockstep on the TS simulator, Verilator and Icarus (golden on)', async () => {
    await expectLockstepOnThree(textureUnitCosimDesign, seed, 600);
  }, 900_000);

  test('verilator --lint-only -Wall and iverilog -Wall: no warnings', async () => {
    await expectLintClean([system().design]);
  }, 300_000);
});
