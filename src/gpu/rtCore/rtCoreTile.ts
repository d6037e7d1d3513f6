// An RT core with its own instruction and constant memories (seed: both are read-only to threads,
// so each core gets a copy), written through load ports by the memory controller or a testbench.
import { Bool, UInt, defineModule, input, output } from '../../hdl/index.ts';
import { MEMORY_MAP } from '../../isa/instructions.ts';
import { RtCore, dispatcherPorts, type RtCoreParams } from './rtCore.ts';
import { passThrough } from '../passThrough.ts';

/** The core's main-memory request side (a request is held until mem_done). */
export const mainMemoryPorts = () => ({
  mem_addr: output(UInt(32)),
  mem_data_write: output(UInt(128)),
  mem_data_read: input(UInt(128)),
  mem_read_en: output(Bool),
  mem_write_en: output(Bool),
  mem_s_or_v: output(Bool),
  mem_done: input(Bool),
});

export const RtCoreTile = defineModule(
  'RtCoreTile',
  (_p: RtCoreParams) => ({
    ...dispatcherPorts(),
    ...mainMemoryPorts(),
    imem_we: input(Bool),
    imem_waddr: input(UInt(12)),
    imem_wdata: input(UInt(32)),
    cmem_we: input(Bool),
    cmem_waddr: input(UInt(13)),
    cmem_wdata: input(UInt(32)),
  }),
  (m, io, p) => {
    const core = m.instance(RtCore, p, { name: 'core' });
    passThrough(dispatcherPorts(), io, core.io);
    passThrough(mainMemoryPorts(), io, core.io);

    const imem = m.memory(UInt(32), MEMORY_MAP.instructionWords, { name: 'imem' });
    core.io.imem_data.set(imem.read(core.io.imem_addr.bits(13, 2)));
    m.when(io.imem_we, () => imem.write(io.imem_waddr, io.imem_wdata));

    const cmem = m.memory(UInt(32), MEMORY_MAP.constantBytes / 4, { name: 'cmem' });
    core.io.cmem_data.set(cmem.read(core.io.cmem_addr));
    m.when(io.cmem_we, () => cmem.write(io.cmem_waddr, io.cmem_wdata));
  },
);
