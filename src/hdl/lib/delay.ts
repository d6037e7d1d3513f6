// Delay lines: a value `cycles` registers later, each register named `${name}_d${i}`.
import { hideFromSourceLocations, type Bits, type ModuleBuilder } from '../index.ts';

// The registers carry the caller's line, not this file's.
hideFromSourceLocations(import.meta.url);

/**
 * `value` delayed by `cycles` registers without reset: datapath words whose validity travels in a
 * separate bit (delayValid), so synthesis can map long lines to shift-register LUTs.
 */
export function delay<V extends Bits>(m: ModuleBuilder, value: V, cycles: number, name: string): V['_self'] {
  let v: Bits = value;
  for (let i = 1; i <= cycles; i++) v = m.regNext(v, { name: `${name}_d${i}` });
  return v as V['_self'];
}

/** `value` delayed by `cycles` registers that reset to 0: the valid bit beside a delay(). */
export function delayValid<V extends Bits>(m: ModuleBuilder, value: V, cycles: number, name: string): V['_self'] {
  let v: Bits = value;
  for (let i = 1; i <= cycles; i++) v = m.regNext(v, { name: `${name}_d${i}`, reset: 0 });
  return v as V['_self'];
}
