// The CLI on a user's own design and testbench files: emit, lint, sim, cosim and synth, and the errors a
// user's mistakes get (at their file and line, never a stack trace).
import { describe, expect, onTestFinished, test } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { tempDir } from '../tempDir.ts';

const rtgpu = (...args: string[]) => execa(process.execPath, ['bin/rtgpu.mjs', ...args], { reject: false });
const fixture = (name: string) => `test/cli/fixtures/${name}`;
const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at /);
/** `line:col` of the first `new Error` on a line of a fixture: where V8 says the error was made. */
const throwSite = (name: string, line: number) => `${line}:${readFileSync(fixture(name), 'utf8').split('\n')[line - 1]!.indexOf('new Error') + 1}`;

describe('rtgpu emit', () => {
  test('writes the SystemVerilog, file list and manifest, with the names of the user\'s file', async () => {
    const out = join(tempDir('emit'), 'rtl');
    const r = await rtgpu('emit', fixture('gcdUnit.ts'), '--out', out);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    // The implicit clk has no period: the constraints file leaves it to complete, and the command says so.
    expect(r.stdout.split('\n')).toEqual([
      `test/cli/fixtures/gcdUnit.ts: GcdUnit_width16 (1 modules) -> ${out}/ (1 source files, GcdUnit_width16.f, GcdUnit_width16.sdc, manifest.json)`,
      "  GcdUnit_width16.sdc: the design gives no period for 'clk': replace PERIOD_NS in its create_clock, or give the period in the design (m.clockDomain({ clock, period }) on an input(Clock) port)",
    ]);
    const sv = readFileSync(join(out, 'GcdUnit_width16.sv'), 'utf8');
    expect(sv).toMatch(/logic \[15:0\] x; \/\/ gcdUnit\.ts:14/);
    expect(sv).toMatch(/input\s+logic \[15:0\] req_bits_a,/);
    expect(readFileSync(join(out, 'GcdUnit_width16.f'), 'utf8')).toBe('GcdUnit_width16.sv\n');
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { top: string; parameters: unknown; modules: { name: string; ports: { name: string }[] }[] };
    expect(manifest.top).toBe('GcdUnit_width16');
    expect(manifest.parameters).toEqual({ width: 16 });
    expect(manifest.modules[0]!.ports.map((p) => p.name)).toEqual(['clk', 'rst_n', 'req_valid', 'req_ready', 'req_bits_a', 'req_bits_b', 'resp_valid', 'resp_ready', 'resp_bits', 'busy']);
    // --param overrides the file's params; emitting again into our own directory is fine.
    const again = await rtgpu('emit', fixture('gcdUnit.ts'), '--param', 'width=8', '--out', out);
    expect(again.exitCode).toBe(0);
    expect(existsSync(join(out, 'GcdUnit_width8.sv'))).toBe(true);
    expect(existsSync(join(out, 'GcdUnit_width16.sv'))).toBe(false);
  }, 120_000);

  test('--style netlist prints one assign per cell; a wrong style is named', async () => {
    const out = join(tempDir('emit'), 'rtl');
    const r = await rtgpu('emit', fixture('gcdUnit.ts'), '--style', 'netlist', '--out', out);
    expect(r.exitCode).toBe(0);
    const sv = readFileSync(join(out, 'GcdUnit_width16.sv'), 'utf8');
    expect(sv).not.toMatch(/always_comb|^\s+wire /m);
    expect(sv).toMatch(/^\s+assign \w+ = /m);
    const bad = await rtgpu('emit', fixture('gcdUnit.ts'), '--style', 'pretty');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("--style must be readable or netlist, got 'pretty'");
  }, 120_000);

  test('--top chooses among several modules; parameters reach the module', async () => {
    const out = join(tempDir('emit'), 'rtl');
    const none = await rtgpu('emit', fixture('twoModules.ts'), '--out', out);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toBe('rtgpu: test/cli/fixtures/twoModules.ts exports several modules (Adder, Inverter): choose one with --top');
    const r = await rtgpu('emit', fixture('twoModules.ts'), '--top', 'Adder', '--param', 'width=0x0c', '--out', out);
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(out, 'Adder_width12.sv'), 'utf8')).toMatch(/output logic \[12:0\] y/);
    // With `params`, the one module that takes parameters is the top: no --top needed.
    const parts = await rtgpu('emit', fixture('moduleWithParts.ts'), '--out', join(tempDir('emit'), 'rtl'));
    expect(parts.exitCode, parts.stderr).toBe(0);
    expect(parts.stdout).toMatch(/^test\/cli\/fixtures\/moduleWithParts\.ts: Top_width6 \(2 modules\)/);
  }, 120_000);

  test('mistakes in the user\'s files are reported at their file and line', async () => {
    const cjs = tempDir('emit');
    writeFileSync(join(cjs, 'commonjs.ts'), "import { UInt } from 'rtgpu/hdl';\nexport const x = UInt(8);\n");
    const dir = tempDir('emit');
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(join(dir, 'syntax.ts'), "import { UInt } from 'rtgpu/hdl';\nexport const x = UInt(8;\n");
    writeFileSync(join(dir, 'notADesign.ts'), 'export const answer = 42;\n');
    writeFileSync(join(dir, 'existing.txt'), 'mine');
    const cases: [string[], string | RegExp][] = [
      [['emit', fixture('widthError.ts')], /^test\/cli\/fixtures\/widthError\.ts:5:\d+: error\[WidthMismatch\]: cannot assign a 8-bit value to a 4-bit signal/],
      [['emit', fixture('throwsAtLoad.ts')], `rtgpu: test/cli/fixtures/throwsAtLoad.ts:${throwSite('throwsAtLoad.ts', 8)}: no width configured for 'data'`],
      [['emit', join(dir, 'syntax.ts')], /^rtgpu: .*syntax\.ts:2:\d+: Expected "\)" but found ";"$/],
      [['emit', join(cjs, 'commonjs.ts')], /^rtgpu: .*commonjs\.ts: design and testbench files are ES modules: add "type": "module" to your project's package\.json, or name the file \.mts$/],
      [['emit', join(dir, 'notADesign.ts')], /^rtgpu: .*notADesign\.ts exports no module: export the result of defineModule/],
      [['emit', join(dir, 'missing.ts')], /^rtgpu: .*missing\.ts: no such file$/],
      [['emit', fixture('twoModules.ts'), '--top', 'Multiplier'], "rtgpu: test/cli/fixtures/twoModules.ts has no module 'Multiplier'; it exports Adder, Inverter"],
      [['emit', fixture('gcdUnit.ts'), '--param', 'width'], /^rtgpu: --param expects key=value, got 'width'/],
      [['emit', fixture('gcdUnit.ts'), '--out', dir], /^rtgpu: .* is not empty and was not generated by rtgpu/],
    ];
    // What the loader reports when a file runs: the type check (below) would report some of these first.
    const results = await Promise.all(cases.map(([args]) => rtgpu(...args, '--no-typecheck')));
    results.forEach((r, i) => {
      const [args, want] = cases[i]!;
      expect(r.exitCode, args.join(' ')).not.toBe(0);
      if (typeof want === 'string') expect(r.stderr, args.join(' ')).toBe(want);
      else expect(r.stderr, args.join(' ')).toMatch(want);
      noStack(r.stderr);
    });
    expect(readFileSync(join(dir, 'existing.txt'), 'utf8')).toBe('mine');
  }, 120_000);
});

