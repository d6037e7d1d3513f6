// Design and testbench files given to the CLI: TypeScript (loaded through tsx, no build needed) or JavaScript
// modules that export eDSL modules, their parameters, and testbench bodies.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { inspect } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { HdlError, elaborate, type Design, type Diagnostic, type ModuleDef, type SourceLoc } from '../hdl/index.ts';
import type { Testbench } from '../hdl/testbench/index.ts';
import { createRequire, isBuiltin } from 'node:module';
import { CliError } from './cliError.ts';
import { placeModuleSyntaxError } from './moduleSyntaxError.ts';
import { checkSources } from '../hdl/tools/index.ts';

/** An argument that names a file rather than a catalogue design: it has a script extension or a path separator. */
export function isFileArgument(arg: string): boolean {
  return /\.(m|c)?[jt]sx?$/.test(arg) || arg.includes('/') || arg.includes('\\');
}

const shown = (path: string) => relative(process.cwd(), path) || path;

/** Where in `file` an error was thrown (its first stack frame there), as `file:line:col`. */
function placeIn(file: string, e: unknown): string | undefined {
  const stack = (e as Error)?.stack ?? '';
  for (const m of stack.matchAll(/\(?((?:file:\/\/)?[^\s()]+?):(\d+):(\d+)\)?\s*$/gm)) {
    const f = m[1]!.startsWith('file://') ? fileURLToPath(m[1]!) : m[1]!;
    if (f === file) return `${shown(f)}:${m[2]}:${m[3]}`;
  }
  return undefined;
}

/**
 * The error a user's code threw, as the CLI reports it: eDSL errors as they are, others at the user's line
 * (or, failing that, at `fallback`: the module being elaborated).
 */
function userError(file: string, e: unknown, fallback?: SourceLoc): Error {
  if (e instanceof HdlError || e instanceof CliError) return e;
  const err = e as Error & { code?: string; errors?: { text: string; location?: { file: string; line: number; column: number } }[] };
  // A .ts file outside an ES-module package is loaded as CommonJS, which cannot import rtgpu (ESM only).
  if (err?.code === 'ERR_REQUIRE_CYCLE_MODULE' || err?.code === 'ERR_REQUIRE_ESM' || /require\(\) (of )?ES Module/.test(err?.message ?? '')) {
    return new CliError(`${shown(file)}: design and testbench files are ES modules: add "type": "module" to your project's package.json, or name the file .mts`, 1);
  }
  // tsx reports syntax errors of TypeScript files with their location: esbuild's message list, or its text.
  const syntax = err?.errors?.[0];
  if (syntax?.location) return new CliError(`${shown(reportedFile(file, syntax.location.file))}:${syntax.location.line}:${syntax.location.column + 1}: ${syntax.text}`, 1);
  const esbuild = /^(\/[^\n:]+):(\d+):(\d+): ERROR: ([^\n]*)/m.exec(err?.message ?? '');
  // esbuild's text gives the column from 0, as its message list does.
  if (esbuild) return new CliError(`${shown(reportedFile(file, esbuild[1]!))}:${esbuild[2]}:${Number(esbuild[3]) + 1}: ${esbuild[4]}`, 1);
  const at = placeIn(file, e) ?? placeOfText(file, err?.message ?? '') ?? (fallback?.file === file ? `${shown(file)}:${fallback.line}:${fallback.col}` : undefined);
  return new CliError(`${at ?? shown(file)}: ${whatWasThrown(e)}`, 1);
}

