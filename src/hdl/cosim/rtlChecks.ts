// Runs the external checks every generated file must pass: Verilator lint, Icarus compile, Yosys synthesis.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';

export interface CheckResult {
  readonly tool: 'verilator' | 'icarus' | 'yosys';
  readonly ok: boolean;
  /** Warnings and errors the tool printed (empty when clean). */
  readonly output: string;
}

export interface RtlSource {
  readonly top: string;
  readonly files: readonly { path: string; text: string }[];
  readonly fileList: readonly string[];
}

async function inDir<T>(src: RtlSource, f: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'rtgpu-check-'));
  try {
    for (const file of src.files) writeFileSync(join(dir, file.path), file.text);
    return await f(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `verilator --lint-only -Wall`: clean means exit 0 and nothing printed. */
export function verilatorLint(src: RtlSource): Promise<CheckResult> {
  return inDir(src, async (dir) => {
    const r = await execa('verilator', ['--lint-only', '-Wall', '--top-module', src.top, ...src.fileList], { cwd: dir, reject: false, all: true });
    return { tool: 'verilator', ok: r.exitCode === 0 && !r.all?.trim(), output: r.all ?? '' };
  });
}

/** `iverilog -g2012 -Wall`: clean means exit 0 and nothing printed. */
export function icarusCompile(src: RtlSource): Promise<CheckResult> {
  return inDir(src, async (dir) => {
    const r = await execa('iverilog', ['-g2012', '-Wall', '-o', join(dir, 'a.vvp'), '-s', src.top, ...src.fileList], { cwd: dir, reject: false, all: true });
    return { tool: 'icarus', ok: r.exitCode === 0 && !r.all?.trim(), output: r.all ?? '' };
  });
}

/** Yosys `read_verilog -sv; synth -top`: ok means no error (warnings are returned for inspection). */
export function yosysSynth(src: RtlSource): Promise<CheckResult> {
  return inDir(src, async (dir) => {
    const script = `read_verilog -sv ${src.fileList.join(' ')}; synth -top ${src.top}`;
    const r = await execa('yosys', ['-q', '-p', script], { cwd: dir, reject: false, all: true });
    return { tool: 'yosys', ok: r.exitCode === 0 && !/ERROR/.test(r.all ?? ''), output: r.all ?? '' };
  });
}

export interface SynthStats {
  /** Generic gate-level cells after `synth -flatten` (flip-flops included). */
  readonly cells: number;
  readonly flipFlops: number;
  /** Longest combinational path in cells (`ltp -noff`): the logic depth between registers and ports. */
  readonly depth: number;
}

/** Yosys generic synthesis, flattened, with cell count and logic depth. */
export function yosysSynthStats(src: RtlSource): Promise<SynthStats> {
  return inDir(src, async (dir) => {
    const script = `read_verilog -sv ${src.fileList.join(' ')}; synth -flatten -top ${src.top}; tee -o stat.txt stat; ltp -noff`;
    const r = await execa('yosys', ['-p', script], { cwd: dir, reject: false, all: true });
    const out = r.all ?? '';
    if (r.exitCode !== 0) throw new Error(`yosys synth of ${src.top} failed:\n${out.slice(-2000)}`);
    const stat = readFileSync(join(dir, 'stat.txt'), 'utf8');
    const cells = /Number of cells:\s+(\d+)/.exec(stat);
    const depth = /Longest topological path in \S+ \(length=(\d+)\)/.exec(out);
    if (!cells || !depth) throw new Error(`could not read yosys statistics of ${src.top}`);
    const flipFlops = [...stat.matchAll(/^\s+\$_S?DFFE?_\S+\s+(\d+)/gm)].reduce((s, m) => s + Number(m[1]), 0);
    return { cells: Number(cells[1]), flipFlops, depth: Number(depth[1]) };
  });
}
