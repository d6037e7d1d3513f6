// A Quartus project for one top module (.qpf, .qsf, .sdc), kept in a directory below the sources' root.
import { BUILD_DIR, clockPeriodNs, nonClockPorts, pathToRoot, type FpgaProject } from './fpgaProject.ts';

export interface QuartusDevice {
  readonly family: string;
  readonly device: string;
}

export interface QuartusFiles {
  readonly qpf: string;
  readonly qsf: string;
  readonly sdc: string;
}

/**
 * `name` is the project and revision name (`quartus_sh --flow compile <name>`); `dir` is where the
 * project lives, relative to the root the project's paths start from. The .qsf's paths are relative to `dir`.
 */
export function quartusProject(p: FpgaProject, name: string, dev: QuartusDevice, dir: string, header: readonly string[]): QuartusFiles {
  const comments = header.map((h) => `# ${h}`);
  const up = pathToRoot(dir);
  const qsf = [
    ...comments,
    `set_global_assignment -name FAMILY "${dev.family}"`,
    `set_global_assignment -name DEVICE ${dev.device}`,
    `set_global_assignment -name TOP_LEVEL_ENTITY ${p.top}`,
    `set_global_assignment -name PROJECT_OUTPUT_DIRECTORY ${up}/${BUILD_DIR}/quartus`,
    '# The sources keep simulation-only initial blocks under `ifndef SYNTHESIS.',
    'set_global_assignment -name VERILOG_MACRO "SYNTHESIS=1"',
    '# $readmemh images are looked up in the search path.',
    `set_global_assignment -name SEARCH_PATH ${up}/${p.imageDir}`,
    `set_global_assignment -name SDC_FILE ${name}.sdc`,
    ...p.files.map((f) => `set_global_assignment -name SYSTEMVERILOG_FILE ${up}/${f}`),
    `# ${p.top} is a core for a host shell on the same chip: every port but the clock is a virtual pin`,
    `# (${nonClockPorts(p).reduce((s, x) => s + x.width, 0)} port bits, more than the package has I/O pins).`,
    ...nonClockPorts(p).map((x) => `set_instance_assignment -name VIRTUAL_PIN ON -to ${x.width === 1 ? x.name : `${x.name}[*]`}`),
  ].join('\n');
  const sdc = [
    ...comments,
    `# ${p.clock.mhz} MHz on ${p.clock.port}. The other ports, the synchronous active-low reset ${p.reset} among them, are`,
    '# virtual pins, not timed here: the design that instantiates the core times them against its own registers.',
    `create_clock -name ${p.clock.port} -period ${clockPeriodNs(p)} [get_ports {${p.clock.port}}]`,
    'derive_clock_uncertainty',
  ].join('\n');
  return { qpf: `${comments.join('\n')}\nPROJECT_REVISION = "${name}"\n`, qsf: `${qsf}\n`, sdc: `${sdc}\n` };
}
