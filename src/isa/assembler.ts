// The RT core assembler: source text (seed syntax and the original team's syntax) to 32-bit words.
import { BY_MNEMONIC, BY_OPCODE, FIELD, REG, fieldOf, type InstructionSpec, type OperandKind } from './instructions.ts';
import { AsmError, LineError, quote, type AsmDiagnostic } from './asmError.ts';
import { tokenize, type Token } from './asmLexer.ts';
import { fileIdentity, readIncludeFromDisk, type IncludeReader } from './includeFiles.ts';
import { TXD_LOD_CLAMP_MAX, TXD_OFFSET_MAX, TXD_OFFSET_MIN, encodeTxdControl } from './textureOperands.ts';

export { AsmError, type AsmDiagnostic } from './asmError.ts';
export type { IncludeReader, IncludedFile } from './includeFiles.ts';

export interface Program {
  readonly words: Uint32Array;
  /** 1-based source line of the statement each word came from (in the file `sourceFiles` names). */
  readonly sourceLines: Int32Array;
  /** The assembled file first, then each file `.include` brought in, as named in messages. */
  readonly files: readonly string[];
  /** Index into `files` of the file each word came from. */
  readonly sourceFiles: Uint16Array;
  /** Label → byte address. */
  readonly labels: ReadonlyMap<string, number>;
}

/** `file:line` of the statement word `index` came from, or undefined (no such word, or not from source). */
export function sourceLocationOf(p: Pick<Program, 'files' | 'sourceFiles' | 'sourceLines'>, index: number): string | undefined {
  const line = p.sourceLines[index];
  const file = p.files[p.sourceFiles[index] ?? -1];
  return line !== undefined && line > 0 && file !== undefined ? `${file}:${line}` : undefined;
}

export interface AssembleOptions {
  /** Reads a `.include`d file (default: from disk, relative to the including file's directory). */
  readonly readInclude?: IncludeReader;
}

/** How deep `.include` may nest (a cycle is reported before this). */
const MAX_INCLUDE_DEPTH = 16;

/** Errors listed in an AsmError before the rest are only counted. */
export const MAX_ERRORS = 20;
/** No program (instruction or constant image) comes near this; it keeps `.space` from exhausting memory. */
export const MAX_PROGRAM_BYTES = 1 << 20;

// ---------------------------------------------------------------------------------------------
// Operands

/** An operand as written: a word (register, number or label), possibly after `#`, or a string. */
type Arg =
  | { readonly kind: 'word'; readonly text: string; readonly hash: boolean; readonly col: number }
  | { readonly kind: 'string'; readonly bytes: readonly number[]; readonly col: number };

/** An operand's value: a number, or a label whose offset from PC+4 pass 2 fills in. */
type Value = number | LabelRef;
interface LabelRef {
  readonly label: string;
  readonly col: number;
}

const REGISTER = /^(rv|rs|r)(\d+)$/i;
const NUMBER = /^([-+]?)(?:0x([0-9a-f]+)|0b([01]+)|(\d+))$/i;
const LABEL = /^[A-Za-z_.$][A-Za-z0-9_.$]*$/;

const shown = (a: Arg): string => (a.kind === 'string' ? 'a string' : quote(a.hash ? `#${a.text}` : a.text));

function registerName(text: string): { file: 'r' | 'rs' | 'rv'; n: number } | undefined {
  const m = REGISTER.exec(text);
  return m ? { file: m[1]!.toLowerCase() as 'r' | 'rs' | 'rv', n: Number(m[2]) } : undefined;
}

/** The value of a decimal, 0x hex or 0b binary number, or undefined if `text` is not one. */
export function parseNumber(text: string): number | undefined {
  const m = NUMBER.exec(text);
  if (!m) return undefined;
  const magnitude = m[2] !== undefined ? parseInt(m[2], 16) : m[3] !== undefined ? parseInt(m[3], 2) : parseInt(m[4]!, 10);
  return m[1] === '-' ? -magnitude : magnitude;
}

