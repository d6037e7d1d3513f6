// The memory controller (seed section 2): MMIO registers for the host, a DMA read engine that streams
// the program, constants and triangle image into the on-chip memories, and a write engine that copies
// each finished patch's return vectors (and a patch report) back to host memory.
import { Bool, Bundle, UInt, Vec, cat, defineModule, fsm, input, lit, mux, output, unpackBits, type BoolValue, type Fsm, type ModuleBuilder, type PortSpec, type PortsValue, type UIntValue, type ValueOf } from '../../hdl/index.ts';
import { Fifo, clog2 } from '../../hdl/lib/index.ts';
import { ThreadDone } from '../patchDispatcher/patchDispatcher.ts';
import { RtCoreCounters } from '../patchDispatcher/rtCoreCounters.ts';
import { IcCoreCounters } from '../icCore/icCoreCounters.ts';
import { MEMORY_MAP } from '../../isa/instructions.ts';
import { FrameLink, PATCH_THREADS } from '../commandPatcher/commandPatcher.ts';
import { checkCoreCounts, type PatchDispatcherParams } from '../patchDispatcher/patchDispatcher.ts';
import { lowestOf, pick, type Choice } from '../selection.ts';
import { vectorWords } from '../memory/vectorWord.ts';
import { hostPorts } from './hostPorts.ts';
import { SceneLoad } from '../memory/sceneLoad.ts';
import { CONTEXT_REG, CONTROL, ERROR_CODE, FEATURE, IC_CORE_REG, INTERFACE_VERSION, MMIO, MMIO_ID, RT_CORE_REG, STATUS, TEXTURE_REG } from './registers.ts';
import { ContextStatus, THREAD_BITS } from '../rtCore/interfaces.ts';
import { contextBits } from '../rtCore/registerFile.ts';
import { tileLoadPorts } from '../rtCore/rtCoreTile.ts';
import { MemoryLoad } from '../memory/memoryLoad.ts';
import { TextureUnitCounters } from '../texture/textureUnit.ts';

export interface MemoryControllerParams extends PatchDispatcherParams {
  /** Bits of a triangle count (the triangle memory's `triangle_count`). */
  readonly triangleCountBits: number;
  /** Hardware contexts per RT core. */
  readonly contexts: number;
  /** The GPU has a texture unit: a fourth load (TEX_ADDR, TEX_WORDS, LOAD_TEXTURE) fills its texture memory through `tex_load`. */
  readonly texture?: boolean;
}

/** The loads the read engine runs, in this order: program, constants, triangles, and texture in a GPU with a texture unit. */
const LOADS = ['program', 'constants', 'triangles', 'texture'] as const;
/** Word limits of the memories the read engine fills (the triangle memories check their image themselves). */
const LIMITS = [MEMORY_MAP.instructionWords, MEMORY_MAP.constantBytes / 4, undefined, MEMORY_MAP.textureWords] as const;
const TOO_LONG = [ERROR_CODE.programTooLong, ERROR_CODE.constantsTooLong, ERROR_CODE.none, ERROR_CODE.textureTooLong] as const;

/** Bits of a texture-memory word address. */
const TEXTURE_ADDRESS_BITS = clog2(MEMORY_MAP.textureWords);

/** In a GPU with a texture unit: the texture memory's load port (SV ports tex_load_start …) and the unit's counters (tex_counters_issued …). */
function texturePorts(p: Pick<MemoryControllerParams, 'texture'>): { tex_load: PortSpec<ReturnType<typeof MemoryLoad>>; tex_counters: PortSpec<typeof TextureUnitCounters> } | Record<never, never> {
  return p.texture ? { tex_load: output(MemoryLoad(TEXTURE_ADDRESS_BITS)), tex_counters: input(TextureUnitCounters) } : {};
}

/** How many loads a controller runs. */
const loadCount = (p: Pick<MemoryControllerParams, 'texture'>): number => (p.texture ? 4 : 3);

/** A thread that ended, queued for its write-back (ThreadDone without its valid bit). */
const EndedThread = Bundle({ thread: UInt(THREAD_BITS), pixel: UInt(32), fault: Bool });

const memoryControllerPorts = (p: MemoryControllerParams) => ({
    ...hostPorts(),
    /** The RT cores' instruction and constant memories (every core's copy is loaded at once; SV ports imem_load_start …). */
    ...tileLoadPorts(output),
    /** The IC systems' scene image (SV ports tri_load_start … tri_load_triangle_count). */
    tri_load: output(SceneLoad(p.triangleCountBits)),
    ...texturePorts(p),
    /** The command patcher (SV ports frame_start … frame_done). */
    frame: output(FrameLink),
    // Patch dispatcher: threads that ended, to write back.
    thread_done: input(ThreadDone),
    core_busy: input(Vec(p.rtCores, Bool)),
    /** The dispatcher's counters per RT core (SV ports core_counters_<c>_pc …). */
    core_counters: input(Vec(p.rtCores, RtCoreCounters)),
    // Every RT core shows the status of the context `context_select` names (read through MMIO).
    context_select: output(UInt(contextBits(p.contexts))),
    context_status: input(Vec(p.rtCores, ContextStatus)),
    instructions: input(UInt(32)),
    traces: input(UInt(32)),
    internal_error: input(Bool),
    /** The IC cores' counters (SV ports ic_counters_<k>_rays …). */
    ic_counters: input(Vec(p.icCores, IcCoreCounters)),
    // Main memory (port 0, in cycles RT core 0 leaves it free): the return vectors.
    mem_read_en: output(Bool),
    mem_thread: output(UInt(5)),
    mem_addr: output(UInt(14)),
    mem_data_read: input(UInt(128)),
    /** The answer to this port's own request of the cycle before. */
    mem_done: input(Bool),
});
type ControllerIo = PortsValue<ReturnType<typeof memoryControllerPorts>>;

