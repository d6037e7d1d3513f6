// A memory (or any server) that answers a design's requests on one stream with responses on another,
// each a random number of cycles later, in order: the reactive model a read port needs.
import { StreamSink, StreamSource, type StreamPorts, type StreamValue } from './streams.ts';
import { createRng } from '../../util/seededRandom.ts';
import type { Testbench } from './testbench.ts';

export interface ReadResponderOptions<Req extends StreamValue, Resp extends StreamValue> {
  /** The design's request stream (the design drives valid). */
  readonly request: string | StreamPorts;
  /** The response stream back into the design (the responder drives valid). */
  readonly response: string | StreamPorts;
  /** The response to a request: one value, or several beats sent back to back. */
  readonly answer: (request: Req, cycle: number) => Resp | readonly Resp[];
  /** Cycles from taking a request to offering its first beat, drawn uniformly (default exactly 1). */
  readonly latency?: { readonly min: number; readonly max: number };
  /** Probability that the request side is not ready in a cycle (default 0). */
  readonly backpressure?: number;
  /** Probability of an idle cycle between response beats (default 0). */
  readonly idle?: number;
  readonly name?: string;
}

export class ReadResponder<Req extends StreamValue = bigint, Resp extends StreamValue = bigint> {
  readonly requests: StreamSink<Req>;
  readonly responses: StreamSource<Resp>;
  /** Requests answered so far. */
  answered = 0;

  constructor(tb: Testbench, opts: ReadResponderOptions<Req, Resp>) {
    const name = opts.name ?? 'responder';
    const { min, max } = opts.latency ?? { min: 1, max: 1 };
    if (!Number.isInteger(min) || !Number.isInteger(max) || min < 1 || max < min) throw new Error(`latency must be whole cycles with 1 <= min <= max, got ${min}..${max}`);
    this.requests = new StreamSink<Req>(tb, opts.request, { backpressure: opts.backpressure, name: `${name} requests` });
    this.responses = new StreamSource<Resp>(tb, opts.response, { idle: opts.idle, name: `${name} responses` });
    const rng = createRng(tb.rng.u32());
    tb.fork(`${name} answers`, async () => {
      let free = 0;
      for (;;) {
        const request = await this.requests.receive();
        const taken = this.requests.received[this.answered]!.cycle;
        // In order: a response never starts before the previous one was handed over.
        const due = Math.max(taken + min + rng.int(max - min + 1), free);
        if (due > tb.cycle) await tb.tick(due - tb.cycle);
        if (tb.phase === 'settled') await tb.tick();
        const beats = opts.answer(request, taken);
        const list = (Array.isArray(beats) ? beats : [beats]) as Resp[];
        for (let i = 0; i < list.length - 1; i++) this.responses.enqueue(list[i]!);
        if (list.length) await this.responses.send(list.at(-1)!);
        free = tb.cycle;
        this.answered++;
      }
    });
  }
}
