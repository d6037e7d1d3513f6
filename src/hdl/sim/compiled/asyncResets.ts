// The asynchronous resets the comb applies (both code generators): which net each tests, and whether the comb
// can test it before its steps or must test it after them too.
//
// A register with an asynchronous reset takes its reset value as soon as the reset is asserted, between
// clock edges too. The comb applies that at its start, which is right when the reset net is known before
// any step runs: an input, state, or a copy or inversion of one (a child on the implicit clock inside an
// active-high domain gets `rst_n = ~reset`; that inversion is looked through). A reset computed from other
// logic is known only after the steps: such a register is tested at the end of the comb as well, and the
// comb runs again while that applies a reset (its readers must see the reset value). Each pass can only
// set registers to their reset value, so the passes end (at most one per such register, plus one).
import type { NetId } from '../../ir/netlist.ts';
import { stepOutput, type Layout } from './layout.ts';
import { asyncResetRegisters } from './stepPlan.ts';

type Reg = Layout['flat']['regs'][number];

export interface AsyncReset {
  readonly reg: Reg;
  /** The root net tested: the reset net, or the input or state net it copies or inverts. */
  readonly net: NetId;
  /** A nonzero `net` asserts the reset. */
  readonly activeHigh: boolean;
  /** Tested at the start of the comb (`net` is no step's output); else at its end, the comb repeating while one applies. */
  readonly early: boolean;
}

export function asyncResets(L: Layout): AsyncReset[] {
  const computed = new Set<NetId>();
  for (const st of L.steps) computed.add(stepOutput(L, st));
  const through = new Map<NetId, { a: NetId; invert: boolean }>();
  for (const c of L.flat.cells) {
    // (A copy the layout turned into an alias has one root for both nets.)
    if ((c.op === 'buf' || c.op === 'not') && L.flat.nets[c.out]!.width === 1 && L.root[c.out] !== L.root[c.a]) through.set(L.root[c.out]!, { a: L.root[c.a]!, invert: c.op === 'not' });
  }
  return resetsBeforeTheirReaders(asyncResetRegisters(L.flat).map((reg) => {
    const own = { net: L.root[reg.reset!.net]!, activeHigh: reg.reset!.activeHigh === true };
    let { net, activeHigh } = own;
    for (let d = through.get(net), n = 0; d && computed.has(net) && n < through.size; d = through.get(net), n++) {
      net = d.a;
      if (d.invert) activeHigh = !activeHigh;
    }
    return computed.has(net) ? { reg, ...own, early: false } : { reg, net, activeHigh, early: true };
  }), L);
}

/**
 * A register whose reset tests another reset register's output (a reset synchronizer's flop, maybe in a
 * child instance) is tested after that one, so that one comb pass carries an asserted reset down the chain.
 */
function resetsBeforeTheirReaders(resets: AsyncReset[], L: Layout): AsyncReset[] {
  const byQ = new Map(resets.map((x) => [L.root[x.reg.q]!, x]));
  const out: AsyncReset[] = [];
  const placed = new Set<AsyncReset>();
  const place = (x: AsyncReset, depth: number) => {
    if (placed.has(x) || depth > resets.length) return;
    const before = x.early ? byQ.get(x.net) : undefined;
    if (before && before !== x) place(before, depth + 1);
    placed.add(x);
    out.push(x);
  };
  for (const x of resets) place(x, 0);
  return out;
}
