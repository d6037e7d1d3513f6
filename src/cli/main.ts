// Entry point of the `rtgpu` command: runs the command line (runCli) and wires it to the process.
import { reportCliError, runCli } from './runCli.ts';

// A reader that stops early (`rtgpu disasm big.hex | head`) closes the pipe: end quietly, as Unix tools do.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(process.exitCode ?? 0);
  });

// A design or testbench that starts work nothing awaits (an unawaited import(), a timer that throws) fails
// after its own code has returned: end with the same clean report, not Node's stack trace.
process.on('unhandledRejection', (e) => process.exit(reportCliError(e, 'a promise nothing awaited failed: ')));
process.on('uncaughtException', (e) => process.exit(reportCliError(e, 'code running outside the command failed: ')));

process.exitCode = await runCli(process.argv.slice(2));
