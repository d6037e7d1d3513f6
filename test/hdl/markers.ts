// Test helpers for reported source lines: the line of a `// @mark:NAME` comment, and the HdlError a call throws.
import { readFileSync } from 'node:fs';
import { HdlError } from '../../src/hdl/index.ts';

export function markerLine(file: string, name: string): number {
  const lines = readFileSync(file, 'utf8').split('\n');
  const i = lines.findIndex((l) => l.includes(`// @mark:${name}`));
  if (i < 0) throw new Error(`no marker ${name} in ${file}`);
  return i + 1;
}

/** The HdlError `f` throws (any other error is rethrown; no error fails). */
export function hdlErrorOf(f: () => unknown): HdlError {
  try {
    f();
  } catch (e) {
    if (e instanceof HdlError) return e;
    throw e;
  }
  throw new Error('expected an HdlError');
}
