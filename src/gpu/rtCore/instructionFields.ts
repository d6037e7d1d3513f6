// The fields of an instruction word (FIELD in isa/instructions.ts) as slices of a hardware word.
import { hideFromSourceLocations, type UIntValue } from '../../hdl/index.ts';
import { FIELD } from '../../isa/instructions.ts';

hideFromSourceLocations(import.meta.url);

/** Field `f` of an instruction word. */
export const fieldOf = (word: UIntValue, f: keyof typeof FIELD): UIntValue => word.bits(FIELD[f].lo + FIELD[f].width - 1, FIELD[f].lo);

export const opcodeOf = (word: UIntValue): UIntValue => fieldOf(word, 'opcode');

/** RV0–RV15 are stored in the low 4 bits of a register field. */
const VECTOR_REGISTER_BITS = 4;

/** The vector register a register field names. */
export const vectorRegisterOf = (field: UIntValue): UIntValue => field.trunc(VECTOR_REGISTER_BITS);
