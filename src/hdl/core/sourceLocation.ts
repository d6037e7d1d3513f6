// Finds where in the user's TypeScript a DSL call was made, from the JavaScript stack.
import { readFileSync } from 'node:fs';
import { SourceMap, findSourceMap, type SourceMapPayload, type SourceMapping } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, resolve, sep } from 'node:path';
import type { SourceLoc } from '../ir/netlist.ts';

const coreDir = dirname(fileURLToPath(import.meta.url)) + sep;
const hdlDir = dirname(coreDir.slice(0, -1)) + sep;
// The package's root (src/ and, installed, dist/ lie below it). Its library and GPU code are user code to
// the DSL even when the package is installed under node_modules.
const packageRoot = dirname(dirname(hdlDir.slice(0, -1))) + sep;
const distDir = `${packageRoot}dist${sep}`;

/** The source file of a compiled dist/ file by name alone (its line needs the source map: sourceFrame). */
const sourceFileOf = (file: string): string => (file.startsWith(distDir) && file.endsWith('.js') ? `${packageRoot}src${sep}${file.slice(distDir.length, -3)}.ts` : file);

const sourceMaps = new Map<string, SourceMap | null>();

/**
 * Installed, the DSL runs from dist/: a frame there is translated through the emitted source map to the
 * shipped src/*.ts and its line (whether or not Node maps stack traces itself), so the library's signals
 * carry TypeScript lines and names, as when the sources run directly.
 */
function sourceFrame(file: string, line: number, col: number): { file: string; line: number; col: number } {
  if (!file.startsWith(distDir) || !file.endsWith('.js')) return { file, line, col };
  let map = sourceMaps.get(file);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')) as SourceMapPayload);
    } catch {
      map = null;
    }
    sourceMaps.set(file, map);
  }
  const entry = map?.findEntry(line - 1, col - 1) as SourceMapping | Record<string, never> | undefined;
  if (!entry || !('originalSource' in entry)) return { file: sourceFileOf(file), line, col };
  const original = entry.originalSource.startsWith('file://') ? fileURLToPath(entry.originalSource) : resolve(dirname(file), entry.originalSource);
  return { file: original, line: entry.originalLine + 1, col: entry.originalColumn + 1 };
}

// Frames are compared in their source spelling (sourceFrame), so the DSL's folders are those under src/.
const internalDirs = ['core', 'ir', 'elaborate'].map((d) => `${packageRoot}src${sep}hdl${sep}${d}${sep}`);
// Helper files whose frames are skipped like the DSL's own (hideFromSourceLocations).
const hiddenFiles = new Set<string>();

/**
 * Attribute what the calling file builds to its caller: for small helpers (a delay line, a mux tree)
 * whose own line would name the same place for every use. Pass `import.meta.url`.
 */
export function hideFromSourceLocations(moduleUrl: string): void {
  const file = moduleUrl.startsWith('file://') ? fileURLToPath(moduleUrl) : moduleUrl;
  hiddenFiles.add(sourceFileOf(file));
}

const unknownLoc: SourceLoc = { file: '<unknown>', line: 0, col: 0 };

// V8 frames look like "    at fn (/abs/file.ts:12:5)" or "    at /abs/file.ts:12:5" or "file:///abs/file.ts:12:5".
const framePattern = /\(?((?:file:\/\/)?[^\s()]+?):(\d+):(\d+)\)?\s*$/;

const frameFiles = new Map<string, string>();

const loadedMaps = new Map<string, SourceMap | null>();

/**
 * A frame of a stack taken with Node's source maps off, mapped through the map Node keeps for the module
 * (TypeScript that tsx compiled): the same position Node's own mapping would print.
 */
function loadedFrame(token: string, line: number, col: number): { token: string; line: number; col: number } {
  let map = loadedMaps.get(token);
  if (map === undefined) loadedMaps.set(token, (map = findSourceMap(token) ?? null));
  const entry = map?.findEntry(line - 1, col - 1) as SourceMapping | Record<string, never> | undefined;
  if (!entry || !('originalSource' in entry)) return { token, line, col };
  return { token: entry.originalSource, line: entry.originalLine + 1, col: entry.originalColumn + 1 };
}

type CallSite = NodeJS.CallSite;

/** What a formatter is handed as the error of the one frame it formats (it reads the name and message). */
const FRAME_ERROR = { name: 'Error', message: '' } as Error;

/**
 * Where a frame points in the source the user wrote. A stack-trace formatter installed by a module loader
 * (vitest's maps through its own source maps) formats this one frame; with Node's source maps on (tsx
 * turns them on), the map Node keeps for the module translates it (loadedFrame).
 */