function scalarRegister(a: Arg): number {
  const reg = a.kind === 'word' && !a.hash ? registerName(a.text) : undefined;
  if (!reg) throw new LineError(a.col, `expected a scalar register, got ${shown(a)}`);
  if (reg.file === 'rv') throw new LineError(a.col, `expected a scalar register, got vector register ${shown(a)}`);
  if (reg.n > 31) throw new LineError(a.col, `scalar register ${shown(a)} out of range (R0 to R31)`);
  return reg.n;
}

/** `Rn` and `RVn` both name vector register n where a vector register is expected. */
function vectorRegister(a: Arg): number {
  const reg = a.kind === 'word' && !a.hash ? registerName(a.text) : undefined;
  if (!reg) throw new LineError(a.col, `expected a vector register, got ${shown(a)}`);
  if (reg.file === 'rs') throw new LineError(a.col, `expected a vector register, got scalar register ${shown(a)}`);
  if (reg.n > 15) throw new LineError(a.col, `vector register ${shown(a)} out of range (RV0 to RV15)`);
  return reg.n;
}

/** What a number operand may be: its name in messages and its range. */
interface NumberKind {
  readonly expected: string;
  readonly noun: string;
  readonly min: number;
  readonly max: number;
  readonly range: string;
}

const S16 = '-32768 to 32767';
const SIMM: NumberKind = { expected: 'an immediate', noun: 'immediate', min: -32768, max: 32767, range: `signed 16 bits: ${S16}` };
const UIMM: NumberKind = { expected: 'an immediate', noun: 'immediate', min: -32768, max: 65535, range: "16 bits: 0 to 65535, or -32768 to -1 for its two's complement" };
const LANE: NumberKind = { expected: 'a lane (0 to 3)', noun: 'lane', min: 0, max: 3, range: '0 to 3' };
const MASK: NumberKind = { expected: 'a write mask (1 to 15)', noun: 'write mask', min: 1, max: 15, range: '1 to 15: bit k writes lane k; 0 would write nothing' };
const LOD_CLAMP: NumberKind = { expected: 'a LOD clamp', noun: 'LOD clamp', min: 0, max: TXD_LOD_CLAMP_MAX, range: `u4.8: 0 to ${TXD_LOD_CLAMP_MAX}, i.e. 0 to 16 - 1/256 levels` };
const TEXEL_OFFSET: NumberKind = { expected: 'a texel offset', noun: 'texel offset', min: TXD_OFFSET_MIN, max: TXD_OFFSET_MAX, range: `${TXD_OFFSET_MIN} to ${TXD_OFFSET_MAX}` };
const OFFSET: NumberKind = { expected: 'a label or byte offset', noun: 'branch offset', min: -32768, max: 32767, range: S16 };
const WORD: NumberKind = { expected: 'a 32-bit value', noun: 'value', min: -0x80000000, max: 0xffffffff, range: '32 bits: -2147483648 to 4294967295' };
const BYTE: NumberKind = { expected: 'a byte value', noun: 'byte', min: -128, max: 255, range: '-128 to 255' };
const SIZE: NumberKind = { expected: 'a size in bytes', noun: 'size', min: 0, max: MAX_PROGRAM_BYTES, range: `0 to ${MAX_PROGRAM_BYTES}` };

/** A number operand (`#` optional) of the given kind. */
function number(a: Arg, k: NumberKind): number {
  if (a.kind === 'string') throw new LineError(a.col, `expected ${k.expected}, got a string`);
  if (!a.hash && registerName(a.text)) throw new LineError(a.col, `expected ${k.expected}, got register ${shown(a)}`);
  const n = parseNumber(a.text);
  if (n === undefined) throw new LineError(a.col, `expected ${k.expected}, got ${shown(a)}`);
  if (!(n >= k.min && n <= k.max)) throw new LineError(a.col, `${k.noun} ${quote(a.text)} out of range (${k.range})`);
  return n;
}

/** A branch target: a label, or a byte offset from PC+4 (a multiple of 4). */
function target(a: Arg): Value {
  if (a.kind === 'word' && !a.hash && registerName(a.text)) throw new LineError(a.col, `expected ${OFFSET.expected}, got register ${shown(a)} (ret jumps through a register)`);
  if (a.kind === 'word' && !a.hash && LABEL.test(a.text)) return { label: a.text, col: a.col };
  const n = number(a, OFFSET);
  if (n % 4 !== 0) throw new LineError(a.col, `branch offset ${shown(a)} is not a multiple of 4`);
  return n;
}

