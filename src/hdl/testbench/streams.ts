// Drivers and monitors for valid/ready streams: a source that offers values, a sink with random
// back-pressure, and a passive monitor; each records what crossed and when.
import type { Simulator } from '../sim/simulator.ts';
import { Mailbox } from './mailbox.ts';
import { createRng, type Rng } from '../../util/seededRandom.ts';
import type { Testbench } from './testbench.ts';

/**
 * What a stream carries: one bigint (a `<name>_bits` port), or an object of bigints, one per field
 * (`<name>_bits_<field>`); an interface type works as well as a type alias.
 */
export type StreamValue = bigint | object;

export interface StreamPorts {
  readonly valid: string;
  readonly ready: string;
  /** The data port, or field name -> port; `{}` for a stream that carries no data. */
  readonly bits: string | Readonly<Record<string, string>>;
}

/** A transfer: the value and the cycle whose clock edge took it (valid and ready both high). */
export interface StreamItem<V extends StreamValue> {
  readonly value: V;
  readonly cycle: number;
}

/**
 * The ports of a stream by the Decoupled naming (`enq` -> enq_valid, enq_ready, enq_bits or enq_bits_*),
 * or as given. `side` says who drives valid: 'design' for an output stream of the design, 'testbench'
 * for an input stream; the directions are checked.
 */
export function streamPorts(sim: Simulator, ports: string | StreamPorts, side: 'design' | 'testbench'): StreamPorts {
  const byName = new Map(sim.ports.map((p) => [p.name, p]));
  let resolved: StreamPorts;
  if (typeof ports === 'string') {
    const bits = byName.has(`${ports}_bits`)
      ? `${ports}_bits`
      : Object.fromEntries(sim.ports.filter((p) => p.name.startsWith(`${ports}_bits_`)).map((p) => [p.name.slice(ports.length + 6), p.name]));
    resolved = { valid: `${ports}_valid`, ready: `${ports}_ready`, bits };
  } else resolved = ports;
  const fields = typeof resolved.bits === 'string' ? [resolved.bits] : Object.values(resolved.bits);
  const drivenByTb = side === 'testbench' ? [resolved.valid, ...fields] : [resolved.ready];
  const readByTb = side === 'testbench' ? [resolved.ready] : [resolved.valid, ...fields];
  const expect = (name: string, dir: 'input' | 'output') => {
    const p = byName.get(name);
    const what = typeof ports === 'string' ? `stream '${ports}' (Decoupled names ${ports}_valid, ${ports}_ready, ${ports}_bits[_*]; or pass the ports)` : 'stream';
    if (!p) throw new Error(`${sim.top} has no port '${name}' for the ${what}`);
    if (p.direction !== dir) throw new Error(`'${name}' is an ${p.direction} of ${sim.top}; the ${what} needs it as an ${dir} (${side === 'design' ? 'the design drives valid' : 'the testbench drives valid'})`);
  };
  for (const n of drivenByTb) expect(n, 'input');
  for (const n of readByTb) expect(n, 'output');
  return resolved;
}

function readBits<V extends StreamValue>(tb: Testbench, bits: StreamPorts['bits']): V {
  if (typeof bits === 'string') return tb.peek(bits) as V;
  return Object.fromEntries(Object.entries(bits).map(([f, port]) => [f, tb.peek(port)])) as unknown as V;
}

function writeBits(tb: Testbench, bits: StreamPorts['bits'], value: StreamValue): void {
  if (typeof bits === 'string') {
    if (typeof value !== 'bigint' && typeof value !== 'number') throw new Error(`the stream's data port '${bits}' takes a bigint, got an object`);
    tb.poke(bits, value);
    return;
  }
  if (typeof value !== 'object') throw new Error(`the stream has fields ${Object.keys(bits).join(', ') || '(none)'}: send an object of them`);
  const fields = value as Readonly<Record<string, bigint | number | undefined>>;
  for (const [f, port] of Object.entries(bits)) {
    const v = fields[f];
    if (v === undefined) throw new Error(`the value sent lacks field '${f}' (port ${port})`);
    tb.poke(port, v);
  }
  for (const f of Object.keys(value)) if (!(f in bits)) throw new Error(`the stream has no field '${f}'; fields: ${Object.keys(bits).join(', ')}`);
}

/** A child generator of the testbench's, so that each driver's choices do not depend on the others'. */
function driverRng(tb: Testbench): Rng {
  return createRng(tb.rng.u32());
}

