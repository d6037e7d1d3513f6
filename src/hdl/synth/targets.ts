// The FPGA targets rtgpu synthesizes for, and the Yosys script that synthesizes a top module for each.

export type SynthTarget = 'generic' | 'xilinx' | 'intel' | 'ecp5' | 'ice40';

export interface SynthTargetInfo {
  /** The Yosys synthesis command (with its family option). */
  readonly yosysCommand: string;
  /** The device family the script maps to, for reports. */
  readonly family: string;
  /** The command flattens unless given `-noflatten` (the others keep the hierarchy unless given `-flatten`). */
  readonly flattensByDefault: boolean;
  /** Options that leave out I/O and clock buffers: a block synthesized alone has no pins. */
  readonly noIoOptions: string;
  /** What the report calls the target's logic cells. */
  readonly lutLabel: string;
}

export const synthTargets: Readonly<Record<SynthTarget, SynthTargetInfo>> = {
  generic: { yosysCommand: 'synth', family: 'Yosys internal gates', flattensByDefault: false, noIoOptions: '', lutLabel: 'gates' },
  xilinx: { yosysCommand: 'synth_xilinx -family xc7', family: 'Xilinx 7 series', flattensByDefault: false, noIoOptions: '-noiopad -noclkbuf', lutLabel: 'LUTs' },
  intel: { yosysCommand: 'synth_intel_alm -family cyclonev', family: 'Intel Cyclone V', flattensByDefault: true, noIoOptions: '-noiopad -noclkbuf', lutLabel: 'ALUTs' },
  ecp5: { yosysCommand: 'synth_ecp5', family: 'Lattice ECP5', flattensByDefault: true, noIoOptions: '', lutLabel: 'LUT4s' },
  ice40: { yosysCommand: 'synth_ice40', family: 'Lattice iCE40', flattensByDefault: true, noIoOptions: '', lutLabel: 'LUT4s' },
};

export const synthTargetNames = Object.keys(synthTargets) as SynthTarget[];

export function isSynthTarget(s: string): s is SynthTarget {
  return Object.hasOwn(synthTargets, s);
}

export interface YosysScriptOptions {
  /**
   * true: flatten the hierarchy (one resource figure for the whole top, and its logic depth);
   * false: keep it (per-module figures); undefined: the synthesis command's default.
   */
  readonly flatten?: boolean;
  /** Leave out I/O and clock buffers (figures for a block, not a chip). */
  readonly noIo?: boolean;
  /**
   * generic only: keep memories as `$mem_v2` cells instead of letting `synth` turn them into
   * flip-flops, so that a report can count them (the generic target has no block RAM).
   */
  readonly keepMemories?: boolean;
  /** Files read as black boxes (`read_verilog -lib`): their modules are instantiated but not synthesized. */
  readonly libFiles?: readonly string[];
  /** Extra commands run after reading the sources, before synthesis. */
  readonly before?: readonly string[];
  /** Extra commands appended after synthesis (stat, ltp, write_verilog …). */
  readonly after?: readonly string[];
}

/**
 * `synth`'s `fine` stage without `memory_map` (Yosys 0.23 – 0.55 run these commands there), so the
 * memories stay `$mem_v2` cells.
 */
const genericFineKeepingMemories = ['opt -fast -full', 'opt -full', 'techmap', 'opt -fast', 'abc -fast', 'opt -fast'];

/** A Yosys script reading `files` (in dependency order, relative to the working directory) and synthesizing `top`. */
export function yosysScript(target: SynthTarget, top: string, files: readonly string[], opts: YosysScriptOptions = {}): string {
  const info = synthTargets[target];
  const hierarchy = opts.flatten === undefined || opts.flatten === info.flattensByDefault ? '' : opts.flatten ? ' -flatten' : ' -noflatten';
  const io = opts.noIo && info.noIoOptions ? ` ${info.noIoOptions}` : '';
  const synth = `${info.yosysCommand} -top ${top}${hierarchy}${io}`;
  const steps = target === 'generic' && opts.keepMemories ? [`${synth} -run :fine`, ...genericFineKeepingMemories] : [synth];
  return (
    [
      `read_verilog -sv ${files.join(' ')}`,
      ...(opts.libFiles?.length ? [`read_verilog -sv -lib ${opts.libFiles.join(' ')}`] : []),
      ...(opts.before ?? []),
      ...steps,
      ...(opts.after ?? []),
    ].join('\n') + '\n'
  );
}
