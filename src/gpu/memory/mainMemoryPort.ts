// One port of the unified main memory: a requester's scalar or vector read or write in one thread's memory, answered a cycle later.
import { Bool, Bundle, UInt, flip } from '../../hdl/index.ts';

/**
 * As the requester drives it (an `input` at the memory, where the answer fields are flipped outputs).
 * `threadBits` and `addrBits` are the memory's: the thread whose memory the port addresses, and the word
 * address within it.
 */
export const MainMemoryPort = (threadBits: number, addrBits: number) =>
  Bundle({
    thread: UInt(threadBits),
    /** Word address within the thread; a vector access covers addr .. addr + 3 (wrapping in the thread). */
    addr: UInt(addrBits),
    read_en: Bool,
    write_en: Bool,
    /** A vector (four words) rather than a scalar (one) access. */
    s_or_v: Bool,
    data_write: UInt(128),
    data_read: flip(UInt(128)),
    /** One cycle after each request cycle: the read data is valid, the write has happened (requests pipeline, one per cycle). */
    done: flip(Bool),
  });
