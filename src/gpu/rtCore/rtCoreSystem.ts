// One RT core tile with a main memory and a host port to load and read them: the unit the ISA
// simulator is checked against core by core (the whole GPU is src/gpu/top/).
import { Bool, UInt, cat, defineModule, input, mux, output } from '../../hdl/index.ts';
import { MEMORY_MAP } from '../../isa/instructions.ts';
import { MainMemory } from '../memory/mainMemory.ts';
import { dispatcherPorts, type RtCoreParams } from './rtCore.ts';
import { RtCoreTile } from './rtCoreTile.ts';
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
    const tile = m.instance(RtCoreTile, p, { name: 'tile' });
    // The dispatcher ports pass straight through, each in its own direction.
    passThrough(dispatcherPorts(), io, tile.io);
    tile.io.imem_we.set(io.host_imem_we);
    tile.io.imem_waddr.set(io.host_imem_addr);
    tile.io.imem_wdata.set(io.host_imem_data);
    tile.io.cmem_we.set(io.host_cmem_we);
    tile.io.cmem_waddr.set(io.host_cmem_addr);
    tile.io.cmem_wdata.set(io.host_cmem_data);

    const main = m.instance(MainMemory, { words: THREAD_WORDS * MEMORY_MAP.threads }, { name: 'main_memory' });
    // The core only issues requests inside its own thread's memory, so thread id and offset make the word address.
    const hostTurn = io.host_mem_read.and(tile.io.busy.not());
    main.io.addr.set(mux(hostTurn, io.host_mem_addr, cat(io.thread_id, tile.io.mem_addr.bits(15, 2))));
    main.io.read_en.set(mux(hostTurn, true, tile.io.mem_read_en));
    main.io.write_en.set(tile.io.mem_write_en.and(hostTurn.not()));
    main.io.s_or_v.set(mux(hostTurn, true, tile.io.mem_s_or_v));
    main.io.data_write.set(tile.io.mem_data_write);
    tile.io.mem_data_read.set(main.io.data_read);
    tile.io.mem_done.set(main.io.done.and(hostTurn.not()));
    io.host_mem_data.set(main.io.data_read);
  },
);