/** The texture memory's load port and the texture unit's counters, when the controller has them (texturePorts). */
const textureIo = (io: ControllerIo): { tex_load: ValueOf<ReturnType<typeof MemoryLoad>>; tex_counters: ValueOf<typeof TextureUnitCounters> } | undefined =>
  'tex_load' in io ? (io as unknown as NonNullable<ReturnType<typeof textureIo>>) : undefined;

/** Host address registers: a 64-bit byte address as its two MMIO words. */
interface HostAddress {
  readonly lo: UIntValue;
  readonly hi: UIntValue;
}

/** The MMIO-writable registers: the load sources, the frame's result and report addresses, its pixels. */
interface HostRegisters {
  /** Program, constants, triangles (and texture): where each load reads from and how many words. */
  readonly sources: readonly (HostAddress & { readonly words: UIntValue })[];
  readonly out: HostAddress;
  readonly report: HostAddress;
  readonly pixelCount: UIntValue;
  readonly firstPixel: UIntValue;
  /** MMIO address and register, for the writes and the reads back. */
  readonly writable: readonly (readonly [number, UIntValue])[];
  readonly frameCounters: FrameCounters;
}

interface FrameCounters {
  readonly patches: UIntValue;
  readonly faults: UIntValue;
  readonly faultMask: UIntValue;
}

/** What the controller is doing: a load (request, receive), the frame (run), or nothing; the commands still to run; DONE and ERROR. */
interface ControllerState {
  readonly phase: Fsm<(typeof CONTROLLER_PHASES)[number]>;
  readonly pendingLoads: UIntValue;
  readonly pendingStart: UIntValue;
  readonly done: UIntValue;
  readonly error: UIntValue;
  readonly busy: BoolValue;
  /** Records `code` in ERROR unless it already holds one (the first error since CLEAR wins). */
  readonly raise: (code: number | UIntValue) => void;
}

const CONTROLLER_PHASES = ['idle', 'request', 'receive', 'run'] as const;

export const MemoryController = defineModule('MemoryController', memoryControllerPorts, (m, io, p) => {
  checkCoreCounts(p, 'MemoryController');
  const regs = hostRegisters(m, io, p);
  const ctl = controllerState(m, loadCount(p));
  controlCommand(m, io, regs, ctl);
  const load = readEngine(m, io, regs, ctl);
  const startFrame = frameStart(m, io, regs, ctl, load.nextLoad);
  const writeBack = writeBackEngine(m, io, { ...regs, startFrame, running: ctl.phase.is('run') });
  m.when(writeBack.overflow, () => ctl.raise(ERROR_CODE.internal));
  // The patcher ends the frame in the cycle it is started (0 pixels) or told the last patch is written.
  m.when(io.frame.done, () => {
    ctl.phase.goto('idle');
    ctl.done.set(true);
  });
  // The interrupt: DONE or ERROR set.
  io.irq.set(ctl.done.or(ctl.error.ne(0)));
  mmioReads(m, io, p, regs, ctl, writeBack.doneMask);
});

function hostRegisters(m: ModuleBuilder, io: ControllerIo, p: MemoryControllerParams): HostRegisters {
  const addrReg = (name: string) => ({ lo: reg32(m, `${name}_addr_lo`), hi: reg32(m, `${name}_addr_hi`) });
  const sources = [
    { ...addrReg('program'), words: reg32(m, 'program_words') },
    { ...addrReg('const'), words: reg32(m, 'const_words') },
    { ...addrReg('tri'), words: reg32(m, 'tri_words') },
    ...(p.texture ? [{ ...addrReg('tex'), words: reg32(m, 'tex_words') }] : []),
  ];
  const out = addrReg('out');
  const report = addrReg('report');
  const pixelCount = reg32(m, 'pixel_count');
  const firstPixel = reg32(m, 'first_pixel');
  const writable: [number, UIntValue][] = [
    [MMIO.PROGRAM_ADDR_LO, sources[0]!.lo], [MMIO.PROGRAM_ADDR_HI, sources[0]!.hi], [MMIO.PROGRAM_WORDS, sources[0]!.words],
    [MMIO.CONST_ADDR_LO, sources[1]!.lo], [MMIO.CONST_ADDR_HI, sources[1]!.hi], [MMIO.CONST_WORDS, sources[1]!.words],
    [MMIO.TRI_ADDR_LO, sources[2]!.lo], [MMIO.TRI_ADDR_HI, sources[2]!.hi], [MMIO.TRI_WORDS, sources[2]!.words],
    [MMIO.OUT_ADDR_LO, out.lo], [MMIO.OUT_ADDR_HI, out.hi], [MMIO.PIXEL_COUNT, pixelCount], [MMIO.FIRST_PIXEL, firstPixel],
    [MMIO.REPORT_ADDR_LO, report.lo], [MMIO.REPORT_ADDR_HI, report.hi],
    ...(p.texture ? ([[MMIO.TEX_ADDR_LO, sources[3]!.lo], [MMIO.TEX_ADDR_HI, sources[3]!.hi], [MMIO.TEX_WORDS, sources[3]!.words]] as [number, UIntValue][]) : []),
  ];
  for (const [addr, r] of writable) m.when(mmioWrite(io, addr), () => r.set(io.mmio.wr_data));
  const frameCounters = { patches: reg32(m, 'patches_done'), faults: reg32(m, 'fault_count'), faultMask: reg32(m, 'fault_mask') };
  return { sources, out, report, pixelCount, firstPixel, writable, frameCounters };
}

