// Round-robin arbiter: grants the first requester after the last one granted, so no requester starves.
import { Decoupled, UInt, Vec, defineModule, input, lit, mux, output, withGenericPorts, type BoolValue, type DecoupledType, type HType, type PortSpec, type PortsOf, type VecType, type UIntType, type UIntValue } from '../index.ts';
import { clog2 } from './clog2.ts';
import { driveFromWord, payloadType, toWord, type PayloadOf, type PayloadParams } from './payload.ts';

/** `n` requesters, each offering a word: `payload`, its type (a Bundle of the fields it holds, say), or `width`: a UInt. */
export type ArbiterParams<T extends HType = HType> = PayloadParams<T> & { readonly n: number };
/** An instance's ports follow its payload: `m.instance(RoundRobinArbiter, { n, payload: T })` has `in[i].bits` and `out.bits` of type T. */
interface ArbiterPortsOf extends PortsOf { readonly ports: ArbiterPorts<PayloadOf<this['params']>> }
export const RoundRobinArbiter = withGenericPorts<ArbiterParams, ArbiterPortsOf>(defineModule(
  'RoundRobinArbiter',
  (p: ArbiterParams) => ({
    in: input(Vec(p.n, Decoupled(payloadType('RoundRobinArbiter', p)))),
    out: output(Decoupled(payloadType('RoundRobinArbiter', p))),
    chosen: output(UInt(clog2(p.n))),
  }),
  (m, io, p) => {
    const iw = clog2(p.n);
    const last = m.reg(UInt(iw), { reset: p.n - 1 });
    const valid = io.in.map((x) => x.valid);
    // For each possible `last`, the first valid requester in the order last+1, last+2, … (a static priority chain).
    const firstAfter = (l: number): UIntValue => {
      let pick: UIntValue = lit(l, iw);
      for (let k = p.n; k >= 1; k--) {
        const i = (l + k) % p.n;
        pick = mux(valid[i]!, lit(i, iw), pick);
      }
      return pick;
    };
    let grant: UIntValue = firstAfter(p.n - 1);
    for (let l = p.n - 2; l >= 0; l--) grant = mux(last.eq(l), firstAfter(l), grant);
    const any = valid.reduce((a: BoolValue, b) => a.or(b));
    io.out.valid.set(any);
    driveFromWord(m, payloadType('RoundRobinArbiter', p), io.out.bits, io.in.map((x) => toWord(payloadType('RoundRobinArbiter', p), x.bits)).reduce((acc, word, k) => (k === 0 ? word : mux(grant.eq(k), word, acc))));
    io.in.elems.forEach((x, i) => x.ready.set(io.out.ready.and(any).and(grant.eq(i))));
    io.chosen.set(grant);
    m.when(io.out.fire, () => last.set(grant));
    // Invariants: one grant at a time, and no requester passed over n times in a row while it waits.
    const readies = io.in.map((x) => x.ready);
    const granted = readies.reduce((n: UIntValue, r) => n.add(r.zext(iw + 1)), lit(0, iw + 1));
    m.assert(granted.le(1), 'at most one requester is granted', { name: 'one_grant' });
    if (p.n % 2 ** iw !== 0) m.assert(last.lt(p.n), 'the last grant names a requester', { name: 'last_in_range' });
    // Why no requester starves (what makes fairness inductive): each grant that passes over a waiting requester
    // moves `last` strictly closer to it, so the grants it has waited for plus the requesters still ahead of it
    // in the round-robin order stay below n.
    const cw = clog2(2 * p.n);
    io.in.elems.forEach((x, i) => {
      const passedOver = m.reg(UInt(clog2(p.n + 1)), { reset: 0, name: `passed_over_${i}` });
      m.when(x.valid.not().or(x.ready), () => passedOver.set(0)).elsewhen(io.out.fire, () => passedOver.set(passedOver.add(1)));
      m.assert(passedOver.lt(p.n), `requester ${i} waits for fewer than ${p.n} grants to others`, { name: `fair_${i}` });
      // Requesters strictly between `last` and i in the round-robin order: (i - last - 1) mod n.
      const between = lit(i + p.n - 1, cw).sub(last.zext(cw));
      const ahead = mux(between.ge(p.n), between.sub(p.n), between);
      m.assert(passedOver.zext(cw).add(ahead).lt(p.n), `requester ${i} is passed over at most once per requester ahead of it`, { name: `fair_${i}_ahead` });
    });
  },
));

/** The ports of a RoundRobinArbiter of words of type `T`. */
export interface ArbiterPorts<T extends HType> {
  [port: string]: PortSpec;
  in: PortSpec<VecType<DecoupledType<T>>>;
  out: PortSpec<DecoupledType<T>>;
  chosen: PortSpec<UIntType>;
}
