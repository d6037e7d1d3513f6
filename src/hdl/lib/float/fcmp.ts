// Floating-point compare: the ISA's 2-bit flag of a - b plus separate lt/eq/gt/unordered bits.
import { Bool, UInt, cat, defineModule, input, output, type ModuleBuilder, type PortsValue } from '../../index.ts';
import { compareFloats } from './order.ts';
import { Pipeline, type FloatUnitParams } from './pipeline.ts';

/** One step: magnitude compare and sign logic. */
export const FCMP_STEPS = [3] as const;
export const FCMP_NATURAL_STAGES = FCMP_STEPS.length;
export const fcmpLatency = (p: FloatUnitParams): number => p.stages;

/** Flag encodings (the ISA's condition flag of a - b). */
export const FLAG_ZERO = 0b00;
export const FLAG_UNORDERED = 0b01;
export const FLAG_POSITIVE = 0b10;
export const FLAG_NEGATIVE = 0b11;

export { compareFloats };

const cmpPorts = () => ({
  in_valid: input(Bool),
  a: input(UInt(32)),
  b: input(UInt(32)),
  out_valid: output(Bool),
  /** Z = 00 (a == b, +0 == -0), N = 11 (a < b), P = 10 (a > b), 01 unordered (a or b NaN). */
  flags: output(UInt(2)),
  lt: output(Bool),
  eq: output(Bool),
  gt: output(Bool),
  unordered: output(Bool),
});

function cmpBody(m: ModuleBuilder, io: PortsValue<ReturnType<typeof cmpPorts>>, p: FloatUnitParams): void {
  const pipe = new Pipeline(m, io.in_valid, 'FCmp', p.stages, FCMP_STEPS);
  const { lt, eq, gt, unordered } = compareFloats(io.a, io.b);
  // flags[1]: ordered and not equal; flags[0]: less or unordered.
  const flags = cat(lt.or(gt), lt.or(unordered));
  const out = pipe.finish({ flags, lt, eq, gt, unordered });
  io.flags.set(out.flags);
  io.lt.set(out.lt);
  io.eq.set(out.eq);
  io.gt.set(out.gt);
  io.unordered.set(out.unordered);
  io.out_valid.set(pipe.valid);
}

/**
 * Compare a with b. Ports: in_valid, a, b -> out_valid, flags (2 bits), lt, eq, gt, unordered.
 * Latency: `stages` cycles.
 */
export const FCmp = defineModule('FCmp', (_p: FloatUnitParams) => cmpPorts(), cmpBody);
