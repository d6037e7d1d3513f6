// Finds where in the user's TypeScript a DSL call was made, from the JavaScript stack.
import { fileURLToPath } from 'node:url';
import { dirname, sep } from 'node:path';
import type { SourceLoc } from '../ir/netlist.ts';

const coreDir = dirname(fileURLToPath(import.meta.url)) + sep;
const hdlDir = dirname(coreDir.slice(0, -1)) + sep;
const internalDirs = ['core', 'ir', 'elaborate'].map((d) => hdlDir + d + sep);
// Helper files whose frames are skipped like the DSL's own (hideFromSourceLocations).
const hiddenFiles = new Set<string>();

/**
 * Attribute what the calling file builds to its caller: for small helpers (a delay line, a mux tree)
 * whose own line would name the same place for every use. Pass `import.meta.url`.
 */
export function hideFromSourceLocations(moduleUrl: string): void {
  hiddenFiles.add(moduleUrl.startsWith('file://') ? fileURLToPath(moduleUrl) : moduleUrl);
}

const unknownLoc: SourceLoc = { file: '<unknown>', line: 0, col: 0 };

// V8 frames look like "    at fn (/abs/file.ts:12:5)" or "    at /abs/file.ts:12:5" or "file:///abs/file.ts:12:5".
const framePattern = /\(?((?:file:\/\/)?[^\s()]+?):(\d+):(\d+)\)?\s*$/;

/** The first stack frame outside the DSL's own core and IR folders: the user's call site. */
export function callerLocation(): SourceLoc {
  const saved = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = saved;
  for (const line of stack.split('\n').slice(1)) {
    const m = framePattern.exec(line);
    if (!m) continue;
    let file = m[1]!;
    if (file.startsWith('file://')) file = fileURLToPath(file);
    if (internalDirs.some((d) => file.startsWith(d)) || hiddenFiles.has(file) || file.startsWith('node:') || file.includes('/node_modules/')) continue;
    return { file, line: Number(m[2]), col: Number(m[3]) };
  }
  return unknownLoc;
}

export function formatLoc(loc: SourceLoc): string {
  return `${loc.file}:${loc.line}:${loc.col}`;
}
