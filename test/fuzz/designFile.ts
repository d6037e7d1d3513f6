// The fuzz target of design files (`rtgpu emit/lint/cosim/synth FILE.ts`): the mutated text as a .ts file,
// loaded and elaborated by the CLI's own loader; it must load or fail at the file (and a line where it has one).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';
import { CliError } from '../../src/cli/cliError.ts';
import { loadUserDesign } from '../../src/cli/designFile.ts';
import { HdlError } from '../../src/hdl/index.ts';

/**
 * Inside the checkout (gitignored .cache/), so that `rtgpu/hdl` resolves and the package's "type": "module"
 * makes the file an ES module, as a user's project would. Each file is removed once loaded.
 */
const dir = fileURLToPath(new URL('../../.cache/fuzz-design-files/', import.meta.url));
/** Unique across the runner's worker threads and processes. */
const prefix = `${process.pid}-${threadId}-`;
let count = 0;
let lastFile = '';

/** Load the input as a design file (a fresh name each time: the module loader keeps every module). */
export async function loadDesignInput(input: Uint8Array): Promise<void> {
  // A file may start work nothing awaits (`import({})`) that fails after the load: the CLI reports that
  // cleanly (src/cli/main.ts, tested in test/cli/designFiles.test.ts); here it must not end the runner.
  if (process.listenerCount('unhandledRejection') === 0) process.on('unhandledRejection', () => {});
  mkdirSync(dir, { recursive: true });
  lastFile = join(dir, `${prefix}${count++}.ts`);
  writeFileSync(lastFile, input);
  try {
    await loadUserDesign(lastFile);
  } finally {
    rmSync(lastFile, { force: true });
  }
}

/** What the loader says of a file without a line: a file that exports no module, or no usable one. */
const LOADER_OWN = [/^: threw .*, not an Error, so no line is known/, /^: design and testbench files are ES modules/, /^ exports no module: /, /^: 'params' must be an object/, /^ exports several modules /, /^ has no module /];

/**
 * The errors a design file may end in: eDSL diagnostics whose first is at a line of the file; a CliError
 * whose first line opens with the file and a line (`file:12:5: …`: a syntax error, or an exception at
 * the user's line), or is one of the loader's own (LOADER_OWN).
 */
export function isDesignFileError(e: unknown): boolean {
  if (e instanceof HdlError) return e.diagnostics.length > 0 && e.diagnostics[0]!.loc.file === lastFile && e.diagnostics[0]!.loc.line > 0;
  if (!(e instanceof CliError)) return false;
  const shown = relative(process.cwd(), lastFile);
  const first = e.message.split('\n')[0]!;
  if (!first.startsWith(shown)) return false;
  const rest = first.slice(shown.length);
  return /^:\d+:\d+: \S/.test(rest) || LOADER_OWN.some((r) => r.test(rest));
}
