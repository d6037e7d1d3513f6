// One RT core with its instruction, constant and main memories and a host port to load and read them:
// the unit the ISA simulator is checked against until the whole GPU exists.
import { Bool, UInt, cat, defineModule, input, mux, output } from '../../hdl/index.ts';
import { MEMORY_MAP } from '../../isa/instructions.ts';
import { MainMemory } from '../memory/mainMemory.ts';
import { RtCore, dispatcherPorts, type RtCoreParams } from './rtCore.ts';
import { passThrough } from '../passThrough.ts';

const THREAD_WORDS = MEMORY_MAP.threadBytes / 4;

export const RtCoreSystem = defineModule(
  'RtCoreSystem',
  (_p: RtCoreParams) => ({
    ...dispatcherPorts(),
    // Host: load the instruction and constant memories, read main memory while the core is idle.
    host_imem_we: input(Bool),
    host_imem_addr: input(UInt(12)),
    host_imem_data: input(UInt(32)),
    host_cmem_we: input(Bool),
    host_cmem_addr: input(UInt(13)),
    host_cmem_data: input(UInt(32)),
    host_mem_read: input(Bool),
    /** Word address in the whole main memory: thread id in [18:14], word in the thread in [13:0]. */
    host_mem_addr: input(UInt(19)),
    host_mem_data: output(UInt(128)),
  }),
  (m, io, p) => {
    const core = m.instance(RtCore, p, { name: 'core' });
    // The dispatcher ports pass straight through, each in its own direction.
    passThrough(dispatcherPorts(), io, core.io);

    const imem = m.memory(UInt(32), MEMORY_MAP.instructionWords, { name: 'imem' });
    core.io.imem_data.set(imem.read(core.io.imem_addr.bits(13, 2)));
    m.when(io.host_imem_we, () => imem.write(io.host_imem_addr, io.host_imem_data));

    const cmem = m.memory(UInt(32), MEMORY_MAP.constantBytes / 4, { name: 'cmem' });
    core.io.cmem_data.set(cmem.read(core.io.cmem_addr));
    m.when(io.host_cmem_we, () => cmem.write(io.host_cmem_addr, io.host_cmem_data));

    const main = m.instance(MainMemory, { words: THREAD_WORDS * MEMORY_MAP.threads }, { name: 'main_memory' });
    // The core only issues requests inside its own thread's memory, so thread id and offset make the word address.
    const hostTurn = io.host_mem_read.and(core.io.busy.not());
    main.io.addr.set(mux(hostTurn, io.host_mem_addr, cat(io.thread_id, core.io.mem_addr.bits(15, 2))));
    main.io.read_en.set(mux(hostTurn, true, core.io.mem_read_en));
    main.io.write_en.set(core.io.mem_write_en.and(hostTurn.not()));
    main.io.s_or_v.set(mux(hostTurn, true, core.io.mem_s_or_v));
    main.io.data_write.set(core.io.mem_data_write);
    core.io.mem_data_read.set(main.io.data_read);
    core.io.mem_done.set(main.io.done.and(hostTurn.not()));
    io.host_mem_data.set(main.io.data_read);
  },
);
