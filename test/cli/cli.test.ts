// The rtgpu command as a user meets it: exit codes, messages without stack traces, and the cosim report line.
import { describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { tempDir } from '../tempDir.ts';

const rtgpu = (...args: string[]) => execa(process.execPath, ['bin/rtgpu.mjs', ...args], { reject: false });

/** The first line of the error a command-line parse throws, or 'parsed'. */
const first = (parse: () => unknown) => {
  try {
    parse();
  } catch (e) {
    return (e as Error).message.split('\n')[0];
  }
  return 'parsed';
};

describe('rtgpu', () => {
  test('no command prints usage and exits 2', async () => {
    const r = await rtgpu();
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toMatch(/usage: rtgpu <command>/);
  }, 60_000);

  test('an unknown command or flag is a usage error, not a stack trace', async () => {
    const a = await rtgpu('frobnicate');
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toMatch(/^rtgpu: unknown command 'frobnicate'/);
    const b = await rtgpu('cosim', 'fifo', '--cycels', '10');
    expect(b.exitCode).toBe(2);
    expect(b.stderr).toMatch(/Unknown option '--cycels'/);
    const c = await rtgpu('cosim', 'fifo', '--cycles', 'ten');
    expect(c.exitCode).toBe(2);
    expect(c.stderr).toBe("rtgpu: --cycles expects a whole number, got 'ten'");
    const d = await rtgpu('cosim', 'fifo', '--sim', 'ts,modelsim');
    expect(d.stderr).toBe("rtgpu: unknown simulator 'modelsim' (choose from ts, verilator, icarus, icarus-gate, icarus-gate-reset)");
    for (const r of [a, b, c, d]) expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  test('an unknown design names the ones that exist', async () => {
    const r = await rtgpu('cosim', 'fifoo', '--sim', 'ts');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/unknown design 'fifoo'; 'rtgpu cosim --list' lists them: fifo, skid, arbiter/);
  }, 60_000);

  test('cosim --list lists the library designs', async () => {
    const r = await rtgpu('cosim', '--list');
    expect(r.exitCode).toBe(0);
    for (const name of ['fifo', 'skid', 'arbiter', 'counter', 'shiftreg', 'prienc', 'onehot', 'decoder', 'bench']) expect(r.stdout).toMatch(new RegExp(`^${name}\\s`, 'm'));
  }, 60_000);

  test('cosim prints "<N> cycles, 0 mismatches" and exits 0', async () => {
    const r = await rtgpu('cosim', 'arbiter', '--cycles', '3000', '--seed', '11', '--sim', 'ts,verilator,icarus');
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^cosim arbiter: 3000 cycles, seed 11, on ts, verilator, icarus$/m);
    expect(r.stdout.trim().split('\n').at(-1)).toBe('3000 cycles, 0 mismatches');
  }, 300_000);

  test('bench DESIGN.ts --json: one object with rows and metrics; the TS simulator and Verilator each run a window of 2 s', async () => {
    // A user's design file, on the random stimulus cosim drives (the catalogue's --design takes the same path from there).
    const r = await rtgpu('bench', 'examples/gcd/gcd.ts', '--cycles', '2000', '--rounds', '1', '--seed', '7', '--json');
    expect(r.exitCode, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.rows.map((x: { design: string; sim: string }) => `${x.design} ${x.sim}`)).toEqual(['Gcd_width16 ts', 'Gcd_width16 verilator', 'Gcd_width16 icarus']);
    for (const row of j.rows) expect(Object.keys(row)).toEqual(['design', 'sim', 'cycles', 'seconds', 'cyclesPerSecond']);
    // The 2,000-cycle stimulus run over many times (Verilator: the harness's repeat), for about 2 s each.
    for (const row of j.rows.slice(0, 2)) {
      expect(row.cycles % 2000).toBe(0);
      expect(row.cycles).toBeGreaterThan(2000);
      expect(row.seconds, r.stdout).toBeGreaterThan(1);
    }
    expect(Object.keys(j.metrics)).toEqual(['Gcd_width16.tsOverVerilator', 'Gcd_width16.tsOverVerilatorLowest', 'Gcd_width16.tsOverVerilatorHighest', 'Gcd_width16.tsOverIcarus']);
    expect(j.metrics['Gcd_width16.tsOverVerilatorLowest']).toBeLessThanOrEqual(j.metrics['Gcd_width16.tsOverVerilator']);
    expect(j.metrics['Gcd_width16.tsOverVerilator']).toBeLessThanOrEqual(j.metrics['Gcd_width16.tsOverVerilatorHighest']);
  }, 300_000);

  test('bench: a design with two clocks, a catalogue name given as a file, or file flags without a file are errors', async () => {
    const two = await rtgpu('bench', 'examples/twoclock/twoclock.ts', '--cycles', '1000', '--seed', '3');
    expect(two.exitCode).toBe(1);
    expect(two.stderr).toMatch(/twoclock\.ts: \w+ is clocked otherwise than by one rising edge of one clock .*rtgpu bench times designs with one clock/);
    expect(two.stdout).toMatch(/seed 3 \(rerun with --seed 3\)/);
    const { parseBenchArgs } = await import('../../src/cli/commands/bench.ts');
    const bench = (argv: string[]) => first(() => parseBenchArgs(argv));
    expect(bench(['counter'])).toBe("'counter' is not a design file (DESIGN.ts); a built-in design is named with --design counter");
    expect(bench(['gcd.ts', '--design', 'counter'])).toBe('give a design file or --design NAME, not both');
    expect(bench(['--design', 'counter', '--top', 'Gcd'])).toBe('--top, --param, --no-typecheck and --seed apply to a design file (rtgpu bench DESIGN.ts)');
    expect(bench(['--design', 'counter', '--rounds', '1'])).toBe('parsed');
    expect(bench(['--design', 'counter', '--verilator-threads', '0'])).toBe('--verilator-threads must be between 1 and 64, got 0');
    expect(bench(['--design', 'counter', '--verilator-threads', 'two'])).toMatch(/^--verilator-threads /);
    expect(bench(['--design', 'counter', '--verilator-threads', '2'])).toBe('parsed');
  }, 60_000);

  test('rtl refuses to overwrite a directory it did not generate', async () => {
    const { writeFileSync, readFileSync } = await import('node:fs');
    const dir = tempDir('user');
    writeFileSync(`${dir}/notes.txt`, 'mine');
    const r = await rtgpu('rtl', '--out', dir);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/is not empty and was not generated by rtgpu/);
    expect(readFileSync(`${dir}/notes.txt`, 'utf8')).toBe('mine');
  }, 60_000);
});

