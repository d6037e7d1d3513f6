// The fingerprint of rtgpu's own code: what a cached compile or elaboration must be keyed on besides its input, so that any change to rtgpu invalidates it.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

let fingerprint: string | undefined;

/**
 * A hash of every source file of the package's code tree: `src/` in a checkout (run through a TypeScript
 * loader), `dist/` when installed. Computed once per process (a few tens of milliseconds).
 */
export function codeFingerprint(): string {
  return (fingerprint ??= treeFingerprint(fileURLToPath(new URL('../..', import.meta.url))));
}

/** A hash of every file under `root` but type declarations and source maps: relative paths and contents, in sorted order. */
export function treeFingerprint(root: string): string {
  const h = createHash('sha256');
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      // Declarations and source maps do not change what the code does.
      else if (e.isFile() && !/\.(d\.ts|map)$/.test(e.name)) h.update(relative(root, path)).update('\0').update(readFileSync(path)).update('\0');
    }
  };
  walk(root);
  return h.digest('hex').slice(0, 24);
}
