// Reads a Yosys witness trace (yosys-smtbmc --dump-yw): the value of each free signal at each step.
import { readFileSync } from 'node:fs';

interface WitnessSignal {
  /** Hierarchical path, each part a Yosys identifier (`\\en`). */
  readonly path: readonly string[];
  readonly width: number;
  /** The signal's lowest bit this entry gives (a signal may come in slices). */
  readonly offset: number;
  /** Given only at step 0: a register's initial value the solver chose. */
  readonly init_only: boolean;
}

interface WitnessFile {
  readonly format: string;
  readonly signals: readonly WitnessSignal[];
  readonly steps: readonly { readonly bits: string }[];
}

export interface Witness {
  /** Steps of the trace: step 0 is power-on, step k the state after k clock edges. */
  readonly steps: number;
  /** The value of a top-level signal (by its SV identifier) at a step; undefined when the trace does not give it (it does not matter). */
  value(name: string, step: number): bigint | undefined;
  /** Signals whose initial value the solver chose: registers the design gives no power-on value (a trace that would not replay). */
  readonly chosenInitialValues: readonly string[];
}

/** The name of a top-level signal of a witness path, or undefined for one inside the hierarchy. */
const topName = (path: readonly string[]): string | undefined => (path.length === 1 ? path[0]!.replace(/^\\/, '') : undefined);

export function readWitness(file: string): Witness {
  const w = JSON.parse(readFileSync(file, 'utf8')) as WitnessFile;
  if (w.format !== 'Yosys Witness Trace') throw new Error(`${file} is not a Yosys witness trace (format '${w.format}')`);
  // A step's bits list the signals in order from the end of the string: the first signal's bit 0 is the last character.
  const slices: { name: string; width: number; offset: number; at: number }[] = [];
  let at = 0;
  for (const s of w.signals) {
    const name = topName(s.path);
    if (name !== undefined && !s.init_only) slices.push({ name, width: s.width, offset: s.offset, at });
    at += s.width;
  }
  const chosenInitialValues = w.signals.filter((s) => s.init_only).map((s) => s.path.map((p) => p.replace(/^\\/, '')).join('.'));
  return {
    steps: w.steps.length,
    chosenInitialValues,
    value(name, step) {
      const bits = w.steps[step]?.bits;
      if (bits === undefined) throw new Error(`the witness has ${w.steps.length} steps, not ${step + 1}`);
      let v: bigint | undefined;
      for (const s of slices.filter((x) => x.name === name)) {
        const text = bits.slice(bits.length - s.at - s.width, bits.length - s.at);
        // '?' and 'x': bits the solver left free; any value replays, 0 as the simulators power on.
        const part = BigInt(`0b${text.replace(/[^01]/g, '0') || '0'}`);
        v = (v ?? 0n) | (part << BigInt(s.offset));
      }
      return v;
    },
  };
}
