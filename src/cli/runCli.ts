// The `rtgpu` command as a function: dispatches to one file per subcommand and turns errors into clean exit codes.
import { inspect } from 'node:util';
import { HdlError } from '../hdl/index.ts';
import { formatDiagnosticHere } from './diagnosticText.ts';
import { CliError } from './cliError.ts';

interface Command {
  readonly run: (argv: string[]) => Promise<number>;
}

const commands: Record<string, () => Promise<Command>> = {
  emit: async () => (await import('./commands/emit.ts')).emitCommand,
  lint: async () => (await import('./commands/lint.ts')).lintCommand,
  sim: async () => (await import('./commands/sim.ts')).simCommand,
  cosim: async () => (await import('./commands/cosim.ts')).cosimCommand,
  rtl: async () => (await import('./commands/rtl.ts')).rtlCommand,
  synth: async () => (await import('./commands/synth.ts')).synthCommand,
  prove: async () => (await import('./commands/prove.ts')).proveCommand,
  bench: async () => (await import('./commands/bench.ts')).benchCommand,
  fp: async () => (await import('./commands/fp.ts')).fpCommand,
  asm: async () => (await import('./commands/asm.ts')).asmCommand,
  disasm: async () => (await import('./commands/disasm.ts')).disasmCommand,
  run: async () => (await import('./commands/run.ts')).runCommand,
  render: async () => (await import('./commands/render.ts')).renderCommand,
  doctor: async () => (await import('./commands/doctor.ts')).doctorCommand,
};

function usage(): string {
  return [
    'usage: rtgpu <command> [options]',
    '',
    'commands:',
    '  emit    write the SystemVerilog, file list and manifest of a design file',
    '  lint    check a design file: the eDSL\'s checks, verilator -Wall, iverilog -Wall',
    '  sim     run a testbench file on the TS simulator, Verilator, Icarus or several in lockstep',
    '  cosim   run a design (catalogue or file) in lockstep on the TS simulator, Verilator and Icarus',
    '  rtl     write the generated SystemVerilog, file lists, memory images and the FPGA handoff of rtgpu_top',
    '  synth   synthesize a design (catalogue or file) with Yosys and report its resources and logic depth',
    '  prove   prove a design file\'s assertions (k-induction or bounded) and reach its cover points with yosys-smtbmc',
    '  bench   measure simulation speed (cycles per second) of each simulator',
    '  fp      run operand lines (hex) through a float unit and print the results',
    '  asm     assemble RT core assembly to hex (or raw binary) words',
    '  disasm  disassemble hex words back to assembly',
    '  run     run a kernel for N pixels on the ISA simulator or the RT core and print each pixel\'s result',
    '  render  render a scene (default: the built-in Cornell box) through the simulated GPU to a PNG',
    '  doctor  report the installed external tools, their versions and what each enables',
    '',
    "run 'rtgpu <command> --help' for a command's options",
  ].join('\n');
}

async function dispatch(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name === undefined ? 2 : 0;
  }
  const load = commands[name];
  if (!load) throw new CliError(`unknown command '${name}'\n\n${usage()}`);
  return (await load()).run(rest);
}

/**
 * Runs one command line as `rtgpu` does and returns its exit status; an error is printed (without a stack trace)
 * on stderr. The process wiring (exit status, broken pipes, unawaited failures) is main.ts's.
 */
export async function runCli(argv: string[]): Promise<number> {
  try {
    return await dispatch(argv);
  } catch (e) {
    return reportCliError(e);
  }
}

/** Prints an error as the CLI reports it (eDSL diagnostics, usage errors, others by message) and returns the exit code. */
export function reportCliError(e: unknown, prefix = ''): number {
  if (e instanceof HdlError) {
    console.error(e.diagnostics.map(formatDiagnosticHere).join('\n'));
    return 1;
  }
  if (e instanceof CliError) {
    console.error(`rtgpu: ${prefix}${e.message}`);
    return e.exitCode;
  }
  const err = e as Error | undefined;
  console.error(`rtgpu: ${prefix}${typeof err?.message === 'string' ? err.message : inspect(e, { depth: 1, breakLength: Infinity })}`);
  if (process.env.RTGPU_DEBUG) console.error(err?.stack);
  return 1;
}

