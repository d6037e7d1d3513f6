// The load port of a memory filled from word 0 up by the memory controller: a start pulse, then one word a cycle.
import { Bool, Bundle, UInt } from '../../hdl/index.ts';

/** A load of a memory from word 0 up: `start` begins it, then one word per `we`. */
export const MemoryLoad = (addressBits: number) => Bundle({ start: Bool, we: Bool, waddr: UInt(addressBits), wdata: UInt(32) });