function operand(kind: OperandKind, a: Arg): Value {
  switch (kind) {
    case 'rs':
      return scalarRegister(a);
    case 'rv':
      return vectorRegister(a);
    case 'simm':
      return number(a, SIMM);
    case 'uimm':
      return number(a, UIMM);
    case 'lane':
      return number(a, LANE);
    case 'mask':
      return number(a, MASK);
    case 'target':
      return target(a);
  }
}

// ---------------------------------------------------------------------------------------------
// Encoding

/** A word to emit; with `label`, pass 2 puts the label's offset from this word's PC+4 into [15:0]. */
interface Emit {
  readonly word: number;
  readonly label?: LabelRef;
}

/** Encode `spec` with one value per operand in table order; unused bits stay 0. */
function encode(spec: InstructionSpec, values: readonly Value[]): Emit {
  let word = spec.opcode << FIELD.opcode.lo;
  let label: LabelRef | undefined;
  spec.operands.forEach((op, i) => {
    const v = values[i]!;
    if (typeof v !== 'number') label = v;
    else for (const f of op.fields) word |= (v & ((1 << FIELD[f].width) - 1)) << FIELD[f].lo;
  });
  return label ? { word: word >>> 0, label } : { word: word >>> 0 };
}

const real = (mnemonic: string): InstructionSpec => BY_MNEMONIC.get(mnemonic)!;
const ins = (mnemonic: string, ...values: Value[]): Emit => encode(real(mnemonic), values);

/** Whether field A of `spec` is a scalar register it writes (so R31 there is an error). */
export const writesScalarA = (spec: InstructionSpec): boolean => spec.cls !== 'store' && spec.operands[0]?.kind === 'rs' && spec.operands[0].fields.includes('A');

// ---------------------------------------------------------------------------------------------
// Mnemonics: the table's instructions, aliases and pseudo-instructions

/** One way to write a mnemonic: its operand kinds and the words it becomes. */
interface Form {
  readonly kinds: readonly OperandKind[];
  /** Narrower ranges (and names in messages) for some number operands, by position. */
  readonly numbers?: readonly (NumberKind | undefined)[];
  readonly expand: (v: readonly Value[], args: readonly Arg[]) => Emit[];
}

const tableForm = (spec: InstructionSpec): Form => ({ kinds: spec.operands.map((o) => o.kind), expand: (v) => [encode(spec, v)] });
const aliasOf = (mnemonic: string): Form[] => [tableForm(real(mnemonic))];
/** Register and immediate operands are always numbers (only branch targets can be labels). */
const n = (v: Value): number => v as number;
const { sp, link, pc } = REG;

/** s_write_high/low with field B given explicitly (the table form writes the one register into A and B). */
const writeReal = (mnemonic: string): Form => ({
  kinds: ['rs', 'rs', 'uimm'],
  expand: ([d, s, imm]) => [{ word: ((real(mnemonic).opcode << FIELD.opcode.lo) | (n(d!) << FIELD.A.lo) | (n(s!) << FIELD.B.lo) | (n(imm!) & 0xffff)) >>> 0 }],
});

/** ii_mod/ii_modi write the quotient into Rd before the last read of their sources. */
function checkModDestination(mnemonic: string, v: readonly Value[], args: readonly Arg[], registerSources: number): void {
  const d = n(v[0]!);
  if (d === REG.zero) throw new LineError(args[0]!.col, `${mnemonic} cannot write R0: its destination holds the intermediate quotient`);
  for (let i = 1; i <= registerSources; i++) {
    if (n(v[i]!) === d) throw new LineError(args[0]!.col, `${mnemonic} destination R${d} must differ from its source registers (it holds the intermediate quotient)`);
  }
}

/** A mnemonic written one way. */
const one = (kinds: readonly OperandKind[], expand: Form['expand']): Form[] => [{ kinds, expand }];

