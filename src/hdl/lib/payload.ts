// The payload of a stream block (Fifo, SkidBuffer, RoundRobinArbiter, AsyncFifo; a queue of your own): a data type, or a UInt given by its width.
import { BoolType, BundleType, ClockType, EnumType, SIntType, UIntType, UInt, VecType, hideFromSourceLocations, packBits, unpackBits, type HType, type HValue, type ModuleBuilder, type UIntValue, type ValueOf } from '../index.ts';
import { paramError } from './paramError.ts';

// The words these helpers build carry the block's line, not this file's.
hideFromSourceLocations(import.meta.url);

/**
 * What a stream block carries: `payload`, a data type (a Bundle of the fields a word holds: the block's `bits`
 * are values of it, read and driven field by field), or `width`, the original form: a UInt of that many bits.
 */
export type PayloadParams<T extends HType = HType> = { readonly payload: T; readonly width?: never } | { readonly width: number; readonly payload?: never };

/** The type of the words a block with parameters `P` carries. */
export type PayloadOf<P> = P extends { readonly payload: infer T extends HType } ? T : UIntType;

/** The payload type of `module`'s parameters, checked: a named error at the user's line if it is no data type. */
export function payloadType(module: string, p: { readonly payload?: unknown; readonly width?: unknown }): HType {
  if ((p.payload === undefined) === (p.width === undefined)) throw paramError(module, 'give either payload (the data type of a word, such as a Bundle) or width (a UInt of that many bits), not both or neither');
  if (p.payload === undefined) return UInt(p.width as number);
  checkData(module, p.payload, 'payload');
  return p.payload as HType;
}

/** A data type travels one way: ground types, and bundles and vectors of them without flipped fields. */
function checkData(module: string, type: unknown, path: string): void {
  if (type instanceof UIntType || type instanceof SIntType || type instanceof BoolType || type instanceof EnumType) return;
  if (type instanceof VecType) return checkData(module, type.elem, `${path}[i]`);
  if (type instanceof BundleType) {
    for (const [name, field] of Object.entries(type.fields as Record<string, { kind: string }>)) {
      if (field.kind === 'flip') throw paramError(module, `${path}.${name} is flipped: a payload is data that travels one way (give the data type, not an interface such as Decoupled)`);
      checkData(module, field, `${path}.${name}`);
    }
    return;
  }
  throw paramError(module, `${path} must be a data type (UInt, SInt, Bool, an Enum, or a Bundle or Vec of them), got ${describe(type)}`);
}

/** A wrong payload as the user wrote it, with the likely fix. */
function describe(x: unknown): string {
  if (typeof x === 'number') return `the number ${x} (for a UInt of ${x} bits, give width: ${x})`;
  if (x instanceof ClockType) return 'Clock (a clock is no data)';
  if (typeof x === 'object' && x !== null) return `an object with keys ${Object.keys(x).join(', ') || '(none)'} (wrap fields in Bundle({ … }))`;
  return typeof x === 'string' ? `the string '${x}'` : String(x);
}

/** A payload value as the word a block stores: a UInt as it is, anything else packed (the first field in the low bits). */
export function toWord(type: HType, value: HValue): UIntValue {
  return type instanceof UIntType ? (value as UIntValue) : packBits(value);
}

/** A stored word as a value of the payload type: a UInt as it is, anything else unpacked (its fields are read-only slices). */
export function fromWord<T extends HType>(type: T, word: UIntValue): ValueOf<T> {
  return (type instanceof UIntType ? word : unpackBits(type, word)) as ValueOf<T>;
}

/** Drives `port`, a value of the payload type, from a stored word: a UInt directly, anything else field by field. */
export function driveFromWord(m: ModuleBuilder, type: HType, port: HValue, word: UIntValue): void {
  if (type instanceof UIntType) (port as UIntValue).set(word);
  else m.connect(port, unpackBits(type, word));
}
