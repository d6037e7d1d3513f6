// The golden model of a fixed-latency pipelined unit for co-simulation (verification code, not hardware): what entered `latency` cycles ago must come out now, exactly as the host function answers it.
import type { GoldenModel } from '../../hdl/cosim/index.ts';

type Ports = Readonly<Record<string, bigint>>;

/** How a unit's item enters (in_valid), is answered by the host function and read back from the outputs (out_valid). */
export interface PipelineCheck<Item, Answer> {
  readonly latency: number;
  /** The item on the input ports. */
  readItem(ins: Ports): Item;
  expected(item: Item): Answer;
  readAnswer(outs: Ports): Answer;
  /** A difference described, or null. */
  compare(got: Answer, want: Answer): string | null;
  describe(item: Item): string;
}

/** The item at each pipeline position (undefined: a bubble), shifted once per cycle and emptied by reset (rst_n 0). */
export function pipelineGolden<Item, Answer>(c: PipelineCheck<Item, Answer>): GoldenModel {
  type Slot = { item: Item; want: Answer } | undefined;
  const empty = (): Slot[] => new Array<Slot>(c.latency).fill(undefined);
  let slots = empty();
  return {
    check(_cycle, ins, outs) {
      const head = slots[c.latency - 1];
      let msg: string | null = null;
      if (outs.out_valid !== (head ? 1n : 0n)) msg = `out_valid is ${outs.out_valid}, expected ${head ? 1 : 0}`;
      else if (head) {
        const diff = c.compare(c.readAnswer(outs), head.want);
        if (diff) msg = `${c.describe(head.item)}: ${diff}`;
      }
      const item = ins.in_valid === 1n ? c.readItem(ins) : undefined;
      const incoming: Slot = item === undefined ? undefined : { item, want: c.expected(item) };
      slots = ins.rst_n === 0n ? empty() : [incoming, ...slots.slice(0, c.latency - 1)];
      return msg;
    },
  };
}
