// Places a syntax error that V8 raises with no location while compiling a user's module (one esbuild let
// through, such as `await` as a name): the file is transpiled again and checked by `node --check`, which
// prints the line, and that line is mapped back to the TypeScript through the transpiler's source map.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload, type SourceMapping } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';

/** The 1-based line and column in `file` of the syntax error `node --check` finds in it, or undefined. */
export async function placeModuleSyntaxError(file: string): Promise<{ line: number; col: number } | undefined> {
  const { ts } = await import('ts-morph');
  const out = ts.transpileModule(readFileSync(file, 'utf8'), {
    fileName: file,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ESNext, sourceMap: true },
  });
  const dir = mkdtempSync(join(tmpdir(), 'rtgpu-syntax-'));
  try {
    const js = join(dir, 'module.mjs');
    writeFileSync(js, out.outputText);
    const r = await execa(process.execPath, ['--check', js], { reject: false });
    // "FILE:LINE", the source line, then carets under the error.
    const [where, , carets] = r.stderr.split('\n');
    const line = where?.startsWith(`${js}:`) ? Number(where.slice(js.length + 1)) : NaN;
    if (!Number.isInteger(line) || out.sourceMapText === undefined) return undefined;
    const col = Math.max(0, carets?.indexOf('^') ?? 0);
    const entry = new SourceMap(JSON.parse(out.sourceMapText) as SourceMapPayload).findEntry(line - 1, col) as SourceMapping | Record<string, never>;
    return 'originalLine' in entry ? { line: entry.originalLine + 1, col: entry.originalColumn + 1 } : undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
