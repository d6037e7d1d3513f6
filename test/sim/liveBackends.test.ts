// One Simulator interface on every engine: the TS simulator (js, wasm), live Verilator and live Icarus
// give the same values and the same errors for the same calls; tool failures are clear errors, never hangs.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { Bool, UInt, defineModule, elaborate, flattenDesign, input, output, type Design } from '../../src/hdl/index.ts';
import { compileSimulator, simulatorBackends, type Simulator } from '../../src/hdl/sim/index.ts';
import { externalDesign, type ExternalDesign } from '../../src/hdl/sim/external/externalDesign.ts';
import { startVerilator } from '../../src/hdl/sim/verilator/verilatorSimulator.ts';
import { IcarusEngine, answerLimit, answerTimeoutMs, startIcarus } from '../../src/hdl/sim/icarus/icarusSimulator.ts';
import type { ExternalSimulator } from '../../src/hdl/sim/external/externalSimulator.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';
import { Mixed } from '../cosim/fixtures.ts';

const seed = seedFromEnv();
console.log(`liveBackends.test seed=${seed} (rerun with SEED=${seed})`);

/** Memories of every storage class the engines use: 1-bit, 8-bit, 64-bit and 100-bit words. */
const Memories = defineModule(
  'Memories',
  () => ({
    we: input(Bool),
    addr: input(UInt(4)),
    narrow: input(UInt(8)),
    wide: input(UInt(100)),
    q1: output(Bool),
    q8: output(UInt(8)),
    q64: output(UInt(64)),
    q100: output(UInt(100)),
    total: output(UInt(100)),
  }),
  (m, io) => {
    const m1 = m.memory(Bool, 16);
    const m8 = m.memory(UInt(8), 16, { init: [1, 2, 3] });
    const m64 = m.memory(UInt(64), 16);
    const m100 = m.memory(UInt(100), 16);
    m.when(io.we, () => {
      m1.write(io.addr, io.narrow.bit(0));
      m8.write(io.addr, io.narrow);
      m64.write(io.addr, io.wide.trunc(64));
      m100.write(io.addr, io.wide);
    });
    io.q1.set(m1.readAsync(io.addr));
    io.q8.set(m8.readAsync(io.addr));
    io.q64.set(m64.readAsync(io.addr));
    io.q100.set(m100.read(io.addr));
    const total = m.reg(UInt(100), { reset: 0 });
    total.set(total.add(m100.readAsync(io.addr)));
    io.total.set(total);
  },
);

const allEngines = ['js', 'wasm', 'verilator', 'icarus'] as const;
type Engine = (typeof allEngines)[number];

async function open(design: Design, backend: Engine, registers = false): Promise<Simulator> {
  return backend === 'js' || backend === 'wasm' ? compileSimulator(design, { backend }) : compileSimulator(design, { backend, registers });
}

/** Runs `script` on every engine and returns what each recorded. */
async function onEveryEngine(design: Design, engines: readonly Engine[], script: (sim: Simulator, log: (x: unknown) => void) => void): Promise<Record<Engine, unknown[]>> {
  const out = {} as Record<Engine, unknown[]>;
  for (const e of engines) {
    const sim = await open(design, e);
    const log: unknown[] = [];
    try {
      script(sim, (x) => log.push(x));
    } finally {
      sim.close();
    }
    out[e] = log;
  }
  return out;
}

const errorOf = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
};

