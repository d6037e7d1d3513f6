// `rtgpu lint`: a user's design file through the eDSL's checks, `verilator --lint-only -Wall` and `iverilog -Wall`.
import { emitSystemVerilog, formatDiagnostic } from '../../hdl/index.ts';
import { icarusCompile, verilatorLint } from '../../hdl/cosim/index.ts';
import { parseFlags } from '../args.ts';
import { CliError } from '../cliError.ts';
import { loadUserDesign, shownPath } from '../designFile.ts';
import { designFileUsage } from './emit.ts';

const usage = `usage: rtgpu lint DESIGN.ts [--top NAME] [--param KEY=VALUE …]

Elaborates the module DESIGN exports, running every check of the eDSL (errors stop here, at your
file and line; warnings are printed), then lints the SystemVerilog it becomes with
'verilator --lint-only -Wall' and 'iverilog -g2012 -Wall'. Exit status 1 on any error or tool warning.

${designFileUsage}`;

export const lintCommand = {
  summary: 'check a design file with the eDSL, Verilator and Icarus',
  async run(argv: string[]): Promise<number> {
    const { values, positionals } = parseFlags(argv, { top: { type: 'string' }, param: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } }, usage);
    if (values.help) {
      console.log(usage);
      return 0;
    }
    if (positionals.length !== 1) throw new CliError(`expected one design file\n\n${usage}`);
    const user = await loadUserDesign(positionals[0]!, { top: values.top, params: values.param });
    for (const w of user.warnings) console.log(formatDiagnostic(w));
    const e = emitSystemVerilog(user.design);
    const src = { top: user.design.top, files: e.files, fileList: e.fileList };
    const [verilator, icarus] = await Promise.all([verilatorLint(src), icarusCompile(src)]);
    for (const r of [verilator, icarus]) if (r.output.trim()) console.log(`${r.tool}:\n${r.output.trim()}`);
    const clean = verilator.ok && icarus.ok;
    console.log(`${shownPath(user.file)}: ${user.design.top}: ${user.warnings.length} eDSL warnings; verilator -Wall ${verilator.ok ? 'clean' : 'NOT clean'}; iverilog -Wall ${icarus.ok ? 'clean' : 'NOT clean'}`);
    return clean && user.warnings.length === 0 ? 0 : 1;
  },
};
