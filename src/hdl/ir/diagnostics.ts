// The catalogue of named elaboration errors and warnings, each tied to the user's source location.
import { fileURLToPath } from 'node:url';
import { dirname, sep } from 'node:path';
import type { SourceLoc } from './netlist.ts';

/** Every diagnostic the elaborator can report. Names are stable: tests and users match on them. */
export const diagnosticCodes = {
  WidthMismatch: 'a value is wider than its destination; truncate explicitly with .trunc(w) or .bits(hi, lo)',
  TypeMismatch: 'operands or destination have incompatible types (UInt/SInt/enum/bundle shape)',
  ValueOutOfRange: 'a literal does not fit its width or type',
  InvalidArgument: 'a DSL call received an argument outside its domain',
  CombinationalLoop: 'a combinational path leads from a signal back to itself',
  UndrivenOutput: 'an output port is never assigned',
  UndrivenWire: 'a wire is read but never assigned',
  UnconnectedInput: 'an input port of a submodule instance is never connected',
  MultipleDrivers: 'a signal that already has a driver is assigned',
  Latch: 'a combinational signal is not assigned on every path (it would infer a latch)',
  ReadOnly: 'the target cannot be assigned (an input, a submodule output, or an expression)',
  CrossModuleReference: 'a signal of one module is used inside another module',
  OutsideModule: 'a DSL call that needs a module was made outside module elaboration',
  BadInitFile: 'a memory initialization file is malformed',
  UnusedInput: 'an input port is never read',
  MixedResetKinds: 'one reset net resets some registers synchronously and others asynchronously',
  BlackBoxSource: "a black box's Verilog source cannot be read, or two sources share one file name",
  BlackBoxModel: "a black box's TypeScript model does not match its ports, or the TS simulator needs one it lacks",
  ClockDomain: 'a clock, clock domain or reset is declared or used wrongly (a clock read as data, a register with a reset in a domain without one, a domain of another module)',
  ClockDomainCrossing: 'a register samples a value of another clock domain without a synchronizer or a declared false path',
  JavaScriptOperator: 'a JavaScript operator or condition was applied to a hardware value: it builds no hardware (use the eDSL method it names)',
} as const;

export type DiagnosticCode = keyof typeof diagnosticCodes;

export interface DiagnosticNote {
  readonly message: string;
  readonly loc?: SourceLoc;
}

export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly loc: SourceLoc;
  readonly notes?: readonly DiagnosticNote[];
}

/** The names nearest a misspelt one (by edit distance, or containing it), as ` (did you mean 'a', 'b'?)`, or ''. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const limit = Math.max(2, Math.floor(name.length / 3));
  const scored = [...new Set(candidates)]
    .map((c) => ({ c, d: contains(c, name) || contains(name, c) ? 0.5 : editDistance(name.toLowerCase(), c.toLowerCase()) }))
    .filter((x) => x.d <= limit)
    .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c))
    .slice(0, 5);
  return scored.length ? ` (did you mean ${scored.map((x) => `'${x.c}'`).join(', ')}?)` : '';
}

/** `part` is in `whole` and long enough to mean something ('y' is in most names). */
const contains = (whole: string, part: string) => part.length >= 3 && whole.includes(part);

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 8) return Infinity;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length]!;
}

export function formatDiagnostic(d: Diagnostic): string {
  const head = `${d.loc.file}:${d.loc.line}:${d.loc.col}: ${d.severity}[${d.code}]: ${d.message}`;
  const notes = (d.notes ?? []).map((n) => (n.loc ? `\n  note: ${n.loc.file}:${n.loc.line}:${n.loc.col}: ${n.message}` : `\n  note: ${n.message}`));
  return head + notes.join('');
}

// The DSL's own folders (src/hdl/… or, installed, dist/hdl/…): their frames say nothing to a user.
const hdlDir = dirname(dirname(fileURLToPath(import.meta.url))) + sep;
const internalFrameDirs = ['core', 'ir', 'elaborate'].map((d) => `${hdlDir}${d}${sep}`);
const isInternalFrame = (line: string) => {
  const frame = line.replace(/file:\/\//g, '');
  return internalFrameDirs.some((d) => frame.includes(d)) || /\(node:|at node:/.test(frame);
};

/**
 * The stack as a user reads it: the message, then only the frames of their own code (an uncaught HdlError
 * in a script shows the `file:line:col: error[Code]` list and where elaborate was called, not the DSL's
 * internals). The full stack stays available as `internalStack`.
 */
function userStack(stack: string, message: string): string {
  const frames = stack.split('\n').filter((l) => /^\s+at /.test(l));
  const own = frames.filter((l) => !isInternalFrame(l));
  return [`HdlError: ${message}`, ...own].join('\n');
}

/** Thrown when elaboration fails; carries every error found, not only the first. */
export class HdlError extends Error {
  declare readonly diagnostics: readonly Diagnostic[];
  declare readonly internalStack: string;
  constructor(diagnostics: readonly Diagnostic[]) {
    super(diagnostics.map(formatDiagnostic).join('\n'));
    this.name = 'HdlError';
    // Not enumerable: Node prints an uncaught error's own enumerable fields after its stack.
    Object.defineProperty(this, 'diagnostics', { value: diagnostics, enumerable: false });
    // Deep module hierarchies put many DSL frames above the user's call: capture enough to reach it.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = Math.max(limit, 60);
    Error.captureStackTrace(this, HdlError);
    Error.stackTraceLimit = limit;
    Object.defineProperty(this, 'internalStack', { value: this.stack ?? '', enumerable: false });
    this.stack = userStack(this.stack ?? '', this.message);
  }
  /** The first diagnostic's code, for quick matching. */
  get code(): DiagnosticCode {
    return this.diagnostics[0]!.code;
  }
}

export function hdlError(code: DiagnosticCode, message: string, loc: SourceLoc, notes?: DiagnosticNote[]): HdlError {
  return new HdlError([{ code, severity: 'error', message, loc, notes }]);
}
