// `rtgpu synth`: synthesize a design with Yosys for an FPGA target and print its resources per module, memory mapping and logic depth.
import { writeFileSync } from 'node:fs';
import { parseFlags } from '../args.ts';
import { CliError } from '../cliError.ts';
import { gpuConfig, gpuConfigFlagOptions, gpuConfigFlagsUsage } from '../gpuFlags.ts';
import { StatusLine } from '../progress.ts';
import { isFileArgument, loadUserDesign, parseParams } from '../designFile.ts';
import { HELP, defineCommand, type HelpPlan } from '../command.ts';
import type { GpuParams } from '../../gpu/top/gpuTop.ts';
import { GPU_DESIGN, designByName, rtlSource } from '../../designs/synth/synthSource.ts';
import { writeSynthReport } from '../../designs/synth/synthReport.ts';
import { designClocks, formatReport, subDesign } from '../../hdl/synth/index.ts';
import { synthesize } from '../../hdl/synth/index.ts';
import { isSynthTarget, synthTargetNames, synthTargets, type SynthTarget } from '../../hdl/synth/index.ts';
import type { YosysProgress } from '../../hdl/synth/index.ts';

const usage = `usage: rtgpu synth [DESIGN] [--target T] [--top MODULE] [--json] [--out FILE] [GPU flags]
       rtgpu synth DESIGN.ts [--top NAME] [--param KEY=VALUE …] [--target T] [--submodule MODULE] …
       rtgpu synth --report FILE [GPU flags]

Synthesizes DESIGN with Yosys (native, else @yowasp/yosys from npm) keeping the hierarchy, and prints
per module (one instance, its submodules included) the LUTs, flip-flops, block RAMs, LUT-RAM, DSPs and
logic depth, then which memory became block RAM, LUT-RAM or flip-flops, then per clock of the top its
period (where the design gives one), the register bits on each edge, its memories and resets.

  DESIGN          ${GPU_DESIGN} (default: the whole GPU), a design of 'rtgpu cosim --list' (fadd, ic_core, rtcore,
                  fifo …), or a design file (a .ts/.js file that exports its module)
  --top NAME      with a design file: the module to use when it exports several (as for emit, lint, cosim)
  --param K=V     with a design file: a parameter of its module (repeatable)
  --no-typecheck  with a design file: run it without type-checking it first
  --target T      ${synthTargetNames.join(', ')} (default xilinx): ${synthTargetNames.map((t) => `${t} = ${synthTargets[t].family}`).join(', ')}
  --submodule M   synthesize this module of the design (and what it instantiates) instead of its top
                  (for a catalogue design, --top M means the same)
  --depth WHICH   logic depth of all modules (default), the top only, or none (faster on the whole GPU)
  --json          print the report as JSON
  --out FILE      also write what is printed to FILE
  --work DIR      run Yosys in DIR and keep the sources, script, log and outputs there
  --report FILE   synthesize ${GPU_DESIGN} for xilinx and intel and write the Markdown report (rtl-out/REPORT.md)
${gpuConfigFlagsUsage}
                  (GPU flags apply to ${GPU_DESIGN} only)`;

const depthChoices = ['all', 'top', 'none'] as const;

/** On a terminal: the Yosys pass running and the time so far, redrawn in place (every second too: some passes print nothing for minutes). */
function progressLine(label: string): { onProgress: (p: YosysProgress) => void; erase: () => void; stop: () => void } {
  const line = new StatusLine();
  const start = performance.now();
  let pass = 'starting Yosys';
  const draw = () => line.show(() => `${label}: ${Math.round((performance.now() - start) / 1000)} s, ${pass}`);
  const timer = line.enabled ? setInterval(draw, 1000) : undefined;
  timer?.unref();
  return {
    onProgress: (p) => {
      pass = p.pass;
      draw();
    },
    /** Take the line off the screen (before printing); the next redraw puts it back. */
    erase: () => line.clear(),
    stop: () => {
      clearInterval(timer);
      line.clear();
    },
  };
}

const options = {
  target: { type: 'string' },
  top: { type: 'string' },
  depth: { type: 'string' },
  json: { type: 'boolean' },
  out: { type: 'string' },
  work: { type: 'string' },
  report: { type: 'string' },
  submodule: { type: 'string' },
  param: { type: 'string', multiple: true },
  'no-typecheck': { type: 'boolean' },
  ...gpuConfigFlagOptions,
  help: { type: 'boolean', short: 'h' },
} as const;

type Depth = (typeof depthChoices)[number];

