// Place and route of a block on a Lattice iCE40 with nextpnr-ice40 after Yosys' synth_ice40: Fmax and utilisation, a smoke test of timing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { toolVersion } from '../tools/toolchain.ts';
import type { ManifestPort } from '../emit/manifest.ts';
import { inRtlDir, type RtlSource } from './rtlSource.ts';
import { yosysScript } from './targets.ts';
import { runYosys } from '../tools/yosys.ts';

export type Ice40Device = 'hx8k' | 'up5k';

/** The package nextpnr places the ports in: the one with the most I/O pins of each part. */
export const ice40Packages: Readonly<Record<Ice40Device, string>> = { hx8k: 'ct256', up5k: 'sg48' };

export interface Ice40PnrOptions {
  /** Default hx8k (7,680 logic cells, 32 block RAMs). */
  readonly device?: Ice40Device;
  /** The clock constraint nextpnr optimizes for (default 200 MHz, the GPU's target). */
  readonly freqMhz?: number;
  /** Placer seed (default 1), so that a run reproduces. */
  readonly seed?: number;
  /**
   * The top's ports (the manifest's, `clk` included): when given, a wrapper registers every input
   * and output, so that every path through the block is register to register and counts in the
   * Fmax — without it, logic between the pins and the first or last register is not timed.
   */
  readonly ports?: readonly ManifestPort[];
  /** Run in this directory and leave the sources, netlist, logs and report there. */
  readonly workDir?: string;
}

export interface Ice40PnrResult {
  readonly top: string;
  readonly device: Ice40Device;
  readonly package: string;
  readonly constraintMhz: number;
  /** The ports were registered by a wrapper (options.ports). */
  readonly registeredPorts: boolean;
  /** Achieved Fmax per clock after routing (nextpnr's names: `clk$SB_IO_IN_$glb_clk`); empty for a block without flip-flops. */
  readonly fmaxMhz: Readonly<Record<string, number>>;
  /** Used and available cells per kind (ICESTORM_LC, ICESTORM_RAM, SB_IO, …). */
  readonly utilization: Readonly<Record<string, { readonly used: number; readonly available: number }>>;
  readonly synthSeconds: number;
  readonly pnrSeconds: number;
}

/** The slowest clock's Fmax, or undefined for a block without clocked paths. */
export function worstFmax(r: Ice40PnrResult): number | undefined {
  const all = Object.values(r.fmaxMhz);
  return all.length ? Math.min(...all) : undefined;
}

/** The module `registeredWrapper` names: the top's name and this suffix. */
const WRAPPER_SUFFIX = '_ice40_regs';

/** A wrapper around `top` with a flip-flop on every port (one clock, `clk`, added if the top has none). */
export function registeredWrapper(top: string, ports: readonly ManifestPort[]): { name: string; text: string } {
  const name = `${top}${WRAPPER_SUFFIX}`;
  const data = ports.filter((p) => p.name !== 'clk');
  const range = (w: number) => (w === 1 ? '' : `[${w - 1}:0] `);
  const conns = [...(data.length < ports.length ? ['.clk(clk)'] : []), ...data.map((p) => `.${p.name}(${p.name}_r)`)];
  const text = [
    `// ${top} with every port registered, for place and route: each path inside it is timed register to register.`,
    `module ${name} (`,
    ['  input  logic clk', ...data.map((p) => `  ${p.direction === 'input' ? 'input ' : 'output'} logic ${range(p.width)}${p.name}`)].join(',\n'),
    ');',
    ...data.map((p) => `  logic ${range(p.width)}${p.name}_r;`),
    '  always_ff @(posedge clk) begin',
    ...data.map((p) => (p.direction === 'input' ? `    ${p.name}_r <= ${p.name};` : `    ${p.name} <= ${p.name}_r;`)),
    '  end',
    `  ${top} dut (${conns.join(', ')});`,
    'endmodule',
    '',
  ].join('\n');
  return { name, text };
}

interface NextpnrReport {
  readonly fmax?: Record<string, { achieved: number; constraint: number }>;
  readonly utilization: Record<string, { used: number; available: number }>;
}

/**
 * Synthesizes `src` with `synth_ice40` and places and routes it with nextpnr-ice40. Every top-level
 * port becomes an I/O pin, placed freely (there is no board). A design that misses the constraint
 * still routes (`--timing-allow-fail`): the Fmax it reached is the result. Throws when it does not
 * fit or does not route.
 */
export async function placeAndRouteIce40(src: RtlSource, opts: Ice40PnrOptions = {}): Promise<Ice40PnrResult> {
  const device = opts.device ?? 'hx8k';
  const freq = opts.freqMhz ?? 200;
  await toolVersion('nextpnr-ice40');
  const wrapper = opts.ports && registeredWrapper(src.top, opts.ports);
  const placed: RtlSource = wrapper ? { top: wrapper.name, files: [...src.files, { path: `${wrapper.name}.sv`, text: wrapper.text }], fileList: [...src.fileList, `${wrapper.name}.sv`] } : src;
  const script = yosysScript('ice40', placed.top, placed.fileList, { after: ['write_json ice40.json'] });
  return inRtlDir(
    placed,
    async (dir) => {
      const synth = await runYosys(script, { cwd: dir, quiet: true });
      const args = [`--${device}`, '--package', ice40Packages[device], '--json', 'ice40.json', '--freq', String(freq), '--seed', String(opts.seed ?? 1), '--timing-allow-fail', '--report', 'nextpnr.json', '--log', 'nextpnr.log', '-q'];
      const t0 = performance.now();
      const r = await execa('nextpnr-ice40', args, { cwd: dir, reject: false, all: true });
      const pnrSeconds = (performance.now() - t0) / 1000;
      if (r.exitCode !== 0) {
        const errors = (r.all ?? '').split('\n').filter((l) => /ERROR/.test(l));
        throw new Error(`nextpnr-ice40 (${device}) could not place and route ${placed.top}:\n${(errors.length ? errors : (r.all ?? '').split('\n').slice(-20)).join('\n')}`);
      }
      const report = JSON.parse(readFileSync(join(dir, 'nextpnr.json'), 'utf8')) as NextpnrReport;
      const fmaxMhz = Object.fromEntries(Object.entries(report.fmax ?? {}).map(([clk, f]) => [clk, f.achieved]));
      return { top: src.top, device, package: ice40Packages[device], constraintMhz: freq, registeredPorts: !!wrapper, fmaxMhz, utilization: report.utilization, synthSeconds: synth.elapsedMs / 1000, pnrSeconds };
    },
    opts.workDir,
  );
}
