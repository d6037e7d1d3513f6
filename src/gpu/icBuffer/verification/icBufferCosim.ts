// The IC buffer as a co-simulation design: random enqueue/dequeue traffic with error cases, and a queue model.
import { elaborate } from '../../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../../hdl/cosim/index.ts';
import type { Rng } from '../../../util/seededRandom.ts';
import { IcBuffer, QUEUE_ERROR, defaultIcBufferParams, type IcBufferParams } from '../icBuffer.ts';

const b = (x: boolean): bigint => (x ? 1n : 0n);

/** The names one queue's ports go by on the IcBuffer (its control in the `steer` bundle, SV `steer_…`). */
export interface QueuePorts {
  readonly name: 'rt2ic' | 'ic2rt';
  readonly empty: string;
  readonly enqueue: string;
  readonly coreId: string;
  readonly dequeue: string;
  /** Per-core input fields, least significant first in the entry: the SV port of core i's field. */
  readonly inputs: readonly { readonly port: (i: number) => string; readonly width: number }[];
  /** Front outputs, least significant first in the entry. */
  readonly outputs: readonly { readonly port: string; readonly width: number }[];
  readonly cores: (p: IcBufferParams) => number;
}

export const RT2IC: QueuePorts = {
  name: 'rt2ic',
  empty: 'steer_rt2ic_empty',
  enqueue: 'steer_q_en_rt2ic',
  coreId: 'steer_core_id_rt2ic',
  dequeue: 'steer_dequeue_ic',
  inputs: [
    { port: (i) => `ray_origin_rt_${i}`, width: 96 },
    { port: (i) => `ray_direction_rt_${i}`, width: 96 },
    { port: (i) => `ray_query_rt_${i}`, width: 96 },
  ],
  outputs: [
    { port: 'ray_origin_ic', width: 96 },
    { port: 'ray_direction_ic', width: 96 },
    { port: 'ray_query_ic', width: 96 },
  ],
  cores: (p) => p.rtCores,
};

export const IC2RT: QueuePorts = {
  name: 'ic2rt',
  empty: 'steer_ic2rt_empty',
  enqueue: 'steer_q_en_ic2rt',
  coreId: 'steer_core_id_ic2rt',
  dequeue: 'steer_dequeue_rt',
  inputs: [
    { port: (i) => `answer_ic_${i}_info`, width: 128 },
    { port: (i) => `answer_ic_${i}_normal`, width: 128 },
    { port: (i) => `answer_ic_${i}_parameters`, width: 128 },
  ],
  outputs: [
    { port: 'steer_shader_info_rt', width: 128 },
    { port: 'steer_shader_normal_rt', width: 128 },
    { port: 'steer_shader_parameters_rt', width: 128 },
  ],
  cores: (p) => p.icCores,
};

// ---------------------------------------------------------------- stimulus

/** Phases of 80 cycles favouring filling, draining or mixing (long enough to fill 32 entries). */
function phase(cycle: number, offset: number): 'fill' | 'drain' | 'mix' {
  const k = Math.floor((cycle + offset) / 80) % 3;
  return k === 0 ? 'fill' : k === 1 ? 'drain' : 'mix';
}

/** Mostly one-hot; sometimes zero or several bits, which the buffer must reject. */
function randomCoreId(rng: Rng, cores: number): bigint {
  const k = rng.int(20);
  if (k === 0) return 0n;
  if (k === 1 && cores > 1) return rng.bits(cores) | (3n << BigInt(rng.int(cores - 1)));
  return 1n << BigInt(rng.int(cores));
}

function queueStimulus(q: QueuePorts, p: IcBufferParams, cycle: number, offset: number, rng: Rng): Record<string, bigint> {
  const ph = phase(cycle, offset);
  const s: Record<string, bigint> = {
    [q.enqueue]: b(rng.int(8) < (ph === 'fill' ? 7 : ph === 'drain' ? 1 : 4)),
    [q.coreId]: randomCoreId(rng, q.cores(p)),
    [q.dequeue]: b(rng.int(8) < (ph === 'drain' ? 7 : ph === 'fill' ? 1 : 4)),
  };
  for (const f of q.inputs) for (let i = 0; i < q.cores(p); i++) s[f.port(i)] = rng.bits(f.width);
  return s;
}

