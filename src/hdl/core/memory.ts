// Memories: synchronous or asynchronous read ports and (masked) write ports over an array of words.
import { readFileSync } from 'node:fs';
import type { SourceLoc } from '../ir/netlist.ts';
import { hdlError } from '../ir/diagnostics.ts';
import { sigOf, type ClockDomainRef, type Expr, type Sig, type SigKind } from './ast.ts';
import type { ClockDomain } from './clockDomain.ts';
import { callerLocation } from './sourceLocation.ts';
import { UIntType, type GroundType } from './types.ts';
import { Bits, literalExpr, wrap, type Literal } from './values.ts';
import type { ValueOf } from './aggregates.ts';
import { guardAnd, type WhenPath } from './whenPath.ts';

export interface MemoryOptions {
  /** Initial contents from word 0: an array of words, or a `$readmemh`-style hex file. */
  init?: readonly (number | bigint)[] | { hexFile: string };
  name?: string;
  /** The clock domain of its ports (default: the one in effect where each port is made; `withDomain` can give ports of one memory different domains). */
  domain?: ClockDomain;
}

/** What the memory asks of the module that owns it (the builder and its fragment). */
export interface MemoryOwner {
  /** The `when` path ports are made under: their enable. */
  readonly when: WhenPath;
  /** Where the memory records itself for lowering. */
  readonly memories: MemoryRecord[];
  /** A new signal of the module (a read port's data). */
  leaf(kind: SigKind, t: GroundType, loc: SourceLoc): Bits;
  domainFor(given: ClockDomain | undefined, loc: SourceLoc): ClockDomainRef;
}

export interface ReadPortRecord {
  readonly kind: 'sync' | 'async';
  readonly addr: Expr;
  readonly en: Expr | null;
  readonly data: Sig;
  readonly loc: SourceLoc;
  readonly domain: ClockDomainRef;
}

export interface WritePortRecord {
  readonly addr: Expr;
  readonly data: Expr;
  readonly en: Expr | null;
  readonly mask?: Expr;
  readonly maskGranularity?: number;
  readonly loc: SourceLoc;
  readonly domain: ClockDomainRef;
}

/** A memory as lowering reads it: its words and the ports made on it, in order. */
export interface MemoryRecord {
  readonly type: GroundType;
  readonly depth: number;
  readonly init: bigint[] | undefined;
  readonly name: string | undefined;
  readonly loc: SourceLoc;
  readonly readPorts: ReadPortRecord[];
  readonly writePorts: WritePortRecord[];
}

// Made by the builder only (`m.memory`): set by the class itself.
let newMemoryHandle: <T extends GroundType>(owner: MemoryOwner, type: T, depth: number, opts: MemoryOptions, loc: SourceLoc) => MemoryHandle<T>;

/** A memory of `depth` words of `type` that records itself with `owner` (the module building it). */
export function makeMemory<T extends GroundType>(owner: MemoryOwner, type: T, depth: number, opts: MemoryOptions, loc: SourceLoc): MemoryHandle<T> {
  return newMemoryHandle(owner, type, depth, opts, loc);
}

/** A memory of the module: `m.memory(type, depth)`. Make its ports with `read`, `readAsync` and `write`. */
export class MemoryHandle<T extends GroundType = GroundType> {
  readonly #owner: MemoryOwner;
  readonly #record: MemoryRecord;
  readonly #domain: ClockDomain | undefined;

  static {
    newMemoryHandle = (owner, type, depth, opts, loc) => new MemoryHandle(owner, type, depth, opts, loc);
  }