const mmioWrite = (io: ControllerIo, addr: number): BoolValue => io.mmio.wr_en.and(io.mmio.wr_addr.eq(addr));

function controllerState(m: ModuleBuilder, loads: number): ControllerState {
  const phase = fsm(m, 'controller', CONTROLLER_PHASES, 'idle');
  const pendingLoads = m.reg(UInt(loads), { reset: 0 });
  const pendingStart = m.reg(Bool, { reset: 0 });
  const done = m.reg(Bool, { reset: 0 });
  const error = m.reg(UInt(3), { reset: 0 });
  const busy = phase.is('idle').not().or(pendingLoads.ne(0)).or(pendingStart);
  const raise = (code: number | UIntValue) => m.when(error.eq(0), () => error.set(code));
  return { phase, pendingLoads, pendingStart, done, error, busy, raise };
}

/** A CONTROL write: the loads and the start it asks for become pending (refused while busy); CLEAR and START clear DONE. */
function controlCommand(m: ModuleBuilder, io: ControllerIo, regs: HostRegisters, ctl: ControllerState): void {
  const control = mmioWrite(io, MMIO.CONTROL);
  const command = io.mmio.wr_data;
  const start = flagBit(command, CONTROL.START);
  m.when(control.and(ctl.busy), () => ctl.raise(ERROR_CODE.busy)).elsewhen(control, () => {
    // Bit j of pendingLoads: load j (LOADS), the order the read engine takes them in.
    const bits = [CONTROL.LOAD_PROGRAM, CONTROL.LOAD_CONSTANTS, CONTROL.LOAD_TRIANGLES, CONTROL.LOAD_TEXTURE].slice(0, ctl.pendingLoads.width);
    ctl.pendingLoads.set(cat(...bits.map((b) => flagBit(command, b)).reverse()));
    ctl.pendingStart.set(start);
    m.when(flagBit(command, CONTROL.CLEAR), () => {
      ctl.done.set(false);
      ctl.error.set(0);
    });
    m.when(start, () => {
      ctl.done.set(false);
      for (const r of Object.values(regs.frameCounters)) r.set(0);
    });
  });
}

/** The read engine's registers: which memory the load fills, its next word, the beats still to come, the beat being unpacked. */
interface Transfer {
  readonly current: UIntValue;
  readonly wordIndex: UIntValue;
  readonly beatsLeft: UIntValue;
  readonly buffer: UIntValue;
  readonly bufferWords: UIntValue;
  readonly bufferPos: UIntValue;
  /** The load `j` is done (or had nothing to load): it is no longer pending. */
  readonly clearPending: (j: UIntValue) => void;
}

/**
 * The DMA read engine: the lowest pending load reads its words from the host, four per 16-byte beat,
 * into the program, constant or triangle memory, one word per cycle.
 */
function readEngine(m: ModuleBuilder, io: ControllerIo, regs: HostRegisters, ctl: ControllerState): { nextLoad: Choice } {
  const { pendingLoads } = ctl;
  const transfer: Transfer = {
    current: m.reg(UInt(2), { reset: 0, name: 'current' }),
    wordIndex: reg32(m, 'word_index'),
    beatsLeft: reg32(m, 'beats_left'),
    buffer: m.reg(UInt(128), { reset: 0, name: 'buffer' }),
    bufferWords: m.reg(UInt(3), { reset: 0, name: 'buffer_words' }),
    bufferPos: m.reg(UInt(2), { reset: 0, name: 'buffer_pos' }),
    clearPending: (j) => pendingLoads.set(pendingLoads.and(lit(1, pendingLoads.width).shl(j).not())),
  };
  const nextLoad = startLoad(m, io, regs, ctl, transfer);
  receiveBeats(m, io, regs, ctl, transfer);
  // The triangle memories' sticky error clears at the edge of load_start: not a new error in that cycle.
  m.when(io.tri_load.error.and(io.tri_load.start.not()), () => ctl.raise(ERROR_CODE.triangleImage));
  m.when(io.internal_error, () => ctl.raise(ERROR_CODE.internal));
  return { nextLoad };
}

