// Three binary32 lanes (x, y, z) in one 96-bit word, x in bits [31:0]: ray origins and directions, vertices, normals.
import { UInt, Vec, cat, hideFromSourceLocations, unpackBits, type UIntValue, type ValueOf } from '../../hdl/index.ts';

// The lane slices carry the line of the datapath that splits the word, not this file's.
hideFromSourceLocations(import.meta.url);

/** The 96-bit word's layout: lane 0 (x) lowest. */
export const Float3 = Vec(3, UInt(32));

export type Vec3 = readonly [UIntValue, UIntValue, UIntValue];

/** The lanes of a Float3 value (a field of an unpacked record). */
export const lanes3 = (v: ValueOf<typeof Float3>): Vec3 => [v.at(0), v.at(1), v.at(2)];

/** The three lanes of a 96-bit word. */
export const split3 = (word: UIntValue): Vec3 => lanes3(unpackBits(Float3, word));

/** The 96-bit word of three lanes. */
export const join3 = (v: Vec3): UIntValue => cat(v[2], v[1], v[0]);

export const map3 = <T>(f: (i: 0 | 1 | 2) => T): [T, T, T] => [f(0), f(1), f(2)];