function mod(v: readonly Value[], args: readonly Arg[]): Emit[] {
  checkModDestination('ii_mod', v, args, 2);
  const [d, a, b] = v as number[];
  return [ins('ii_div', d!, a!, b!), ins('ii_mul', d!, d!, b!), ins('ii_sub', d!, a!, d!)];
}

/** txd_control Rd, #lodClamp, #du, #dv: txd's control word (RVa.w) built in Rd by s_write_high and s_write_low. */
const txdControl: Form = {
  kinds: ['rs', 'simm', 'simm', 'simm'],
  numbers: [undefined, LOD_CLAMP, TEXEL_OFFSET, TEXEL_OFFSET],
  expand: ([d, lodClamp, du, dv]) => {
    const word = encodeTxdControl(n(lodClamp!), n(du!), n(dv!));
    return [ins('s_write_high', d!, word >>> 16), ins('s_write_low', d!, word & 0xffff)];
  },
};

function modi(v: readonly Value[], args: readonly Arg[]): Emit[] {
  checkModDestination('ii_modi', v, args, 1);
  const [d, a, imm] = v as number[];
  return [ins('ii_divi', d!, a!, imm!), ins('ii_muli', d!, d!, imm!), ins('ii_sub', d!, a!, d!)];
}

/** trace RVa: the ray query in RVa (docs/rays.md). RV0 would read zeros, the empty interval [0, 0]: plain `trace` is meant. */
const traceQuery: Form = {
  kinds: ['rv'],
  expand: (v, args) => {
    if (n(v[0]!) === 0) throw new LineError(args[0]!.col, "trace RV0 is not allowed: RV0 reads zeros, the empty interval [0, 0] that accepts no hit; write plain 'trace' for the default ray (tmin +0, tmax +inf, every mask bit)");
    return [encode(real('trace'), v)];
  },
};

const PSEUDO: ReadonlyMap<string, Form[]> = new Map([
  ['s_push', one(['rs'], ([r]) => [ins('s_store_4byte', r!, sp, 0), ins('ii_addi', sp, sp, 4)])],
  ['s_pop', one(['rs'], ([r]) => [ins('ii_addi', sp, sp, -4), ins('s_load_4byte', r!, sp, 0)])],
  ['v_push', one(['rv'], ([r]) => [ins('v_store_16byte', r!, sp, 0), ins('ii_addi', sp, sp, 16)])],
  ['v_pop', one(['rv'], ([r]) => [ins('ii_addi', sp, sp, -16), ins('v_load_16byte', r!, sp, 0)])],
  // R31 reads as the address of the jmp, so R30 = the address after it.
  ['jmp_link', one(['target'], ([t]) => [ins('ii_addi', link, pc, 4), ins('jmp', t!)])],
  ['s_mov', one(['rs', 'rs'], ([d, s]) => [ins('ii_add', d!, s!, REG.zero)])],
  // x - (+0) is x for every non-NaN x including -0; x + (+0) would turn -0 into +0.
  ['v_mov', one(['rv', 'rv'], ([d, s]) => [ins('vv_sub', d!, s!, 0)])],
  ['s_setzero', one(['rs'], ([d]) => [ins('xor', d!, d!, d!)])],
  ['ii_mod', one(['rs', 'rs', 'rs'], mod)],
  ['ii_modi', one(['rs', 'rs', 'simm'], modi)],
  // Seed 003's write mask defaults to all four lanes.
  ['txd', [...one(['rv', 'rv', 'rv'], ([d, a, b]) => [ins('txd', d!, a!, b!, 0xf)]), tableForm(real('txd'))]],
  ['txd_control', [txdControl]],
  // The original team's aliases.
  ['v_get_from_s_d', aliasOf('v_get_from_s')],
  ['real_jmp', aliasOf('jmp')],
  ['ret_real', aliasOf('ret')],
  ['itof', aliasOf('s_itof')],
  ['ftoi', aliasOf('s_ftoi')],
  ['s_write_high_real', [writeReal('s_write_high')]],
  ['s_write_low_real', [writeReal('s_write_low')]],
  // `trace` alone is KEVIN's plain trace (field A = 0); `trace RVa` casts the query in RVa.
  ['trace', [...one([], () => [ins('trace', 0)]), traceQuery]],
  // `ret` alone returns through the link register.
  ['ret', [...one([], () => [ins('ret', link)]), tableForm(real('ret'))]],
]);

