// Test helper: `rtgpu render` run in-process on cases that must each end in a CliError.
import { expect, vi } from 'vitest';
import { renderCommand } from '../../src/cli/commands/render.ts';
import { CliError } from '../../src/cli/cliError.ts';

/** Each case (flags after `base` and `--out out`) ends in a CliError whose `rtgpu: message` matches; stdout is muted. */
export async function expectRenderErrors(base: readonly string[], cases: readonly (readonly [readonly string[], RegExp])[], out: string): Promise<void> {
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    for (const [args, message] of cases) {
      const e = await renderCommand.run([...base, '--out', out, ...args]).then(
        () => undefined,
        (x: unknown) => x,
      );
      expect(e, args.join(' ')).toBeInstanceOf(CliError);
      expect(`rtgpu: ${(e as CliError).message}`, args.join(' ')).toMatch(message);
    }
  } finally {
    write.mockRestore();
  }
}
