// `rtgpu doctor`: which external tools are installed, their versions, and what each one enables.
import { createRequire } from 'node:module';
import { CACHED_BUILD_BYTES_PER_KIND, CACHED_VALUE_BYTES_PER_KIND, cacheRoot, cacheUsage, MissingToolError, toolVersion, type CacheKindUsage, type ToolName } from '../../hdl/tools/index.ts';
import { parseFlags } from '../args.ts';
import { CliError } from '../cliError.ts';
import { HELP, defineCommand, type HelpPlan } from '../command.ts';

const usage = `usage: rtgpu doctor [--json]

Reports the Node version, each external tool rtgpu can use (found or not, its version, what it enables),
the native-call library for the live back ends, the build cache, and which simulator back ends work here.
The TypeScript simulator (js, wasm) needs none of them.

  --json                print the report as JSON (for scripts)

Exit status 0 (a missing tool is reported, not an error; commands that need it say so when they run).`;

interface ToolCheck {
  readonly tool: ToolName;
  readonly enables: string;
}

const TOOLS: readonly ToolCheck[] = [
  { tool: 'verilator', enables: "backend 'verilator' (live, with make and g++), rtgpu lint, cosim and --sim verilator" },
  { tool: 'make', enables: 'building Verilator models' },
  { tool: 'g++', enables: 'building Verilator models' },
  { tool: 'ccache', enables: "optional: Verilator builds compile Verilator's runtime once (about 4 s saved per build)" },
  { tool: 'iverilog', enables: "backend 'icarus' (live, with vvp and iverilog-vpi), rtgpu lint (iverilog -Wall), cosim and --sim icarus" },
  { tool: 'vvp', enables: 'running Icarus simulations' },
  { tool: 'iverilog-vpi', enables: "building the VPI module of the live 'icarus' back end" },
  { tool: 'yosys', enables: 'rtgpu synth, post-synthesis cosimulation, the FPGA handoff checks' },
  { tool: 'yosys-smtbmc', enables: 'rtgpu prove (with yosys and z3): bounded model checks, k-induction and cover traces' },
  { tool: 'z3', enables: 'the SMT solver rtgpu prove runs' },
  { tool: 'nextpnr-ice40', enables: 'optional: place and route and timing for iCE40 (placeAndRouteIce40 in rtgpu/hdl/synth)' },
];

interface ToolStatus extends ToolCheck {
  readonly found: boolean;
  /** The version line, or how to install the tool. */
  readonly detail: string;
}

async function checkTool(check: ToolCheck): Promise<ToolStatus> {
  try {
    const version = await toolVersion(check.tool);
    // iverilog-vpi and yosys-smtbmc have no version flag (toolVersion gets their usage line).
    const unversioned: Partial<Record<ToolName, string>> = { 'iverilog-vpi': 'iverilog', 'yosys-smtbmc': 'yosys' };
    const from = unversioned[check.tool];
    return { ...check, found: true, detail: from ? `found (no version flag; comes with ${from})` : version };
  } catch (e) {
    if (e instanceof MissingToolError) return { ...check, found: false, detail: e.message };
    throw e;
  }
}

/** koffi loads the Verilator models and drives the Icarus pipes; it is an optional native dependency. */
function koffiStatus(): { found: boolean; detail: string } {
  try {
    const require = createRequire(import.meta.url);
    const koffi = require('koffi') as { version?: string };
    return { found: true, detail: `koffi ${koffi.version ?? ''}`.trim() };
  } catch (e) {
    return { found: false, detail: `koffi cannot be loaded (${(e as Error).message.split('\n')[0]}): the live verilator and icarus back ends need it` };
  }
}

interface Report {
  readonly node: string;
  readonly platform: string;
  readonly tools: readonly ToolStatus[];
  readonly koffi: { found: boolean; detail: string };
  readonly cache: string;
  /** Each kind of the build cache, largest first. */
  readonly cacheUsage: readonly CacheKindUsage[];
  readonly backends: Readonly<Record<string, boolean>>;
}