/** Names the seed uses for instructions that have another name here. */
const HINTS: Readonly<Record<string, string>> = { vv_mul_dot: 'v_reduce', v_store_4byte: 'v_store_16byte', v_load_4byte: 'v_load_16byte' };

function formsOf(mnemonic: string): readonly Form[] | undefined {
  const pseudo = PSEUDO.get(mnemonic);
  if (pseudo) return pseudo;
  const spec = BY_MNEMONIC.get(mnemonic);
  return spec ? [tableForm(spec)] : undefined;
}

const KIND_NAMES: Readonly<Record<OperandKind, string>> = { rs: 'R', rv: 'RV', simm: '#imm', uimm: '#imm', lane: '#lane', target: 'label', mask: '#mask' };

function describeForm(f: Form): string {
  const count = f.kinds.length === 0 ? 'no operands' : `${f.kinds.length} operand${f.kinds.length === 1 ? '' : 's'}`;
  return f.kinds.length ? `${count} (${f.kinds.map((k) => KIND_NAMES[k]).join(', ')})` : count;
}

function unknownMnemonic(mnemonic: string, col: number): LineError {
  const lower = mnemonic.toLowerCase();
  const hint = Object.hasOwn(HINTS, lower) ? ` (did you mean ${HINTS[lower]}?)` : '';
  return new LineError(col, `unknown mnemonic ${quote(mnemonic)}${hint}`);
}

/** The words of one instruction or pseudo-instruction. */
function instruction(mnemonic: string, col: number, args: readonly Arg[]): Emit[] {
  const forms = formsOf(mnemonic);
  if (!forms) throw unknownMnemonic(mnemonic, col);
  const form = forms.find((f) => f.kinds.length === args.length);
  if (!form) {
    const extra = args[Math.max(...forms.map((f) => f.kinds.length))];
    throw new LineError(extra?.col ?? col, `${mnemonic} takes ${forms.map(describeForm).join(' or ')}, got ${args.length}`);
  }
  const values = form.kinds.map((k, i) => {
    const narrower = form.numbers?.[i];
    return narrower ? number(args[i]!, narrower) : operand(k, args[i]!);
  });
  const emits = form.expand(values, args);
  for (const e of emits) {
    const spec = BY_OPCODE.get(fieldOf(e.word, 'opcode'))!;
    if (writesScalarA(spec) && fieldOf(e.word, 'A') === REG.pc) throw new LineError(args[0]!.col, 'R31 is the program counter and cannot be written');
  }
  return emits;
}

// ---------------------------------------------------------------------------------------------
// Directives

/** Bytes packed little-endian into words, the last padded with zeros. */
function packBytes(bytes: readonly number[]): Emit[] {
  const out: Emit[] = [];
  for (let i = 0; i < bytes.length; i += 4) {
    const w = (bytes[i] ?? 0) | ((bytes[i + 1] ?? 0) << 8) | ((bytes[i + 2] ?? 0) << 16) | ((bytes[i + 3] ?? 0) << 24);
    out.push({ word: w >>> 0 });
  }
  return out;
}

function directive(name: string, col: number, args: readonly Arg[]): Emit[] {
  const atLeastOne = (): void => {
    if (!args.length) throw new LineError(col, `${name} needs at least one value`);
  };
  const exactlyOne = (what: string): Arg => {
    if (args.length !== 1) throw new LineError(args[1]?.col ?? col, `${name} takes one ${what}, got ${args.length}`);
    return args[0]!;
  };
  switch (name) {
    case '.word':
      atLeastOne();
      return args.map((a) => ({ word: number(a, WORD) >>> 0 }));
    case '.byte':
      atLeastOne();
      return packBytes(args.map((a) => number(a, BYTE) & 0xff));
    case '.space': {
      const size = number(exactlyOne('size'), SIZE);
      return Array.from({ length: Math.ceil(size / 4) }, () => ({ word: 0 }));
    }
    case '.string': {
      const a = exactlyOne('string');
      if (a.kind !== 'string') throw new LineError(a.col, `expected a string, got ${shown(a)}`);
      return packBytes([...a.bytes, 0]);
    }
    default:
      throw unknownDirective(name, col);
  }
}

