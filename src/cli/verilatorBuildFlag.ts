// `--verilator-build`: how a command that runs Verilator live builds its model (flat, or repeated modules as hierarchical blocks).
import { CliError } from './cliError.ts';

const BUILDS = { auto: 'auto', flat: false, hierarchical: true } as const;

const HELP_LINES = [
  'how Verilator builds the model: hierarchical (each module placed 4 times or',
  "more verilated once: rtgpu_top's first build about 3x faster, its run about",
  '2x slower), flat (every instance inlined), or auto (default: hierarchical',
  'unless RTGPU_VERILATOR_OPT=0, where flat builds are cheap already)',
];

const FLAG = '  --verilator-build B';

/** The flag's help, its text starting at `column` as the command's other flags (on a line of its own when the flag is wider). */
export function verilatorBuildUsage(column: number): string {
  const text = HELP_LINES.map((line) => ' '.repeat(column) + line).join('\n');
  return FLAG.length < column ? FLAG + text.slice(FLAG.length) : `${FLAG}\n${text}`;
}

/** VerilatorOptions.hierarchical for `--verilator-build` (default auto); an error when nothing runs on Verilator. */
export function verilatorBuildFlag(value: string | undefined, usesVerilator: boolean): boolean | 'auto' {
  if (value === undefined) return 'auto';
  if (!Object.hasOwn(BUILDS, value)) throw new CliError(`--verilator-build: unknown build '${value}' (choose from ${Object.keys(BUILDS).join(', ')})`);
  if (!usesVerilator) throw new CliError(`--verilator-build ${value}: nothing runs on Verilator (add verilator to --sim)`);
  return BUILDS[value as keyof typeof BUILDS];
}
