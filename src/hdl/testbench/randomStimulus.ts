// Random stimulus for any design that keeps its valid/ready promises: streams found by their Decoupled
// names get sources and sinks (valid and data held until taken, random gaps and back-pressure), every
// other input a random value each cycle, the resets asserted for the first cycles.
import type { PortInfo } from '../sim/simulator.ts';
import { StreamSink, StreamSource, type StreamPorts, type StreamValue } from './streams.ts';
import type { Testbench } from './testbench.ts';

export interface RandomStimulusOptions {
  /** Probability of a gap cycle between the values a source offers (default 0.3). */
  readonly idle?: number;
  /** Probability that a sink's ready is low in a cycle (default 0.3). */
  readonly backpressure?: number;
  /** The active-low reset, held low for `resetCycles` (default 'rst_n', 2 cycles; absent: no reset). */
  readonly resetName?: string;
  readonly resetCycles?: number;
  /**
   * The design's reset inputs and whether each is active high (instead of `resetName`): each asserted for
   * `resetCycles`, then released for good. `resetInputs(flattenDesign(design))` (rtgpu/hdl/sim) finds them.
   */
  readonly resets?: ReadonlyMap<string, boolean>;
  /**
   * Whether this cycle's inputs are ones the design accepts (its assumptions hold: `assumptionsHold`, rtgpu/hdl/cosim).
   * Called once the other inputs are drawn; while it says false they are drawn again, up to `MAX_REDRAWS` times.
   */
  readonly keep?: () => boolean;
}

/** Draws of one cycle's other inputs before they are left as they are (the design then reports the assumption they break). */
export const MAX_REDRAWS = 64;

export interface FoundStream {
  readonly name: string;
  readonly ports: StreamPorts;
  /** 'input': the design takes values (the stimulus drives valid); 'output': the design offers them. */
  readonly direction: 'input' | 'output';
}

/** The valid/ready streams among a design's ports: `X_valid` and `X_ready` in opposite directions, data `X_bits` or `X_bits_*`. */
export function findStreams(ports: readonly PortInfo[]): FoundStream[] {
  const byName = new Map(ports.map((p) => [p.name, p]));
  const out: FoundStream[] = [];
  for (const p of ports) {
    if (!p.name.endsWith('_valid')) continue;
    const name = p.name.slice(0, -'_valid'.length);
    const ready = byName.get(`${name}_ready`);
    if (!ready || ready.direction === p.direction) continue;
    const bitsPorts = ports.filter((q) => q.name === `${name}_bits` || q.name.startsWith(`${name}_bits_`));
    if (bitsPorts.some((q) => q.direction !== p.direction)) continue;
    const bits = byName.has(`${name}_bits`) ? `${name}_bits` : Object.fromEntries(bitsPorts.map((q) => [q.name.slice(name.length + 6), q.name]));
    out.push({ name, ports: { valid: p.name, ready: ready.name, bits }, direction: p.direction });
  }
  return out;
}

/** Starts the processes that drive every input of the design at random; returns the streams it found. */
export function driveRandomly(tb: Testbench, opts: RandomStimulusOptions = {}): FoundStream[] {
  const ports = tb.sim.ports;
  const streams = findStreams(ports);
  const isInput = (name: string) => ports.some((p) => p.name === name && p.direction === 'input');
  const resets = [...(opts.resets ?? new Map([[opts.resetName ?? 'rst_n', false]]))].filter(([name]) => isInput(name));
  const taken = new Set<string>(resets.map(([name]) => name));
  for (const s of streams) {
    const names = [s.ports.valid, s.ports.ready, ...(typeof s.ports.bits === 'string' ? [s.ports.bits] : Object.values(s.ports.bits))];
    for (const n of names) taken.add(n);
    if (s.direction === 'input') {
      const width = (port: string) => ports.find((q) => q.name === port)!.width;
      const source = new StreamSource<StreamValue>(tb, s.ports, { idle: opts.idle ?? 0.3, name: s.name });
      const bits = s.ports.bits;
      const value = () => (typeof bits === 'string' ? tb.rng.bits(width(bits)) : Object.fromEntries(Object.entries(bits).map(([f, port]) => [f, tb.rng.bits(width(port))])));
      tb.fork(`${s.name} random values`, async () => {
        for (;;) await source.send(value());
      });
    } else {
      new StreamSink(tb, s.ports, { backpressure: opts.backpressure ?? 0.3, name: s.name });
    }
  }
  // The resets before the other inputs, so that `keep` sees this cycle's reset.
  for (const [name, activeHigh] of resets) {
    tb.fork(`reset ${name}`, async () => {
      tb.poke(name, activeHigh ? 1 : 0);
      await tb.tick(opts.resetCycles ?? 2);
      tb.poke(name, activeHigh ? 0 : 1);
    });
  }
  const free = ports.filter((p) => p.direction === 'input' && !taken.has(p.name));
  tb.fork('random inputs', async () => {
    for (;;) {
      for (let draw = 0; draw === 0 || (draw <= MAX_REDRAWS && opts.keep?.() === false); draw++) {
        for (const p of free) tb.poke(p.name, tb.rng.bits(p.width));
      }
      await tb.tick();
    }
  });
  return streams;
}
