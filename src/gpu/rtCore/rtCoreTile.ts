// An RT core with its own instruction and constant memories (seed: both are read-only to threads,
// so each core gets a copy), written through load ports by the memory controller or a testbench.
import { UInt, defineModule, input, lit, output, mux, type ModuleBuilder, type UIntValue, type ValueOf } from '../../hdl/index.ts';
import { clog2 } from '../../hdl/lib/index.ts';
import { MEMORY_MAP } from '../../isa/instructions.ts';
import { RtCore, type RtCoreParams } from './rtCore.ts';
import { controlPorts, mainMemoryPorts, texturePorts } from './interfaces.ts';
import { instructionWordOf } from '../memoryMap.ts';
import { passThrough } from '../passThrough.ts';
import { MemoryLoad } from '../memory/memoryLoad.ts';

export { MemoryLoad };

/** The load ports of a tile's instruction and constant memories (`output`: the loader's side, the memory controller's). */
export const tileLoadPorts = (direction: typeof input | typeof output = input) => ({
  imem_load: direction(MemoryLoad(clog2(MEMORY_MAP.instructionWords))),
  cmem_load: direction(MemoryLoad(clog2(MEMORY_MAP.constantBytes / 4))),
});

export const RtCoreTile = defineModule(
  'RtCoreTile',
  (p: RtCoreParams) => ({
    ...controlPorts(p.contexts),
    ...mainMemoryPorts(),
    ...tileLoadPorts(),
    ...texturePorts(p),
  }),
  (m, io, p) => {
    const core = m.instance(RtCore, p, { name: 'core' });
    passThrough(m, controlPorts(p.contexts), io, core.io);
    passThrough(m, mainMemoryPorts(), io, core.io);
    passThrough(m, texturePorts(p), io, core.io);

    const imem = loadedMemory(m, MEMORY_MAP.instructionWords, 'imem', io.imem_load);
    core.io.imem.data.set(imem.read(instructionWordOf(core.io.imem.addr)));
    const cmem = loadedMemory(m, MEMORY_MAP.constantBytes / 4, 'cmem', io.cmem_load);
    core.io.cmem.data.set(cmem.read(core.io.cmem.addr));
  },
);

/**
 * A memory loaded from word 0 up, whose words past the last load's length read zero: a kernel that reads
 * instructions or constants nobody loaded sees what the ISA simulator sees (zeros), not a stale
 * earlier load or the memory's power-on contents.
 */
function loadedMemory(m: ModuleBuilder, words: number, name: string, load: ValueOf<ReturnType<typeof MemoryLoad>>) {
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
