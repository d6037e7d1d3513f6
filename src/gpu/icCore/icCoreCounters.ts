// The performance counters every IC core keeps, read by the host through the memory controller.
import { Bundle, UInt } from '../../hdl/index.ts';

/** One IC core's counters (MMIO IC_CORE block: RAYS, TESTS, BUSY_CYCLES, NODE_TESTS); all wrap at 2^32. */
export const IcCoreCounters = Bundle({
  /** Rays accepted. */
  rays: UInt(32),
  /** Ray-triangle tests: triangles that entered the test pipeline. */
  tests: UInt(32),
  /** Cycles the core held a ray. */
  busy_cycles: UInt(32),
  /** BVH nodes read (BVH cores; 0 on a brute-force core). */
  node_tests: UInt(32),
});
