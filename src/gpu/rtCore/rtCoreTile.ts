// An RT core with its own instruction and constant memories (seed: both are read-only to threads,
// so each core gets a copy), written through load ports by the memory controller or a testbench.
import { Bool, UInt, defineModule, input } from '../../hdl/index.ts';
import { MEMORY_MAP } from '../../isa/instructions.ts';
import { RtCore, type RtCoreParams } from './rtCore.ts';
import { dispatcherPorts, mainMemoryPorts } from './interfaces.ts';
import { passThrough } from '../passThrough.ts';

/** The load ports of a tile's instruction and constant memories. */
export const tileLoadPorts = () => ({
  imem_we: input(Bool),
  imem_waddr: input(UInt(12)),
  imem_wdata: input(UInt(32)),
  cmem_we: input(Bool),
  cmem_waddr: input(UInt(13)),
  cmem_wdata: input(UInt(32)),
});

export const RtCoreTile = defineModule(
  'RtCoreTile',
  (p: RtCoreParams) => ({
    ...dispatcherPorts(p.contexts),
    ...mainMemoryPorts(),
    ...tileLoadPorts(),
  }),
  (m, io, p) => {
    const core = m.instance(RtCore, p, { name: 'core' });
    passThrough(m, dispatcherPorts(p.contexts), io, core.io);
    passThrough(m, mainMemoryPorts(), io, core.io);

    const imem = m.memory(UInt(32), MEMORY_MAP.instructionWords, { name: 'imem' });
    core.io.imem_data.set(imem.read(core.io.imem_addr.bits(13, 2)));
    m.when(io.imem_we, () => imem.write(io.imem_waddr, io.imem_wdata));

    // Zero at power-on, so a kernel that reads constants nobody loaded gets a defined value.
    const cmem = m.memory(UInt(32), MEMORY_MAP.constantBytes / 4, { name: 'cmem' });
    core.io.cmem_data.set(cmem.read(core.io.cmem_addr));
    m.when(io.cmem_we, () => cmem.write(io.cmem_waddr, io.cmem_wdata));
  },
);
