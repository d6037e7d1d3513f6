// Test helper: an `rtgpu` command line run in the test's own process (runCli), for tables of bad flags and inputs.
// The same parsing, checks and messages as the command, without starting Node and loading the CLI through tsx
// for every case (1.5 to 3 s of CPU each). Each test file using it still spawns bin/rtgpu.mjs for some cases:
// what the process adds (the exit status, stderr, no stack trace) is checked there.
// (renderErrors.ts is narrower: it calls `rtgpu render` directly and asserts that each case throws a CliError.)
import { format } from 'node:util';
import { vi } from 'vitest';
import { runCli } from '../../src/cli/runCli.ts';

export interface CliRun {
  readonly exitCode: number;
  /** What the command printed, without the last newline (as execa gives it). */
  readonly stdout: string;
  readonly stderr: string;
}

const text = (chunk: unknown) => (typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));

export async function rtgpuInProcess(...argv: string[]): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const line = (into: string[]) => (...args: unknown[]) => void into.push(`${format(...args)}\n`);
  const spies = [
    vi.spyOn(console, 'log').mockImplementation(line(out)),
    vi.spyOn(console, 'info').mockImplementation(line(out)),
    vi.spyOn(console, 'error').mockImplementation(line(err)),
    vi.spyOn(console, 'warn').mockImplementation(line(err)),
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => (out.push(text(chunk)), true)),
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => (err.push(text(chunk)), true)),
  ];
  try {
    const exitCode = await runCli(argv);
    return { exitCode, stdout: out.join('').replace(/\n$/, ''), stderr: err.join('').replace(/\n$/, '') };
  } finally {
    for (const s of spies) s.mockRestore();
  }
}

/**
 * Runs each command line (after `prefix`): those at `spawnAt` through `spawn` (bin/rtgpu.mjs, side by side), the
 * others in-process one after another. The results are in the order of `argvs`.
 */
export async function runCliCases(
  argvs: readonly (readonly string[])[],
  o: { readonly spawn: (...argv: string[]) => Promise<{ readonly exitCode?: number; readonly stdout: string; readonly stderr: string }>; readonly spawnAt: readonly number[]; readonly prefix?: readonly string[] },
): Promise<CliRun[]> {
  const spawned = await Promise.all(o.spawnAt.map((i) => o.spawn(...argvs[i]!)));
  const runs: CliRun[] = [];
  for (const [i, argv] of argvs.entries()) {
    const k = o.spawnAt.indexOf(i);
    runs.push(k >= 0 ? { exitCode: spawned[k]!.exitCode ?? -1, stdout: spawned[k]!.stdout, stderr: spawned[k]!.stderr } : await rtgpuInProcess(...(o.prefix ?? []), ...argv));
  }
  return runs;
}