const DIRECTIVES = new Set(['.word', '.byte', '.space', '.string']);
const unknownDirective = (name: string, col: number): LineError => new LineError(col, `unknown directive ${quote(name)} (directives: .word, .byte, .space, .string, .include)`);

// ---------------------------------------------------------------------------------------------
// Lines

/** A mnemonic or directive: lowercased, and as written. */
interface Head {
  readonly name: string;
  readonly text: string;
  readonly col: number;
}

interface ParsedLine {
  readonly labels: readonly { readonly name: string; readonly col: number }[];
  /** The statement after the labels, if any. */
  readonly head?: Head;
  readonly rest: readonly Token[];
}

/** Labels (`name:`) at the start of a line, then the mnemonic or directive and its operand tokens. */
function splitLine(tokens: readonly Token[]): ParsedLine {
  const labels: { name: string; col: number }[] = [];
  let i = 0;
  for (; tokens[i]?.kind === 'word' && tokens[i + 1]?.kind === ':'; i += 2) {
    const t = tokens[i] as Token & { kind: 'word' };
    if (!LABEL.test(t.text)) throw new LineError(t.col, `${quote(t.text)} is not a valid label name`);
    if (registerName(t.text)) throw new LineError(t.col, `${quote(t.text)} is a register name and cannot be a label`);
    labels.push({ name: t.text, col: t.col });
  }
  const head = tokens[i];
  if (!head) return { labels, rest: [] };
  if (head.kind !== 'word' || !LABEL.test(head.text)) throw new LineError(head.col, `expected a mnemonic or directive, got ${head.kind === 'word' ? quote(head.text) : head.kind === 'string' ? 'a string' : quote(head.kind)}`);
  return { labels, head: { name: head.text.toLowerCase(), text: head.text, col: head.col }, rest: tokens.slice(i + 1) };
}

/** Operands separated by commas and/or white space; `#` may precede a number. */
function parseArgs(tokens: readonly Token[]): Arg[] {
  const args: Arg[] = [];
  let i = 0;
  while (i < tokens.length) {
    if (args.length && tokens[i]!.kind === ',') {
      if (++i >= tokens.length) throw new LineError(tokens[i - 1]!.col, "expected an operand after ','");
    }
    const t = tokens[i]!;
    if (t.kind === 'word') {
      args.push({ kind: 'word', text: t.text, hash: false, col: t.col });
    } else if (t.kind === 'string') {
      args.push({ kind: 'string', bytes: t.bytes, col: t.col });
    } else if (t.kind === '#') {
      const next = tokens[i + 1];
      if (next?.kind !== 'word') throw new LineError(t.col, "'#' must be followed by a number");
      args.push({ kind: 'word', text: next.text, hash: true, col: t.col });
      i++;
    } else {
      throw new LineError(t.col, `expected an operand, got '${t.kind}'`);
    }
    i++;
  }
  return args;
}

function statement(head: Head, rest: readonly Token[]): Emit[] {
  const isDirective = head.name.startsWith('.');
  // An unknown name is reported before any trouble with its operands.
  if (isDirective && !DIRECTIVES.has(head.name)) throw unknownDirective(head.text, head.col);
  if (!isDirective && !formsOf(head.name)) throw unknownMnemonic(head.text, head.col);
  const args = parseArgs(rest);
  return isDirective ? directive(head.name, head.col, args) : instruction(head.name, head.col, args);
}

const PSEUDO_WORDS: Readonly<Record<string, number>> = { s_push: 2, s_pop: 2, v_push: 2, v_pop: 2, jmp_link: 2, ii_mod: 3, ii_modi: 3, txd_control: 2 };

/** Words a statement that failed to parse most likely occupied, so later label addresses stay close. */
function guessSize(name: string): number {
  if (name.startsWith('.')) return 0;
  return Object.hasOwn(PSEUDO_WORDS, name) ? PSEUDO_WORDS[name]! : 1;
}

// ---------------------------------------------------------------------------------------------
// The two passes

