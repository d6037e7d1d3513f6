// The standalone Icarus testbench: a generated SV testbench reads hex stimulus and writes hex outputs, X included.
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { cachedBuild, contentHash } from '../tools/buildCache.ts';
import { toolVersion } from '../tools/toolchain.ts';
import { inputsOf, outputsOf, rowWords, wordsOf, type ExternalSimulator, type HarnessDesign, type PreparedSimulation } from './harness.ts';

const template = fileURLToPath(new URL('../../../testbench/icarus_tb.sv', import.meta.url));
const range = (w: number) => (w === 1 ? '' : `[${w - 1}:0] `);

export function testbenchSource(d: HarnessDesign): string {
  const ins = inputsOf(d);
  const outs = outputsOf(d);
  const decls = [...(d.clocked ? ['  logic clk = 1\'b0;'] : []), ...d.ports.map((p) => `  logic ${range(p.width)}p_${p.name};`)];
  const conns = [...(d.clocked ? ['.clk(clk)'] : []), ...d.ports.map((p) => `.${p.name}(p_${p.name})`)];
  const apply = ins.flatMap((p) =>
    Array.from({ length: wordsOf(p.width) }, (_, k) => {
      const hi = Math.min(p.width, 32 * k + 32) - 1;
      const lo = 32 * k;
      const target = p.width === 1 ? `p_${p.name}` : `p_${p.name}[${hi}:${lo}]`;
      return `      r = $fscanf(fi, "%h", w); ${target} = w[${hi - lo}:0];`;
    }),
  );
  return readFileSync(template, 'utf8')
    .replace('{{DECLS}}', decls.join('\n'))
    .replace('{{TOP}}', d.top)
    .replace('{{CONNS}}', conns.map((c, i) => `    ${c}${i < conns.length - 1 ? ',' : ''}`).join('\n'))
    .replace('{{POWER_ON}}', ins.filter((p) => p.width === 1).map((p) => `    p_${p.name} = 1'b1;`).join('\n'))
    .replace('{{APPLY}}', apply.join('\n'))
    .replace('{{FORMAT}}', [...outs, ...(d.probes ?? [])].map(() => '%h').join(' '))
    .replace('{{OUTS}}', [...outs.map((p) => `, p_${p.name}`), ...(d.probes ?? []).map((p) => `, ${['dut', ...p.path].join('.')}`)].join(''))
    .replace('{{CLOCK}}', d.clocked ? '      clk = 1\'b1;\n      #1;\n      clk = 1\'b0;' : '      #1;');
}

function stimulusText(d: HarnessDesign, stimulus: Uint32Array, cycles: number): string {
  const n = rowWords(inputsOf(d));
  const lines: string[] = new Array(cycles);
  for (let c = 0; c < cycles; c++) {
    let line = '';
    for (let k = 0; k < n; k++) line += (k ? ' ' : '') + stimulus[c * n + k]!.toString(16);
    lines[c] = line;
  }
  return lines.join('\n') + '\n';
}

/** Parse the testbench's hex rows into words; an X or Z bit is an error naming the port and cycle (read as 0 before `unknownBefore`). */
function parseOutputs(d: HarnessDesign, text: string, cycles: number): Uint32Array {
  const outs = [...outputsOf(d), ...(d.probes ?? []).map((p) => ({ name: p.path.join('.'), width: p.width }))];
  const n = rowWords(outs);
  const result = new Uint32Array(n * cycles);
  const rows = text.split('\n');
  for (let c = 0; c < cycles; c++) {
    const toks = (rows[c] ?? '').trim().split(/\s+/);
    if (toks.length !== outs.length || rows[c] === undefined) throw new Error(`icarus: output row ${c} is missing or malformed`);
    let at = c * n;
    outs.forEach((p, i) => {
      let tok = toks[i]!;
      if (/[xXzZ]/.test(tok)) {
        if (c >= (d.unknownBefore ?? 0)) throw new Error(`icarus: output '${p.name}' is X/Z ('${tok}') at cycle ${c}: an uninitialized or undriven value reaches it`);
        tok = tok.replace(/[xXzZ]/g, '0');
      }
      let v = BigInt(`0x${tok}`);
      for (let k = 0; k < wordsOf(p.width); k++) {
        result[at++] = Number(v & 0xffffffffn);
        v >>= 32n;
      }
    });
  }
  return result;
}

export const icarus: ExternalSimulator = {
  name: 'icarus',
  async prepare(d: HarnessDesign): Promise<PreparedSimulation> {
    const version = `${await toolVersion('iverilog')} / ${await toolVersion('vvp')}`;
    const tb = testbenchSource(d);
    const key = contentHash([version, tb, ...d.svFiles.flatMap((f) => [f.path, f.text])]);
    const { dir } = await cachedBuild('icarus', key, async (tmp) => {
      for (const f of d.svFiles) writeFileSync(join(tmp, f.path), f.text);
      writeFileSync(join(tmp, 'rtgpu_tb.sv'), tb);
      const r = await execa('iverilog', ['-g2012', '-o', 'sim.vvp', '-s', 'rtgpu_tb', 'rtgpu_tb.sv', ...d.fileList], { cwd: tmp, reject: false, all: true });
      if (r.exitCode !== 0) throw new Error(`iverilog compile of ${d.top} failed:\n${(r.all ?? '').slice(-4000)}`);
    });
    return {
      async run(stimulus: Uint32Array, cycles: number, repeat = 1) {
        if (repeat !== 1) throw new Error(`the Icarus harness runs its stimulus once (repeat ${repeat}: a Verilator benchmark option)`);
        const work = mkdtempSync(join(tmpdir(), 'rtgpu-iv-'));
        try {
          const stim = join(work, 'stim.hex');
          const out = join(work, 'out.hex');
          writeFileSync(stim, stimulusText(d, stimulus, cycles));
          const t0 = performance.now();
          const r = await execa('vvp', ['-n', join(dir, 'sim.vvp'), `+stim=${stim}`, `+out=${out}`, `+cycles=${cycles}`], { cwd: dir, reject: false, all: true });
          const seconds = (performance.now() - t0) / 1000;
          if (r.exitCode !== 0) throw new Error(`icarus simulation of ${d.top} failed:\n${(r.all ?? '').slice(-2000)}`);
          return { outputs: parseOutputs(d, readFileSync(out, 'utf8'), cycles), cycles, seconds };
        } finally {
          rmSync(work, { recursive: true, force: true });
        }
      },
    };
  },
};