describe('the type check before a design or testbench file runs', () => {
  const typeErrors = (name: string) => `test/cli/fixtures/typeErrors/${name}`;

  test('hardware values in JavaScript conditions and comparisons: every one at its line, exit 1, nothing written', async () => {
    const out = join(tempDir('emit'), 'rtl');
    const r = await rtgpu('emit', typeErrors('jsConditions.ts'), '--out', out);
    expect(r.exitCode).toBe(1);
    noStack(r.stderr);
    const file = typeErrors('jsConditions.ts');
    const lines = readFileSync(file, 'utf8').split('\n');
    const lineOf = (text: string) => lines.findIndex((l) => l.includes(text)) + 1;
    expect(r.stderr).toContain(`rtgpu: ${file}:${lineOf('io.sel ? io.a')}:12: error[JavaScriptOperator]: a hardware value is used as a JavaScript condition (?:)`);
    expect(r.stderr).toContain('use mux(cond, a, b)');
    expect(r.stderr).toContain(`${file}:${lineOf('if (io.sel)')}:7: error[JavaScriptOperator]: a hardware value is used as a JavaScript condition (if)`);
    expect(r.stderr).toContain(`${file}:${lineOf('io.a === 3')}:7: error[JavaScriptOperator]: === on a hardware value is a JavaScript comparison that builds no hardware: use .eq()`);
    expect(r.stderr).toContain(`${file}:${lineOf('!io.sel')}:11: error[JavaScriptOperator]: a hardware value is used as a JavaScript condition (!)`);
    // Fair JavaScript is not reported: a value that may be missing, and identity of two values.
    expect(r.stderr).not.toContain(`${file}:${lineOf('if (spare)')}:`);
    expect(r.stderr).not.toContain(`${file}:${lineOf('io.a === io.b')}:`);
    expect(r.stderr).toMatch(/\(5 problems before running .*jsConditions\.ts; --no-typecheck runs it without this check\)$/);
    expect(existsSync(out)).toBe(false);
  }, 120_000);

  test('TypeScript errors at file:line:col (an unknown register option), on every design-file command and sim; --no-typecheck runs the file', async () => {
    const file = typeErrors('unknownOption.ts');
    const want = `rtgpu: ${file}:5:34: error TS2561: Object literal may only specify known properties, but 'rest' does not exist in type 'RegOptions<UIntType>'. Did you mean to write 'reset'?`;
    const runs = await Promise.all([
      rtgpu('emit', file, '--out', join(tempDir('emit'), 'rtl')),
      rtgpu('lint', file),
      rtgpu('cosim', file, '--sim', 'ts', '--cycles', '10'),
      rtgpu('synth', file, '--target', 'generic', '--depth', 'none'),
    ]);
    for (const r of runs) {
      expect(r.exitCode).toBe(1);
      expect(r.stderr.split('\n')[0]).toBe(want);
    }
    // Without the type check the file runs, and the eDSL refuses the unknown option itself.
    const skipped = await rtgpu('emit', file, '--out', join(tempDir('emit'), 'rtl'), '--no-typecheck');
    expect(skipped.exitCode).toBe(1);
    expect(skipped.stderr).toBe(`${file}:5:19: error[InvalidArgument]: reg() has no option 'rest' (did you mean 'reset'?); its options: reset, async, init, enable, name, domain, synchronizer`);
    // A syntax error and an import that does not resolve are the compiler's, at their place.
    const dir = tempDir('emit');
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(join(dir, 'syntax.ts'), "import { UInt } from 'rtgpu/hdl';\nexport const x = UInt(8;\n");
    writeFileSync(join(dir, 'import.ts'), "// x\nimport { UInt } from 'rtgpw/hdl';\nexport const y = UInt;\n");
    const syntax = await rtgpu('emit', join(dir, 'syntax.ts'));
    expect(syntax.stderr).toMatch(/^rtgpu: .*syntax\.ts:2:24: error TS1005: '\)' expected\.$/m);
    const unresolved = await rtgpu('emit', join(dir, 'import.ts'));
    expect(unresolved.stderr).toMatch(/^rtgpu: .*import\.ts:2:22: error TS2307: Cannot find module 'rtgpw\/hdl'/m);
  }, 300_000);

  test('a testbench file is checked too, and --help lists --no-typecheck', async () => {
    const dir = join('.cache', 'tb-typecheck');
    mkdirSync(dir, { recursive: true });
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const tb = join(dir, 'bad.tb.ts');
    writeFileSync(tb, "import type { Testbench } from 'rtgpu/hdl/testbench';\nexport { GcdUnit, params } from '../../test/cli/fixtures/gcdUnit.ts';\nexport default async function (tb: Testbench) {\n  await tb.tick(\"3\");\n}\n");
    const r = await rtgpu('sim', tb, '--sim', 'ts');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^rtgpu: .*bad\.tb\.ts:4:17: error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'/);
    for (const command of ['emit', 'lint', 'sim', 'cosim', 'synth']) expect((await rtgpu(command, '--help')).stdout, command).toContain('--no-typecheck');
  }, 120_000);
});