describe('the same values on js, wasm, verilator and icarus', () => {
  const mixed = elaborate(Mixed, undefined).design;
  const memories = elaborate(Memories, undefined).design;
  // The WebAssembly back end cannot run Mixed's masked 48-bit memory; Memories runs everywhere.
  const mixedEngines = ['js', 'verilator', 'icarus'] as const;

  test('a scripted session: pokes and peeks of every width, steps, vector runs, port handles, runUntil, powerOn', async () => {
    const script = (sim: Simulator, log: (x: unknown) => void) => {
      const rng = createRng(seed);
      log(sim.peek('count')); // power-on: the register's init, not yet its reset value
      sim.reset(2);
      log(sim.peek('count'));
      sim.poke('en', 1);
      sim.step(5);
      log([sim.cycle, sim.peek('count'), sim.peek('state')]);
      for (let i = 0; i < 40; i++) {
        sim.poke('a', rng.bits(40));
        sim.poke('b', rng.bits(100));
        sim.poke('s', rng.bits(13));
        sim.poke('sh', rng.int(110));
        log([sim.peek('prod'), sim.peek('shifted'), sim.peek('sar'), sim.peek('cmp')]);
        sim.poke('addr', rng.int(40));
        sim.poke('we', rng.int(2));
        sim.poke('data', rng.bits(48));
        sim.poke('be', rng.bits(6));
        sim.poke('en', rng.int(2));
        sim.step();
        log([sim.peek('sum'), sim.peek('q'), sim.peek('qa'), sim.peek('state')]);
      }
      const ins = ['en', 'a', 'b', 'addr', 'we', 'data', 'be'];
      const rows = new Uint32Array(300 * 12); // en, a (2 words), b (4), addr, we, data (2), be
      for (let i = 0; i < rows.length; i++) rows[i] = rng.u32();
      log([...sim.runVectors(ins, ['count', 'sum', 'q', 'qa', 'state'], rows, 300)]);
      log(sim.peek('sum')); // after the run: the last row's inputs stay applied
      const en = sim.port('en');
      const count = sim.port('count');
      en.set(1);
      log(sim.runUntil((s) => s.peek('count') === 7n, 300));
      log([count.get(), sim.cycle]);
      log(sim.dumpMemory('mem').slice(0, 8));
      sim.powerOn();
      log([sim.cycle, sim.peek('count'), sim.peek('sum'), sim.dumpMemory('mem').slice(0, 4)]);
    };
    const got = await onEveryEngine(mixed, mixedEngines, script);
    for (const e of mixedEngines) expect(got[e], e).toEqual(got.js);
    // The power-on values are the design's own: count's init (0), reset (3), and mem's init words.
    expect(got.js[0]).toBe(0n);
    expect(got.js[1]).toBe(3n);
    expect(got.js.at(-1)).toEqual([0, 0n, 0n, [0x123456789abcn, 7n, 9n, 0n]]);
  }, 600_000);

  test('memories of 1, 8, 64 and 100 bits: loadMemory and dumpMemory, seen by the logic', async () => {
    const script = (sim: Simulator, log: (x: unknown) => void) => {
      const rng = createRng(seed + 1);
      log(sim.dumpMemory('m8'));
      const w100 = Array.from({ length: 16 }, () => rng.bits(100));
      sim.loadMemory('m100', w100);
      sim.loadMemory('m64', [2n ** 64n - 1n, 5n], 14);
      sim.loadMemory('m8', [255, 0, 17], 3);
      sim.loadMemory('m1', [1, 0, 1, 1], 5);
      sim.reset();
      for (let a = 0; a < 16; a++) {
        sim.poke('addr', a);
        log([sim.peek('q1'), sim.peek('q8'), sim.peek('q64')]);
        sim.step();
        log([sim.peek('q100'), sim.peek('total')]);
      }
      sim.poke('we', 1);
      sim.poke('addr', 9);
      sim.poke('narrow', 0xab);
      sim.poke('wide', (1n << 99n) | 12345n);
      sim.step();
      log([sim.dumpMemory('m8'), sim.dumpMemory('m64'), sim.dumpMemory('m100'), sim.dumpMemory('m1')]);
      expect(sim.dumpMemory('m100').slice(0, 9)).toEqual(w100.slice(0, 9));
    };
    const got = await onEveryEngine(memories, allEngines, script);
    for (const e of allEngines) expect(got[e], e).toEqual(got.js);
    expect((got.js[0] as bigint[]).slice(0, 4)).toEqual([1n, 2n, 3n, 0n]);
    const [m8, m64, m100, m1] = got.js.at(-1) as bigint[][];
    expect([m8![9], m64![9], m100![9], m64![14], m8![3]]).toEqual([0xabn, 12345n, (1n << 99n) | 12345n, 2n ** 64n - 1n, 255n]);
    expect(m1!.slice(4, 10)).toEqual([0n, 1n, 0n, 1n, 1n, 1n]); // loaded at 5..8, then 0xab's bit 0 written at 9
  }, 600_000);

  test('the same errors for unknown names, bad widths and out-of-range values', async () => {
    const script = (sim: Simulator, log: (x: unknown) => void) => {
      log(errorOf(() => sim.poke('nope', 1)));
      log(errorOf(() => sim.poke('count', 1)));
      log(errorOf(() => sim.poke('a', 2n ** 40n)));
      log(errorOf(() => sim.poke('a', -1)));
      log(errorOf(() => sim.poke('a', 1.5)));
      log(errorOf(() => sim.peek('cuont')));
      log(errorOf(() => sim.port('b')));
      log(errorOf(() => sim.port('en').set(2)));
      log(errorOf(() => sim.loadMemory('nomem', [1])));
      log(errorOf(() => sim.loadMemory('mem', [2n ** 48n])));
      log(errorOf(() => sim.loadMemory('mem', [1, 2], 39)));
      log(errorOf(() => sim.runVectors(['a'], ['count'], new Uint32Array(3), 2)));
      log(errorOf(() => sim.runVectors(['count'], ['count'], new Uint32Array(4), 2)));
      log(errorOf(() => sim.step(-1)));
      log(errorOf(() => sim.runUntil(() => false, 3)));
    };
    const got = await onEveryEngine(mixed, mixedEngines, script);
    for (const e of mixedEngines) expect(got[e], e).toEqual(got.js);
    expect(got.js).toContain("value 1099511627776 does not fit input 'a' (40 bits, unsigned)");
    expect(got.js.every((m) => m !== 'no error')).toBe(true);
  }, 600_000);
});

