// The host interface's register map (byte offsets of 32-bit MMIO registers): one table for the
// memory controller, the host runtime and docs/host-interface.md.

export const REG_ADDR_BITS = 12;

export const MMIO = {
  /** RO: 0x52544750 ('RTGP'). */
  ID: 0x000,
  /** RO: [7:0] RT cores, [15:8] IC cores, [23:16] threads per patch, [31:24] interface version. */
  CONFIG: 0x004,
  /** WO: CONTROL bits; the loads run in order program, constants, triangles, then the frame starts. */
  CONTROL: 0x008,
  /** RO: STATUS bits. */
  STATUS: 0x00c,
  /** RO: the first ERROR code since the last CLEAR (0: none). */
  ERROR: 0x010,
  /** RO: triangles the triangle memories hold. */
  TRIANGLES: 0x014,
  /** RO: hardware contexts per RT core (threads each holds at once). */
  CONTEXTS: 0x018,
  /** RO: FEATURE bits, the optional blocks this GPU was built with (0 on a GPU with none: an unmapped read). */
  FEATURES: 0x01c,
  PROGRAM_ADDR_LO: 0x020,
  PROGRAM_ADDR_HI: 0x024,
  /** Words to load (at most 4096). */
  PROGRAM_WORDS: 0x028,
  CONST_ADDR_LO: 0x030,
  CONST_ADDR_HI: 0x034,
  /** Words to load (at most 8192). */
  CONST_WORDS: 0x038,
  TRI_ADDR_LO: 0x040,
  TRI_ADDR_HI: 0x044,
  TRI_WORDS: 0x048,
  /** The frame's i-th pixel (pixel FIRST_PIXEL + i) writes its 16-byte result to OUT_ADDR + 16·i. */
  OUT_ADDR_LO: 0x050,
  OUT_ADDR_HI: 0x054,
  PIXEL_COUNT: 0x058,
  /** The first pixel id of the frame: thread t of patch n runs pixel FIRST_PIXEL + 32·n + t (results and reports stay indexed from the frame's start). */
  FIRST_PIXEL: 0x05c,
  /** Patch n's 16-byte report is written to REPORT_ADDR + 16·n (0: no reports). */
  REPORT_ADDR_LO: 0x060,
  REPORT_ADDR_HI: 0x064,
  /** RO: patches written this frame; threads that faulted; OR of the patches' fault masks; threads of the running patch that ended. */
  PATCHES_DONE: 0x070,
  FAULT_COUNT: 0x074,
  FAULT_MASK: 0x078,
  DONE_MASK: 0x07c,
  /** RO: clock cycles with STATUS.BUSY since reset (64 bits). */
  CYCLES_LO: 0x080,
  CYCLES_HI: 0x084,
  /** RO: instructions retired and traces issued since reset (wrap at 2^32). */
  INSTRUCTIONS: 0x088,
  TRACES: 0x08c,
  /** Only in a GPU with a texture unit: the texture-memory image (from word 0), and its words (at most 262144). */
  TEX_ADDR_LO: 0x090,
  TEX_ADDR_HI: 0x094,
  TEX_WORDS: 0x098,
  /** RO, only in a GPU with a texture unit: its counters since reset at TEXTURE + 4·n (TEXTURE_REG). */
  TEXTURE: 0x0a0,
  /** RO, per RT core c at RT_CORE + 16·c: [0] holds a thread; the last retired PC; cycles holding a thread; cycles issuing an instruction. */
  RT_CORE: 0x100,
  /** RO, per IC core k at IC_CORE + 16·k: rays, ray–triangle tests, cycles with a ray in flight, BVH node tests (0 for brute force). */
  IC_CORE: 0x200,
  /** RO, per context x of RT core c at CONTEXT + 8·(c·CONTEXTS + x): [2:0] state (CONTEXT_STATE), [12:8] thread; the PC it issued last. */
  CONTEXT: 0x400,
} as const;

/** Registers of one core's block, at its base + 4·n. */
export const RT_CORE_REG = { STATUS: 0, PC: 1, BUSY_CYCLES: 2, ISSUE_CYCLES: 3 } as const;
export const IC_CORE_REG = { RAYS: 0, TESTS: 1, BUSY_CYCLES: 2, NODE_TESTS: 3 } as const;
export const CONTEXT_REG = { STATUS: 0, PC: 1 } as const;
/**
 * The texture unit's counters (TextureUnitCounters), at TEXTURE + 4·n: txd requests its texel stage issued;
 * texels they needed (lookups) and those whose cache line was present or on its way (hits; misses =
 * lookups − hits); lines read into the texel and the descriptor cache; cycles the texel and the descriptor
 * stage held a request waiting for a line.
 */
export const TEXTURE_REG = { REQUESTS: 0, TEXEL_LOOKUPS: 1, TEXEL_HITS: 2, TEXEL_FILLS: 3, DESCRIPTOR_FILLS: 4, STALL_CYCLES: 5, DESCRIPTOR_STALL_CYCLES: 6 } as const;
/** A context's state in CONTEXT STATUS [2:0] (the RT core's ContextState). */
export const CONTEXT_STATE = { free: 0, launching: 1, ready: 2, busy: 3, halted: 4, texture: 5 } as const;

export const MMIO_ID = 0x52544750;
/** 3: multithreaded RT cores (CONTEXTS, the CONTEXT blocks, ISSUE_CYCLES; RT core STATUS lost its thread field). */
export const INTERFACE_VERSION = 3;

/** FEATURES bits. */
export const FEATURE = {
  /** A texture unit: txd runs, and TEX_ADDR, TEX_WORDS and CONTROL.LOAD_TEXTURE fill its texture memory. */
  TEXTURE_UNIT: 1,
} as const;

export const CONTROL = {
  LOAD_PROGRAM: 1,
  LOAD_CONSTANTS: 2,
  LOAD_TRIANGLES: 4,
  START: 8,
  /** Clears STATUS.DONE, STATUS.ERROR and ERROR (only while not busy). */
  CLEAR: 16,
  /** Only in a GPU with a texture unit (ignored otherwise); runs after LOAD_TRIANGLES. */
  LOAD_TEXTURE: 32,
} as const;

export const STATUS = {
  /** A command is pending or running. */
  BUSY: 1,
  /** The frame's last patch has been written (until the next START or CLEAR). */
  DONE: 2,
  /** ERROR holds a code (until CLEAR). */
  ERROR: 4,
  LOADING: 8,
  RUNNING: 16,
} as const;

export const ERROR_CODE = {
  none: 0,
  /** PROGRAM_WORDS > 4096: nothing was loaded and the command was dropped. */
  programTooLong: 1,
  /** CONST_WORDS > 8192. */
  constantsTooLong: 2,
  /** The triangle memories rejected the image (too many triangles or vertices, or a bad vertex index). */
  triangleImage: 3,
  /** CONTROL written while BUSY: ignored. */
  busy: 4,
  /** An internal queue overflowed, two RT cores shared a thread's memory, or main memory missed an answer: a hardware fault. */
  internal: 5,
  /**
   * A host address is not 16-byte aligned, or a transfer would run past the end of the 64-bit address
   * space (a load from PROGRAM/CONST/TRI_ADDR, or the frame's results at OUT_ADDR and reports at
   * REPORT_ADDR): nothing is loaded, the frame does not start.
   */
  badAddress: 6,
  /** TEX_WORDS > 262144 (a GPU with a texture unit). */
  textureTooLong: 7,
} as const;
