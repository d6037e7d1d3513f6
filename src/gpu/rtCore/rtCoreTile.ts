// An RT core with its own instruction and constant memories (seed: both are read-only to threads,
// so each core gets a copy), written through load ports by the memory controller or a testbench.
import { Bool, UInt, defineModule, input, lit, mux, type BoolValue, type ModuleBuilder, type UIntValue } from '../../hdl/index.ts';
import { clog2 } from '../../hdl/lib/index.ts';
import { MEMORY_MAP } from '../../isa/instructions.ts';
import { RtCore, type RtCoreParams } from './rtCore.ts';
import { dispatcherPorts, mainMemoryPorts } from './interfaces.ts';
import { passThrough } from '../passThrough.ts';

/** The load ports of a tile's instruction and constant memories (a load writes words 0, 1, … after its start). */
export const tileLoadPorts = () => ({
  imem_load_start: input(Bool),
  imem_we: input(Bool),
  imem_waddr: input(UInt(12)),
  imem_wdata: input(UInt(32)),
  cmem_load_start: input(Bool),
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

    const imem = loadedMemory(m, MEMORY_MAP.instructionWords, 'imem', { start: io.imem_load_start, we: io.imem_we, waddr: io.imem_waddr, wdata: io.imem_wdata });
    core.io.imem_data.set(imem.read(core.io.imem_addr.bits(13, 2)));
    const cmem = loadedMemory(m, MEMORY_MAP.constantBytes / 4, 'cmem', { start: io.cmem_load_start, we: io.cmem_we, waddr: io.cmem_waddr, wdata: io.cmem_wdata });
    core.io.cmem_data.set(cmem.read(core.io.cmem_addr));
  },
);

/**
 * A memory loaded from word 0 up, whose words past the last load's length read zero: a kernel that reads
 * instructions or constants nobody loaded sees what the ISA simulator sees (zeros), not a stale
 * earlier load or the memory's power-on contents.
 */
function loadedMemory(m: ModuleBuilder, words: number, name: string, load: { start: BoolValue; we: BoolValue; waddr: UIntValue; wdata: UIntValue }) {
  const mem = m.memory(UInt(32), words, { name });
  const length = m.reg(UInt(clog2(words + 1)), { reset: 0, name: `${name}_length` });
  m.when(load.we, () => length.set(load.waddr.zext(length.width).add(1))).elsewhen(load.start, () => length.set(0));
  m.when(load.we, () => mem.write(load.waddr, load.wdata));
  return {
    read(addr: UIntValue): UIntValue {
      const loaded = m.regNext(addr.zext(length.width).lt(length), { reset: 0, name: `${name}_loaded` });
      return mux(loaded, mem.read(addr), lit(0, 32));
    },
  };
}
