// The host interface of the GPU: MMIO registers (docs/host-interface.md) and the DMA channels,
// shared by the memory controller that serves it and `rtgpu_top` that exposes it.
import { Bool, UInt, input, output } from '../../hdl/index.ts';
import { REG_ADDR_BITS } from './registers.ts';

export const hostPorts = () => ({
  mmio_wr_en: input(Bool),
  mmio_wr_addr: input(UInt(REG_ADDR_BITS)),
  mmio_wr_data: input(UInt(32)),
  mmio_rd_en: input(Bool),
  mmio_rd_addr: input(UInt(REG_ADDR_BITS)),
  mmio_rd_valid: output(Bool),
  mmio_rd_data: output(UInt(32)),
  dma_rd_req_valid: output(Bool),
  dma_rd_req_addr: output(UInt(64)),
  dma_rd_req_beats: output(UInt(32)),
  dma_rd_req_ready: input(Bool),
  dma_rd_valid: input(Bool),
  dma_rd_data: input(UInt(128)),
  dma_rd_ready: output(Bool),
  dma_wr_valid: output(Bool),
  dma_wr_addr: output(UInt(64)),
  dma_wr_data: output(UInt(128)),
  dma_wr_ready: input(Bool),
  irq: output(Bool),
});