describe('rtgpu lint, sim, cosim and synth on design files', () => {
  test('lint: a clean design passes the eDSL checks, verilator -Wall and iverilog -Wall; a warning fails', async () => {
    const clean = await rtgpu('lint', fixture('gcdUnit.ts'));
    expect(clean.exitCode).toBe(0);
    expect(clean.stdout).toBe('test/cli/fixtures/gcdUnit.ts: GcdUnit_width16: 0 eDSL warnings; verilator -Wall clean; iverilog -Wall clean');
    const warned = await rtgpu('lint', fixture('unusedInput.ts'));
    expect(warned.exitCode).toBe(1);
    // Relative to the working directory, as the errors are.
    expect(warned.stdout).toMatch(/^test\/cli\/fixtures\/unusedInput\.ts:\d+:\d+: warning\[UnusedInput\]: .*spare/m);
  }, 120_000);

  test('sim: one testbench file passes on js, Verilator, Icarus and in lockstep; a failure is at its line', async () => {
    for (const sim of ['js', 'verilator', 'icarus', 'ts,verilator,icarus']) {
      const r = await rtgpu('sim', fixture('gcdUnit.tb.ts'), '--sim', sim, '--seed', '9');
      expect(r.exitCode, `${sim}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^PASS: test/cli/fixtures/gcdUnit\\.tb\\.ts on ${sim.includes(',') ? 'lockstep' : sim}.*: \\d+ cycles in [\\d.]+ s \\(seed 9\\)$`));
    }
    const failed = await rtgpu('sim', fixture('failing.tb.ts'), '--sim', 'wasm', '--seed', '1');
    expect(failed.exitCode).toBe(1);
    expect(failed.stdout).toBe('FAIL: test/cli/fixtures/failing.tb.ts on wasm, seed 1, at cycle 6');
    expect(failed.stderr).toBe(`rtgpu: test/cli/fixtures/failing.tb.ts:${throwSite('failing.tb.ts', 9)}: the unit is idle, as it should be, but this testbench expected it busy`);
  }, 300_000);

  test('sim --portable writes the run as a testbench that Icarus runs without Node', async () => {
    const dir = join(tempDir('sim'), 'handoff');
    const r = await rtgpu('sim', fixture('gcdUnit.tb.ts'), '--seed', '5', '--portable', dir);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[1]).toMatch(/^wrote .*\/handoff\/tb_GcdUnit_width16\.sv and tb_GcdUnit_width16\.vec \(\d+ cycles\) beside GcdUnit_width16's SystemVerilog$/);
    const build = await execa('iverilog', ['-g2012', '-s', 'tb_GcdUnit_width16', '-o', 'tb.vvp', 'GcdUnit_width16.sv', 'tb_GcdUnit_width16.sv'], { cwd: dir, reject: false, all: true });
    expect(build.exitCode, build.all).toBe(0);
    const run = await execa('vvp', ['-n', 'tb.vvp'], { cwd: dir, reject: false, all: true });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/PASS: GcdUnit_width16: \d+ cycles, every output matched$/);
  }, 300_000);

  test('sim --vcd writes a waveform', async () => {
    const vcd = join(tempDir('sim'), 'gcd.vcd');
    const r = await rtgpu('sim', fixture('gcdUnit.tb.ts'), '--sim', 'icarus', '--vcd', vcd, '--seed', '2');
    expect(r.exitCode).toBe(0);
    expect(readFileSync(vcd, 'utf8')).toMatch(/\$var .* req_valid /);
  }, 300_000);

  test('cosim: random stimulus that keeps the streams\' promises, three simulators in lockstep', async () => {
    const r = await rtgpu('cosim', fixture('gcdUnit.ts'), '--cycles', '3000', '--seed', '4', '--param', 'width=8');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^cosim test\/cli\/fixtures\/gcdUnit\.ts \(GcdUnit_width8\): 3000 cycles, seed 4, on ts, verilator, icarus\n {2}streams: req \(input\), resp \(output\)\n/);
    expect(r.stdout).toMatch(/\n3000 cycles, 0 mismatches$/);
  }, 300_000);

  // Seed 1 draws en and clear both high at cycle 8: with nothing to draw again against, the run stopped there at the assumption.
  test("cosim on Verilator or Icarus without ts keeps the design's assumptions: the TS simulator joins first in the lockstep", async () => {
    for (const sims of ['verilator', 'icarus,ts']) {
      const r = await rtgpu('cosim', 'examples/properties/wrapCounter.ts', '--cycles', '300', '--seed', '1', '--sim', sims);
      expect(r.exitCode, `${sims}: ${r.stderr}`).toBe(0);
      expect(r.stderr).not.toMatch(/assumption/);
      expect(r.stdout).toMatch(/\n300 cycles, 0 mismatches$/);
      expect(r.stdout.includes('the TS simulator joins in lockstep'), sims).toBe(sims === 'verilator');
    }
  }, 300_000);

  test('cosim --registers: a register no output shows agrees on the WebAssembly engine, Verilator and Icarus', async () => {
    const r = await rtgpu('cosim', fixture('hiddenRegister.ts'), '--cycles', '2000', '--seed', '1', '--registers', '--sim', 'ts,verilator,icarus');
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\n2000 cycles, 0 mismatches \(outputs and registers\)$/);
  }, 300_000);

  test('post-synthesis simulation of a design file: cosim and sim replay the run on icarus-gate and icarus-gate-reset', async () => {
    const c = await rtgpu('cosim', fixture('gcdUnit.ts'), '--cycles', '400', '--seed', '2', '--param', 'width=8', '--sim', 'ts,icarus-gate,icarus-gate-reset');
    expect(c.exitCode, c.stdout + c.stderr).toBe(0);
    expect(c.stdout).toMatch(/^cosim .*: 400 cycles, seed 2, on ts, icarus-gate, icarus-gate-reset\n[\s\S]*\n400 cycles, 0 mismatches$/);
    const s = await rtgpu('sim', fixture('gcdUnit.tb.ts'), '--sim', 'icarus-gate', '--seed', '3');
    expect(s.exitCode, s.stdout + s.stderr).toBe(0);
    expect(s.stdout).toMatch(/^PASS: .*gcdUnit\.tb\.ts on wasm, replayed on icarus-gate: \d+ cycles/m);
    expect((await rtgpu('cosim', fixture('gcdUnit.ts'), '--sim', 'ts,icarus-gate', '--registers')).stderr).toContain('--registers cannot be compared on icarus-gate');
  }, 300_000);

  test('cosim of third-party RTL: X before the first reset is an error that names the flags; --from-first-reset passes; --dont-care is checked', async () => {
    const design = 'examples/vendorip/doubler.ts';
    const bare = await rtgpu('cosim', design, '--cycles', '1500', '--seed', '1');
    expect(bare.exitCode).toBe(1);
    expect(bare.stderr).toMatch(/is X or Z in cycle 0 of the vector run: .*--dont-care and --from-first-reset of rtgpu cosim/);
    const policy = await rtgpu('cosim', design, '--cycles', '1500', '--seed', '1', '--from-first-reset', '--dont-care', 'in_ready');
    expect(policy.exitCode, policy.stdout + policy.stderr).toBe(0);
    expect(policy.stdout).toMatch(/\n1500 cycles, 0 mismatches$/);
    expect((await rtgpu('cosim', design, '--dont-care', 'out_bits=nope')).stderr).toContain("dontCare: 'out_bits' is qualified by \"nope\", which is not a 1-bit output of Doubler_width8");
    expect((await rtgpu('cosim', design, '--dont-care', 'a b')).stderr).toContain("--dont-care expects PORT or PORT=VALID (output names), got 'a b'");
    expect((await rtgpu('cosim', 'fifo', '--from-first-reset')).stderr).toContain('apply to design files, not catalogue designs');
  }, 300_000);

  test('sim: a testbench loads and dumps memories on every engine; a replay of a run that loaded one is refused, not passed', async () => {
    for (const sim of ['ts', 'verilator', 'icarus', 'lockstep']) {
      const r = await rtgpu('sim', fixture('memory.tb.ts'), '--sim', sim, '--seed', '1');
      expect(r.exitCode, `${sim}: ${r.stdout}${r.stderr}`).toBe(0);
    }
    const gate = await rtgpu('sim', fixture('memory.tb.ts'), '--sim', 'icarus-gate', '--seed', '1');
    expect(gate.exitCode).toBe(1);
    expect(gate.stdout).not.toMatch(/PASS/);
    expect(gate.stderr).toContain("the run loaded memory 'table' at cycle 0 (loadMemory), which a recording of the inputs cannot replay");
  }, 300_000);

  test('synth: Yosys resources of the module of a design file', async () => {
    const r = await rtgpu('synth', fixture('twoModules.ts'), '--top', 'Adder', '--param', 'width=8', '--target', 'generic', '--depth', 'none');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Adder_width8/);
  }, 300_000);
});