function checkProbability(name: string, p: number): number {
  if (!(p >= 0 && p < 1)) throw new Error(`${name} must be a probability in [0, 1), got ${p}`);
  return p;
}

interface Pending<V> {
  readonly value: V;
  /** Called with the cycle the design took the value, or -1 when the source stopped first. */
  readonly waiters: ((cycle: number) => void)[];
}

/** Woken out of its mailbox by stop(). */
const STOP = Symbol('stop');

/** Drives an input stream of the design: values are offered in order, each held until the design takes it. */
export class StreamSource<V extends StreamValue = bigint> {
  readonly ports: StreamPorts;
  /** Every value the design took, in order. */
  readonly sent: StreamItem<V>[] = [];
  private readonly queue: Mailbox<Pending<V> | typeof STOP>;
  private readonly idleProbability: number;
  private readonly rng: Rng;
  private readonly drained: (() => void)[] = [];
  private readonly name: string;
  private readonly release: () => void;
  private stopped = false;

  constructor(
    private readonly tb: Testbench,
    ports: string | StreamPorts,
    opts: { /** Probability of a cycle with valid low between values (random gaps). */ readonly idle?: number; readonly name?: string } = {},
  ) {
    this.ports = streamPorts(tb.sim, ports, 'testbench');
    this.idleProbability = checkProbability('idle', opts.idle ?? 0);
    this.rng = driverRng(tb);
    const name = opts.name ?? (typeof ports === 'string' ? ports : this.ports.valid);
    this.name = `${name} source`;
    this.release = tb.claimInputs(`the stream source '${name}'`, [this.ports.valid, ...bitPorts(this.ports.bits)]);
    this.queue = new Mailbox(tb, this.name);
    tb.fork(this.name, () => this.drive());
  }

  /**
   * Stops driving: valid goes low (now in the drive phase, else at the next cycle) and the ports are free
   * for another driver. Values not yet taken are dropped; a send() waiting for one fails.
   */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.release();
    if (this.tb.phase === 'drive') this.tb.poke(this.ports.valid, 0);
    for (let p = this.queue.tryGet(); p !== undefined; p = this.queue.tryGet()) if (p !== STOP) for (const w of p.waiters) w(-1);
    this.queue.put(STOP);
    for (const w of this.drained.splice(0)) w();
  }

  /** Queues a value and waits until the design took it; resumes in the drive phase after, with the cycle it was taken. */
  send(value: V): Promise<number> {
    if (this.stopped) return Promise.reject(new Error(`${this.name}.send() after stop()`));
    const pending: Pending<V> = { value, waiters: [] };
    let cycle = -1;
    this.queue.put(pending);
    return this.tb
      .suspend(`${this.queue.name}.send`, (wake) => {
        pending.waiters.push((c) => {
          cycle = c;
          wake();
        });
      })
      .then(() => {
        if (cycle < 0) throw new Error(`${this.name} was stopped before the design took the value sent`);
        return cycle;
      });
  }

  /** Queues values without waiting. */
  enqueue(...values: V[]): void {
    if (this.stopped) throw new Error(`${this.name}.enqueue() after stop()`);
    for (const value of values) this.queue.put({ value, waiters: [] });
  }

  /** Waits until every queued value was taken. */
  async flush(): Promise<void> {
    while (!this.stopped && (this.queue.length || this.busy)) await this.tb.suspend(`${this.queue.name}.flush`, (wake) => this.drained.push(wake));
  }

  private busy = false;

  private async drive(): Promise<void> {
    const { tb, ports } = this;
    // Made in a settled phase (after a receive), it drives from the next cycle.
    if (tb.phase === 'settled') await tb.tick();
    tb.poke(ports.valid, 0);
    for (;;) {
      const item = await this.queue.get();
      if (item === STOP) return;
      this.busy = true;
      if (tb.phase === 'settled') await tb.tick();
      for (;;) {
        if (this.stopped) return this.lowerValid();
        if (this.idleProbability && this.rng() < this.idleProbability) {
          tb.poke(ports.valid, 0);
          await tb.tick();
          continue;
        }
        tb.poke(ports.valid, 1);
        writeBits(tb, ports.bits, item.value);
        await tb.settled();
        if (this.stopped) return this.lowerValid();
        if (tb.peek(ports.ready) === 1n) break;
        await tb.tick();
      }
      const cycle = tb.cycle;
      this.sent.push({ value: item.value, cycle });
      await tb.tick();
      if (!this.queue.length) tb.poke(ports.valid, 0);
      this.busy = false;
      for (const w of item.waiters) w(cycle);
      if (!this.queue.length) for (const w of this.drained.splice(0)) w();
    }
  }

  /** After stop(): valid low from the next drive phase on. */
  private async lowerValid(): Promise<void> {
    if (this.tb.phase === 'settled') await this.tb.tick();
    // A driver started since owns the port now.
    if (this.tb.driverOf(this.ports.valid) === undefined) this.tb.poke(this.ports.valid, 0);
  }
}