describe('registers and internal signals', () => {
  const mixed = elaborate(Mixed, undefined).design;

  test('with { registers: true } every register is readable by name and equals the TS simulator', async () => {
    const sims = [compileSimulator(mixed), await compileSimulator(mixed, { backend: 'verilator', registers: true }), await compileSimulator(mixed, { backend: 'icarus', registers: true })];
    const flat = flattenDesign(mixed);
    const regs = flat.regs.map((r) => flat.nets[r.q]!.name);
    expect(regs.length).toBeGreaterThanOrEqual(4);
    const rng = createRng(seed + 2);
    for (const s of sims) s.reset();
    for (let c = 0; c < 200; c++) {
      const v = { en: rng.int(2), b: rng.bits(100), we: rng.int(2), addr: rng.int(40) };
      for (const s of sims) for (const [k, x] of Object.entries(v)) s.poke(k, x);
      for (const s of sims) s.step();
      const want = regs.map((r) => sims[0]!.peek(r));
      for (const s of sims.slice(1)) expect(regs.map((r) => s.peek(r)), `${s.backend} cycle ${c}`).toEqual(want);
    }
    for (const s of sims) s.close();
  }, 600_000);

  test('without it, reading a register or an internal net names what to do', async () => {
    const v = await compileSimulator(mixed, { backend: 'verilator' });
    const flat = flattenDesign(mixed);
    const ports = new Set(flat.ports.map((p) => flat.nets[p]!.name));
    const reg = flat.regs.map((r) => flat.nets[r.q]!.name).find((n) => !ports.has(n))!;
    expect(errorOf(() => v.peek(reg))).toBe(`'${reg}' is an internal register of Mixed; compile with { registers: true } to read registers on verilator`);
    const node = flattenDesign(mixed).nets.find((n) => n.kind === 'node')!.name;
    expect(errorOf(() => v.peek(node))).toBe(`'${node}' is an internal net of Mixed; verilator reads ports only`);
    v.close();
  }, 600_000);
});

