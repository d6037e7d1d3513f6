// The public eDSL API: types, values, modules, elaboration, back ends and simulation.
import './core/singleCopy.ts';
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
export { defineModule, withGenericPorts, ModuleBuilder, type ModuleDef, type GenericModuleDef, type PortsOf, type PortsFor, type InstanceHandle, type Params } from './core/module.ts';
export { input, output, type PortSpec, type PortOptions, type PortSpecs, type PortsValue } from './core/ports.ts';
export { defineBlackBox, type BlackBoxDef, type BlackBoxOptions } from './core/blackBox.ts';
export { MemoryHandle, type MemoryOptions } from './core/memory.ts';
export { fsm, Fsm, type FsmOptions } from './core/fsm.ts';
export type { PropertyOptions, TemporalOptions, PropertyKind } from './core/properties.ts';
export { Clock, ClockType, ClockSignal, ClockDomain, type ClockDomainSpec, type ClockEdgeName, type ResetKind, type ResetActive } from './core/clockDomain.ts';
export { packBits, unpackBits } from './core/packing.ts';
export { Decoupled, Irrevocable, DecoupledType, fire, type DecoupledValue } from './core/decoupled.ts';
export { elaborate, type Elaboration, type ElaborateOptions, type CheckerBinding } from './elaborate/elaborate.ts';
export { HdlError, formatDiagnostic, diagnosticCodes, type Diagnostic, type DiagnosticCode } from './ir/diagnostics.ts';
export { topModule, findModule, type Design, type ModuleIR, type Net, type Cell, type Reg, type RegReset, type ClockEdge, type ClockInput, type Memory, type Property, type Instance, type SourceLoc, type BlackBox, type VerilogParameterValue } from './ir/netlist.ts';
export { emitSystemVerilog, legalizeIdentifier, type EmittedDesign, type EmittedFile, type EmitOptions } from './emit/index.ts';
export { manifestModules, type ManifestModule, type ManifestPort, type ManifestMemory } from './emit/manifest.ts';
export { hideFromSourceLocations } from './core/sourceLocation.ts';
export { flattenDesign, type FlattenOptions } from './ir/flatten.ts';
export type { PowerOnValues } from './ir/powerOn.ts';