export function icBufferStimulus(p: IcBufferParams): CosimDesign['stimulus'] {
  return (cycle, rng) => ({
    rst_n: cycle < 2 || rng.int(5000) === 0 ? 0n : 1n,
    clear_errors: b(rng.int(300) === 0),
    ...queueStimulus(RT2IC, p, cycle, 0, rng),
    ...queueStimulus(IC2RT, p, cycle, 40, rng),
  });
}

// ---------------------------------------------------------------- golden model

/** One queue as an array of entries (each the concatenation of its fields) and its sticky error bits. */
export class QueueModel {
  private entries: bigint[] = [];
  private errors = 0;

  constructor(
    private readonly q: QueuePorts,
    private readonly p: IcBufferParams,
  ) {}

  outputs(): Record<string, bigint> {
    const front = this.entries[0] ?? 0n;
    const out: Record<string, bigint> = {
      [`${this.q.name}_count`]: BigInt(this.entries.length),
      [this.q.empty]: b(this.entries.length === 0),
      [`${this.q.name}_full`]: b(this.entries.length === this.p.depth),
      [`${this.q.name}_error`]: BigInt(this.errors),
    };
    let shift = 0n;
    for (const f of this.q.outputs) {
      out[f.port] = (front >> shift) & ((1n << BigInt(f.width)) - 1n);
      shift += BigInt(f.width);
    }
    return out;
  }

  get errorBits(): number {
    return this.errors;
  }

  clock(ins: Readonly<Record<string, bigint>>): void {
    if (ins.rst_n === 0n) {
      this.entries = [];
      this.errors = 0;
      return;
    }
    const coreId = ins[this.q.coreId]!;
    const oneHot = coreId !== 0n && (coreId & (coreId - 1n)) === 0n;
    const enqueue = ins[this.q.enqueue] === 1n;
    const dequeue = ins[this.q.dequeue] === 1n;
    let errors = ins.clear_errors === 1n ? 0 : this.errors;
    if (enqueue && !oneHot) errors |= QUEUE_ERROR.badCoreId;
    if (dequeue && this.entries.length === 0) errors |= QUEUE_ERROR.underflow;
    const dequeued = dequeue && this.entries.length > 0;
    const room = this.entries.length < this.p.depth || dequeued;
    if (enqueue && oneHot && !room) errors |= QUEUE_ERROR.overflow;
    const entering = enqueue && oneHot && room ? [this.entryFrom(ins, coreId.toString(2).length - 1)] : [];
    this.entries = [...this.entries.slice(dequeued ? 1 : 0), ...entering];
    this.errors = errors;
  }

  private entryFrom(ins: Readonly<Record<string, bigint>>, core: number): bigint {
    let entry = 0n;
    let shift = 0n;
    for (const f of this.q.inputs) {
      entry |= ins[f.port(core)]! << shift;
      shift += BigInt(f.width);
    }
    return entry;
  }
}

export function icBufferGolden(p: IcBufferParams): GoldenModel {
  const queues = [new QueueModel(RT2IC, p), new QueueModel(IC2RT, p)];
  return {
    check(_cycle, ins, outs) {
      const want: Record<string, bigint> = Object.assign({}, ...queues.map((q) => q.outputs()), { error: b(queues.some((q) => q.errorBits !== 0)) });
      const wrong = Object.keys(want).find((k) => outs[k] !== want[k]);
      for (const q of queues) q.clock(ins);
      return wrong === undefined ? null : `${wrong} is 0x${outs[wrong]?.toString(16)}, the model expects 0x${want[wrong]!.toString(16)}`;
    },
  };
}

export const icBufferCosimDesign: CosimDesign = {
  name: 'ic_buffer',
  description: `IC buffer (${defaultIcBufferParams.rtCores} RT cores, ${defaultIcBufferParams.icCores} IC cores, ${defaultIcBufferParams.depth} entries per queue): random enqueue/dequeue traffic with error cases`,
  elaborate: () => elaborate(IcBuffer, defaultIcBufferParams).design,
  stimulus: icBufferStimulus(defaultIcBufferParams),
  golden: () => icBufferGolden(defaultIcBufferParams),
};
