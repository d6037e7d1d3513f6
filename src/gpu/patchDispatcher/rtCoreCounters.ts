// The performance counters the patch dispatcher keeps per RT core, read by the host through the memory controller.
import { Bundle, UInt } from '../../hdl/index.ts';

/** One RT core's counters (MMIO RT_CORE block: PC, BUSY_CYCLES, ISSUE_CYCLES); all wrap at 2^32. */
export const RtCoreCounters = Bundle({
  /** The PC of the core's last retired instruction. */
  pc: UInt(32),
  /** Cycles the core held a thread. */
  busy_cycles: UInt(32),
  /** Cycles the core issued an instruction. */
  issue_cycles: UInt(32),
});