/** An idle controller takes the lowest pending load: refused when too long or out of the address space, else its DMA request. */
function startLoad(m: ModuleBuilder, io: ControllerIo, { sources }: HostRegisters, ctl: ControllerState, t: Transfer): Choice {
  const { phase, pendingLoads } = ctl;
  const nextLoad = lowestOf(sources.map((_, j) => pendingLoads.bit(j)));
  const nextWords = loadWords(sources, nextLoad.index);
  const limited = sources.map((_, j) => LIMITS[j]);
  const tooLong = pick(nextLoad.index, limited.map((limit) => (limit === undefined ? lit(0, 1) : nextWords.gt(limit)))).asBool();
  // 33 bits: a word count near 2^32 must not wrap to 0 beats.
  const nextBeats = nextWords.zext(33).add(3).shr(2);
  const nextSource = cat(pick(nextLoad.index, sources.map((s) => s.hi)), pick(nextLoad.index, sources.map((s) => s.lo)));
  const badSource = nextWords.ne(0).and(badTransfer(nextSource, nextBeats));
  const beginLoad = phase.is('idle').and(nextLoad.any);
  m.when(beginLoad.and(tooLong.or(badSource)), () => {
    // Nothing is loaded and the frame does not start: the host sees ERROR and reloads.
    ctl.raise(mux(tooLong, pick(nextLoad.index, sources.map((_, j) => lit(TOO_LONG[j]!, 3))), lit(ERROR_CODE.badAddress, 3)));
    pendingLoads.set(0);
    ctl.pendingStart.set(false);
  }).elsewhen(beginLoad, () => {
    t.current.set(nextLoad.index);
    t.wordIndex.set(0);
    t.bufferWords.set(0);
    t.bufferPos.set(0);
    t.beatsLeft.set(nextBeats.trunc(32));
    m.when(nextWords.eq(0), () => t.clearPending(nextLoad.index)).otherwise(() => phase.goto('request'));
  });
  // The triangle memories forget the old scene as the load begins (a 0-word load empties them).
  const loadStarts = beginLoad.and(tooLong.not()).and(badSource.not());
  io.imem_load.start.set(loadStarts.and(nextLoad.index.eq(0)));
  io.cmem_load.start.set(loadStarts.and(nextLoad.index.eq(1)));
  io.tri_load.start.set(loadStarts.and(nextLoad.index.eq(2)));
  textureIo(io)?.tex_load.start.set(loadStarts.and(nextLoad.index.eq(3)));
  const source = { lo: pick(t.current, sources.map((s) => s.lo)), hi: pick(t.current, sources.map((s) => s.hi)) };
  io.dma.rd_req.valid.set(phase.is('request'));
  io.dma.rd_req.addr.set(cat(source.hi, source.lo));
  io.dma.rd_req.beats.set(t.beatsLeft);
  m.when(phase.is('request').and(io.dma.rd_req.ready), () => phase.goto('receive'));
  return nextLoad;
}

/** The words of load `j` (program, constants, triangles). */
const loadWords = (sources: HostRegisters['sources'], j: UIntValue): UIntValue => pick(j, sources.map((s) => s.words));

/** The beats arrive (at most one buffered ahead) and leave as one word per cycle into the memory being loaded; the last word ends the load. */
function receiveBeats(m: ModuleBuilder, io: ControllerIo, { sources }: HostRegisters, ctl: ControllerState, t: Transfer): void {
  const { current, wordIndex, beatsLeft, buffer, bufferWords, bufferPos } = t;
  const receiving = ctl.phase.is('receive');
  const emit = receiving.and(bufferWords.ne(0));
  const accept = receiving.and(beatsLeft.ne(0)).and(bufferWords.lt(2)).and(io.dma.rd.valid);
  io.dma.rd.ready.set(receiving.and(beatsLeft.ne(0)).and(bufferWords.lt(2)));
  const word = pick(bufferPos, vectorWords(buffer)); // a beat: four words, word 0 lowest
  // The last beat's words past the length are dropped.
  const store = emit.and(wordIndex.lt(loadWords(sources, current)));
  io.tri_load.valid.set(store.and(current.eq(2)));
  io.tri_load.data.set(word);
  // Each memory sees every word; the program's addresses are narrower (a load of more words is refused).
  const texture = textureIo(io)?.tex_load;
  const loads = [[io.imem_load, 0], [io.cmem_load, 1], ...(texture ? [[texture, 3] as const] : [])] as const;
  for (const [load, j] of loads) {
    load.we.set(store.and(current.eq(j)));
    load.waddr.set(wordIndex.trunc(load.waddr.width));
    load.wdata.set(word);
  }
  m.when(emit, () => {
    wordIndex.set(wordIndex.add(1));
    bufferPos.set(bufferPos.add(1));
  });
  m.when(accept, () => {
    buffer.set(io.dma.rd.data);
    bufferWords.set(4);
    bufferPos.set(0);
    beatsLeft.set(beatsLeft.sub(1));
  }).elsewhen(emit, () => bufferWords.set(bufferWords.sub(1)));
  m.when(receiving.and(beatsLeft.eq(0)).and(bufferWords.eq(0)), () => {
    ctl.phase.goto('idle');
    t.clearPending(current);
  });
}