/** Where a statement is: its file (an index into the program's files) and 1-based line. */
interface At {
  readonly file: number;
  readonly line: number;
}

/** The errors found, at most one per line (the first; later ones on the line are usually consequences). */
class Diagnostics {
  readonly list: (AsmDiagnostic & { readonly fileIndex: number })[] = [];
  private readonly lines = new Set<string>();
  count = 0;
  constructor(private readonly sources: SourceFiles) {}
  add(at: At, col: number, message: string): void {
    const key = `${at.file}:${at.line}`;
    if (this.lines.has(key)) return;
    this.lines.add(key);
    this.count++;
    const from = this.sources.includedFrom[at.file];
    this.list.push({ file: this.sources.names[at.file]!, fileIndex: at.file, line: at.line, col, message: from ? `${message} (included from ${from})` : message });
  }
  throwIfAny(): void {
    if (!this.count) return;
    const sorted = [...this.list].sort((a, b) => a.fileIndex - b.fileIndex || a.line - b.line || a.col - b.col);
    throw new AsmError(
      sorted.slice(0, MAX_ERRORS).map(({ fileIndex: _, ...d }) => d),
      this.count - Math.min(this.count, MAX_ERRORS),
    );
  }
}

/** The files of one assembly: names as shown, where each was included from, and the chain being read. */
class SourceFiles {
  readonly names: string[] = [];
  readonly includedFrom: (string | undefined)[] = [];
  /** Files being read, outermost first (a file including one of these is a cycle). */
  readonly open: { readonly id: string; readonly name: string }[] = [];
  constructor(readonly readInclude: IncludeReader) {}
  add(name: string, from: string | undefined): number {
    this.names.push(name);
    this.includedFrom.push(from);
    return this.names.length - 1;
  }
}

/** Labels by name, and (built when first needed) by lowercase name for "did you mean" hints. */
class LabelTable extends Map<string, { address: number; at: At }> {
  private lower?: Map<string, string>;
  caseless(): ReadonlyMap<string, string> {
    if (!this.lower) {
      this.lower = new Map();
      for (const k of this.keys()) if (!this.lower.has(k.toLowerCase())) this.lower.set(k.toLowerCase(), k);
    }
    return this.lower;
  }
}

interface Placed {
  readonly at: At;
  readonly address: number;
  readonly emits: readonly Emit[];
}

/** What pass 1 shares while it reads the main file and the files it includes. */
interface PassOne {
  readonly sources: SourceFiles;
  readonly labels: LabelTable;
  readonly diags: Diagnostics;
  readonly placed: Placed[];
}

/** Assemble `source`; throws AsmError listing up to MAX_ERRORS errors as `file:line:col: error: …`. */
export function assemble(source: string, file = '<input>', options: AssembleOptions = {}): Program {
  const sources = new SourceFiles(options.readInclude ?? readIncludeFromDisk);
  const diags = new Diagnostics(sources);
  const labels = new LabelTable();
  const pass: PassOne = { sources, labels, diags, placed: [] };
  const bytes = placeFile(pass, source, file, fileIdentity(file), undefined, 0);
  const { words, sourceLines, sourceFiles } = passTwo(pass.placed, bytes / 4, labels, diags);
  diags.throwIfAny();
  return { words, sourceLines, files: [...sources.names], sourceFiles, labels: new Map([...labels.entries()].map(([k, v]) => [k, v.address])) };
}

/** Pass 1 over one file: parse every line, define labels, place each statement's words; returns the next address. */
function placeFile(pass: PassOne, source: string, name: string, id: string, includedFrom: string | undefined, address: number): number {
  const file = pass.sources.add(name, includedFrom);
  pass.sources.open.push({ id, name });
  const lines = source.split(/\r?\n/);
  for (let l = 0; l < lines.length && address <= MAX_PROGRAM_BYTES; l++) {
    if (/^\s*@/.test(lines[l]!)) continue;
    address = placeLine(pass, lines[l]!, { file, line: l + 1 }, address);
  }
  pass.sources.open.pop();
  return address;
}

