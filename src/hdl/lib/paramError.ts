// Parameter errors of the library's modules: an HdlError located at the user's line that instantiates one.
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HdlError, type SourceLoc } from '../index.ts';

// The DSL and its library, whose frames are never the user's: src/hdl/, and dist/hdl/ installed (where a
// stack may name either, as Node maps it through the source maps or not).
const packageRoot = fileURLToPath(new URL('../../../', import.meta.url));
const hdlDirs = ['src', 'dist'].map((d) => join(packageRoot, d, 'hdl') + sep);
const framePattern = /\(?((?:file:\/\/)?[^\s()]+?):(\d+):(\d+)\)?\s*$/;

/** The first frame of the stack outside the DSL, Node and dependencies: where the user elaborates or instantiates. */
function userLocation(): SourceLoc {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 80;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  for (const line of stack.split('\n').slice(1)) {
    const m = framePattern.exec(line);
    if (!m) continue;
    const file = m[1]!.startsWith('file://') ? fileURLToPath(m[1]!) : m[1]!;
    if (hdlDirs.some((d) => file.startsWith(d)) || file.startsWith('node:') || file.includes(`${sep}node_modules${sep}`)) continue;
    return { file, line: Number(m[2]), col: Number(m[3]) };
  }
  return { file: '<unknown>', line: 0, col: 0 };
}

/** An `InvalidArgument` error of `module`'s parameters. */
export function paramError(module: string, message: string): HdlError {
  return new HdlError([{ code: 'InvalidArgument', severity: 'error', message: `${module}: ${message}`, loc: userLocation() }]);
}

/** `value` if it is an integer of at least `min` (`fallback` when undefined), else a parameter error. */
export function integerParam(module: string, name: string, value: number | undefined, fallback: number, min: number): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < min) throw paramError(module, `${name} must be an integer of at least ${min}, got ${String(v)}`);
  return v;
}