/** The frame starts once no load is pending, unless ERROR holds a code or its results or reports would not fit the address space. */
function frameStart(m: ModuleBuilder, io: ControllerIo, regs: HostRegisters, ctl: ControllerState, nextLoad: Choice): BoolValue {
  const { out, report, pixelCount } = regs;
  // The results go to OUT_ADDR + 16·i, the reports to REPORT_ADDR + 16·n: both must fit the address space.
  const reportsOn = cat(report.hi, report.lo).ne(0);
  const patches = pixelCount.zext(33).add(PATCH_THREADS - 1).shr(5);
  const badFrame = badTransfer(cat(out.hi, out.lo), pixelCount.zext(33)).or(reportsOn.and(badTransfer(cat(report.hi, report.lo), patches)));
  const frameDue = ctl.phase.is('idle').and(nextLoad.any.not()).and(ctl.pendingStart);
  const startFrame = frameDue.and(ctl.error.eq(0)).and(badFrame.not());
  m.when(frameDue, () => {
    ctl.pendingStart.set(false);
    m.when(badFrame, () => ctl.raise(ERROR_CODE.badAddress)).elsewhen(ctl.error.eq(0), () => ctl.phase.goto('run'));
  });
  io.frame.start.set(startFrame);
  io.frame.pixel_count.set(pixelCount);
  io.frame.first_pixel.set(regs.firstPixel);
  return startFrame;
}

/** One readable MMIO register: its address and its value. */
type ReadEntry = readonly [number, UIntValue];

/** Every MMIO register read back: the read map's blocks joined into the read port. */
function mmioReads(m: ModuleBuilder, io: ControllerIo, p: MemoryControllerParams, regs: HostRegisters, ctl: ControllerState, doneMask: UIntValue): void {
  readPort(m, io.mmio, [
    ...globalWords(m, io, p, regs, ctl, doneMask),
    ...rtCoreWords(io, p.rtCores),
    ...contextWords(io, p),
    ...icCoreWords(io, p.icCores), ...textureWords(io),
  ]);
}

/** The global words: ID, CONFIG, STATUS, ERROR, TRIANGLES, the writable registers, the frame counters, the busy-cycle counter, INSTRUCTIONS, TRACES. */
function globalWords(m: ModuleBuilder, io: Pick<ControllerIo, 'tri_load' | 'instructions' | 'traces'>, p: MemoryControllerParams, regs: HostRegisters, ctl: ControllerState, doneMask: UIntValue): ReadEntry[] {
  const { phase, error, busy } = ctl;
  const cycles = m.reg(UInt(64), { reset: 0 });
  m.when(busy, () => cycles.set(cycles.add(1)));
  const cycleWords = unpackBits(Vec(2, UInt(32)), cycles);
  const status = flagWord([
    [STATUS.BUSY, busy],
    [STATUS.DONE, ctl.done.asBool()],
    [STATUS.ERROR, error.ne(0)],
    [STATUS.LOADING, phase.is('receive').or(phase.is('request'))],
    [STATUS.RUNNING, phase.is('run')],
  ]);
  const config = lit((INTERFACE_VERSION << 24) | (PATCH_THREADS << 16) | (p.icCores << 8) | p.rtCores, 32);
  const { frameCounters } = regs;
  return [
    [MMIO.ID, lit(MMIO_ID, 32)],
    [MMIO.CONFIG, config],
    [MMIO.STATUS, status.zext(32)],
    [MMIO.ERROR, error.zext(32)],
    [MMIO.TRIANGLES, io.tri_load.triangle_count.zext(32)],
    ...regs.writable,
    [MMIO.PATCHES_DONE, frameCounters.patches],
    [MMIO.FAULT_COUNT, frameCounters.faults],
    [MMIO.FAULT_MASK, frameCounters.faultMask],
    [MMIO.DONE_MASK, doneMask],
    [MMIO.CYCLES_LO, cycleWords.at(0)],
    [MMIO.CYCLES_HI, cycleWords.at(1)],
    [MMIO.INSTRUCTIONS, io.instructions],
    [MMIO.TRACES, io.traces],
    // Only a GPU with an optional block maps FEATURES (one without reads 0 there, as at any unmapped offset).
    ...(p.texture ? ([[MMIO.FEATURES, lit(FEATURE.TEXTURE_UNIT, 32)]] as ReadEntry[]) : []),
  ];
}