/** One line of pass 1; returns the address after it. */
function placeLine(pass: PassOne, text: string, at: At, address: number): number {
  const { labels, diags } = pass;
  let parsed: ParsedLine;
  try {
    parsed = splitLine(tokenize(text));
  } catch (e) {
    if (!(e instanceof LineError)) throw e;
    diags.add(at, e.col, e.message);
    return address;
  }
  for (const lab of parsed.labels) {
    const first = labels.get(lab.name);
    const where = (a: At) => (a.file === at.file ? `line ${a.line}` : `${pass.sources.names[a.file]}:${a.line}`);
    if (first) diags.add(at, lab.col, `duplicate label ${quote(lab.name)} (first defined on ${where(first.at)})`);
    else labels.set(lab.name, { address, at });
  }
  if (!parsed.head) return address;
  let next: number;
  try {
    if (parsed.head.name === '.include') return include(pass, parsed.head, parsed.rest, at, address);
    const emits = statement(parsed.head, parsed.rest);
    pass.placed.push({ at, address, emits });
    next = address + emits.length * 4;
  } catch (e) {
    if (!(e instanceof LineError)) throw e;
    diags.add(at, e.col, e.message);
    next = address + guessSize(parsed.head.name) * 4;
  }
  if (next > MAX_PROGRAM_BYTES) diags.add(at, parsed.head.col, `program too large: more than ${MAX_PROGRAM_BYTES} bytes`);
  return next;
}

/** `.include "file"`: the file's statements take the place of the line (labels are shared, as in one file). */
function include(pass: PassOne, head: Head, rest: readonly Token[], at: At, address: number): number {
  const args = parseArgs(rest);
  const path = args[0];
  if (args.length !== 1 || path?.kind !== 'string') throw new LineError(path?.col ?? head.col, `.include takes one file name in double quotes, e.g. .include "lib.s"`);
  const from = pass.sources.names[at.file]!;
  const name = new TextDecoder().decode(new Uint8Array(path.bytes));
  let read: { file: string; id: string; source: string };
  try {
    read = pass.sources.readInclude(name, from);
  } catch (e) {
    throw new LineError(path.col, (e as Error).message);
  }
  const open = pass.sources.open;
  const cycleFrom = open.findIndex((f) => f.id === read.id);
  if (cycleFrom >= 0) throw new LineError(path.col, `.include cycle: ${[...open.slice(cycleFrom).map((f) => f.name), read.file].join(' -> ')}`);
  if (open.length >= MAX_INCLUDE_DEPTH) throw new LineError(path.col, `.include nested more than ${MAX_INCLUDE_DEPTH} files deep`);
  return placeFile(pass, read.source, read.file, read.id, `${from}:${at.line}`, address);
}

/** Pass 2: lay the words out and fill in label offsets. */
function passTwo(placed: readonly Placed[], size: number, labels: LabelTable, diags: Diagnostics): { words: Uint32Array; sourceLines: Int32Array; sourceFiles: Uint16Array } {
  const words = new Uint32Array(size);
  const sourceLines = new Int32Array(size);
  const sourceFiles = new Uint16Array(size);
  for (const p of placed) {
    p.emits.forEach((e, k) => {
      const at = p.address + 4 * k;
      const offset = e.label ? labelOffset(e.label, at, labels, diags, p.at) : 0;
      words[at / 4] = (e.word | ((offset ?? 0) & 0xffff)) >>> 0;
      sourceLines[at / 4] = p.at.line;
      sourceFiles[at / 4] = p.at.file;
    });
  }
  return { words, sourceLines, sourceFiles };
}

function labelOffset(ref: LabelRef, at: number, labels: LabelTable, diags: Diagnostics, line: At): number | undefined {
  const def = labels.get(ref.label);
  if (!def) {
    const similar = labels.caseless().get(ref.label.toLowerCase());
    diags.add(line, ref.col, `undefined label ${quote(ref.label)}${similar ? ` (did you mean ${quote(similar)}?)` : ''}`);
    return undefined;
  }
  const offset = def.address - (at + 4);
  if (offset < -32768 || offset > 32767) {
    diags.add(line, ref.col, `branch out of reach: ${quote(ref.label)} is ${offset} bytes from the next instruction (a branch reaches ${S16})`);
    return undefined;
  }
  return offset;
}