/** The message of what a user's code threw; a value that is not an Error has no stack, so no line. */
function whatWasThrown(e: unknown): string {
  const message = (e as Error | undefined)?.message;
  if (message === 'URI malformed') return `a module specifier has a '%' that starts no escape like %20 (URI malformed)`;
  const noMain = typeof message === 'string' ? /^No "exports" main defined in (\S+package\.json)/.exec(message)?.[1] : undefined;
  if (noMain !== undefined) {
    const pkg = packageName(noMain);
    return `'${pkg}' has no main entry point, only its layers: import from ${pkg === 'rtgpu' ? "'rtgpu/hdl' (or 'rtgpu/hdl/lib', 'rtgpu/hdl/sim', 'rtgpu/hdl/testbench', …)" : `a subpath '${pkg}' exports`}`;
  }
  if (typeof message === 'string') return message;
  const value = inspect(e, { depth: 1, breakLength: Infinity });
  return `threw ${value.length > 80 ? `${value.slice(0, 77)}...` : value}, not an Error, so no line is known: throw new Error(...) to see where`;
}

/** The file a transpiler's message names: tsx names an .mts or .cts file as .ts, a file that does not exist. */
function reportedFile(file: string, named: string): string {
  const path = resolve(named);
  return path !== file && !existsSync(path) && path.replace(/\.[cm]?tsx?$/, '') === file.replace(/\.[cm]?tsx?$/, '') ? file : path;
}

/**
 * Errors the engine raises with no place in the file: an import that does not resolve (or has a URL
 * scheme the loader does not take, `r:gpu/hdl`) or lacks the name imported, a regular expression literal that is not one. They quote the specifier or the expression;
 * the place is where that text is in the file (a specifier's opening quote).
 */
function placeOfText(file: string, message: string): string | undefined {
  const needle = textQuoted(message);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const at = needle?.exec(text)?.index ?? unresolvedSpecifierAt(file, text, message);
  if (at === undefined) return undefined;
  const before = text.slice(0, at).split('\n');
  return `${shown(file)}:${before.length}:${before[before.length - 1]!.length + 1}`;
}

/**
 * Where the specifier a loader error names is when the file does not spell it as the message does (escapes:
 * `'r\\gpu/h'` for `rgpu/h`; paths the loader tried; dropped characters): the module specifiers of the file's
 * imports and exports, as the TypeScript parser reads them, against the package, path or subpath the message
 * names, or the first one whose percent escapes do not decode.
 */
function unresolvedSpecifierAt(file: string, text: string, message: string): number | undefined {
  const name = /^Cannot find (?:package|module) '([^']+)'/.exec(message)?.[1];
  // Or a package that exists without that subpath (`'rtgpu/hd\\gpu/h'`): the message quotes the subpath only.
  const subpath = /^Package subpath '\.\/([^']+)' is not defined/.exec(message)?.[1];
  // A path is named resolved, as a URL against the file (tsx takes a bare `$/` so too), with the file or index.ts tried.
  if (name?.startsWith('/')) return specifierAt(text, (spec) => triedFor(pathOfUrl(spec, file), name)) ?? firstUnknownSpecifierAt(text);
  // A package imported by its bare name that exports only subpaths (`'rtgpu'`): the message names its package.json.
  const noMain = /^No "exports" main defined in (\S+package\.json)/.exec(message)?.[1];
  if (noMain !== undefined) return specifierAt(text, (spec) => spec === packageName(noMain)) ?? firstUnknownSpecifierAt(text);
  const bare = (spec: string) => spec.replace(/[?#][^]*$/, '');
  // The loader drops control characters and a query, and names bytes that are not UTF-8 by U+FFFD: failing
  // an exact match, the specifier whose letters, digits and separators are the name's.
  const skeleton = (s: string) => s.replace(/[^\w@/.-]/g, '');
  if (name !== undefined) {
    const names = (n: string) => (spec: string) => spec === n || spec.startsWith(`${n}/`);
    const exact = specifierAt(text, (spec) => names(name)(spec) || names(name)(bare(spec)));
    return exact ?? (skeleton(name) === '' ? undefined : specifierAt(text, (spec) => names(skeleton(name))(skeleton(spec)))) ?? firstUnknownSpecifierAt(text);
  }
  if (subpath !== undefined) {
    const ends = (sub: string) => (spec: string) => spec.endsWith(`/${sub}`) || bare(spec).endsWith(`/${sub}`);
    const exact = specifierAt(text, ends(subpath));
    return exact ?? (skeleton(subpath) === '' ? undefined : specifierAt(text, (spec) => ends(skeleton(subpath))(skeleton(spec)))) ?? firstUnknownSpecifierAt(text);
  }
  // A URL scheme the loader does not take, spelled with an escape (`'r\\g:'` for `rg:`): the specifier of that scheme.
  const scheme = refusedScheme(message);
  if (scheme !== undefined) return specifierAt(text, (spec) => urlScheme(spec) === scheme) ?? firstUnknownSpecifierAt(text);
  // The loader decodes a specifier's percent escapes and says only "URI malformed" of a bad one (`'%/'`).
  if (message === 'URI malformed') return specifierAt(text, isMalformedUri);
  return undefined;
}

/** The URL scheme of a loader error refusing one (`Only URLs with a scheme in: … Received protocol 'rg:'`). */
const refusedScheme = (message: string): string | undefined => /^Only URLs with a scheme in: .* Received protocol '([^']+)'/.exec(message)?.[1];