describe('rtgpu doctor', () => {
  test('reports every external tool with its version and what it enables (CI installs them all)', async () => {
    const r = await rtgpu('doctor', '--json');
    expect(r.exitCode).toBe(0);
    const report = JSON.parse(r.stdout) as { tools: { tool: string; found: boolean; detail: string; enables: string }[]; backends: Record<string, boolean>; koffi: { found: boolean } };
    for (const tool of ['verilator', 'iverilog', 'vvp', 'yosys', 'z3', 'make', 'g++']) {
      const t = report.tools.find((x) => x.tool === tool)!;
      expect(t.found, `${tool}: ${t.detail}`).toBe(true);
      expect(t.detail).toMatch(/\d+\.\d+/);
      expect(t.enables.length).toBeGreaterThan(10);
    }
    expect(report.backends).toMatchObject({ js: true, wasm: true, verilator: true, icarus: true, synth: true, prove: true });
    const text = await rtgpu('doctor');
    expect(text.stdout).toMatch(/^ {2}ok\s+verilator\s+Verilator \d/m);
    expect(text.stdout).toContain('simulator back ends usable here: js, wasm, verilator, icarus; synthesis: yes');
    // The cache's size per kind (cacheUsage), and how to reclaim it.
    expect(text.stdout).toMatch(/^build cache: {2}\S+ \(set RTGPU_CACHE to move it\)\n( {2}[\w-]+ +\d+ (builds|values) +[\d.]+ MiB.*\n)*( {2}empty| {2}total [\d.]+ MiB; each kind keeps under 512 MiB of values or 1024 MiB of builds)/m);
  }, 60_000);

  test('with no tools on PATH: every tool missing with its package, the TS simulator still usable, exit 0', async () => {
    const { mkdtempSync, symlinkSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const bin = mkdtempSync(join(tmpdir(), 'rtgpu-doctor-'));
    try {
      symlinkSync(process.execPath, join(bin, 'node'));
      const r = await execa(process.execPath, ['bin/rtgpu.mjs', 'doctor'], { reject: false, env: { PATH: bin, HOME: tmpdir() }, extendEnv: false });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toMatch(/^ {2}missing verilator\s+verilator not found on PATH: .*apt-get install verilator/m);
      expect(r.stdout).toMatch(/^ {2}missing yosys\s+/m);
      expect(r.stdout).toContain('simulator back ends usable here: js, wasm; synthesis: no (install yosys)');
      const bad = await rtgpu('doctor', 'extra');
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr).toMatch(/^rtgpu: doctor takes no arguments, got 'extra'/);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('output into a pipe the reader closes early', () => {
  test('rtgpu disasm big.hex | head: exit 0, no EPIPE trace', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const file = join(tempDir('epipe'), 'big.hex');
    writeFileSync(file, Array.from({ length: 200_000 }, (_, i) => (0xe8000000 + i).toString(16)).join('\n'));
    // A shell pipeline, as a user types it; PIPESTATUS gives rtgpu's own exit status.
    const r = await execa('bash', ['-c', `'${process.execPath}' bin/rtgpu.mjs disasm '${file}' | head -1; exit \${PIPESTATUS[0]}`], { reject: false });
    expect(r.stdout).toMatch(/^\s+trace\s+\/\/ 0x0000$/);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
  }, 60_000);
});

describe('--triangles means one thing per command, and says which when given the other form', () => {
  test('run: a scene file (a count is an error); rtl and synth: a count (a file name is an error)', async () => {
    const run = await rtgpu('run', 'src/host/kernels/id.s', '--triangles', '4096');
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/^rtgpu: --triangles names a scene file here \(the same as --scene\), got the number 4096; .*'rtgpu rtl --triangles K'\)$/);
    for (const cmd of [['rtl', '--out', tempDir('tri')], ['synth', 'rtgpu_top']]) {
      const r = await rtgpu(...cmd, '--triangles', 'scene.hex');
      expect(r.exitCode, cmd[0]).toBe(2);
      expect(r.stderr, cmd[0]).toMatch(/^rtgpu: --triangles sets how many triangles each triangle memory holds \(a count, 2-1048576\), got 'scene\.hex'; a scene file goes to/);
    }
  }, 60_000);
});

describe('command lines the cli-flags fuzz target found wrong (each command parse alone, as the target runs it)', () => {
  test("an empty word (an unset shell variable) is named as one, not taken for a file named ''", async () => {
    const { parseRenderArgs } = await import('../../src/cli/commands/renderArgs.ts');
    const { parseAsmArgs } = await import('../../src/cli/commands/asm.ts');
    const { parseEmitArgs } = await import('../../src/cli/commands/emit.ts');
    expect(first(() => parseRenderArgs(['']))).toBe("an argument is empty ('')");
    expect(first(() => parseEmitArgs(['']))).toBe("an argument is empty ('')");
    expect(first(() => parseRenderArgs(['--out', '']))).toBe("--out expects a value, got ''");
    expect(first(() => parseAsmArgs(['x.s', '--format=']))).toBe("--format expects a value, got ''");
  });

  test('a short option that is not ASCII is named whole, not by half a UTF-16 pair', async () => {
    const { parseRunCommandLine } = await import('../../src/cli/commands/run.ts');
    expect(first(() => parseRunCommandLine(['-\u{1F600}']))).toBe("Unknown option '-\u{1F600}'");
  });

  test('a number out of range is echoed as typed, not as Infinity', async () => {
    const { parseCosimArgs } = await import('../../src/cli/commands/cosim.ts');
    const big = '1'.repeat(400);
    expect(first(() => parseCosimArgs(['fifo', '--cycles', big]))).toBe(`--cycles must be between 1 and 100000000, got ${big}`);
    expect(first(() => parseCosimArgs(['fifo', '--seed', '+5000000000']))).toBe('--seed must be between 0 and 4294967295, got +5000000000');
  });

  test('sim --sim: an unknown name in a list is named before any repeat', async () => {
    const { parseSimArgs } = await import('../../src/cli/commands/sim.ts');
    expect(first(() => parseSimArgs(['tb.ts', '--sim', 'lockst0,0,0']))).toBe("--sim: unknown simulator 'lockst0' (choose from ts, js, wasm, verilator, icarus, lockstep, or a comma list)");
    expect(first(() => parseSimArgs(['tb.ts', '--sim', 'ts,ts']))).toBe('--sim ts,ts: a simulator is listed twice');
  });

  test("render --scene takes the built-in scenes' own names only", async () => {
    const { parseRenderArgs } = await import('../../src/cli/commands/renderArgs.ts');
    for (const name of ['constructor', '__proto__', 'toString'])
      expect(first(() => parseRenderArgs(['--scene', name]))).toBe(`--scene: unknown built-in scene '${name}' (choose from cornell, bunny, textured, bunnies, rods; a scene file is the SCENE argument)`);
  });
});

describe('--verilator-build: how Verilator builds the model', () => {
  test('auto unless given; flat and hierarchical as VerilatorOptions.hierarchical, on every member that is Verilator', async () => {
    const { parseSimArgs } = await import('../../src/cli/commands/sim.ts');
    const { parseRenderArgs } = await import('../../src/cli/commands/renderArgs.ts');
    const { parseRunCommandLine } = await import('../../src/cli/commands/run.ts');
    const options = (argv: string[]) => {
      const plan = parseSimArgs(['tb.ts', ...argv]) as { options: { hierarchical?: unknown; backends?: { backend?: string; hierarchical?: unknown }[] } };
      return plan.options.backends ? plan.options.backends.map((b) => `${b.backend ?? 'ts'}:${String(b.hierarchical)}`) : [String(plan.options.hierarchical)];
    };
    expect(options(['--sim', 'verilator'])).toEqual(['auto']);
    expect(options(['--sim', 'verilator', '--verilator-build', 'flat'])).toEqual(['false']);
    expect(options(['--sim', 'ts,verilator', '--verilator-build', 'hierarchical'])).toEqual(['ts:undefined', 'verilator:true']);
    expect(options(['--sim', 'lockstep', '--verilator-build', 'hierarchical'])).toEqual(['ts:undefined', 'verilator:true', 'icarus:undefined']);
    const render = parseRenderArgs(['--sim', 'ts,verilator', '--verilator-build', 'flat']) as { choice: { hierarchical?: unknown } };
    expect(render.choice.hierarchical).toBe(false);
    const run = parseRunCommandLine(['k.s', '--sim', 'verilator']) as { sim: { hierarchical?: unknown } };
    expect(run.sim.hierarchical).toBe('auto');
  });

  test('an unknown build, or a build where nothing runs on Verilator, is an error naming the flag', async () => {
    const { parseSimArgs } = await import('../../src/cli/commands/sim.ts');
    const { parseRenderArgs } = await import('../../src/cli/commands/renderArgs.ts');
    expect(first(() => parseSimArgs(['tb.ts', '--sim', 'verilator', '--verilator-build', 'fast']))).toBe("--verilator-build: unknown build 'fast' (choose from auto, flat, hierarchical)");
    expect(first(() => parseSimArgs(['tb.ts', '--sim', 'verilator', '--verilator-build', '__proto__']))).toBe("--verilator-build: unknown build '__proto__' (choose from auto, flat, hierarchical)");
    expect(first(() => parseSimArgs(['tb.ts', '--verilator-build', 'flat']))).toBe('--verilator-build flat: nothing runs on Verilator (add verilator to --sim)');
    expect(first(() => parseRenderArgs(['--sim', 'ts,icarus', '--verilator-build', 'hierarchical']))).toBe('--verilator-build hierarchical: nothing runs on Verilator (add verilator to --sim)');
  });
});

describe('help texts say what the commands do now', () => {
  test('render --help: a textured scene gets a texture unit on every simulator (no --sim iss needed)', async () => {
    const r = await rtgpu('render', '--help');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toMatch(/needs --sim iss/);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('the textured kernel: the GPU gets a texture unit without being asked');
  });
});
