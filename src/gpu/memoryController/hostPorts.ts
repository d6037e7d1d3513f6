// The host interface of the GPU: MMIO registers (docs/host-interface.md) and the DMA channels,
// shared by the memory controller that serves it and `rtgpu_top` that exposes it.
import { Bool, Bundle, UInt, flip, input, output } from '../../hdl/index.ts';
import { REG_ADDR_BITS } from './registers.ts';

/** The host's register port, as the host drives it (an `input` at the GPU): a write, a read, the read's data back. */
export const MmioPort = Bundle({
  wr_en: Bool,
  wr_addr: UInt(REG_ADDR_BITS),
  wr_data: UInt(32),
  rd_en: Bool,
  rd_addr: UInt(REG_ADDR_BITS),
  /** The read's data, the cycle after rd_en (registered). */
  rd_valid: flip(Bool),
  rd_data: flip(UInt(32)),
});

/** A DMA read request: `beats` 16-byte beats from `addr`, taken when `ready`. */
export const DmaReadRequest = Bundle({ valid: Bool, addr: UInt(64), beats: UInt(32), ready: flip(Bool) });

/** One 16-byte beat of read data, from the host. */
export const DmaReadBeat = Bundle({ valid: Bool, data: UInt(128), ready: flip(Bool) });

/** One 16-byte write to host memory. */
export const DmaWrite = Bundle({ valid: Bool, addr: UInt(64), data: UInt(128), ready: flip(Bool) });

/** The GPU's DMA master, as the GPU drives it (an `output`): read requests out, read data in, writes out. */
export const DmaPort = Bundle({
  rd_req: DmaReadRequest,
  rd: flip(DmaReadBeat),
  wr: DmaWrite,
});

/** SV ports mmio_wr_en … mmio_rd_data, dma_rd_req_valid … dma_wr_ready, irq (the names docs/host-interface.md lists). */
export const hostPorts = () => ({
  mmio: input(MmioPort),
  dma: output(DmaPort),
  irq: output(Bool),
});
