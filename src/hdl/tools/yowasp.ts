// The WebAssembly build of Yosys from npm (@yowasp/yosys), installed on first use into a per-user cache.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

/** Pinned so that every machine without a native Yosys reports the same figures. */
export const YOWASP_YOSYS_VERSION = '0.55.944';

/** Where the package is installed: `$XDG_CACHE_HOME/rtgpu/` (default `~/.cache/rtgpu/`). */
export function yowaspDir(): string {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cache, 'rtgpu', `yowasp-yosys-${YOWASP_YOSYS_VERSION}`);
}

/** Runs the package like a native yosys (see yowaspMain.mjs). */
const mainScript = fileURLToPath(new URL('./yowaspMain.mjs', import.meta.url));

export interface YowaspCommand {
  readonly file: string;
  readonly args: readonly string[];
}

let installing: Promise<YowaspCommand> | undefined;

/**
 * The command that runs the WebAssembly Yosys, installing the package first when it is not cached.
 * The package is an API, not an executable (there is nothing for `npm exec` to run), hence the
 * install into a directory of our own and the small main script.
 */
export function yowaspYosys(): Promise<YowaspCommand> {
  installing ??= (async () => {
    const dir = yowaspDir();
    const bundle = join(dir, 'node_modules', '@yowasp', 'yosys', 'gen', 'bundle.js');
    if (!existsSync(bundle)) {
      const r = await execa('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', dir, `@yowasp/yosys@${YOWASP_YOSYS_VERSION}`], { reject: false, all: true });
      if (r.exitCode !== 0 || !existsSync(bundle)) {
        installing = undefined;
        const errors = (r.all ?? r.message ?? '')
          .split('\n')
          .filter((l) => /^npm (error|ERR!)/.test(l) && !/complete log/.test(l))
          .map((l) => l.replace(/^npm (error|ERR!)\s*/, ''));
        const why = errors.slice(0, 2).join('; ') || `npm exited with ${r.exitCode ?? r.code}`;
        throw new Error(`could not install @yowasp/yosys@${YOWASP_YOSYS_VERSION} from npm (${why})`);
      }
    }
    return { file: process.execPath, args: [mainScript, bundle] };
  })();
  return installing;
}