/** The RT_CORE block, 16 bytes a core: STATUS (busy), and the dispatcher's counters PC, BUSY_CYCLES, ISSUE_CYCLES. */
function rtCoreWords(io: Pick<ControllerIo, 'core_busy' | 'core_counters'>, rtCores: number): ReadEntry[] {
  return Array.from({ length: rtCores }, (_, c): ReadEntry[] => {
    const base = MMIO.RT_CORE + 16 * c;
    const counters = io.core_counters.at(c);
    return [
      [base + 4 * RT_CORE_REG.STATUS, io.core_busy.at(c).zext(32)],
      [base + 4 * RT_CORE_REG.PC, counters.pc],
      [base + 4 * RT_CORE_REG.BUSY_CYCLES, counters.busy_cycles],
      [base + 4 * RT_CORE_REG.ISSUE_CYCLES, counters.issue_cycles],
    ];
  }).flat();
}

/**
 * CONTEXTS, then the CONTEXT block, 8 bytes a context of each core: STATUS (thread and state) and PC. The
 * read address names the context to every core (`context_select`); each core answers for its own.
 */
function contextWords(io: Pick<ControllerIo, 'mmio' | 'context_select' | 'context_status'>, p: Pick<MemoryControllerParams, 'rtCores' | 'contexts'>): ReadEntry[] {
  const contextBlock = MMIO.CONTEXT >> 3;
  const contextIndex = io.mmio.rd_addr.shr(3).sub(contextBlock);
  io.context_select.set(contextIndex.trunc(contextBits(p.contexts)));
  const perCore = Array.from({ length: p.rtCores }, (_, c) => {
    const status = io.context_status.at(c);
    return Array.from({ length: p.contexts }, (_, x): ReadEntry[] => {
      const base = MMIO.CONTEXT + 8 * (c * p.contexts + x);
      return [
        [base + 4 * CONTEXT_REG.STATUS, cat(status.thread, lit(0, 5), status.state.asUInt().zext(3)).zext(32)],
        [base + 4 * CONTEXT_REG.PC, status.pc],
      ];
    }).flat();
  });
  return [[MMIO.CONTEXTS, lit(p.contexts, 32)], ...perCore.flat()];
}

/** The IC_CORE block, 16 bytes a core: its counters RAYS, TESTS, BUSY_CYCLES, NODE_TESTS. */
function icCoreWords(io: Pick<ControllerIo, 'ic_counters'>, icCores: number): ReadEntry[] {
  return Array.from({ length: icCores }, (_, k): ReadEntry[] => {
    const base = MMIO.IC_CORE + 16 * k;
    const counters = io.ic_counters.at(k);
    return [
      [base + 4 * IC_CORE_REG.RAYS, counters.rays],
      [base + 4 * IC_CORE_REG.TESTS, counters.tests],
      [base + 4 * IC_CORE_REG.BUSY_CYCLES, counters.busy_cycles],
      [base + 4 * IC_CORE_REG.NODE_TESTS, counters.node_tests],
    ];
  }).flat();
}

/** The read port: the register the read address names (0 for any other address), answered the cycle after the read. */
function readPort(m: ModuleBuilder, mmio: ControllerIo['mmio'], readable: readonly ReadEntry[]): void {
  const readData = readable.reduce<UIntValue>((acc, [a, v]) => mux(mmio.rd_addr.eq(a), v, acc), lit(0, 32));
  const rdData = m.reg(UInt(32), { reset: 0 });
  m.when(mmio.rd_en, () => rdData.set(readData));
  mmio.rd_data.set(rdData);
  mmio.rd_valid.set(m.regNext(mmio.rd_en, { reset: 0 }));
}

interface WriteBackContext {
  readonly out: HostAddress;
  readonly report: HostAddress;
  readonly pixelCount: UIntValue;
  readonly firstPixel: UIntValue;
  readonly startFrame: BoolValue;
  readonly running: BoolValue;
  readonly frameCounters: FrameCounters;
}

/**
 * Writes each ended thread's result to OUT_ADDR + 16·i (read from its main memory at 0xFFF0), frees the
 * thread, and writes the patch reports in order: a patch is reported once all its threads are written. Two
 * patches can be in flight (the command patcher's window), so there are two report accumulators.
 * The stages: take the next ended thread, read its return vector, write it to the host, write the patch report.
 */
function writeBackEngine(m: ModuleBuilder, io: ControllerIo, f: WriteBackContext) {
  const ended = endedThreadQueue(m, io, f.running);
  const reports = patchReports(m, f);
  const wb = writeBackThread(m);
  const reportsOn = cat(f.report.hi, f.report.lo).ne(0);
  const result = resultWrite(f, wb);
  const report = reportWrite(f, reports, wb, reportsOn);
  // One DMA write port: the report in its phase, else the result.
  const reporting = wb.phase.is('report');
  io.dma.wr.valid.set(result.valid.or(report.valid));
  io.dma.wr.addr.set(mux(reporting, report.addr, result.addr));
  io.dma.wr.data.set(mux(reporting, report.data, result.data));
  const written = result.valid.and(io.dma.wr.ready);
  const reported = reporting.and(io.dma.wr.ready.or(reportsOn.not()));
  io.frame.thread_written.set(written);
  io.frame.written_thread.set(wb.thread);
  io.frame.patch_written.set(reported);
  wb.phase.on({
    idle: takeNextThread(m, f, ended, reports, wb),
    read: readReturnVector(m, io, wb),
    write: () => m.when(io.dma.wr.ready, () => wb.phase.goto('idle')),
    report: () => m.when(reported, () => wb.phase.goto('idle')),
  });
  recordWrites(m, io, f, reports, wb, { written, reported });
  return {
    /** Threads of the oldest unfinished patch whose results are written. */
    doneMask: reports.ofOldest((b) => b.written),
    overflow: ended.overflow,
  };
}

