// Which resource each mapped Yosys cell type is, per target: the one table behind every resource figure.
import type { SynthTarget } from './targets.ts';

/**
 * - lut: a look-up table (or generic gate); one logic level.
 * - arith: a LUT with carry logic (counted as LUTs, but on a path it is a fast carry step, not a level).
 * - carry, mux: dedicated carry chains and wide-function muxes next to the LUTs (no LUT of their own).
 * - ff: a flip-flop or latch. bram: a block RAM. lutram: LUT-based RAM or shift register. dsp: a multiplier block.
 * - io: pad and clock buffers.
 */
export type CellClass = 'lut' | 'arith' | 'carry' | 'mux' | 'ff' | 'bram' | 'lutram' | 'dsp' | 'io';

export interface CellKind {
  readonly cls: CellClass;
  /** How many units of its class one cell is (an ECP5 CCU2C holds two LUT4s; a RAMB18 is half a block RAM tile). */
  readonly units: number;
}

/** Cell type patterns ('*' matches any run of characters) and the units they count for. */
type ClassTable = Partial<Record<CellClass, Readonly<Record<string, number>>>>;

const gates = ['$_BUF_', '$_NOT_', '$_AND_', '$_NAND_', '$_OR_', '$_NOR_', '$_XOR_', '$_XNOR_', '$_ANDNOT_', '$_ORNOT_', '$_MUX_', '$_NMUX_', '$_AOI3_', '$_OAI3_', '$_AOI4_', '$_OAI4_', '$_MUX4_', '$_MUX8_', '$_MUX16_'];
const each = (types: readonly string[], units = 1) => Object.fromEntries(types.map((t) => [t, units]));

export const cellTable: Readonly<Record<SynthTarget, ClassTable>> = {
  generic: {
    lut: each(gates),
    ff: each(['$_DFF*', '$_SDFF*', '$_ALDFF*', '$_DLATCH*', '$_SR_*', '$_FF_']),
    bram: each(['$mem', '$mem_v2']),
    dsp: each(['$mul']),
  },
  xilinx: {
    lut: each(['LUT1', 'LUT2', 'LUT3', 'LUT4', 'LUT5', 'LUT6', 'INV']),
    carry: each(['CARRY4']),
    mux: each(['MUXF7', 'MUXF8']),
    // `_1`: the falling-edge (inverted-gate) variants.
    ff: each(['FDRE', 'FDSE', 'FDCE', 'FDPE', 'LDCE', 'LDPE', 'FDRE_1', 'FDSE_1', 'FDCE_1', 'FDPE_1', 'LDCE_1', 'LDPE_1']),
    bram: { RAMB36E1: 1, RAMB18E1: 0.5 },
    lutram: each(['RAM32X1D', 'RAM64X1D', 'RAM128X1D', 'RAM32M', 'RAM64M', 'RAM32X1S', 'RAM64X1S', 'RAM128X1S', 'RAM256X1S', 'SRL16E', 'SRLC32E']),
    dsp: each(['DSP48E1']),
    io: each(['IBUF', 'OBUF', 'IOBUF', 'OBUFT', 'BUFG', 'BUFGCTRL']),
  },
  intel: {
    lut: each(['MISTRAL_ALUT6', 'MISTRAL_ALUT5', 'MISTRAL_ALUT4', 'MISTRAL_ALUT3', 'MISTRAL_ALUT2', 'MISTRAL_NOT', 'MISTRAL_BUF']),
    arith: each(['MISTRAL_ALUT_ARITH']),
    ff: each(['MISTRAL_FF']),
    bram: each(['MISTRAL_M10K', 'MISTRAL_M20K']),
    lutram: each(['MISTRAL_MLAB']),
    dsp: each(['MISTRAL_MUL27X27', 'MISTRAL_MUL18X18', 'MISTRAL_MUL9X9']),
    io: each(['MISTRAL_IB', 'MISTRAL_OB', 'MISTRAL_IO', 'MISTRAL_CLKBUF']),
  },
  ecp5: {
    lut: each(['LUT4']),
    arith: { CCU2C: 2 },
    mux: each(['PFUMX', 'L6MUX21']),
    ff: each(['TRELLIS_FF']),
    bram: each(['DP16KD']),
    lutram: each(['TRELLIS_DPR16X4', 'DPR16X4']),
    dsp: each(['MULT18X18D', 'ALU54B']),
    io: each(['TRELLIS_IO', 'DCCA']),
  },
  ice40: {
    lut: each(['SB_LUT4']),
    // The carry sits in the same logic cell as the SB_LUT4 that computes the sum: not a LUT of its own.
    carry: each(['SB_CARRY']),
    ff: each(['SB_DFF*']),
    bram: each(['SB_RAM40_4K*']),
    dsp: each(['SB_MAC16']),
    io: each(['SB_IO', 'SB_GB', 'SB_GB_IO']),
  },
};

function matches(pattern: string, type: string): boolean {
  if (!pattern.includes('*')) return pattern === type;
  const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return re.test(type);
}

/** The class of a mapped cell type on a target, or undefined for a type the table does not know. */
export function classifyCell(target: SynthTarget, type: string): CellKind | undefined {
  for (const [cls, patterns] of Object.entries(cellTable[target]) as [CellClass, Record<string, number>][]) {
    for (const [pattern, units] of Object.entries(patterns)) if (matches(pattern, type)) return { cls, units };
  }
  return undefined;
}

/** The cell type patterns of some classes on a target (for Yosys selections: `t:<pattern>`). */
export function cellPatterns(target: SynthTarget, classes: readonly CellClass[]): string[] {
  return classes.flatMap((c) => Object.keys(cellTable[target][c] ?? {}));
}

/** Classes whose cells lie on combinational paths and count towards logic depth. */
export const pathClasses: readonly CellClass[] = ['lut', 'arith', 'carry', 'mux'];

/** Path classes that are not LUT levels (fast dedicated carry and mux logic). */
export const nonLevelClasses: readonly CellClass[] = ['arith', 'carry', 'mux'];
