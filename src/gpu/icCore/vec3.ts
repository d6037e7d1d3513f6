// Three binary32 lanes (x, y, z) in one 96-bit word, x in bits [31:0]: ray origins and directions, vertices, normals.
import { UInt, Vec, cat, hideFromSourceLocations, unpackBits, type UIntValue } from '../../hdl/index.ts';

// The lane slices carry the line of the datapath that splits the word, not this file's.
hideFromSourceLocations(import.meta.url);

/** The 96-bit word's layout: lane 0 (x) lowest. */
export const Float3 = Vec(3, UInt(32));

export type Vec3 = readonly [UIntValue, UIntValue, UIntValue];

/** The three lanes of a 96-bit word. */
export function split3(word: UIntValue): Vec3 {
  const lanes = unpackBits(Float3, word);
  return [lanes.at(0), lanes.at(1), lanes.at(2)];
}

/** The 96-bit word of three lanes. */
export const join3 = (v: Vec3): UIntValue => cat(v[2], v[1], v[0]);

export const map3 = <T>(f: (i: 0 | 1 | 2) => T): [T, T, T] => [f(0), f(1), f(2)];
