// Runs the external checks every generated file must pass: Verilator lint, Icarus compile, Yosys synthesis.
import { join } from 'node:path';
import { execa } from 'execa';
import { inRtlDir, type RtlSource } from '../synth/rtlSource.ts';
import { yosysScript } from '../synth/targets.ts';
import { runYosys, YosysError } from '../tools/yosys.ts';
import { toolVersion } from '../tools/toolchain.ts';
import { unwaivedIcarusOutput } from '../emit/index.ts';

export interface CheckResult {
  readonly tool: 'verilator' | 'icarus' | 'yosys';
  readonly ok: boolean;
  /** Warnings and errors the tool printed (empty when clean). */
  readonly output: string;
}

export type { RtlSource };

/** `verilator --lint-only -Wall`: clean means exit 0 and nothing printed. A missing Verilator is a MissingToolError. */
export async function verilatorLint(src: RtlSource): Promise<CheckResult> {
  await toolVersion('verilator');
  return inRtlDir(src, async (dir) => {
    // The waivers' configuration file goes first: its lint_off lines apply to the files read after it.
    const config = src.lintWaivers?.verilatorConfig;
    const r = await execa('verilator', ['--lint-only', '-Wall', '--top-module', src.top, ...(config ? [config] : []), ...src.fileList], { cwd: dir, reject: false, all: true });
    return { tool: 'verilator', ok: r.exitCode === 0 && !r.all?.trim(), output: r.all ?? '' };
  });
}

/** `iverilog -g2012 -Wall`: clean means exit 0 and nothing printed. A missing Icarus is a MissingToolError. */
export async function icarusCompile(src: RtlSource): Promise<CheckResult> {
  await toolVersion('iverilog');
  return inRtlDir(src, async (dir) => {
    const r = await execa('iverilog', ['-g2012', '-Wall', '-o', join(dir, 'a.vvp'), '-s', src.top, ...src.fileList], { cwd: dir, reject: false, all: true });
    const output = unwaivedIcarusOutput(r.all ?? '', src.lintWaivers?.icarus ?? []);
    return { tool: 'icarus', ok: r.exitCode === 0 && !output.trim(), output };
  });
}

/** Yosys `read_verilog -sv; synth -top`: ok means no error (warnings are returned for inspection). */
export function yosysSynth(src: RtlSource): Promise<CheckResult> {
  return yosysCheck(src, yosysScript('generic', src.top, src.fileList));
}

/**
 * Yosys' front end alone: `read_verilog -sv`, `hierarchy -check`, `proc`, then `check -assert` (an
 * undriven or multiply driven wire, a combinational loop: an error). What our SystemVerilog can get wrong
 * for Yosys, in seconds where `synth` (technology mapping, ABC) takes minutes on a large design.
 */
export function yosysElaborate(src: RtlSource): Promise<CheckResult> {
  const script = [`read_verilog -sv ${src.fileList.join(' ')}`, `hierarchy -check -top ${src.top}`, 'proc', 'opt_clean', 'check -assert'].join('\n') + '\n';
  return yosysCheck(src, script);
}

function yosysCheck(src: RtlSource, script: string): Promise<CheckResult> {
  return inRtlDir(src, async (dir) => {
    try {
      const r = await runYosys(script, { cwd: dir, quiet: true });
      return { tool: 'yosys', ok: !/ERROR/.test(r.output), output: r.output };
    } catch (e) {
      if (e instanceof YosysError) return { tool: 'yosys', ok: false, output: e.message };
      throw e;
    }
  });
}