const WRITE_BACK_PHASES = ['idle', 'read', 'write', 'report'] as const;

/** What the write-back's stages share: its phase and the thread being written (result index, fault, return vector). */
interface WriteBackThread {
  readonly phase: Fsm<(typeof WRITE_BACK_PHASES)[number]>;
  readonly thread: UIntValue;
  readonly index: UIntValue;
  readonly fault: BoolValue;
  readonly result: UIntValue;
}

function writeBackThread(m: ModuleBuilder): WriteBackThread {
  return {
    phase: fsm(m, 'write_back', WRITE_BACK_PHASES, 'idle'),
    thread: m.reg(UInt(5), { reset: 0, name: 'wb_thread' }),
    index: reg32(m, 'wb_index'),
    fault: m.reg(Bool, { reset: 0, name: 'wb_fault' }),
    result: m.reg(UInt(128), { reset: 0, name: 'wb_result' }),
  };
}

/** The threads that ended while the frame runs, in order (one entry per thread, so it never overflows). */
function endedThreadQueue(m: ModuleBuilder, io: ControllerIo, running: BoolValue) {
  const queue = m.instance(Fifo, { payload: EndedThread, depth: PATCH_THREADS }, { name: 'ended_threads' });
  const done = io.thread_done;
  // Only a running frame has threads to write back.
  const arriving = done.valid.and(running);
  queue.io.enq.valid.set(arriving);
  const ended = m.wire(EndedThread, { name: 'ended_thread' });
  ended.thread.set(done.thread);
  ended.pixel.set(done.pixel);
  ended.fault.set(done.fault);
  m.connect(queue.io.enq.bits, ended);
  return {
    head: queue.io.deq.bits,
    valid: queue.io.deq.valid,
    ready: queue.io.deq.ready,
    /** A thread ended while the queue was full (cannot happen). */
    overflow: arriving.and(queue.io.enq.ready.not()),
  };
}

type EndedThreadQueue = ReturnType<typeof endedThreadQueue>;

/** A patch's report as it accumulates: the threads written, those that faulted, the cycles since the patch started. */
interface ReportBank {
  readonly written: UIntValue;
  readonly faults: UIntValue;
  readonly cycles: UIntValue;
}

/** The two report banks and the oldest unfinished patch n: its bank is n mod 2; it has min(32, count - 32n) threads. */
function patchReports(m: ModuleBuilder, f: WriteBackContext) {
  const banks: readonly ReportBank[] = [0, 1].map((k) => ({
    written: m.reg(UInt(PATCH_THREADS), { reset: 0, name: `report${k}_written` }),
    faults: m.reg(UInt(PATCH_THREADS), { reset: 0, name: `report${k}_faults` }),
    cycles: m.reg(UInt(32), { reset: 0, name: `report${k}_cycles` }),
  }));
  const startBank = m.reg(Bool, { reset: 0, name: 'start_bank' });
  const patch = f.frameCounters.patches;
  const oldest = patch.bit(0);
  const ofOldest = (g: (b: ReportBank) => UIntValue) => mux(oldest, g(banks[1]!), g(banks[0]!));
  const base = cat(patch.trunc(27), lit(0, 5));
  const remaining = f.pixelCount.sub(base);
  const threads = mux(remaining.lt(PATCH_THREADS), remaining.trunc(6), lit(PATCH_THREADS, 6));
  const everyThread = lit(1, PATCH_THREADS + 1).shl(threads).sub(1).trunc(PATCH_THREADS);
  const complete = ofOldest((b) => b.written).eq(everyThread).and(threads.ne(0));
  return { banks, startBank, patch, oldest, ofOldest, base, threads, complete };
}

type PatchReports = ReturnType<typeof patchReports>;

/** Idle: report the oldest patch once complete, else take the next ended thread. */
function takeNextThread(m: ModuleBuilder, f: WriteBackContext, ended: EndedThreadQueue, reports: PatchReports, wb: WriteBackThread) {
  ended.ready.set(wb.phase.is('idle').and(reports.complete.not()));
  return () =>
    m.when(reports.complete, () => wb.phase.goto('report')).elsewhen(ended.valid, () => {
      wb.thread.set(ended.head.thread);
      wb.index.set(ended.head.pixel.sub(f.firstPixel));
      wb.fault.set(ended.head.fault);
      wb.phase.goto('read');
    });
}

/** Read: the thread's return vector from its main memory (port 0), held until the memory answers. */
function readReturnVector(m: ModuleBuilder, io: ControllerIo, wb: WriteBackThread) {
  io.mem_read_en.set(wb.phase.is('read'));
  io.mem_thread.set(wb.thread);
  io.mem_addr.set(MEMORY_MAP.returnOffset >> 2);
  return () =>
    m.when(io.mem_done, () => {
      wb.result.set(io.mem_data_read);
      wb.phase.goto('write');
    });
}