export type SynthPlan =
  | { readonly kind: 'report'; readonly report: string; readonly gpu: GpuParams; readonly command: string }
  | {
      readonly kind: 'design';
      /** A catalogue design's name, or a design file. */
      readonly name: string;
      readonly file: boolean;
      readonly target: SynthTarget;
      readonly depth: Depth;
      readonly top?: string;
      readonly submodule?: string;
      readonly params?: string[];
      readonly typecheck?: boolean;
      readonly json: boolean;
      readonly out?: string;
      readonly work?: string;
      readonly gpu: GpuParams;
    };

export function parseSynthArgs(argv: string[]): SynthPlan | HelpPlan {
  const { values, positionals } = parseFlags(argv, options, usage);
  if (values.help) return HELP;
  if (positionals.length > 1) throw new CliError(`expected at most one design name, got ${positionals.join(' ')}\n\n${usage}`);
  const name = positionals[0] ?? GPU_DESIGN;
  const target = values.target ?? 'xilinx';
  if (!isSynthTarget(target)) throw new CliError(`unknown target '${target}' (choose from ${synthTargetNames.join(', ')})`);
  const depth = values.depth ?? 'all';
  if (!depthChoices.includes(depth as Depth)) throw new CliError(`--depth expects one of ${depthChoices.join(', ')}, got '${depth}'`);
  const gpuFlagGiven = ['rt-cores', 'ic-cores', 'triangles', 'vertices'].some((f) => values[f as keyof typeof values] !== undefined);
  if (gpuFlagGiven && name !== GPU_DESIGN) throw new CliError(`--rt-cores, --ic-cores, --triangles and --vertices apply to ${GPU_DESIGN} only, not '${name}'`);
  const gpu = gpuConfig(values);
  if (values.report !== undefined) {
    if (positionals.length || values.target || values.top || values.json) throw new CliError(`--report synthesizes ${GPU_DESIGN} for xilinx and intel: it takes no DESIGN, --target, --top or --json`);
    // The report names the command that regenerates it: `npm run synth:report` for the default GPU.
    const command = argv.length === 2 && values.report === 'rtl-out/REPORT.md' ? '`rtgpu synth --report` (`npm run synth:report`)' : `\`rtgpu synth ${argv.join(' ')}\``;
    return { kind: 'report', report: values.report, gpu, command };
  }
  const file = isFileArgument(name);
  if (!file && (values.param !== undefined || values['no-typecheck'])) throw new CliError('--param and --no-typecheck apply to design files');
  if (values.top !== undefined && values.submodule !== undefined && !file) throw new CliError('give --top or --submodule, not both');
  if (file) parseParams(values.param ?? []);
  return { kind: 'design', name, file, target, depth: depth as Depth, top: values.top, submodule: values.submodule, params: values.param, typecheck: !values['no-typecheck'], json: values.json ?? false, out: values.out, work: values.work, gpu };
}

async function execute(plan: SynthPlan): Promise<number> {
  if (plan.kind === 'report') {
    const progress = progressLine('synth');
    try {
      await writeSynthReport(plan.report, plan.gpu, { command: plan.command, onProgress: (t, p) => progress.onProgress({ ...p, pass: `${t}: ${p.pass}` }), log: (l) => (progress.erase(), console.log(l)) });
    } finally {
      progress.stop();
    }
    console.log(`wrote ${plan.report}`);
    return 0;
  }
  const { name, file, target } = plan;
  const design = file ? (await loadUserDesign(name, plan)).design : await designByName(name, plan.gpu);
  const top = plan.submodule ?? (file ? undefined : plan.top) ?? design.top;
  let src;
  try {
    src = rtlSource(design, top);
  } catch (e) {
    throw new CliError((e as Error).message, 1);
  }
  const progress = progressLine(`synth ${src.top} (${target})`);
  let report;
  try {
    report = await synthesize(src, target, { depth: plan.depth, workDir: plan.work, onProgress: progress.onProgress });
  } finally {
    progress.stop();
  }
  // Yosys keeps the hierarchy: which clock a flip-flop is on is read from the netlist.
  report = { ...report, clocks: designClocks(top === design.top ? design : subDesign(design, top)) };
  const text = plan.json ? JSON.stringify(report, null, 2) : formatReport(report);
  console.log(text);
  if (plan.out) writeFileSync(plan.out, `${text}\n`);
  return 0;
}

export const synthCommand = defineCommand({ summary: 'synthesize a design with Yosys and report its resources', usage, options, parse: parseSynthArgs, execute });
