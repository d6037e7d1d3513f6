// A golden model for a fixed-latency pipeline with a valid bit: what entered `latency` cycles ago is checked against today's outputs; reset empties it.
import type { GoldenModel } from '../hdl/cosim/index.ts';

/**
 * `take` turns a cycle's inputs into the item entering (undefined: a bubble); `check` compares the
 * outputs with the item `latency` cycles later (null when they agree). out_valid must be 1 exactly
 * when an item is due.
 */
export function pipelineGolden<T>(latency: number, take: (ins: Record<string, bigint>) => T | undefined, check: (outs: Record<string, bigint>, item: T) => string | null): GoldenModel {
  let slots: (T | undefined)[] = new Array<T | undefined>(latency).fill(undefined);
  return {
    check(_cycle, ins, outs) {
      const head = slots[latency - 1];
      const msg = outs.out_valid !== (head !== undefined ? 1n : 0n) ? `out_valid is ${outs.out_valid}, expected ${head !== undefined ? 1 : 0}` : head !== undefined ? check(outs, head) : null;
      slots = ins.rst_n === 0n ? new Array<T | undefined>(latency).fill(undefined) : [take(ins), ...slots.slice(0, latency - 1)];
      return msg;
    },
  };
}
