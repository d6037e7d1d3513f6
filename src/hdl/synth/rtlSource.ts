// A set of SystemVerilog files with their top module, and a working directory to run tools on them.
import type { LintWaivers } from '../emit/index.ts';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RtlSource {
  readonly top: string;
  /** Every file the tools need (`.sv` and memory images), relative to the working directory. */
  readonly files: readonly { path: string; text: string }[];
  /** The `.sv` files in dependency order (children first, top last); the emitter writes one module per file, named after it. */
  readonly fileList: readonly string[];
  /** Waivers of black-box sources' lint findings (emitSystemVerilog's `lintWaivers`). */
  readonly lintWaivers?: LintWaivers;
}

/** The module a file of the list defines (`FAdd_stages3.sv` → `FAdd_stages3`). */
export function moduleOfFile(path: string): string {
  return path.replace(/^.*\//, '').replace(/\.s?v$/, '');
}

/**
 * Writes the source into a directory and runs `f` there: a fresh temporary directory removed
 * afterwards, or `keepDir` (created if needed, left in place for inspection).
 */
export async function inRtlDir<T>(src: RtlSource, f: (dir: string) => Promise<T>, keepDir?: string): Promise<T> {
  const dir = keepDir ?? mkdtempSync(join(tmpdir(), 'rtgpu-rtl-'));
  mkdirSync(dir, { recursive: true });
  try {
    for (const file of src.files) writeFileSync(join(dir, file.path), file.text);
    return await f(dir);
  } finally {
    if (!keepDir) rmSync(dir, { recursive: true, force: true });
  }
}