function framePosition(site: CallSite, format: ((e: Error, s: CallSite[]) => unknown) | undefined): { token: string; line: number; col: number } | undefined {
  if (format) {
    // A bare error-shaped object: `new Error()` would capture yet another stack on this hot path.
    const text = format(FRAME_ERROR, [site]);
    const m = typeof text === 'string' ? framePattern.exec(text.split('\n')[1] ?? '') : null;
    return m ? { token: m[1]!, line: Number(m[2]), col: Number(m[3]) } : undefined;
  }
  const token = site.getFileName();
  const line = site.getLineNumber();
  const col = site.getColumnNumber();
  if (!token || line === null || col === null) return undefined;
  return (process as { sourceMapsEnabled?: boolean }).sourceMapsEnabled ? loadedFrame(token, line, col) : { token, line, col };
}

/** A path or file URL as a path (cached: the same few files come up on every stack). */
function framePath(token: string): string {
  let raw = frameFiles.get(token);
  if (raw === undefined) frameFiles.set(token, (raw = token.startsWith('file://') ? fileURLToPath(token) : token));
  return raw;
}

/** A frame of the DSL itself, a hidden helper, Node, or a dependency: never the user's call site. */
function skippedFile(file: string): boolean {
  if (internalDirs.some((d) => file.startsWith(d)) || hiddenFiles.has(file) || file.startsWith('node:')) return true;
  return file.includes(`${sep}node_modules${sep}`) && !file.startsWith(packageRoot);
}

/**
 * The first of `sites` outside the DSL's own core and IR folders, or undefined. A frame is judged by its
 * file first, which needs no formatting: only the user's frame is positioned through the source maps.
 */
function userFrame(sites: readonly CallSite[], format: ((e: Error, s: CallSite[]) => unknown) | undefined): SourceLoc | undefined {
  for (const site of sites) {
    const name = site.getFileName();
    if (name && skippedFile(sourceFileOf(framePath(name)))) continue;
    const loc = positioned(site, name, format);
    if (loc) return loc;
  }
  return undefined;
}

// A design's loops and helpers call the DSL from the same few lines again and again: each generated position is
// mapped through the source maps once (per formatter, which decides how a position reads).
const positions = new Map<string, SourceLoc | null>();
let positionsFormat: unknown = null;

/** The user's source position of a frame not skipped by its file, or undefined if it maps into the DSL after all. */
function positioned(site: CallSite, name: string | null, format: ((e: Error, s: CallSite[]) => unknown) | undefined): SourceLoc | undefined {
  if (format !== positionsFormat) {
    positions.clear();
    positionsFormat = format;
  }
  const key = name ? `${name}:${site.getLineNumber()}:${site.getColumnNumber()}` : undefined;
  const known = key === undefined ? undefined : positions.get(key);
  if (known !== undefined) return known ?? undefined;
  const f = framePosition(site, format);
  let loc: SourceLoc | null = null;
  if (f) {
    const { file, line, col } = sourceFrame(framePath(f.token), f.line, f.col);
    if (!skippedFile(file)) loc = { file, line, col };
  }
  if (key !== undefined) positions.set(key, loc);
  return loc ?? undefined;
}

/**
 * The call sites of the stack, `frames` deep, unformatted: formatting every frame of every stack (through
 * source maps under tsx or vitest) cost three quarters of elaborating, and only the frames up to the
 * user's are looked at.
 */
function callSites(frames: number): CallSite[] {
  const savedLimit = Error.stackTraceLimit;
  const savedPrepare = Error.prepareStackTrace;
  Error.stackTraceLimit = frames;
  Error.prepareStackTrace = (_e, sites) => sites;
  try {
    const holder: { stack?: CallSite[] } = {};
    Error.captureStackTrace(holder, callSites);
    return holder.stack ?? [];
  } finally {
    Error.prepareStackTrace = savedPrepare;
    Error.stackTraceLimit = savedLimit;
  }
}

/**
 * The first stack frame outside the DSL's own core and IR folders: the user's call site. Capturing the stack is
 * most of the cost and grows with its depth: the user's frame is within 6 frames for most calls (12 made
 * elaborating a third slower), and a deeper helper chain takes the second, deeper look.
 */
export function callerLocation(): SourceLoc {
  if (pinned) return pinned;
  const format = Error.prepareStackTrace;
  return userFrame(callSites(6), format) ?? userFrame(callSites(40), format) ?? unknownLoc;
}

export function formatLoc(loc: SourceLoc): string {
  return `${loc.file}:${loc.line}:${loc.col}`;
}

/** While set, every DSL call is located here (what the DSL builds on its own, after the user's body). */
let pinned: SourceLoc | undefined;

/**
 * Runs `body` with every DSL call in it located on `loc`'s line, at column 0: a place that names none of
 * what it builds (name inference skips column 0; a real call site has a column of at least 1).
 */
export function atLocation<R>(loc: SourceLoc, body: () => R): R {
  const saved = pinned;
  pinned = { file: loc.file, line: loc.line, col: 0 };
  try {
    return body();
  } finally {
    pinned = saved;
  }
}