/** A write the DMA port may make. */
interface HostWrite {
  readonly valid: BoolValue;
  readonly addr: UIntValue;
  readonly data: UIntValue;
}

const add64 = (at: HostAddress, offset: UIntValue) => cat(at.hi, at.lo).add(offset.zext(64));

/** Write: the return vector to OUT_ADDR + 16·index. */
function resultWrite(f: WriteBackContext, wb: WriteBackThread): HostWrite {
  const writing = wb.phase.is('write');
  return { valid: writing, addr: add64(f.out, cat(wb.index, lit(0, 4))), data: wb.result };
}

/** Report: cycles, threads, first index and fault mask of patch n to REPORT_ADDR + 16·n (skipped, not written, when REPORT_ADDR is 0). */
function reportWrite(f: WriteBackContext, r: PatchReports, wb: WriteBackThread, reportsOn: BoolValue): HostWrite {
  const reportWritten = wb.phase.is('report').and(reportsOn);
  const reportWord = cat(r.ofOldest((b) => b.cycles), r.threads.zext(32), r.base, r.ofOldest((b) => b.faults));
  return { valid: reportWritten, addr: add64(f.report, cat(r.patch, lit(0, 4))), data: reportWord };
}

/** A result written marks its thread in its patch's bank; a report frees its bank and counts the patch; the frame's counters follow. */
function recordWrites(m: ModuleBuilder, io: ControllerIo, f: WriteBackContext, r: PatchReports, wb: WriteBackThread, { written, reported }: { written: BoolValue; reported: BoolValue }): void {
  const bit = lit(1, PATCH_THREADS).shl(wb.thread);
  const writtenBank = wb.index.bit(5);
  r.banks.forEach((b, k) => {
    m.when(io.frame.patch_start.and(r.startBank.eq(k)), () => b.cycles.set(0)).otherwise(() => b.cycles.set(b.cycles.add(1)));
    m.when(written.and(writtenBank.eq(k)), () => {
      b.written.set(b.written.or(bit));
      m.when(wb.fault, () => b.faults.set(b.faults.or(bit)));
    });
    m.when(reported.and(r.oldest.eq(k)).or(f.startFrame), () => {
      b.written.set(0);
      b.faults.set(0);
    });
  });
  m.when(f.startFrame, () => r.startBank.set(false)).elsewhen(io.frame.patch_start, () => r.startBank.set(r.startBank.not()));
  const counters = f.frameCounters;
  m.when(written.and(wb.fault), () => counters.faults.set(counters.faults.add(1)));
  m.when(reported, () => {
    counters.patches.set(counters.patches.add(1));
    counters.faultMask.set(counters.faultMask.or(r.ofOldest((b) => b.faults)));
  });
}

const reg32 = (m: ModuleBuilder, name: string) => m.reg(UInt(32), { reset: 0, name });

/** A flag of a word laid out by a table of one-bit masks (CONTROL, STATUS in registers.ts). */
const flagBit = (word: UIntValue, mask: number): BoolValue => word.bit(Math.log2(mask)).asBool();

/** The word of a table of one-bit masks with each mask's bit set from its flag (unnamed bits 0), up to the highest mask. */
function flagWord(flags: readonly (readonly [number, BoolValue])[]): UIntValue {
  const width = Math.log2(Math.max(...flags.map(([mask]) => mask))) + 1;
  return cat(...Array.from({ length: width }, (_, i) => flags.find(([mask]) => mask === 1 << i)?.[1] ?? lit(0, 1)).reverse());
}

/** A transfer of `beats` 16-byte beats from the 64-bit byte address `at`: not 16-byte aligned, or past the end of the address space. */
function badTransfer(at: UIntValue, beats: UIntValue): BoolValue {
  const end = at.zext(65).add(cat(beats, lit(0, 4)).zext(65));
  return at.bits(3, 0).ne(0).or(end.bit(64).and(end.bits(63, 0).ne(0)));
}

/** The TEXTURE block (a GPU with a texture unit only): the unit's counters, TEXTURE_REG's order. */
function textureWords(io: ControllerIo): ReadEntry[] {
  const counters = textureIo(io)?.tex_counters;
  if (!counters) return [];
  const fields: Record<keyof typeof TEXTURE_REG, UIntValue> = {
    REQUESTS: counters.issued,
    TEXEL_LOOKUPS: counters.texel_lookups,
    TEXEL_HITS: counters.texel_hits,
    TEXEL_FILLS: counters.texel_fills,
    DESCRIPTOR_FILLS: counters.descriptor_fills,
    STALL_CYCLES: counters.stall_cycles,
    DESCRIPTOR_STALL_CYCLES: counters.descriptor_stall_cycles,
  };
  return Object.entries(TEXTURE_REG).map(([name, n]): ReadEntry => [MMIO.TEXTURE + 4 * n, fields[name as keyof typeof TEXTURE_REG]]);
}
