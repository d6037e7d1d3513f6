// Caches a catalogue design's rtl files (SystemVerilog, file list, recorded testbench) by the package code that makes them.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cachedBuild, contentHash } from '../../hdl/tools/index.ts';
import type { RtlFile } from './generatedDir.ts';

// The package's sources: installed, dist/ is compiled from the src/ shipped beside it, so src/ names the code either way.
const sourceRoot = fileURLToPath(new URL('../../', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : [join(dir, e.name)]))
    .sort();
}

let codeVersion: string | undefined;

/**
 * Every source file of the package, Node's version and the name-inferring compiler's: what a catalogue design's
 * files depend on. A block's files are a function of the code alone (no tool runs to make them).
 */
function packageCodeVersion(): string {
  if (codeVersion === undefined) {
    const files = sourceFiles(sourceRoot);
    const require = createRequire(import.meta.url);
    const tsMorph = (require('ts-morph/package.json') as { version: string }).version;
    codeVersion = contentHash([process.version, tsMorph, ...files.flatMap((f) => [relative(sourceRoot, f), readFileSync(f, 'utf8')])]);
  }
  return codeVersion;
}

/**
 * The files of catalogue design `name`: made by `make` once per version of the package's code, then read from the
 * build cache (a block's recorded testbench takes seconds of simulation; a custom GPU handoff repeats every block).
 */
export async function cachedBlockFiles(name: string, make: () => RtlFile[]): Promise<RtlFile[]> {
  const { dir } = await cachedBuild('rtl-block', contentHash([packageCodeVersion(), name]), async (tmp) => {
    writeFileSync(join(tmp, 'files.json'), JSON.stringify(make()));
  });
  return JSON.parse(readFileSync(join(dir, 'files.json'), 'utf8')) as RtlFile[];
}
