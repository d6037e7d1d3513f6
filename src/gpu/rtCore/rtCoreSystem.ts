// One RT core tile with a main memory and a host port to load and read them: the unit the ISA
// simulator is checked against core by core (the whole GPU is src/gpu/top/).
import { Bool, Bundle, UInt, cat, defineModule, flip, input, mux, type ValueOf } from '../../hdl/index.ts';
import { clog2 } from '../../hdl/lib/index.ts';
import { MEMORY_MAP } from '../../isa/instructions.ts';
import { MainMemory } from '../memory/mainMemory.ts';
import { controlPorts, texturePorts } from './interfaces.ts';
import { THREAD_WORDS, threadWordOf } from '../memoryMap.ts';
import { type RtCoreParams } from './rtCore.ts';
import { RtCoreTile, type MemoryLoad } from './rtCoreTile.ts';
import { passThrough } from '../passThrough.ts';

/** The host writes one word of a memory: words from 0 up, its first word starting the memory's load. */
const HostWrite = (addressBits: number) => Bundle({ we: Bool, addr: UInt(addressBits), data: UInt(32) });

/** The host reads main memory in cycles the core does not use it; `valid` says the read of the cycle before was served. */
const HostRead = Bundle({
  read: Bool,
  /** Word address in the whole main memory: thread id in [18:14], word in the thread in [13:0]. */
  addr: UInt(clog2(THREAD_WORDS * MEMORY_MAP.threads)),
  valid: flip(Bool),
  data: flip(UInt(128)),
});

export const RtCoreSystem = defineModule(
  'RtCoreSystem',
  (p: RtCoreParams) => ({
    ...controlPorts(p.contexts),
    host_imem: input(HostWrite(clog2(MEMORY_MAP.instructionWords))),
    host_cmem: input(HostWrite(clog2(MEMORY_MAP.constantBytes / 4))),
    host_mem: input(HostRead),
    ...texturePorts(p),
  }),
  (m, io, p) => {
    const tile = m.instance(RtCoreTile, p, { name: 'tile' });
    passThrough(m, controlPorts(p.contexts), io, tile.io);
    passThrough(m, texturePorts(p), io, tile.io);
    const load = (port: ValueOf<ReturnType<typeof MemoryLoad>>, host: ValueOf<ReturnType<typeof HostWrite>>) => {
      port.start.set(host.we.and(host.addr.eq(0)));
      port.we.set(host.we);
      port.waddr.set(host.addr);
      port.wdata.set(host.data);
    };
    load(tile.io.imem_load, io.host_imem);
    load(tile.io.cmem_load, io.host_cmem);

    const main = m.instance(MainMemory, { words: THREAD_WORDS * MEMORY_MAP.threads }, { name: 'main_memory' });
    // The core only issues requests inside its own thread's memory, so thread id and offset make the word address.
    const req = tile.io.mem;
    const hostTurn = io.host_mem.read.and(req.read.or(req.write).not());
    main.io.addr.set(mux(hostTurn, io.host_mem.addr, cat(req.thread, threadWordOf(req.addr))));
    main.io.read_en.set(mux(hostTurn, true, req.read));
    main.io.write_en.set(req.write.and(hostTurn.not()));
    main.io.s_or_v.set(mux(hostTurn, true, req.vector));
    main.io.data_write.set(req.data);
    tile.io.mem_resp.data.set(main.io.data_read);
    // The core checks `done` only on the cycle after its own requests, so the host's answers never reach it.
    tile.io.mem_resp.done.set(main.io.done);
    io.host_mem.valid.set(m.regNext(hostTurn, { reset: 0, name: 'host_turn_q' }));
    io.host_mem.data.set(main.io.data_read);
  },
);
