// One RT core tile with a main memory and a host port to load and read them: the unit the ISA
// simulator is checked against core by core (the whole GPU is src/gpu/top/).
import { Bool, UInt, cat, defineModule, input, mux, output, type UIntValue } from '../../hdl/index.ts';
import { MEMORY_MAP } from '../../isa/instructions.ts';
import { MainMemory } from '../memory/mainMemory.ts';
import { controlPorts } from './interfaces.ts';
import { THREAD_WORDS, threadWordOf } from '../memoryMap.ts';
import { type RtCoreParams } from './rtCore.ts';
import { RtCoreTile } from './rtCoreTile.ts';
import { passThrough } from '../passThrough.ts';

export const RtCoreSystem = defineModule(
  'RtCoreSystem',
  (p: RtCoreParams) => ({
    ...controlPorts(p.contexts),
    // Host: load the instruction and constant memories; read main memory in cycles the core does not use it.
    host_imem_we: input(Bool),
    host_imem_addr: input(UInt(12)),
    host_imem_data: input(UInt(32)),
    host_cmem_we: input(Bool),
    host_cmem_addr: input(UInt(13)),
    host_cmem_data: input(UInt(32)),
    host_mem_read: input(Bool),
    /** Word address in the whole main memory: thread id in [18:14], word in the thread in [13:0]. */
    host_mem_addr: input(UInt(19)),
    /** The read asked for in the cycle before was served: host_mem_data holds its words. */
    host_mem_valid: output(Bool),
    host_mem_data: output(UInt(128)),
  }),
  (m, io, p) => {
    const tile = m.instance(RtCoreTile, p, { name: 'tile' });
    passThrough(m, controlPorts(p.contexts), io, tile.io);
    // The host loads words from 0 up; its first word of each memory starts that memory's load.
    const load = (port: typeof tile.io.imem_load, we: typeof io.host_imem_we, addr: UIntValue, data: UIntValue) => {
      port.start.set(we.and(addr.eq(0)));
      port.we.set(we);
      port.waddr.set(addr);
      port.wdata.set(data);
    };
    load(tile.io.imem_load, io.host_imem_we, io.host_imem_addr, io.host_imem_data);
    load(tile.io.cmem_load, io.host_cmem_we, io.host_cmem_addr, io.host_cmem_data);

    const main = m.instance(MainMemory, { words: THREAD_WORDS * MEMORY_MAP.threads }, { name: 'main_memory' });
    // The core only issues requests inside its own thread's memory, so thread id and offset make the word address.
    const req = tile.io.mem;
    const hostTurn = io.host_mem_read.and(req.read.or(req.write).not());
    main.io.addr.set(mux(hostTurn, io.host_mem_addr, cat(req.thread, threadWordOf(req.addr))));
    main.io.read_en.set(mux(hostTurn, true, req.read));
    main.io.write_en.set(req.write.and(hostTurn.not()));
    main.io.s_or_v.set(mux(hostTurn, true, req.vector));
    main.io.data_write.set(req.data);
    tile.io.mem_resp.data.set(main.io.data_read);
    // The core checks `done` only on the cycle after its own requests, so the host's answers never reach it.
    tile.io.mem_resp.done.set(main.io.done);
    io.host_mem_valid.set(m.regNext(hostTurn, { reset: 0, name: 'host_turn_q' }));
    io.host_mem_data.set(main.io.data_read);
  },
);
