// The standalone Verilator harness: a generated C++ program steps a whole run from a vector file (the reference for the live back end).
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { cachedBuild, contentHash } from '../tools/buildCache.ts';
import { toolVersion } from '../tools/toolchain.ts';
import { VERILATOR_MISCOMPILE_FLAGS } from '../tools/verilatorMiscompiles.ts';
import { keepOnlyBuildProduct, verilatorBuild, verilatorCxxOptimization, verilatorMakeVariables } from '../tools/verilatorCompile.ts';
import { inputsOf, outputRowWords, outputsOf, rowWords, wordsOf, type ExternalSimulator, type HarnessDesign, type HarnessPort, type PreparedSimulation } from './harness.ts';

const template = fileURLToPath(new URL('../../../testbench/verilator_harness.cpp', import.meta.url));

/** One place for every flag: they are part of the build cache key. */
export const verilatorFlags = (): string[] => ['--cc', '--exe', '-O3', ...VERILATOR_MISCOMPILE_FLAGS, '--x-assign', '0', '--x-initial', '0', '-CFLAGS', verilatorCxxOptimization()];

function assignIn(p: HarnessPort, at: number): string {
  const w = wordsOf(p.width);
  if (p.width <= 32) return `    top.${p.name} = in[${at}];`;
  if (p.width <= 64) return `    top.${p.name} = (uint64_t)in[${at}] | ((uint64_t)in[${at + 1}] << 32);`;
  return Array.from({ length: w }, (_, k) => `    top.${p.name}[${k}] = in[${at + k}];`).join('\n');
}

/** Copy a value (a port `top.x`, or an internal `top.rootp->…`) into output words. */
function sampleOut(expr: string, width: number, at: number): string {
  const w = wordsOf(width);
  if (width <= 32) return `    o[${at}] = ${expr};`;
  if (width <= 64) return `    o[${at}] = (uint32_t)${expr}; o[${at + 1}] = (uint32_t)(${expr} >> 32);`;
  return Array.from({ length: w }, (_, k) => `    o[${at + k}] = ${expr}[${k}];`).join('\n');
}

export function harnessSource(d: HarnessDesign): string {
  const ins = inputsOf(d);
  const outs = outputsOf(d);
  let at = 0;
  const apply = [...(d.clocked ? ['    top.clk = 0;'] : []), ...ins.map((p) => assignIn(p, (at += wordsOf(p.width)) - wordsOf(p.width)))];
  at = 0;
  const sample = [
    ...outs.map((p) => sampleOut(`top.${p.name}`, p.width, (at += wordsOf(p.width)) - wordsOf(p.width))),
    ...(d.probes ?? []).map((p) => sampleOut(`top.rootp->${[d.top, ...p.path].join('__DOT__')}`, p.width, (at += wordsOf(p.width)) - wordsOf(p.width))),
  ];
  const powerOn = ins.filter((p) => p.width === 1).map((p) => `  top.${p.name} = 1;`);
  return readFileSync(template, 'utf8')
    .replaceAll('{{TOP}}', d.top)
    .replace('{{IN_WORDS}}', String(rowWords(ins)))
    .replace('{{OUT_WORDS}}', String(outputRowWords(d)))
    .replace('{{ROOT_INCLUDE}}', d.probes?.length ? `#include "V${d.top}___024root.h"` : '')
    .replace('{{POWER_ON}}', powerOn.join('\n'))
    .replace('{{APPLY}}', apply.join('\n'))
    .replace('{{SAMPLE}}', sample.join('\n'))
    .replace('{{CLOCK}}', d.clocked ? '    top.clk = 1;\n    top.eval();' : '');
}

/** The harness's exit status when the design stopped the run: a $error (a failed property), $fatal or $stop. */
const STOPPED = 3;

/** Why the harness stopped: the cycle of the run, and what the design printed (a failed property: its TypeScript line and message). */
function stoppedRun(top: string, stdout: string, stderr: string): string {
  const cycle = /stopped at cycle (\d+)/.exec(stderr)?.[1] ?? '?';
  const lines = stdout.split('\n');
  const failed = lines.map((l) => /%Error: \S+ Assertion failed in (\S+?): (.*)$/.exec(l)).filter((m) => m !== null);
  const said = failed.length ? failed.map((m) => `${m[2]} (in ${m[1]})`) : lines.filter((l) => l.includes('%Error'));
  return `verilator simulation of ${top} stopped at cycle ${cycle} of the run:\n  ${said.join('\n  ') || stdout.slice(-2000)}`;
}

export const verilator: ExternalSimulator = {
  name: 'verilator',
  async prepare(d: HarnessDesign): Promise<PreparedSimulation> {
    const version = await toolVersion('verilator');
    const cpp = harnessSource(d);
    const threads = d.threads ?? 1;
    if (!Number.isSafeInteger(threads) || threads < 1) throw new Error(`verilator harness of ${d.top}: threads must be a whole number of at least 1, got ${threads}`);
    const flags = [...verilatorFlags(), ...(d.probes?.length ? ['--public-flat-rw'] : []), ...(threads > 1 ? ['--threads', String(threads)] : [])];
    const key = contentHash([version, ...flags, ...verilatorMakeVariables(), cpp, ...d.svFiles.flatMap((f) => [f.path, f.text])]);
    const { dir } = await cachedBuild('verilator', key, async (tmp) => {
      for (const f of d.svFiles) writeFileSync(join(tmp, f.path), f.text);
      writeFileSync(join(tmp, 'harness.cpp'), cpp);
      const r = await verilatorBuild({ cwd: tmp, args: [...flags, '--top-module', d.top, '-o', 'sim', 'harness.cpp', ...d.fileList] });
      if (!r.ok) throw new Error(`verilator build of ${d.top} failed:\n${r.output.slice(-4000)}`);
      keepOnlyBuildProduct(tmp, 'sim');
    });
    const outWords = outputRowWords(d);
    return {
      async run(stimulus: Uint32Array, cycles: number, repeat = 1) {
        if (!Number.isSafeInteger(repeat) || repeat < 1) throw new Error(`verilator run of ${d.top}: repeat must be a whole number of at least 1, got ${repeat}`);
        const work = mkdtempSync(join(tmpdir(), 'rtgpu-vl-'));
        try {
          const stim = join(work, 'stim.bin');
          const out = join(work, 'out.bin');
          writeFileSync(stim, new Uint8Array(stimulus.buffer, stimulus.byteOffset, stimulus.byteLength));
          // Memory images are read relative to the working directory, so run where the sources are.
          const r = await execa(join(dir, 'obj', 'sim'), [stim, out, String(cycles), String(repeat)], { cwd: dir, reject: false, all: true });
          if (r.exitCode === STOPPED) throw new Error(stoppedRun(d.top, r.stdout, r.stderr));
          if (r.exitCode !== 0) throw new Error(`verilator simulation of ${d.top} failed:\n${(r.all ?? '').slice(-2000)}`);
          const seconds = Number(/seconds ([0-9.e-]+)/.exec(r.stdout)?.[1] ?? NaN);
          const bytes = readFileSync(out);
          const outputs = new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
          if (outputs.length !== outWords * cycles) throw new Error(`verilator wrote ${outputs.length} words, expected ${outWords * cycles}`);
          return { outputs, cycles, seconds };
        } finally {
          rmSync(work, { recursive: true, force: true });
        }
      },
    };
  },
};
