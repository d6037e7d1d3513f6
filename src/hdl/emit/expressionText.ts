// SystemVerilog text of one netlist cell over its operands' texts, with parentheses only where precedence needs them.
import type { Cell } from '../ir/netlist.ts';

/** An expression's text and how tightly it binds (IEEE 1800-2017 table 11-2; higher binds tighter). */
export interface SvText {
  readonly s: string;
  readonly prec: number;
  /** The text selects bits of a net (`x[3:0]`): Icarus cannot take such reads into an always_comb's sensitivity. */
  readonly select?: boolean;
  /**
   * The expression is signed (`$signed(a) >>> b`). As an operand it must be wrapped in `$unsigned(…)`: an
   * unsigned sibling makes the whole expression unsigned, and that turns `>>>` into a logical shift.
   */
  readonly signed?: boolean;
  /** The same comparison negated (`a != b` for `a == b`), so that `~` of it prints as the other operator. */
  readonly negated?: SvText;
}

/** `t` as an operand of a larger expression. */
export function asOperand(t: SvText): SvText {
  return t.signed ? atom(`$unsigned(${t.s})`, t.select) : t;
}

/** Names, literals, selects, concatenations and system-function calls. */
export const ATOM = 100;
const UNARY = 14;
const PREC = { mul: 12, add: 11, shift: 10, rel: 9, eq: 8, and: 7, xor: 6, or: 5, cond: 2 } as const;

export const atom = (s: string, select = false): SvText => ({ s, prec: ATOM, ...(select ? { select } : {}) });

/** `t` as an operand that must bind at least as tightly as `min`. */
function operand(t: SvText, min: number): string {
  return t.prec >= min ? t.s : `(${t.s})`;
}

/** A left-associative binary operator; comparisons also parenthesize a left operand of their own level. */
function binary(op: string, prec: number, a: SvText, b: SvText, chainLeft = true): SvText {
  return { s: `${operand(a, chainLeft ? prec : prec + 1)} ${op} ${operand(b, prec + 1)}`, prec };
}

// A unary operator's operand is an atom, so `^` never meets `~` as the xnor token `^~`.
const unary = (op: string, a: SvText): SvText => ({ s: `${op}${operand(a, ATOM)}`, prec: UNARY });

export interface CellOperands {
  /** Text of each operand net in `cellInputs` order. */
  readonly args: readonly SvText[];
  readonly outWidth: number;
  /** Width of operand `a` (zext/sext). */
  readonly aWidth: number;
  /** sext: the text of the operand's sign bit (a select of a named net, or a literal bit). */
  readonly signBit?: string;
  /** slice: the text of the selected bits (a select of a named net, or a literal). */
  readonly selected?: string;
  /** redxor of more than 64 bits: the XOR of its chunks' reductions (svFragments.ts wideXorReductionOf). */
  readonly chunkedXor?: string;
}

/** The text of a non-constant cell. */
export function cellText(c: Exclude<Cell, { op: 'const' }>, o: CellOperands): SvText {
  const t = cellTextOf(c, o);
  const select = o.args.some((a) => a.select) || (c.op === 'slice' && /\[/.test(o.selected!)) || (c.op === 'sext' && /\[/.test(o.signBit!));
  return select ? { ...t, select } : t;
}

function cellTextOf(c: Exclude<Cell, { op: 'const' }>, o: CellOperands): SvText {
  const [a, b, c2] = o.args as [SvText, SvText, SvText];
  switch (c.op) {
    case 'buf':
      return a;
    case 'not':
      return a.negated ?? unary('~', a);
    case 'redand':
      return unary('&', a);
    case 'redor':
      return unary('|', a);
    case 'redxor':
      return o.chunkedXor !== undefined ? { s: o.chunkedXor, prec: PREC.xor, select: true } : unary('^', a);
    case 'zext':
      return atom(`{${o.outWidth - o.aWidth}'d0, ${a.s}}`);
    case 'sext':
      return atom(`{{${o.outWidth - o.aWidth}{${o.signBit}}}, ${a.s}}`);
    case 'and':
      return binary('&', PREC.and, a, b);
    case 'or':
      return binary('|', PREC.or, a, b);
    case 'xor':
      return binary('^', PREC.xor, a, b);
    case 'add':
      return binary('+', PREC.add, a, b);
    case 'sub':
      return binary('-', PREC.add, a, b);
    case 'mul':
      return binary('*', PREC.mul, a, b);
    case 'eq':
      return { ...binary('==', PREC.eq, a, b, false), negated: binary('!=', PREC.eq, a, b, false) };
    case 'ne':
      return { ...binary('!=', PREC.eq, a, b, false), negated: binary('==', PREC.eq, a, b, false) };
    case 'ult':
      return binary('<', PREC.rel, a, b, false);
    case 'ule':
      return binary('<=', PREC.rel, a, b, false);
    case 'slt':
      return binary('<', PREC.rel, atom(`$signed(${a.s})`), atom(`$signed(${b.s})`), false);
    case 'sle':
      return binary('<=', PREC.rel, atom(`$signed(${a.s})`), atom(`$signed(${b.s})`), false);
    case 'shl':
      return binary('<<', PREC.shift, a, b);
    case 'lshr':
      return binary('>>', PREC.shift, a, b);
    case 'ashr':
      return { ...binary('>>>', PREC.shift, atom(`$signed(${a.s})`), b), signed: true };
    case 'mux':
      // sel ? a : b, with a nested conditional allowed unparenthesized only as the else branch.
      return { s: `${operand(a, PREC.cond + 1)} ? ${operand(b, PREC.cond + 1)} : ${operand(c2, PREC.cond)}`, prec: PREC.cond };
    case 'concat':
      return atom(`{${o.args.map((x) => x.s).join(', ')}}`);
    case 'slice':
      return atom(o.selected!);
  }
}
