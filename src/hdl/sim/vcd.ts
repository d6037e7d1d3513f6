// A VCD waveform writer: module scopes from hierarchical net names, value changes only, enum state names as strings.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { Net } from '../ir/netlist.ts';

export interface VcdSignal {
  readonly net: Net;
  /** Reads the current value. */
  readonly read: () => bigint;
}

/** Short printable identifier codes: !, ", #, … then two characters, … */
function idCode(i: number): string {
  let s = '';
  do {
    s += String.fromCharCode(33 + (i % 94));
    i = Math.floor(i / 94);
  } while (i > 0);
  return s;
}

interface Var {
  readonly code: string;
  readonly width: number;
  readonly read: () => bigint;
  readonly names?: ReadonlyMap<bigint, string>;
  last: bigint | undefined;
}

/** A clock of a timed waveform: its name and current level. */
export interface VcdClock {
  readonly name: string;
  readonly read: () => 0 | 1;
}

/**
 * By default time runs 10 units per cycle: values settle at 10·c with clk low, clk rises at 10·c + 5.
 * Given `clocks` (a design with several), the waveform is timed instead: in ps of simulated time, each
 * clock a variable, written instant by instant (`instantAt`). Enum-typed nets get a companion
 * `<name>_state` variable of type `string` that GTKWave shows as the member name.
 */
export class VcdWriter {
  private readonly fd: number;
  private closed = false;
  private readonly vars: Var[] = [];
  private buf: string[] = [];
  private readonly clk: string;
  /** Timed: the time of the last instant written, ps (-1: none yet). */
  private lastInstant = -1;
  readonly timed: boolean;

  constructor(path: string, top: string, signals: readonly VcdSignal[], opts: { readonly clocks?: readonly VcdClock[] } = {}) {
    this.fd = openSync(path, 'w');
    this.timed = opts.clocks !== undefined;
    const header: string[] = ['$version rtgpu $end', `$timescale ${this.timed ? '1ps' : '1ns'} $end`, `$scope module ${top} $end`];
    let next = 0;
    this.clk = idCode(next++);
    if (!opts.clocks) header.push(`$var wire 1 ${this.clk} clk $end`);
    for (const c of opts.clocks ?? []) {
      const code = idCode(next++);
      header.push(`$var wire 1 ${code} ${c.name} $end`);
      this.vars.push({ code, width: 1, read: () => BigInt(c.read()), last: undefined });
    }
    // Group by scope path; emit scopes in name order so the file is deterministic.
    const tree = new Map<string, VcdSignal[]>();
    for (const sig of signals) {
      const parts = sig.net.name.split('.');
      const scope = parts.slice(0, -1).join('.');
      tree.set(scope, [...(tree.get(scope) ?? []), sig]);
    }
    let open: string[] = [];
    for (const scope of [...tree.keys()].sort()) {
      const path = scope ? scope.split('.') : [];
      let common = 0;
      while (common < open.length && common < path.length && open[common] === path[common]) common++;
      for (let i = open.length; i > common; i--) header.push('$upscope $end');
      for (let i = common; i < path.length; i++) header.push(`$scope module ${path[i]} $end`);
      open = path;
      for (const sig of tree.get(scope)!) {
        const leaf = sig.net.name.split('.').at(-1)!;
        const code = idCode(next++);
        header.push(`$var wire ${sig.net.width} ${code} ${leaf}${sig.net.width > 1 ? ` [${sig.net.width - 1}:0]` : ''} $end`);
        this.vars.push({ code, width: sig.net.width, read: sig.read, last: undefined });
        if (sig.net.enumType) {
          const scode = idCode(next++);
          header.push(`$var string 1 ${scode} ${leaf}_state $end`);
          const names = new Map(sig.net.enumType.members.map((m) => [BigInt(m.value), m.name] as const));
          this.vars.push({ code: scode, width: 0, read: sig.read, names, last: undefined });
        }
      }
    }
    for (let i = open.length; i > 0; i--) header.push('$upscope $end');
    header.push('$upscope $end', '$enddefinitions $end');
    writeSync(this.fd, header.join('\n') + '\n');
  }

  /** Record the settled values of cycle `c` and the rising clock edge that ends it. */
  sample(c: number): void {
    this.buf.push(`#${10 * c}`, '0' + this.clk);
    this.changes();
    this.buf.push(`#${10 * c + 5}`, '1' + this.clk);
    if (this.buf.length > 4096) this.flush();
  }

  /** The values that changed since the last sample, written (after a time line). */
  private changes(time?: string): void {
    for (const v of this.vars) {
      const x = v.read();
      if (x === v.last) continue;
      v.last = x;
      if (time !== undefined) {
        this.buf.push(time);
        time = undefined;
      }
      if (v.names) this.buf.push(`s${v.names.get(x) ?? `?${x}`} ${v.code}`);
      else if (v.width === 1) this.buf.push(`${x}${v.code}`);
      else this.buf.push(`b${x.toString(2)} ${v.code}`);
    }
  }

  /**
   * Timed: before an instant at `ps` (the clocks still at their levels before it), the settled values of
   * inputs changed since the last one, shown 1 ps after it (every engine's timed waveform puts them
   * there; nothing is written if nothing changed).
   */
  beforeInstant(ps: number): void {
    const at = Math.max(ps, this.lastInstant + 1);
    if (this.lastInstant + 1 < at) this.changes(`#${this.lastInstant + 1}`);
  }

  /** Timed: the values after an instant at `ps` (each instant at least 1 ps after the one before). */
  instantAt(ps: number): void {
    const at = Math.max(ps, this.lastInstant + 1);
    this.changes(`#${at}`);
    this.lastInstant = at;
    if (this.buf.length > 4096) this.flush();
  }

  /** Write the buffered samples (simulators call this at the end of every step/run call). */
  flush(): void {
    if (this.closed) return;
    if (this.buf.length) writeSync(this.fd, this.buf.join('\n') + '\n');
    this.buf = [];
  }

  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    closeSync(this.fd);
  }
}