describe('design files the design-file fuzz target found errors without a line for', () => {
  /** In the checkout, so that 'rtgpu/hdl' resolves and the file is an ES module, as in a user's project. */
  const write = (name: string, text: string) => {
    mkdirSync('.cache', { recursive: true });
    const dir = mkdtempSync(join('.cache', 'design-files-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  /** The first line rtgpu emit prints for the file (the CLI's own module loading, not vitest's; the type check would speak first). */
  const firstLine = async (file: string) => {
    const r = await rtgpu('emit', file, '--out', join(tempDir('emit'), 'rtl'), '--no-typecheck');
    noStack(r.stderr);
    return r.stderr.split('\n')[0];
  };

  test('an import that does not resolve: at the specifier', { timeout: 60_000 }, async () => {
    const pkg = write('pkg.ts', "// x\nimport { UInt } from 'rtgpw/hdl';\nexport const y = UInt;\n");
    expect(await firstLine(pkg)).toMatch(new RegExp(`^rtgpu: ${pkg}:2:22: Cannot find package 'rtgpw' imported from `));
    const sub = write('sub.ts', "import { UInt } from 'rtgpu/hdm';\nexport const y = UInt;\n");
    expect(await firstLine(sub)).toMatch(new RegExp(`^rtgpu: ${sub}:1:22: Package subpath './hdm' is not defined`));
  });

  test("a bare import of the package ('rtgpu', which exports only its layers): at the specifier, naming the layers", { timeout: 60_000 }, async () => {
    const file = write('bare.ts', "// x\nimport { UInt } from 'rtgpu';\nexport const y = UInt;\n");
    expect(await firstLine(file)).toBe(`rtgpu: ${file}:2:22: 'rtgpu' has no main entry point, only its layers: import from 'rtgpu/hdl' (or 'rtgpu/hdl/lib', 'rtgpu/hdl/sim', 'rtgpu/hdl/testbench', …)`);
  });

  test("a specifier with a '%' that starts no escape (the loader says only 'URI malformed'): at the specifier", { timeout: 60_000 }, async () => {
    const file = write('percent.ts', "export const a = 1;\nimport { Bool } from '%/';\nexport const y = Bool;\n");
    expect(await firstLine(file)).toBe(`rtgpu: ${file}:2:22: a module specifier has a '%' that starts no escape like %20 (URI malformed)`);
  });

  test("a path specifier that does not resolve, tried as a directory's index.ts ('/', './$/'): at the specifier", { timeout: 60_000 }, async () => {
    const root = write('root.ts', "export const a = 1;\nimport { Bool } from '/';\nexport const y = Bool;\n");
    expect(await firstLine(root)).toMatch(new RegExp(`^rtgpu: ${root}:2:22: Cannot find module '/index.ts' imported from `));
    const dir = write('dir.ts', "import { Bool } from './$/';\nexport const y = Bool;\n");
    expect(await firstLine(dir)).toMatch(new RegExp(`^rtgpu: ${dir}:1:22: Cannot find module '.*/\\$/index.ts' imported from `));
  });

  test('a thrown value that is not an Error (no stack, so no line): says so and how to get one', { timeout: 60_000 }, async () => {
    const file = write('undef.ts', "const widths: Record<string, number> = {};\nconst w = widths['a'];\nif (w === undefined) throw w;\n");
    expect(await firstLine(file)).toBe(`rtgpu: ${file}: threw undefined, not an Error, so no line is known: throw new Error(...) to see where`);
  });

  test('a promise the file does not await fails after the load (import of an object): a clean report, exit 1', { timeout: 60_000 }, async () => {
    const file = write('unawaited.ts', "import { UInt, defineModule, input, output } from 'rtgpu/hdl';\nvoid import(String({}));\nexport const M = defineModule('M', () => ({ a: input(UInt(8)), y: output(UInt(8)) }), (_m, io) => {\n  io.y.set(io.a);\n});\n");
    const r = await rtgpu('emit', file, '--out', join(tempDir('emit'), 'rtl'), '--no-typecheck');
    noStack(r.stderr);
    expect(r.exitCode).toBe(1);
    expect(r.stderr.split('\n')[0]).toMatch(/^rtgpu: a promise nothing awaited failed: Cannot find package '\[object Object\]' imported from /);
  });

  test('a regular expression literal that is not one: at the literal', { timeout: 60_000 }, async () => {
    const file = write('regex.ts', "export const a = 1;\nexport const r = /output(x/;\n");
    expect(await firstLine(file)).toBe(`rtgpu: ${file}:2:18: Invalid regular expression: /output(x/: Unterminated group`);
  });

  test("a syntax error V8 finds and esbuild does not (await as a name): at the name; an escaped specifier; an .mts file named as given", { timeout: 60_000 }, async () => {
    const name = write('await.ts', "export const a = 1;\nconst f = function () {\n  let await = 2;\n  return await;\n};\n");
    expect(await firstLine(name)).toBe(`rtgpu: ${name}:3:7: Unexpected reserved word`);
    const escaped = write('escaped.ts', "import { UInt } from 'r\\gpu/h';\nexport const y = UInt;\n");
    expect(await firstLine(escaped)).toMatch(new RegExp(`^rtgpu: ${escaped}:1:22: Cannot find package 'rgpu' imported from `));
    const mts = write('bad.mts', "export const a = 1;\nconst f = () => { await g(); };\n");
    expect(await firstLine(mts)).toBe(`rtgpu: ${mts}:2:19: "await" can only be used inside an "async" function`);
  });

  test('a port whose type is not a hardware type (UInt(8) - 1 is NaN): an eDSL error at the port', { timeout: 60_000 }, async () => {
    const file = write('nan.ts', "import { UInt, defineModule, input, output } from 'rtgpu/hdl';\nexport const M = defineModule('M', () => ({ a: input(UInt(8) - 1), y: output(UInt(4)) }), (_m, io) => {\n  io.y.set(0);\n});\n");
    expect(await firstLine(file)).toBe(`${file}:2:48: error[InvalidArgument]: input() needs a hardware type such as UInt(8), Bool or a Bundle, got NaN`);
  });

});

describe('rtgpu sim --coverage and rtgpu cosim --coverage', () => {
  test('measure coverage on the TS simulator, merge runs into the file, refuse an engine without it and a file that is not a report', async () => {
    const file = join(tempDir('coverage'), 'gcd.json');
    const first = await rtgpu('sim', fixture('gcdUnit.tb.ts'), '--seed', '1', '--coverage', file);
    expect(first.stderr).toBe('');
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toMatch(/coverage of GcdUnit_width16: 1 run, \d+ clock edges\n {2}toggles: \d+ of \d+ bits of ports and registers rose and fell/);
    const second = await rtgpu('sim', fixture('gcdUnit.tb.ts'), '--seed', '2', '--sim', 'lockstep', '--coverage', file);
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toMatch(/coverage of GcdUnit_width16: 2 runs/);
    const report = JSON.parse(readFileSync(file, 'utf8')) as { runs: number; toggles: Record<string, { width: number }> };
    expect(report.runs).toBe(2);
    expect(report.toggles.req_bits_a).toEqual({ width: 16, rose: '0xffff', fell: '0xffff' });
    const verilator = await rtgpu('sim', fixture('gcdUnit.tb.ts'), '--sim', 'verilator', '--coverage', file);
    expect(verilator.exitCode).not.toBe(0);
    expect(verilator.stderr).toMatch(/--coverage is measured on the TS simulator: run with --sim ts/);
    noStack(verilator.stderr);
    // rtgpu cosim of the design file adds its random-stimulus run to the same report.
    const cosim = await rtgpu('cosim', fixture('gcdUnit.ts'), '--sim', 'ts', '--cycles', '500', '--seed', '3', '--coverage', file);
    expect(cosim.exitCode).toBe(0);
    expect(cosim.stdout).toMatch(/coverage of GcdUnit_width16: 3 runs/);
    const noTs = await rtgpu('cosim', fixture('gcdUnit.ts'), '--sim', 'verilator', '--coverage', file);
    expect(noTs.exitCode).not.toBe(0);
    expect(noTs.stderr).toMatch(/--coverage is measured on the TS simulator: include ts in --sim/);
    writeFileSync(file, '{"not": "coverage"}');
    const bad = await rtgpu('sim', fixture('gcdUnit.tb.ts'), '--coverage', file);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/--coverage .*gcd\.json: not a coverage file written by rtgpu sim/);
    expect(readFileSync(file, 'utf8')).toBe('{"not": "coverage"}');
  }, 300_000);
});
