// The fuzz target of the CLI's command lines: an input is an argv for one command's parse (its flags and
// their checks, no work), which must return a plan or throw a CliError that names what is wrong.
import type { Options } from '../../src/cli/args.ts';
import { CliError } from '../../src/cli/cliError.ts';
import { emitCommand } from '../../src/cli/commands/emit.ts';
import { lintCommand } from '../../src/cli/commands/lint.ts';
import { simCommand } from '../../src/cli/commands/sim.ts';
import { cosimCommand } from '../../src/cli/commands/cosim.ts';
import { rtlCommand } from '../../src/cli/commands/rtl.ts';
import { synthCommand } from '../../src/cli/commands/synth.ts';
import { proveCommand } from '../../src/cli/commands/prove.ts';
import { benchCommand } from '../../src/cli/commands/bench.ts';
import { fpCommand } from '../../src/cli/commands/fp.ts';
import { asmCommand } from '../../src/cli/commands/asm.ts';
import { disasmCommand } from '../../src/cli/commands/disasm.ts';
import { runCommand } from '../../src/cli/commands/run.ts';
import { renderCommand } from '../../src/cli/commands/render.ts';
import { doctorCommand } from '../../src/cli/commands/doctor.ts';

interface Parser {
  readonly options: Options;
  readonly parse: (argv: string[]) => object;
}

/** Every command of `rtgpu` (src/cli/runCli.ts) by name. */
export const cliCommands: Readonly<Record<string, Parser>> = {
  emit: emitCommand,
  lint: lintCommand,
  sim: simCommand,
  cosim: cosimCommand,
  rtl: rtlCommand,
  synth: synthCommand,
  prove: proveCommand,
  bench: benchCommand,
  fp: fpCommand,
  asm: asmCommand,
  disasm: disasmCommand,
  run: runCommand,
  render: renderCommand,
  doctor: doctorCommand,
};

/** The encoding: UTF-8 text, one argv word per line; the first word is the command. */
export function decodeCommandLine(input: Uint8Array): { command?: Parser; argv: string[] } {
  const [name = '', ...argv] = new TextDecoder().decode(input).split('\n');
  return { command: Object.hasOwn(cliCommands, name) ? cliCommands[name] : undefined, argv };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `token` in `line`, not as part of a longer flag or word (`--out` is not in `--output`). */
const hasToken = (line: string, token: string) => token !== '' && new RegExp(`(^|[^\\w-])${escape(token)}(?![\\w-])`).test(line);

/** `line` with every word of the argv in it (and every piece of one between commas) as `_`; flags stay (they are the template's). */
export function withoutWords(line: string, argv: readonly string[]): string {
  const pieces = [...new Set(argv.flatMap((w) => [w, ...w.split(/[,=]/)]))].filter((p) => p.length >= 2 && !p.startsWith('-')).sort((a, b) => b.length - a.length);
  let out = line;
  for (const p of pieces) out = out.replace(new RegExp(`(^|[^\\w-])${escape(p)}(?![\\w-])`, 'g'), '$1_');
  return out;
}

/** The flags an argv gives, as a message may name them: `--name` (of `--name=v` too), each `-x` of `-xyz`, and the long name of a short one. */
export function flagsGiven(argv: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (const w of argv.slice(0, argv.includes('--') ? argv.indexOf('--') : argv.length)) {
    if (w.startsWith('--')) out.push(w.split('=')[0]!);
    else if (w.startsWith('-') && w.length > 1)
      for (const c of w.slice(1)) {
        out.push(`-${c}`);
        const long = Object.keys(options).find((k) => options[k]!.short === c);
        if (long !== undefined) out.push(`--${long}`);
      }
  }
  return out;
}

/** What a message may quote of an argv: each word, the value of `--flag=value`, each item of a comma list (trimmed too). */
function pieces(argv: readonly string[]): string[] {
  return argv.flatMap((w) => {
    const value = w.startsWith('--') ? w.slice(w.indexOf('=') + 1) : w;
    return [w, value, ...value.split(','), ...value.split(',').map((p) => p.trim())];
  });
}

/** Half of a UTF-16 surrogate pair: a character cut in two (the input, decoded from UTF-8, has none). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Messages about how many positional arguments there are: no one word is at fault. */
const COUNT = /^expected (one|at most one|an op and at most one) [a-z ]+/;
/** Words that are no message's own but an echo of broken code, unless the user typed them. */
const JUNK = ['undefined', '[object Object]', 'NaN', 'null', 'Infinity'];

/**
 * A usage error as the CLI means to raise it: a CliError whose first line is not empty, carries no stack,
 * no character cut in half and no JUNK the user did not type, and names the fault: a flag the argv gives, a quoted piece of the
 * argv (`'abc'` of `--sim abc,ts`), a word of it opening the message (a file), or (COUNT) the number of
 * positional words.
 */
export function isCleanUsageError(e: unknown, argv: readonly string[], options: Options): boolean {
  if (!(e instanceof CliError)) return false;
  const first = e.message.split('\n')[0]!;
  if (first.trim() === '' || /\n\s+at /.test(e.message) || LONE_SURROGATE.test(first)) return false;
  if (JUNK.some((j) => first.includes(j) && !argv.some((w) => w.includes(j)))) return false;
  if (COUNT.test(first)) return true;
  if (flagsGiven(argv, options).some((f) => hasToken(first, f))) return true;
  if (pieces(argv).some((p) => first.includes(`'${p}'`))) return true;
  // A file argument opens the message, as the file-naming messages do (`x.txt: not a scene file`).
  return argv.some((w) => w !== '' && (first.startsWith(`${w}: `) || first.startsWith(`${w} `)));
}

/** Every command, each one's flags (long, `--name=`, short), and values at the edges of what flags take. */
export const cliDictionary: readonly string[] = [
  ...Object.keys(cliCommands).map((c) => `${c}\n`),
  ...Object.values(cliCommands).flatMap(({ options }) => Object.entries(options).flatMap(([name, o]) => [`\n--${name}\n`, `\n--${name}=`, ...(o.short ? [`\n-${o.short}\n`] : [])])),
  '\n--\n', '\n-\n', '\n\n', '=', ',', '-3', '0', '1', '-1', '1e999', '-1e999', '1e-999', '0x10', '0b1', '1.5', '.5', '-0', '+1', '9007199254740993', '4294967296', '99999999999999999999',
  '-1,2,3', '0,0,0', '1,2', '1,2,3,4', 'nan', 'NaN', 'inf', 'Infinity', 'undefined', 'null', 'constructor', '__proto__', 'toString', "''", '"', '\u00e9', '\u{1F600}', '\u202e', 'ts', 'iss', 'lockstep',
  'ts,verilator', 'ts,ts', 'icarus-gate', 'verilator', 'icarus', 'shade', 'id', 'cornell', 'bunny', 'textured', 'nearest', 'bilinear', 'trilinear', 'hex', 'bin', 'xilinx', 'intel', 'ice40', 'all', 'top', 'none', 'fifo', 'add', 'x.ts', 'x.obj', 'x.hex', 'x.bin', 'x.s', 'out.png', 'a/b', 'w=8', '=8',
];
