// `rtgpu lint`: a user's design file through the eDSL's checks, `verilator --lint-only -Wall` and `iverilog -Wall`.
import { emitSystemVerilog } from '../../hdl/index.ts';
import { formatDiagnosticHere } from '../diagnosticText.ts';
import { icarusCompile, verilatorLint, withSourceLines } from '../../hdl/cosim/index.ts';
import { parseFlags } from '../args.ts';
import { CliError } from '../cliError.ts';
import { loadUserDesign, parseParams, shownPath } from '../designFile.ts';
import { HELP, defineCommand, type HelpPlan } from '../command.ts';
import { designFileUsage, type DesignFilePlan } from './emit.ts';

const usage = `usage: rtgpu lint DESIGN.ts [--top NAME] [--param KEY=VALUE …]

Elaborates the module DESIGN exports, running every check of the eDSL (errors stop here, at your
file and line; warnings are printed), then lints the SystemVerilog it becomes with
'verilator --lint-only -Wall' and 'iverilog -g2012 -Wall'. Exit status 1 on any error or tool warning.

${designFileUsage}`;

const options = { top: { type: 'string' }, param: { type: 'string', multiple: true }, 'no-typecheck': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

export function parseLintArgs(argv: string[]): DesignFilePlan | HelpPlan {
  const { values, positionals } = parseFlags(argv, options, usage);
  if (values.help) return HELP;
  if (positionals.length !== 1) throw new CliError(`expected one design file\n\n${usage}`);
  parseParams(values.param ?? []);
  return { file: positionals[0]!, top: values.top, params: values.param, typecheck: !values['no-typecheck'] };
}

async function execute(plan: DesignFilePlan): Promise<number> {
  const user = await loadUserDesign(plan.file, plan);
  for (const w of user.warnings) console.log(formatDiagnosticHere(w));
  const e = emitSystemVerilog(user.design);
  const src = { top: user.design.top, files: e.files, fileList: e.fileList, lintWaivers: e.lintWaivers };
  const [verilator, icarus] = await Promise.all([verilatorLint(src), icarusCompile(src)]);
  // Each report on a generated line names the TypeScript line it came from.
  for (const r of [verilator, icarus]) if (r.output.trim()) console.log(`${r.tool}:\n${withSourceLines(r.output.trim(), user.design, e.files, shownPath)}`);
  const clean = verilator.ok && icarus.ok;
  console.log(`${shownPath(user.file)}: ${user.design.top}: ${user.warnings.length} eDSL warnings; verilator -Wall ${verilator.ok ? 'clean' : 'NOT clean'}; iverilog -Wall ${icarus.ok ? 'clean' : 'NOT clean'}`);
  return clean && user.warnings.length === 0 ? 0 : 1;
}

export const lintCommand = defineCommand({ summary: 'check a design file with the eDSL, Verilator and Icarus', usage, options, parse: parseLintArgs, execute });
