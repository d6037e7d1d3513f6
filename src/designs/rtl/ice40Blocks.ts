// The designs that fit a Lattice iCE40 HX8K, chosen by measurement; each gets a synth_ice40 script in rtl-out/synth/.

/** The largest iCE40 HX part: HX8K in its CT256 package. */
export const ICE40_HX8K = { luts: 7680, flipFlops: 7680, ramBlocks: 32, ioPins: 206 } as const;

/**
 * Measured with `synth_ice40` (Yosys 0.23) on the rtl-out designs, port bits from their top modules:
 *
 *   design           SB_LUT4  flip-flops  SB_RAM40_4K  port bits
 *   arbiter               49           2            0         54
 *   command_patcher      186         103            0        115
 *   counter                8           4            0          9
 *   decoder                6           0            0         10
 *   fadd                 654         147            0        100
 *   fcmp                  95           7            0         74
 *   fdiv                1525         965            0        100
 *   fifo                  49          22            1         29
 *   fmul                2158         161            0        100
 *   fsqrt                735         556            0         68
 *   ftoi                 265          70            0         68
 *   itof                 391          73            0         68
 *   onehot                 3           0            0         11
 *   prienc                16           0            0         17
 *   shiftreg               2          80            0         35
 *   skid                  15          18            0         22
 *
 * Left out: triangle_memory (553 LUTs but 370 port bits), ic_buffer (2118 port bits), memory_controller
 * (1255), main_memory, ic_core, rtcore (more pins than any iCE40), bench (21,322 LUTs).
 * test/rtl/rtlHandoff.test.ts synthesizes each again and checks it still fits.
 */
export const ice40Blocks: readonly string[] = ['arbiter', 'command_patcher', 'counter', 'decoder', 'fadd', 'fcmp', 'fdiv', 'fifo', 'fmul', 'fsqrt', 'ftoi', 'itof', 'onehot', 'prienc', 'shiftreg', 'skid'];
