// Locates the external tools (Verilator, Icarus, Yosys, yosys-smtbmc and z3, nextpnr) and explains how to install them when they are missing.
import { execa } from 'execa';

export type ToolName = 'verilator' | 'iverilog' | 'vvp' | 'iverilog-vpi' | 'yosys' | 'yosys-smtbmc' | 'z3' | 'nextpnr-ice40' | 'make' | 'g++' | 'ccache';

// iverilog-vpi and yosys-smtbmc have no version flag: they print their usage, which is enough to know they run.
const versionArgs: Record<ToolName, string[]> = {
  verilator: ['--version'],
  iverilog: ['-V'],
  vvp: ['-V'],
  'iverilog-vpi': [],
  yosys: ['-V'],
  'yosys-smtbmc': ['-h'],
  z3: ['--version'],
  'nextpnr-ice40': ['--version'],
  make: ['--version'],
  'g++': ['--version'],
  ccache: ['--version'],
};
const debianPackage: Record<ToolName, string> = {
  verilator: 'verilator',
  iverilog: 'iverilog',
  vvp: 'iverilog',
  'iverilog-vpi': 'iverilog',
  yosys: 'yosys',
  'yosys-smtbmc': 'yosys',
  z3: 'z3',
  'nextpnr-ice40': 'nextpnr-ice40',
  make: 'make',
  'g++': 'g++',
  ccache: 'ccache',
};
const found = new Map<ToolName, Promise<string>>();

export class MissingToolError extends Error {
  constructor(readonly tool: ToolName) {
    super(`${tool} not found on PATH: run 'bash scripts/install-tools.sh' (Debian: apt-get install ${debianPackage[tool]})`);
    this.name = 'MissingToolError';
  }
}

/** The tool's version line; throws MissingToolError when it cannot be run. */
export function toolVersion(tool: ToolName): Promise<string> {
  let p = found.get(tool);
  if (!p) {
    p = execa(tool, versionArgs[tool], { reject: false, all: true }).then((r) => {
      if (r.failed && (r as { code?: string }).code === 'ENOENT') throw new MissingToolError(tool);
      const line = (r.all ?? '').split('\n').find((l) => l.trim()) ?? '';
      if (!line) throw new MissingToolError(tool);
      return line.trim();
    });
    found.set(tool, p);
  }
  return p;
}