  private constructor(
    owner: MemoryOwner,
    readonly type: T,
    readonly depth: number,
    opts: MemoryOptions,
    loc: SourceLoc,
  ) {
    if (!Number.isInteger(depth) || depth < 1 || depth > 1 << 24) throw hdlError('InvalidArgument', `memory depth must be an integer from 1 to 2^24, got ${depth}`, loc);
    this.#owner = owner;
    this.#domain = opts.domain;
    const init = opts.init === undefined ? undefined : loadInit(opts.init, type.width, depth, loc);
    this.#record = { type, depth, init, name: opts.name, loc, readPorts: [], writePorts: [] };
    owner.memories.push(this.#record);
  }

  /** The narrowest address width that reaches every word. */
  get addrWidth(): number {
    return Math.max(1, Math.ceil(Math.log2(this.depth)));
  }

  /**
   * A synchronous read port: the word at `addr` appears on the returned value after the next rising edge
   * (read-first: a write on the same edge is not seen). Inside `when`, the port reads only under its condition.
   */
  read(addr: Bits | number, opts: { en?: Bits } = {}): ValueOf<T> {
    return this.#readPort('sync', addr, opts.en, callerLocation());
  }

  /** An asynchronous (combinational) read port, for small LUT memories and register files. */
  readAsync(addr: Bits | number): ValueOf<T> {
    return this.#readPort('async', addr, undefined, callerLocation());
  }

  /**
   * A write port: at the rising edge, word `addr` takes `data` (under the active `when` conditions).
   * With `mask`, bit i enables data bits [i*g+g-1 : i*g], g = width / mask width (e.g. byte enables).
   */
  write(addr: Bits | number, data: Bits | Literal, opts: { mask?: Bits } = {}): void {
    const loc = callerLocation();
    const d = data instanceof Bits ? data : wrap(literalExpr(data, this.type, loc), this.type);
    if (d.width !== this.type.width) throw hdlError('WidthMismatch', `memory word is ${this.type.width} bits, data is ${d.width} bits`, loc);
    let maskGranularity: number | undefined;
    if (opts.mask) {
      const mw = opts.mask.width;
      if (this.type.width % mw !== 0) throw hdlError('InvalidArgument', `mask width ${mw} does not divide the word width ${this.type.width}`, loc);
      maskGranularity = this.type.width / mw;
    }
    this.#record.writePorts.push({ addr: this.#addrExpr(addr, loc), data: d.expr, en: this.#owner.when.guard(), mask: opts.mask?.expr, maskGranularity, loc, domain: this.#owner.domainFor(this.#domain, loc) });
  }

  #readPort(kind: 'sync' | 'async', addr: Bits | number, en: Bits | undefined, loc: SourceLoc): ValueOf<T> {
    if (en && en.width !== 1) throw hdlError('WidthMismatch', `read enable must be 1 bit, got ${en.width}`, loc);
    const guard = kind === 'sync' ? this.#owner.when.guard() : null;
    const enExpr = guard && en ? guardAnd(guard, en.expr) : (guard ?? en?.expr ?? null);
    const data = this.#owner.leaf('memread', this.type, loc);
    this.#record.readPorts.push({ kind, addr: this.#addrExpr(addr, loc), en: enExpr, data: sigOf(data.expr), loc, domain: this.#owner.domainFor(this.#domain, loc) });
    return data as ValueOf<T>;
  }

  #addrExpr(addr: Bits | number, loc: SourceLoc): Expr {
    if (typeof addr === 'number') {
      if (!Number.isInteger(addr) || addr < 0 || addr >= this.depth) throw hdlError('ValueOutOfRange', `address ${addr} is outside a memory of ${this.depth} words`, loc);
      return literalExpr(addr, new UIntType(this.addrWidth), loc);
    }
    if (addr.type.kind === 'sint') throw hdlError('TypeMismatch', 'memory addresses are unsigned; use .asUInt()', loc);
    return addr.expr;
  }
}

function loadInit(init: readonly (number | bigint)[] | { hexFile: string }, width: number, depth: number, loc: SourceLoc): bigint[] {
  const max = (1n << BigInt(width)) - 1n;
  if (Array.isArray(init)) {
    if (init.length > depth) throw hdlError('InvalidArgument', `${init.length} initial words do not fit a memory of ${depth}`, loc);
    return init.map((v, i) => {
      const b = BigInt(v);
      if (b < 0n || b > max) throw hdlError('ValueOutOfRange', `initial word ${i} (${v}) does not fit ${width} bits`, loc);
      return b;
    });
  }
  return parseHexFile((init as { hexFile: string }).hexFile, width, depth, loc);
}

/** Parse a `$readmemh` file: hex words separated by white space, `//` comments, `@addr` jumps. */
export function parseHexFile(path: string, width: number, depth: number, loc: SourceLoc): bigint[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw hdlError('BadInitFile', `cannot read memory init file ${path}: ${(e as Error).message}`, loc);
  }
  const words: bigint[] = [];
  const max = (1n << BigInt(width)) - 1n;
  let addr = 0;
  text.split('\n').forEach((raw, i) => {
    const at = { file: path, line: i + 1, col: 1 };
    for (const tok of raw.replace(/\/\/.*$/, '').trim().split(/\s+/).filter(Boolean)) {
      if (tok.startsWith('@')) {
        if (!/^@[0-9a-fA-F]+$/.test(tok)) throw hdlError('BadInitFile', `bad address '${tok}'`, at, [{ message: 'memory declared here', loc }]);
        addr = parseInt(tok.slice(1), 16);
        continue;
      }
      if (!/^[0-9a-fA-F_]+$/.test(tok)) throw hdlError('BadInitFile', `'${tok}' is not a hex word`, at, [{ message: 'memory declared here', loc }]);
      const v = BigInt('0x' + tok.replace(/_/g, ''));
      if (v > max) throw hdlError('BadInitFile', `word ${tok} does not fit ${width} bits`, at, [{ message: 'memory declared here', loc }]);
      if (addr >= depth) throw hdlError('BadInitFile', `address ${addr} is past the memory's ${depth} words`, at, [{ message: 'memory declared here', loc }]);
      while (words.length < addr) words.push(0n);
      words[addr++] = v;
    }
  });
  return words;
}
