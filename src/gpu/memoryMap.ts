// The ISA's memory map (MEMORY_MAP in isa/instructions.ts) as slices of hardware addresses: which region
// an address falls in and the word it names there. Every width and constant here comes from that table.
import { cat, hideFromSourceLocations, lit, type BoolValue, type UIntValue } from '../hdl/index.ts';
import { clog2 } from '../hdl/lib/index.ts';
import { MEMORY_MAP } from '../isa/instructions.ts';

hideFromSourceLocations(import.meta.url);

/** Bits of a byte offset inside one thread's main memory, and of a thread id. */
const THREAD_OFFSET_BITS = clog2(MEMORY_MAP.threadBytes);
const THREAD_ID_BITS = clog2(MEMORY_MAP.threads);
/** Bits of a byte offset inside the constant memory and inside the instruction memory. */
const CONSTANT_OFFSET_BITS = clog2(MEMORY_MAP.constantBytes);
const INSTRUCTION_OFFSET_BITS = clog2(MEMORY_MAP.instructionWords * 4);

/** The 32-bit word an address names inside `offsetBits` of byte offset (the low two bits are ignored). */
const wordOf = (addr: UIntValue, offsetBits: number): UIntValue => addr.bits(offsetBits - 1, 2);

/** Words of one thread's main memory. */
export const THREAD_WORDS = MEMORY_MAP.threadBytes / 4;

/** The word an address names inside its thread's main memory. */
export const threadWordOf = (addr: UIntValue): UIntValue => wordOf(addr, THREAD_OFFSET_BITS);

/** The first byte address of thread `thread`'s main memory (threadBase of the ISA, in hardware). */
export function threadBaseOf(thread: UIntValue): UIntValue {
  const high = 32 - THREAD_OFFSET_BITS - THREAD_ID_BITS;
  return cat(lit(MEMORY_MAP.mainBase >>> (32 - high), high), thread.zext(THREAD_ID_BITS), lit(0, THREAD_OFFSET_BITS));
}

/** The address lies in thread `thread`'s main memory. */
export const isThreadAddress = (addr: UIntValue, thread: UIntValue): BoolValue => addr.bits(31, THREAD_OFFSET_BITS).eq(threadBaseOf(thread).bits(31, THREAD_OFFSET_BITS));

/** A 16-byte access at this address stays inside its thread's main memory. */
export const vectorFitsThread = (addr: UIntValue): BoolValue => threadWordOf(addr).le(THREAD_WORDS - 4);

/** The address lies in the constant memory. */
export const isConstantAddress = (addr: UIntValue): BoolValue => addr.bits(31, CONSTANT_OFFSET_BITS).eq(MEMORY_MAP.constantBase >>> CONSTANT_OFFSET_BITS);

/** The word an address names inside the constant memory. */
export const constantWordOf = (addr: UIntValue): UIntValue => wordOf(addr, CONSTANT_OFFSET_BITS);

/** A PC past the instruction memory (it starts at address 0). */
export const isOutsideInstructionMemory = (pc: UIntValue): BoolValue => pc.bits(31, INSTRUCTION_OFFSET_BITS).ne(0);

/** The instruction memory word a PC names. */
export const instructionWordOf = (pc: UIntValue): UIntValue => wordOf(pc, INSTRUCTION_OFFSET_BITS);
