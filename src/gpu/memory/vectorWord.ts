// A 128-bit vector word: four 32-bit words, word 0 lowest (a main memory vector access, a DMA beat).
import { UInt, Vec, hideFromSourceLocations, unpackBits, type UIntValue } from '../../hdl/index.ts';

// The word slices carry the line of the datapath that splits the vector.
hideFromSourceLocations(import.meta.url);

export const VectorWord = Vec(4, UInt(32));

/** The four words of a 128-bit vector, word 0 first. */
export const vectorWords = (vector: UIntValue): UIntValue[] => [...unpackBits(VectorWord, vector)];