async function report(): Promise<Report> {
  const tools = await Promise.all(TOOLS.map(checkTool));
  const has = (...names: ToolName[]) => names.every((n) => tools.find((t) => t.tool === n)!.found);
  const koffi = koffiStatus();
  return {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    tools,
    koffi,
    cache: cacheRoot(),
    cacheUsage: cacheUsage(),
    backends: {
      js: true,
      wasm: true,
      verilator: koffi.found && has('verilator', 'make', 'g++'),
      // The live Icarus back end talks to vvp over pipes through koffi (Linux only).
      icarus: koffi.found && process.platform === 'linux' && has('iverilog', 'vvp', 'iverilog-vpi'),
      synth: has('yosys'),
      prove: has('yosys', 'yosys-smtbmc', 'z3'),
    },
  };
}

const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(bytes < 10 * 2 ** 20 ? 1 : 0)} MiB`;

/** The cache's size per kind, each kept under its budget (values and builds), least recently used dropped first. */
function cacheLines(usage: readonly CacheKindUsage[]): string[] {
  if (!usage.length) return ['  empty'];
  const width = Math.max(...usage.map((u) => u.kind.length));
  const total = usage.reduce((n, u) => n + u.bytes, 0);
  return [
    ...usage.map((u) => `  ${u.kind.padEnd(width)}  ${String(u.entries).padStart(5)} ${u.values ? 'values' : 'builds'}  ${megabytes(u.bytes).padStart(9)}`),
    `  total ${megabytes(total)}; each kind keeps under ${megabytes(CACHED_VALUE_BYTES_PER_KIND)} of values or ${megabytes(CACHED_BUILD_BYTES_PER_KIND)} of builds, the least recently used dropped first;`,
    '  everything in it is rebuilt when needed: remove the directory (or one kind of it) to reclaim the space now',
  ];
}

function formatReport(r: Report): string {
  const mark = (ok: boolean) => (ok ? 'ok     ' : 'missing');
  const width = Math.max(...r.tools.map((t) => t.tool.length));
  const nodeOk = Number(r.node.slice(1).split('.')[0]) >= 20;
  const lines = [
    `node     ${r.node} (${r.platform})${nodeOk ? '' : '  — rtgpu needs Node 20 or newer'}`,
    '',
    'external tools:',
    ...r.tools.flatMap((t) => [`  ${mark(t.found)} ${t.tool.padEnd(width)}  ${t.detail}`, `          ${' '.repeat(width)}  enables: ${t.enables}`]),
    '',
    `native calls: ${mark(r.koffi.found)} ${r.koffi.detail}`,
    `build cache:  ${r.cache} (set RTGPU_CACHE to move it)`,
    ...cacheLines(r.cacheUsage),
    '',
    `simulator back ends usable here: ${Object.entries(r.backends)
      .filter(([k, ok]) => ok && k !== 'synth' && k !== 'prove')
      .map(([k]) => k)
      .join(', ')}; synthesis: ${r.backends.synth ? 'yes' : 'no (install yosys)'}; proofs: ${r.backends.prove ? 'yes' : 'no (install yosys and z3)'}`,
  ];
  if (r.tools.some((t) => !t.found)) lines.push("install the missing tools on Debian/Ubuntu with 'bash scripts/install-tools.sh' in a checkout, or apt-get as named above");
  return lines.join('\n');
}

const options = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

export function parseDoctorArgs(argv: string[]): { readonly json: boolean } | HelpPlan {
  const { values, positionals } = parseFlags(argv, options, usage);
  if (values.help) return HELP;
  if (positionals.length) throw new CliError(`doctor takes no arguments, got '${positionals[0]}'\n\n${usage}`);
  return { json: values.json ?? false };
}

async function execute({ json }: { readonly json: boolean }): Promise<number> {
  const r = await report();
  console.log(json ? JSON.stringify(r, null, 2) : formatReport(r));
  return 0;
}

export const doctorCommand = defineCommand({ summary: 'report the installed external tools and what each enables', usage, options, parse: parseDoctorArgs, execute });
