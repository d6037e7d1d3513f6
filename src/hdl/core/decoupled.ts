// The valid/ready handshake bundle: data moves on a cycle where both valid and ready are 1 (`fire`).
import { Bool as BoolT, DecoupledType, Flipped, type DecoupledFields, type HType } from './types.ts';
import type { BundleValue, DecoupledValue } from './aggregates.ts';
import type { Bool } from './values.ts';

// The type and value shapes live beside the other types and values (ValueOf maps one to the other).
export { DecoupledType, type DecoupledFields, type DecoupledValue };

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

/**
 * A Decoupled handshake that promises more: once `valid` is 1, it and `bits` hold until the transfer.
 * Its ports check that (asserted where driven, assumed where received: ModuleBuilder.checkHandshake).
 */
export function Irrevocable<T extends HType>(bits: T): DecoupledType<T> {
  const t = Decoupled(bits);
  t.irrevocable = true;
  return t;
}

/** valid && ready. */
export function fire<T extends HType>(d: BundleValue<DecoupledFields<T>>): Bool {
  return (d as DecoupledValue<T>).fire;
}
