// `rtgpu rtl`: write the generated SystemVerilog of every design and the GPU's FPGA handoff to a directory, or check it is up to date.
import { parseFlags } from '../args.ts';
import { CliError } from '../cliError.ts';
import { gpuConfig, gpuConfigFlagOptions, gpuConfigFlagsUsage } from '../gpuFlags.ts';
import { allDesigns } from '../../designs/catalogue/index.ts';
import type { GpuParams } from '../../gpu/top/gpuTop.ts';
import { HELP, defineCommand, type HelpPlan } from '../command.ts';
import { rtlFiles } from '../../designs/rtl/rtlOutput.ts';
import { checkWritable, rtlDifferences, writeRtl, type RtlFile } from '../../designs/rtl/generatedDir.ts';
import { boardNames, boardPreset, UnknownBoardError, type BoardPreset } from '../../designs/synth/boards.ts';
import { boardHandoffFiles } from '../../designs/rtl/boardHandoff.ts';

const usage = `usage: rtgpu rtl [--out DIR] [--check] [--force] [--rt-cores N] [--ic-cores N] [--triangles K] [--vertices V] [--bvh …]
       rtgpu rtl --board NAME [--out DIR] [--check] [--force]

Writes every design's SystemVerilog and, for the whole GPU (rtgpu_top) in the configuration the flags
select, its FPGA handoff: rtgpu.f, manifest.json, synth/ (Yosys, Quartus, Vivado) and README.md. Each
design, and rtgpu_top in tb/, gets a self-checking testbench that any SystemVerilog simulator runs.

  --out DIR             output directory (default rtl-out)
  --check               do not write; exit 1 if DIR differs from what would be generated
  --force               write into a non-empty directory that rtgpu did not generate (its files stay)
  --board NAME          only rtgpu_top's handoff for one FPGA board, in the configuration that fits it:
                        ${boardNames().join(', ')}
                        (rtgpu_top, a pin-free top wrapper, rtgpu.f, the Yosys script, the vendor project and
                        clock constraint, and a README with the utilization; default --out rtl-<NAME>)
${gpuConfigFlagsUsage}`;

const options = { out: { type: 'string' }, check: { type: 'boolean' }, force: { type: 'boolean' }, board: { type: 'string' }, ...gpuConfigFlagOptions, help: { type: 'boolean', short: 'h' } } as const;

export interface RtlPlan {
  readonly dir: string;
  readonly check: boolean;
  readonly force: boolean;
  readonly gpu: GpuParams;
  /** Only this board's handoff (the GPU flags do not apply). */
  readonly board?: BoardPreset;
}

export function parseRtlArgs(argv: string[]): RtlPlan | HelpPlan {
  const { values, positionals } = parseFlags(argv, options, usage);
  if (values.help) return HELP;
  if (positionals.length) throw new CliError(`unexpected argument '${positionals[0]}'\n\n${usage}`);
  if (values.board !== undefined) {
    const flag = Object.keys(gpuConfigFlagOptions).find((k) => values[k as keyof typeof gpuConfigFlagOptions] !== undefined);
    if (flag) throw new CliError(`--board sets the GPU configuration: leave out --${flag}`);
    let board: BoardPreset;
    try {
      board = boardPreset(values.board);
    } catch (e) {
      if (e instanceof UnknownBoardError) throw new CliError(`--board: ${e.message}`);
      throw e;
    }
    return { board, gpu: board.gpu, dir: values.out ?? `rtl-${board.name}`, check: values.check ?? false, force: values.force ?? false };
  }
  return { gpu: gpuConfig(values), dir: values.out ?? 'rtl-out', check: values.check ?? false, force: values.force ?? false };
}

async function execute({ dir, check, force, gpu, board }: RtlPlan): Promise<number> {
  // Refuse before spending seconds on elaboration.
  if (!check) checkWritable(dir, force);
  const files: RtlFile[] = board ? boardHandoffFiles(board) : await rtlFiles(await allDesigns(), gpu);
  if (check) {
    const diffs = rtlDifferences(dir, files);
    if (diffs.length) {
      console.log(`${dir} is out of date (regenerate: ${board ? `'rtgpu rtl --board ${board.name}'` : "'npm run rtl', or 'rtgpu rtl' with these flags"}):\n${diffs.map((d) => `  ${d}`).join('\n')}`);
      return 1;
    }
    console.log(`${dir} is up to date (${files.length} files)`);
    return 0;
  }
  writeRtl(dir, files, force);
  console.log(`wrote ${files.length} files to ${dir}`);
  return 0;
}

export const rtlCommand = defineCommand({ summary: 'write generated SystemVerilog', usage, options, parse: parseRtlArgs, execute });
