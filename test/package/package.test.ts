// The package as a user gets it: `npm pack`, installed into an empty folder, used from plain Node and from a
// strict TypeScript project, and every example run from there with the installed `rtgpu` command.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { SOAK } from '../scale.ts';

const repo = resolve('.');
let work = '';
let project = '';

/** The installed command (compiled JavaScript; no tsconfig beside it, so never the repository's sources). */
const rtgpu = (args: string[], cwd = project) => execa(process.execPath, [join(project, 'node_modules', 'rtgpu', 'bin', 'rtgpu.mjs'), ...args], { cwd, reject: false, all: true });

interface Example {
  readonly design: string;
  readonly testbench: string;
  readonly sims: readonly string[];
  readonly synth?: string;
  readonly cosimCycles?: number;
}

const examples = readdirSync(join(repo, 'examples'), { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(join(repo, 'examples', e.name, 'example.json')))
  .map((e) => ({ name: e.name, spec: JSON.parse(readFileSync(join(repo, 'examples', e.name, 'example.json'), 'utf8')) as Example }));

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'rtgpu-package-'));
  // `npm pack` builds dist/ (the prepare script) and packs exactly what users get.
  const pack = await execa('npm', ['pack', '--pack-destination', work, '--silent'], { cwd: repo, reject: false, all: true });
  if (pack.exitCode !== 0) throw new Error(`npm pack failed:\n${pack.all}`);
  const tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz'))!);
  project = join(work, 'project');
  cpSync(join(repo, 'examples'), join(project, 'examples'), { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user-project', private: true, type: 'module' }, null, 2));
  const install = await execa('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline'], { cwd: project, reject: false, all: true });
  if (install.exitCode !== 0) throw new Error(`npm install of the tarball failed:\n${install.all}`);
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed package in an empty folder', () => {
  test('plain Node ESM imports the public layers; nothing else is reachable', async () => {
    writeFileSync(
      join(project, 'use.mjs'),
      `import { defineModule, input, output, UInt, Bool, elaborate, emitSystemVerilog } from 'rtgpu/hdl';
import { compileSimulator } from 'rtgpu/hdl/sim';
import { Testbench } from 'rtgpu/hdl/testbench';
import { runCosim } from 'rtgpu/hdl/cosim';
import { synthTargetNames } from 'rtgpu/hdl/synth';
import { prove } from 'rtgpu/hdl/formal';
import { Fifo } from 'rtgpu/hdl/lib';
import { GpuTop } from 'rtgpu/gpu';
import { assemble } from 'rtgpu/isa';
import { runGpu } from 'rtgpu/host';
import { castRay } from 'rtgpu/golden';
import { defaultScene } from 'rtgpu/scenes';
import { Thread } from 'rtgpu/iss';
import { buildBvh } from 'rtgpu/bvh';
const Counter = defineModule('Counter', (p) => ({ en: input(Bool), count: output(UInt(p.width)) }), (m, io, p) => {
  const count = m.reg(UInt(p.width), { reset: 0 });
  m.when(io.en, () => count.set(count.add(1)));
  io.count.set(count);
});
const { design } = elaborate(Counter, { width: 8 });
const sim = compileSimulator(design);
const tb = new Testbench(sim);
await tb.run(async () => { await tb.reset(); tb.poke('en', 1); await tb.tick(10); });
const sv = emitSystemVerilog(design).files[0].text;
const fifo = emitSystemVerilog(elaborate(Fifo, { width: 8, depth: 4 }).design).files[0].text;
console.log(JSON.stringify({ count: String(sim.peek('count')), named: /logic \\[7:0\\] count_1; \\/\\/ use\\.mjs:\\d+/.test(sv), fifoNamed: /logic \\[1:0\\] head; \\/\\/ fifo\\.ts:\\d+/.test(fifo),
  others: [typeof runCosim, synthTargetNames.length > 0, typeof prove, typeof GpuTop, typeof assemble, typeof runGpu, typeof castRay, typeof defaultScene, typeof Thread, typeof buildBvh] }));
try { await import('rtgpu/src/hdl/index.ts'); console.log('deep import allowed'); } catch (e) { console.log(e.code); }
`,
    );
    const r = await execa(process.execPath, ['use.mjs'], { cwd: project, reject: false, all: true });
    expect(r.exitCode, r.all).toBe(0);
    const [line, deep] = r.stdout.split('\n');
    // Names come from the user's file, and the library's own names from its TypeScript sources.
    expect(JSON.parse(line!)).toEqual({ count: '10', named: true, fifoNamed: true, others: ['function', true, 'function', 'object', 'function', 'function', 'function', 'function', 'function', 'function'] });
    expect(deep).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
  }, 300_000);

  test('a strict TypeScript project (the examples included) type-checks against the declarations', async () => {
    writeFileSync(
      join(project, 'tsconfig.json'),
      // The examples too: they are the code users copy.
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, allowImportingTsExtensions: true, types: ['node'], typeRoots: [join(repo, 'node_modules', '@types')] },
        include: ['check.ts', 'examples/**/*.ts'],
      }),
    );
    writeFileSync(
      join(project, 'check.ts'),
      `import { defineModule, input, output, UInt, Bool, Decoupled, elaborate, HdlError, type Design } from 'rtgpu/hdl';
import { compileSimulator, type Simulator } from 'rtgpu/hdl/sim';
import { Testbench, StreamSink } from 'rtgpu/hdl/testbench';
export const Counter = defineModule('Counter', (p: { width: number }) => ({ en: input(Bool), count: output(UInt(p.width)), out: output(Decoupled(UInt(8))) }), (m, io, p) => {
  const count = m.reg(UInt(p.width), { reset: 0 });
  m.when(io.en, () => count.set(count.add(1)));
  io.count.set(count);
  io.out.valid.set(io.en);
  io.out.bits.set(count.trunc(8));
});
export async function check(): Promise<bigint> {
  const design: Design = elaborate(Counter, { width: 8 }).design;
  const sim: Simulator = await compileSimulator(design, { backend: 'verilator', trace: true });
  const tb = new Testbench(sim);
  const sink = new StreamSink(tb, 'out');
  await tb.run(async () => { await tb.reset(); tb.poke('en', 1); await tb.until(() => tb.peek('count') === 5n); });
  if (!(HdlError.prototype instanceof Error)) throw new Error('unreachable');
  return sink.received.length ? sim.peek('count') : 0n;
}
`,
    );
    const r = await execa(process.execPath, [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: project, reject: false, all: true });
    expect(r.all).toBe('');
    expect(r.exitCode).toBe(0);
  }, 300_000);

  test('the installed command runs its compiled JavaScript', async () => {
    const r = await rtgpu(['--help']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^ {2}emit /m);
    expect(existsSync(join(project, 'node_modules', 'rtgpu', 'dist', 'cli', 'main.js'))).toBe(true);
    expect(existsSync(join(project, 'node_modules', 'rtgpu', 'tsconfig.json'))).toBe(false);
  }, 120_000);

  test('the installed command type-checks a design file against the declarations before running it', async () => {
    cpSync(join(repo, 'test/cli/fixtures/typeErrors/jsConditions.ts'), join(project, 'picker.ts'));
    const r = await rtgpu(['emit', 'picker.ts', '--out', 'picker-rtl']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^rtgpu: picker\.ts:5:12: error\[JavaScriptOperator\]: a hardware value is used as a JavaScript condition \(\?:\)/);
    expect(r.stderr).toMatch(/\(5 problems before running picker\.ts; --no-typecheck/);
    expect(existsSync(join(project, 'picker-rtl'))).toBe(false);
  }, 120_000);

  test('there are examples to run', () => {
    expect(examples.map((e) => e.name).length).toBeGreaterThanOrEqual(4);
  });

  // CI runs the first example on every engine it names and the others on js and in lockstep (which runs js, Verilator
  // and Icarus together), without cosim; the soak runs every example whole.
  for (const [i, { name, spec: whole }] of examples.entries()) {
    const spec = SOAK || i === 0 ? whole : { ...whole, sims: whole.sims.filter((s) => s === 'js' || s === 'lockstep'), cosimCycles: undefined };
    test(`examples/${name}: lint, emit, sim on ${spec.sims.join(', ')}${spec.cosimCycles ? ', cosim' : ''}${spec.synth ? ', synth' : ''}`, async () => {
      const dir = join(project, 'examples', name);
      const lint = await rtgpu(['lint', spec.design], dir);
      expect(lint.exitCode, lint.all).toBe(0);
      expect(lint.stdout).toMatch(/0 eDSL warnings; verilator -Wall clean; iverilog -Wall clean$/);
      const emit = await rtgpu(['emit', spec.design, '--out', 'rtl'], dir);
      expect(emit.exitCode, emit.all).toBe(0);
      expect(existsSync(join(dir, 'rtl', 'manifest.json'))).toBe(true);
      for (const sim of spec.sims) {
        const r = await rtgpu(['sim', spec.testbench, '--sim', sim, '--seed', '1'], dir);
        expect(r.exitCode, `${sim}: ${r.all}`).toBe(0);
        expect(r.stdout).toMatch(/^PASS: /m);
      }
      if (spec.cosimCycles) {
        const r = await rtgpu(['cosim', spec.design, '--cycles', String(spec.cosimCycles), '--seed', '1'], dir);
        expect(r.exitCode, r.all).toBe(0);
        expect(r.stdout).toMatch(/ cycles, 0 mismatches$/);
      }
      if (spec.synth) {
        const r = await rtgpu(['synth', spec.design, '--target', spec.synth, '--depth', 'none'], dir);
        expect(r.exitCode, r.all).toBe(0);
      }
    }, 600_000);
  }
});
