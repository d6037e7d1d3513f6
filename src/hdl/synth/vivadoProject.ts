// A Vivado non-project build of one top module (build.tcl + .xdc): synthesis out of context, place, route, reports.
import { BUILD_DIR, clockPeriodNs, pathToRoot, type FpgaProject } from './fpgaProject.ts';

export interface VivadoFiles {
  readonly tcl: string;
  readonly xdc: string;
}

/**
 * `dir` is where build.tcl and `<name>.xdc` live, relative to the root the project's paths start from;
 * the script finds the root from its own location, so it runs from any directory.
 */
export function vivadoProject(p: FpgaProject, name: string, part: string, dir: string, header: readonly string[]): VivadoFiles {
  const comments = header.map((h) => `# ${h}`);
  const tcl = [
    ...comments,
    `set root [file normalize [file join [file dirname [info script]] ${pathToRoot(dir)}]]`,
    `set part ${part}`,
    `set out [file join $root ${BUILD_DIR} vivado]`,
    'file mkdir $out',
    '',
    'foreach f {',
    ...p.files.map((f) => `  ${f}`),
    '} {',
    '  read_verilog -sv [file join $root $f]',
    '}',
    `read_xdc [file join $root ${dir}/${name}.xdc]`,
    '',
    '# $readmemh opens its image relative to the working directory: synthesize next to copies of the images.',
    `foreach image [glob -nocomplain -directory [file join $root ${p.imageDir}] *.hex] {`,
    '  file copy -force $image $out',
    '}',
    'cd $out',
    '',
    `# ${p.top} is a core for a host shell on the same chip: out of context, its ports get no I/O buffers or pins.`,
    '# The sources keep simulation-only initial blocks under `ifndef SYNTHESIS.',
    `synth_design -top ${p.top} -part $part -mode out_of_context -verilog_define SYNTHESIS`,
    'report_utilization -file utilization_synth.txt',
    'opt_design',
    'place_design',
    'route_design',
    'report_utilization -file utilization.txt',
    'report_timing_summary -file timing_summary.txt',
    `write_checkpoint -force ${p.top}_routed.dcp`,
  ].join('\n');
  const xdc = [
    ...comments,
    `# ${p.clock.mhz} MHz on ${p.clock.port}.`,
    `create_clock -period ${clockPeriodNs(p)} -name ${p.clock.port} [get_ports ${p.clock.port}]`,
    '# The host shell drives and samples the ports from its registers on the same clock: each port path gets',
    `# the whole period. ${p.reset} is a synchronous active-low reset, timed like every other input.`,
    `set_input_delay -clock ${p.clock.port} 0.000 [get_ports -filter {DIRECTION == IN && NAME != ${p.clock.port}}]`,
    `set_output_delay -clock ${p.clock.port} 0.000 [get_ports -filter {DIRECTION == OUT}]`,
  ].join('\n');
  return { tcl: `${tcl}\n`, xdc: `${xdc}\n` };
}