describe('engines side by side, and their tools', () => {
  const mixed = elaborate(Mixed, undefined).design;

  test('two simulators of one design and one of another, live at once in one process, stay independent', async () => {
    const memories = elaborate(Memories, undefined).design;
    const a = await compileSimulator(mixed, { backend: 'verilator' });
    const b = await compileSimulator(mixed, { backend: 'verilator' });
    const c = await compileSimulator(memories, { backend: 'verilator' });
    const i1 = await compileSimulator(mixed, { backend: 'icarus' });
    const i2 = await compileSimulator(mixed, { backend: 'icarus' });
    for (const s of [a, b, i1, i2]) s.reset();
    a.poke('en', 1);
    i1.poke('en', 1);
    a.step(10);
    i1.step(10);
    b.step(3);
    i2.step(3);
    c.loadMemory('m8', [42]);
    expect([a.peek('count'), b.peek('count'), i1.peek('count'), i2.peek('count')]).toEqual([13n, 3n, 13n, 3n]);
    expect(c.peek('q8')).toBe(42n);
    b.close();
    i2.close();
    a.step();
    i1.step();
    expect([a.peek('count'), i1.peek('count')]).toEqual([14n, 14n]);
    for (const s of [a, c, i1]) s.close();
    expect(() => a.peek('count')).toThrow(/verilator simulator of Mixed is closed/);
  }, 600_000);

  test('waveforms: Verilator built with trace, Icarus, the TS simulator; a clear error without trace support', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtgpu-vcd-'));
    try {
      const plain = await compileSimulator(mixed, { backend: 'verilator' });
      expect(errorOf(() => plain.traceVcd(join(dir, 'x.vcd')))).toBe("verilator: Mixed was built without waveform support; compile it with { backend: 'verilator', trace: true }");
      plain.close();
      for (const sim of [await compileSimulator(mixed, { backend: 'verilator', trace: true }), await compileSimulator(mixed, { backend: 'icarus' }), compileSimulator(mixed)]) {
        const file = join(dir, `${sim.backend}.vcd`);
        sim.traceVcd(file);
        sim.reset();
        sim.poke('en', 1);
        sim.step(20);
        // Flushed at the end of every step call: complete before close().
        const beforeClose = readFileSync(file, 'utf8');
        expect(beforeClose, sim.backend).toMatch(/#195\b/);
        sim.close();
        const vcd = readFileSync(file, 'utf8');
        expect(vcd, sim.backend).toMatch(/\$var .* count /);
        expect(vcd, sim.backend).toMatch(/#195\b/); // 10 units a cycle, clk rising at 10c + 5
      }
      // A script that never calls close(): the samples are written when the process exits.
      const script = join(dir, 'noclose.mts');
      const root = process.cwd();
      const exitFile = join(dir, 'exit.vcd');
      writeFileSync(
        script,
        `import { elaborate } from '${root}/src/hdl/index.ts';\nimport { compileSimulator } from '${root}/src/hdl/sim/index.ts';\nimport { Mixed } from '${root}/test/cosim/fixtures.ts';\nconst sim = compileSimulator(elaborate(Mixed, undefined).design);\nsim.traceVcd(${JSON.stringify(exitFile)});\nsim.poke('en', 1);\nsim.step(30);\n`,
      );
      await execa(process.execPath, ['--import', 'tsx', script], { cwd: root });
      expect(readFileSync(exitFile, 'utf8')).toMatch(/#295\b/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);

  test('a design Verilator lints with a warning still simulates; the warning goes to the log', async () => {
    // x < x is constant: Verilator's UNSIGNED warning on the comparison after it (found by the random-design test).
    const Degenerate = defineModule('Degenerate', () => ({ a: input(UInt(3)), b: input(UInt(40)), y: output(Bool) }), (m, io) => {
      const n = io.a.not().asSInt();
      const never = n.lt(n);
      io.y.set(io.b.lt(never.zext(40)));
    });
    const lines: string[] = [];
    const sim = await compileSimulator(elaborate(Degenerate, undefined).design, { backend: 'verilator', log: (l) => lines.push(l) });
    sim.poke('b', 5);
    expect(sim.peek('y')).toBe(0n);
    sim.close();
    expect(lines.join('\n')).toMatch(/Degenerate built with 1 lint warning\(s\) \('rtgpu lint' reports them as errors\):\n%Warning-UNSIGNED/);
  }, 600_000);

  test('a typo in the back end is an error that lists the back ends', () => {
    expect(() => compileSimulator(mixed, { backend: 'verilatr' } as never)).toThrow(`unknown simulator back end "verilatr": choose one of ${simulatorBackends.join(', ')}`);
  });

  test('a missing tool names the package that installs it', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'rtgpu-path-'));
    try {
      symlinkSync(process.execPath, join(bin, 'node'));
      const script = join(bin, 'probe.mts');
      const root = process.cwd();
      writeFileSync(script, `import { elaborate } from '${root}/src/hdl/index.ts';\nimport { compileSimulator } from '${root}/src/hdl/sim/index.ts';\nimport { Mixed } from '${root}/test/cosim/fixtures.ts';\nfor (const backend of ['verilator', 'icarus']) {\n  try { await compileSimulator(elaborate(Mixed, undefined).design, { backend }); } catch (e) { console.log(e.message); }\n}\n`);
      const r = await execa(process.execPath, ['--import', 'tsx', script], { reject: false, env: { PATH: bin, HOME: tmpdir() }, extendEnv: false, cwd: root });
      expect(r.stdout).toContain("verilator not found on PATH: run 'bash scripts/install-tools.sh' (Debian: apt-get install verilator)");
      expect(r.stdout).toContain("iverilog not found on PATH: run 'bash scripts/install-tools.sh' (Debian: apt-get install iverilog)");
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  }, 120_000);

  test('a second compile of the same design comes from the build cache', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 2; i++) (await compileSimulator(mixed, { backend: 'verilator', log: (l) => lines.push(l) })).close();
    expect(lines.at(-1)).toBe('verilator: Mixed from the build cache');
  }, 600_000);
});

/** The design's emitted SV with one line of one module changed (for error paths the eDSL cannot produce). */
function patched(design: Design, module: string, edit: (text: string) => string): ExternalDesign {
  const x = externalDesign(design, { registers: false });
  const files = x.emitted.files.map((f) => (f.path === `${module}.sv` ? { ...f, text: edit(f.text) } : f));
  return { ...x, emitted: { ...x.emitted, files } };
}

describe('when the simulated design or the tool fails', () => {
  const mixed = elaborate(Mixed, undefined).design;
  const fatalAt = (text: string) => text.replace('endmodule', "  always_ff @(posedge clk) if (count == 8'd9) $fatal(1, \"count reached nine\");\nendmodule");

  test('$fatal in Verilator is an error naming the cycle; powerOn starts again', async () => {
    const sim = await startVerilator(patched(mixed, 'Mixed', fatalAt), {});
    sim.reset();
    sim.poke('en', 1);
    expect(errorOf(() => sim.step(20))).toMatch(/^verilator: Mixed: the design called \$stop at Mixed\.sv:\d+ \(cycle 7\); it printed:\n.*count reached nine\n\(powerOn\(\) starts it again\)$/);
    expect(errorOf(() => sim.peek('count'))).toMatch(/count reached nine/);
    sim.powerOn();
    sim.reset();
    expect(sim.peek('count')).toBe(3n);
    sim.close();
  }, 600_000);

  test('$fatal in Icarus ends vvp: an error with its message, not a hang; powerOn starts again', async () => {
    const sim = await startIcarus(patched(mixed, 'Mixed', fatalAt), {});
    sim.reset();
    sim.poke('en', 1);
    expect(errorOf(() => sim.step(20))).toMatch(/icarus: Mixed: vvp exited unexpectedly\nvvp said:\n[\s\S]*count reached nine/);
    sim.powerOn();
    sim.reset();
    expect(sim.peek('count')).toBe(3n);
    sim.close();
  }, 600_000);

  test('a vvp that stops answering is stopped after timeoutSeconds, with an error', async () => {
    // A zero-delay loop: simulated time never advances again, so the VPI module is never called.
    const hang = (text: string) => text.replace('endmodule', "  always @(posedge clk) if (count == 8'd6) forever #0;\nendmodule");
    const sim = await startIcarus(patched(mixed, 'Mixed', hang), { timeoutSeconds: 2 });
    sim.reset();
    sim.poke('en', 1);
    const t0 = performance.now();
    expect(errorOf(() => sim.step(10))).toMatch(/^icarus: Mixed: vvp did not answer within 2 s \(timeoutSeconds\)/);
    expect(performance.now() - t0).toBeLessThan(30_000);
    sim.close();
  }, 600_000);

  test('without timeoutSeconds, vvp still has a limit: 5 min an answer, plus 50 ms a cycle the command simulates', () => {
    const limit = answerLimit(undefined);
    expect(answerTimeoutMs(limit, 0)).toBe(300_000);
    expect(answerTimeoutMs(limit, 1)).toBe(300_050);
    expect(answerTimeoutMs(limit, 1_000_000)).toBe(50_300_000);
    // poll() takes an int: a longer wait is capped, not wrapped to a negative (infinite) one.
    expect(answerTimeoutMs(limit, 2 ** 31)).toBe(2 ** 31 - 1);
    expect(answerTimeoutMs(answerLimit(2), 1_000_000)).toBe(2000);
    expect(answerTimeoutMs(answerLimit(Infinity), 5)).toBe(-1);
    for (const bad of [0, -1, NaN]) expect(() => answerLimit(bad)).toThrow(/timeoutSeconds must be a positive number of seconds/);
  });

  test('a killed vvp is an error at the next call', async () => {
    const sim = (await compileSimulator(mixed, { backend: 'icarus' })) as ExternalSimulator;
    sim.reset();
    process.kill((sim.engine as IcarusEngine).pid!, 'SIGKILL');
    expect(errorOf(() => sim.step(1))).toMatch(/icarus: Mixed: vvp (exited unexpectedly|exited before it took the command)/);
    sim.powerOn();
    sim.reset();
    expect(sim.peek('count')).toBe(3n);
    sim.close();
  }, 600_000);

  test('a compile error names the SystemVerilog line and the TypeScript line behind it', async () => {
    const x = patched(mixed, 'Mixed', (t) => t.replace(/assign prod = /, 'assign prod = (('));
    const line = x.emitted.files.find((f) => f.path === 'Mixed.sv')!.text.split('\n').findIndex((l) => l.includes('assign prod = ((')) + 1;
    const verilator = await startVerilator(x, {}).catch((e: Error) => e.message);
    expect(verilator).toContain(`Mixed.sv:${line}`);
    expect(verilator).toMatch(/\(generated from test\/cosim\/fixtures\.ts:\d+\)/);
    const icarus = await startIcarus(x, {}).catch((e: Error) => e.message);
    expect(icarus).toContain(`Mixed.sv:${line}`);
    expect(icarus).toMatch(/\(generated from test\/cosim\/fixtures\.ts:\d+\)/);
  }, 600_000);
});

describe('shared live simulators are reused across tests', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await compileSimulator(elaborate(Mixed, undefined).design, { backend: 'icarus' });
  }, 600_000);
  afterAll(() => sim.close());

  test('a long step and a long vector run in one call each', () => {
    sim.reset();
    sim.poke('en', 1);
    sim.step(20_000);
    expect(sim.peek('count')).toBe(BigInt((3 + 20_000) % 256));
    const out = sim.runVectors([], ['count'], new Uint32Array(0), 5000);
    expect(out[4999]).toBe((3 + 20_000 + 4999) % 256);
  }, 600_000);
});