/** The scheme of a specifier that is an absolute URL (`rg:` of `rg:x`), else undefined. */
function urlScheme(spec: string): string | undefined {
  try {
    return new URL(spec).protocol;
  } catch {
    return undefined;
  }
}

/** The `name` of a package.json, or '' when it cannot be read. */
function packageName(path: string): string {
  try {
    return String((JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown }).name ?? '');
  } catch {
    return '';
  }
}

/**
 * The last resort for a module the loader could not find under a name the file does not spell (`''` is looked
 * for as `node_modules//index.js`): the first specifier that is neither a Node builtin nor one of rtgpu's entry points.
 */
function firstUnknownSpecifierAt(text: string): number | undefined {
  // The package's own package.json, two levels up from src/cli and from dist/cli alike.
  const pkg = createRequire(import.meta.url)('../../package.json') as { name: string; exports: Record<string, unknown> };
  const entries = new Set(Object.keys(pkg.exports).map((k) => `${pkg.name}${k.slice(1)}`));
  return specifierAt(text, (spec) => !entries.has(spec) && !spec.startsWith('node:') && !isBuiltin(spec));
}

/** The file path a specifier names as a URL relative to `file` (control characters and query dropped), if it is a file URL. */
function pathOfUrl(spec: string, file: string): string | undefined {
  try {
    const url = new URL(spec, pathToFileURL(file));
    return url.protocol === 'file:' ? fileURLToPath(url) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the loader, given the path `base`, tried `path`: the path itself, with an extension, or a directory's index. */
function triedFor(base: string | undefined, path: string): boolean {
  if (base === undefined) return false;
  const stem = base.replace(/\/+$/, '');
  return path === stem || path === `${stem}/index` || path.startsWith(`${stem}/index.`) || (path.startsWith(`${stem}.`) && !path.slice(stem.length).includes('/'));
}

function isMalformedUri(spec: string): boolean {
  try {
    decodeURIComponent(spec);
    return false;
  } catch {
    return true;
  }
}

/** Where the first import or export specifier that `names` picks starts, as the TypeScript parser reads the file. */
function specifierAt(text: string, names: (spec: string) => boolean): number | undefined {
  // Loaded here, on this rare path, so that starting the CLI does not pay for the TypeScript parser.
  const { ts } = createRequire(import.meta.url)('ts-morph') as typeof import('ts-morph');
  const source = ts.createSourceFile('design.ts', text, ts.ScriptTarget.ESNext, true);
  for (const statement of source.statements) {
    const spec = (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier;
    if (spec && ts.isStringLiteral(spec) && names(spec.text)) return spec.getStart(source);
  }
  return undefined;
}

/** The text an engine error quotes, as it is written in the source: a specifier in quotes, a URL scheme, a regular expression. */
function textQuoted(message: string): RegExp | undefined {
  const spec = /^(?:Cannot find (?:package|module) '([^']+)'|Invalid module "([^"]+)"|The requested module '([^']+)' does not provide)/.exec(message)?.slice(1).find((x) => x !== undefined);
  // A module in another directory is named by its absolute path: its last part is in the specifier.
  if (spec !== undefined) return new RegExp(`['"](${escapeRegExp(spec)}|[^'"\\n]*/${escapeRegExp(spec.split('/').pop()!)})(?=['"/?#])`);
  const subpath = /^Package subpath '\.\/([^']+)' is not defined/.exec(message)?.[1];
  if (subpath !== undefined) return new RegExp(`['"][^'"\\n]*/${escapeRegExp(subpath)}(?=['"?#])`);
  const scheme = refusedScheme(message);
  if (scheme !== undefined) return new RegExp(`['"]${escapeRegExp(scheme)}`);
  const regex = /^Invalid regular expression: (\/.*\/)[a-z]*: /.exec(message)?.[1];
  return regex === undefined ? undefined : new RegExp(escapeRegExp(regex));
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const typecheckUsage = `  --no-typecheck        run the file without type-checking it (and the files it imports) first`;

/**
 * Type-checks a user's file (and the local files it imports) before it runs: TypeScript's errors and
 * hardware values used as JavaScript conditions, each at its file:line:col (cached by content).
 */
function typecheck(file: string): void {
  const problems = checkSources([file]);
  if (!problems.length) return;
  const MAX = 20;
  const lines = problems.slice(0, MAX).map((p) => `${shown(p.file)}:${p.line}:${p.col}: error${p.code === 'TypeScript' ? ' ' : `[${p.code}]: `}${p.message}`);
  if (problems.length > MAX) lines.push(`… and ${problems.length - MAX} more`);
  lines.push(`(${problems.length} problem${problems.length === 1 ? '' : 's'} before running ${shown(file)}; --no-typecheck runs it without this check)`);
  throw new CliError(lines.join('\n'), 1);
}

/** Set by whoever registered tsx's loader for the whole process (bin/rtgpu.mjs in a checkout). */
const tsLoader = Symbol.for('rtgpu.tsLoader');

/**
 * Imports a user's module: TypeScript through tsx's loader, registered for the whole process (not a
 * scoped `tsImport`): the file must share this process's modules, so that `rtgpu/hdl` is one copy.
 */
export async function importUserFile(path: string, opts: { readonly typecheck?: boolean } = {}): Promise<{ file: string; exports: Record<string, unknown> }> {
  const file = resolve(path);
  if (!existsSync(file)) throw new CliError(`${path}: no such file`, 1);
  if (!statSync(file).isFile()) throw new CliError(`${path} is not a file`, 1);
  if (opts.typecheck) typecheck(file);
  const g = globalThis as Record<symbol, unknown>;
  if (/\.(m|c)?tsx?$/.test(file) && !g[tsLoader]) {
    const { register } = await import('tsx/esm/api');
    register();
    g[tsLoader] = true;
  }
  try {
    return { file, exports: (await import(pathToFileURL(file).href)) as Record<string, unknown> };
  } catch (e) {
    const err = userError(file, e);
    if (!(e instanceof SyntaxError) || !err.message.startsWith(`${shown(file)}: `)) throw err;
    const at = await placeModuleSyntaxError(file);
    throw at ? new CliError(`${shown(file)}:${at.line}:${at.col}: ${e.message}`, 1) : err;
  }
}

export function isModuleDef(x: unknown): x is ModuleDef<never, never> {
  const d = x as Partial<ModuleDef<never, never>> | null;
  return typeof d === 'object' && d !== null && typeof d.name === 'string' && typeof d.ports === 'function' && typeof d.body === 'function' && typeof d.loc === 'object';
}

/** The module a file defines: `top` by export or module name, else its only (or default) exported module. */
export function chooseModule(file: string, exports: Record<string, unknown>, top?: string): { exportName: string; def: ModuleDef<never, never> } {
  const defs = Object.entries(exports).filter(([, v]) => isModuleDef(v)) as [string, ModuleDef<never, never>][];
  if (!defs.length) throw new CliError(`${shown(file)} exports no module: export the result of defineModule (e.g. 'export const Top = defineModule(…)')`, 1);
  if (top !== undefined) {
    const hit = defs.find(([k, d]) => k === top || d.name === top);
    if (!hit) throw new CliError(`${shown(file)} has no module '${top}'; it exports ${defs.map(([k]) => k).join(', ')}`, 1);
    return { exportName: hit[0], def: hit[1] };
  }
  const unique = [...new Map(defs.map(([k, d]) => [d, k])).entries()];
  if (unique.length === 1) return { exportName: unique[0]![1], def: unique[0]![0] };
  const byDefault = defs.find(([k]) => k === 'default');
  if (byDefault) return { exportName: 'default', def: byDefault[1] };
  // The file's `params` are for the one module that takes parameters (the others are its parts).
  const parameterized = unique.filter(([d]) => d.ports.length > 0);
  if (exports.params !== undefined && parameterized.length === 1) return { exportName: parameterized[0]![1], def: parameterized[0]![0] };
  throw new CliError(`${shown(file)} exports several modules (${defs.map(([k]) => k).join(', ')}): choose one with --top`, 2);
}

/** `--param key=value`: numbers (decimal, 0x hex), true/false, JSON arrays and objects, else strings. */
export function parseParams(pairs: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new CliError(`--param expects key=value, got '${pair}'`);
    const key = pair.slice(0, eq);
    const text = pair.slice(eq + 1);
    // __proto__ would set the prototype of the parameters instead of a parameter.
    if (!/^[A-Za-z_$][\w$]*$/.test(key) || key === '__proto__') throw new CliError(`--param '${pair}': '${key}' is not a parameter name`);
    let value: unknown = text;
    if (/^-?\d+$/.test(text)) value = Number.isSafeInteger(Number(text)) ? Number(text) : BigInt(text);
    else if (/^0x[0-9a-f]+$/i.test(text)) value = Number.isSafeInteger(Number(text)) ? Number(text) : BigInt(text);
    else if (/^-?\d*\.\d+(e[+-]?\d+)?$/i.test(text)) value = Number(text);
    else if (text === 'true' || text === 'false') value = text === 'true';
    else if (/^[[{]/.test(text)) {
      try {
        value = JSON.parse(text);
      } catch {
        throw new CliError(`--param '${pair}': the value is not valid JSON`);
      }
    }
    out[key] = value;
  }
  return out;
}

export interface UserDesign {
  readonly file: string;
  readonly def: ModuleDef<never, never>;
  readonly params: Record<string, unknown>;
  readonly design: Design;
  readonly warnings: readonly Diagnostic[];
}

/**
 * Elaborates the module a design file defines, with the file's exported `params` (defaults for the
 * CLI) overridden by `--param` values. eDSL errors come back as HdlError, at the user's lines.
 */
export async function loadUserDesign(path: string, opts: { top?: string; params?: readonly string[]; typecheck?: boolean } = {}): Promise<UserDesign> {
  const { file, exports } = await importUserFile(path, opts);
  const { def } = chooseModule(file, exports, opts.top);
  const defaults = exports.params;
  if (defaults !== undefined && (typeof defaults !== 'object' || defaults === null)) throw new CliError(`${shown(file)}: 'params' must be an object of the module's parameters`, 1);
  const params = { ...(defaults as Record<string, unknown> | undefined), ...parseParams(opts.params ?? []) };
  try {
    const { design, warnings } = elaborate(def, params as never);
    return { file, def, params, design, warnings };
  } catch (e) {
    // An error raised inside the eDSL, after the user's code returned (a malformed port list), is at no line of theirs.
    const err = userError(file, e, def.loc);
    // A module that needs parameters and got none fails somewhere inside; say what was given.
    if (Object.keys(params).length > 0 || def.ports.length === 0) throw err;
    const hint = `${def.name} was elaborated with no parameters: export 'params' from ${shown(file)} or give them with --param key=value`;
    if (err instanceof HdlError) throw new HdlError(err.diagnostics.map((d, i) => (i === 0 ? { ...d, notes: [...(d.notes ?? []), { message: hint }] } : d)));
    throw new CliError(`${err.message}\n(${hint})`, 1);
  }
}

export interface TestbenchFile {
  readonly file: string;
  readonly design: Design;
  readonly body: (tb: Testbench) => Promise<unknown>;
  readonly maxCycles?: number;
  /** What lockstep compares (`export const lockstep = { dontCare, fromFirstReset, payloadsWhileValid }`). */
  readonly lockstep?: LockstepPolicy;
}

/** The comparison policy a testbench file may give lockstep runs. */
export interface LockstepPolicy {
  readonly dontCare?: Readonly<Record<string, string | true>>;
  readonly fromFirstReset?: boolean;
  readonly payloadsWhileValid?: boolean;
}

function lockstepPolicy(file: string, value: unknown): LockstepPolicy | undefined {
  if (value === undefined) return undefined;
  const bad = (why: string) => new CliError(`${shown(file)}: 'lockstep' ${why}: export const lockstep = { dontCare: { port: 'qualifier' | true }, fromFirstReset: boolean, payloadsWhileValid: boolean }`, 1);
  if (typeof value !== 'object' || value === null) throw bad('must be an object');
  for (const k of Object.keys(value)) if (!['dontCare', 'fromFirstReset', 'payloadsWhileValid'].includes(k)) throw bad(`has no option '${k}'`);
  const v = value as LockstepPolicy;
  if (v.fromFirstReset !== undefined && typeof v.fromFirstReset !== 'boolean') throw bad('fromFirstReset must be a boolean');
  if (v.payloadsWhileValid !== undefined && typeof v.payloadsWhileValid !== 'boolean') throw bad('payloadsWhileValid must be a boolean');
  if (v.dontCare !== undefined && (typeof v.dontCare !== 'object' || v.dontCare === null)) throw bad('dontCare must be an object of port names');
  return v;
}

/**
 * A testbench file: its design (`export const design`, a Design or a function returning one; or the module
 * as in a design file, with `params`), and its body (`export default async function (tb) { … }`).
 */
export async function loadTestbenchFile(path: string, opts: { typecheck?: boolean } = {}): Promise<TestbenchFile> {
  const { file, exports } = await importUserFile(path, opts);
  const body = exports.default ?? exports.testbench;
  if (typeof body !== 'function') throw new CliError(`${shown(file)} has no testbench: export default async function (tb) { … } (tb: Testbench from rtgpu/hdl/testbench)`, 1);
  let design: Design;
  try {
    const d = typeof exports.design === 'function' ? (exports.design as () => unknown)() : exports.design;
    if (d !== undefined) {
      if (typeof (d as Design).top !== 'string' || !Array.isArray((d as Design).modules)) throw new CliError(`${shown(file)}: 'design' must be an elaborated Design (elaborate(Module, params).design) or a function returning one`, 1);
      design = d as Design;
    } else {
      const { def } = chooseModule(file, exports, typeof exports.top === 'string' ? exports.top : undefined);
      design = elaborate(def, (exports.params ?? {}) as never).design;
    }
  } catch (e) {
    throw userError(file, e);
  }
  const maxCycles = typeof exports.maxCycles === 'number' ? exports.maxCycles : undefined;
  return { file, design, body: (tb) => Promise.resolve((body as (tb: Testbench) => unknown)(tb)), maxCycles, lockstep: lockstepPolicy(file, exports.lockstep) };
}

export { shown as shownPath, userError };
