// The valid/ready handshake bundle: data moves on a cycle where both valid and ready are 1 (`fire`).
import { BundleType, Bool as BoolT, Flipped, type HType } from './types.ts';
import type { BundleValue } from './aggregates.ts';
import type { Bool } from './values.ts';

export type DecoupledFields<T extends HType> = { valid: typeof BoolT; ready: Flipped<typeof BoolT>; bits: T };

export class DecoupledType<T extends HType> extends BundleType<DecoupledFields<T>> {
  readonly decoupled = true;
}

/** Producer view: `valid` and `bits` flow out, `ready` flows in. Use `input(Decoupled(T))` for a consumer. */
export function Decoupled<T extends HType>(bits: T): DecoupledType<T> {
  return new DecoupledType({ valid: BoolT, ready: new Flipped(BoolT), bits }, (v) => {
    let fire: Bool | undefined;
    Object.defineProperty(v, 'fire', {
      enumerable: false,
      get: () => (fire ??= (v.valid as Bool).and(v.ready as Bool)),
    });
  });
}

/** A Decoupled value with its `fire` (valid && ready) signal. */
export type DecoupledValue<T extends HType> = BundleValue<DecoupledFields<T>> & { readonly fire: Bool };

/** valid && ready. */
export function fire<T extends HType>(d: BundleValue<DecoupledFields<T>>): Bool {
  return (d as DecoupledValue<T>).fire;
}