function bitPorts(bits: StreamPorts['bits']): string[] {
  return typeof bits === 'string' ? [bits] : Object.values(bits);
}

/** Takes an output stream of the design, with random back-pressure; received values wait in order. */
export class StreamSink<V extends StreamValue = bigint> {
  readonly ports: StreamPorts;
  /** Every value taken, in order. */
  readonly received: StreamItem<V>[] = [];
  private readonly box: Mailbox<StreamItem<V>>;
  private readonly release: () => void;
  private stopped = false;

  constructor(
    private readonly tb: Testbench,
    ports: string | StreamPorts,
    opts: {
      /** Probability that ready is low in a cycle (default 0: always ready). */
      readonly backpressure?: number;
      /** Called in the settled phase of the cycle a value is taken. */
      readonly onItem?: (item: StreamItem<V>) => void;
      readonly name?: string;
    } = {},
  ) {
    this.ports = streamPorts(tb.sim, ports, 'design');
    const backpressure = checkProbability('backpressure', opts.backpressure ?? 0);
    const rng = driverRng(tb);
    const name = opts.name ?? (typeof ports === 'string' ? ports : this.ports.valid);
    this.box = new Mailbox(tb, `${name} sink`);
    this.release = tb.claimInputs(`the stream sink '${name}'`, [this.ports.ready]);
    tb.fork(`${name} sink`, async () => {
      if (tb.phase === 'settled') await tb.tick();
      for (;;) {
        const ready = backpressure === 0 || rng() >= backpressure;
        tb.poke(this.ports.ready, ready ? 1 : 0);
        await tb.settled();
        if (this.stopped) break;
        if (ready && tb.peek(this.ports.valid) === 1n) {
          const item = { value: readBits<V>(tb, this.ports.bits), cycle: tb.cycle };
          this.received.push(item);
          opts.onItem?.(item);
          this.box.put(item);
        }
        await tb.tick();
        if (this.stopped) break;
      }
      if (tb.phase === 'settled') await tb.tick();
      // A driver started since owns the port now.
      if (tb.driverOf(this.ports.ready) === undefined) tb.poke(this.ports.ready, 0);
    });
  }

  /** Stops taking values: ready goes low (at the next drive phase) and the port is free for another driver. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.release();
    if (this.tb.phase === 'drive') this.tb.poke(this.ports.ready, 0);
  }

  /** The next value the sink took (waiting for it). */
  async receive(): Promise<V> {
    return (await this.box.get()).value;
  }

  /** The next `n` values. */
  async receiveMany(n: number): Promise<V[]> {
    const out: V[] = [];
    for (let i = 0; i < n; i++) out.push(await this.receive());
    return out;
  }
}

/** Watches a stream without driving it: every cycle with valid and ready high is a transfer. */
export class StreamMonitor<V extends StreamValue = bigint> {
  readonly ports: StreamPorts;
  readonly items: StreamItem<V>[] = [];

  constructor(tb: Testbench, ports: StreamPorts, opts: { readonly onItem?: (item: StreamItem<V>) => void; readonly name?: string } = {}) {
    const known = new Set(tb.sim.ports.map((p) => p.name));
    for (const p of [ports.valid, ports.ready, ...(typeof ports.bits === 'string' ? [ports.bits] : Object.values(ports.bits))]) {
      if (!known.has(p)) throw new Error(`${tb.sim.top} has no port '${p}' for the stream monitor`);
    }
    this.ports = ports;
    tb.fork(`${opts.name ?? ports.valid} monitor`, async () => {
      for (;;) {
        await tb.settled();
        if (tb.peek(ports.valid) === 1n && tb.peek(ports.ready) === 1n) {
          const item = { value: readBits<V>(tb, ports.bits), cycle: tb.cycle };
          this.items.push(item);
          opts.onItem?.(item);
        }
        await tb.tick();
      }
    });
  }
}
