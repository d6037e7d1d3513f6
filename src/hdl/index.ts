// The public eDSL API: types, values, modules, elaboration, back ends and simulation.
export { UInt, SInt, Bool, Enum, Bundle, Vec, flip, type HType, type GroundType, UIntType, SIntType, BoolType, EnumType, BundleType, VecType } from './core/types.ts';
export {
  Bits,
  UInt as UIntValue,
  SInt as SIntValue,
  Bool as BoolValue,
  EnumValue,
  lit,
  slit,
  cat,
  mux,
  True,
  False,
  fromBits,
  type Literal,
  type Operand,
} from './core/values.ts';
export { VecValue, type ValueOf, type BundleValue, type HValue, leaves } from './core/aggregates.ts';
export { defineModule, input, output, ModuleBuilder, type ModuleDef, type PortSpec, type PortSpecs, type PortsValue, type InstanceHandle, type Params } from './core/module.ts';
export { MemoryHandle, type MemoryOptions } from './core/memory.ts';
export { fsm, Fsm } from './core/fsm.ts';
export { Decoupled, DecoupledType, fire, type DecoupledValue } from './core/decoupled.ts';
export { elaborate, type Elaboration, type ElaborateOptions } from './elaborate/elaborate.ts';
export { HdlError, formatDiagnostic, diagnosticCodes, type Diagnostic, type DiagnosticCode } from './ir/diagnostics.ts';
export type { Design, ModuleIR, Net, Cell, Reg, Memory, Instance, SourceLoc } from './ir/netlist.ts';
export { hideFromSourceLocations } from './core/sourceLocation.ts';
export { flattenDesign } from './ir/flatten.ts';
