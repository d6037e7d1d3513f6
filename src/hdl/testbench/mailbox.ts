// A queue between testbench processes: put never blocks, get waits (in simulated time) for an item.
import type { Testbench } from './testbench.ts';

export class Mailbox<T> {
  private readonly items: T[] = [];
  private readonly getters: (() => void)[] = [];

  constructor(
    private readonly tb: Testbench,
    readonly name = 'mailbox',
  ) {}

  get length(): number {
    return this.items.length;
  }

  put(item: T): void {
    this.items.push(item);
    this.getters.shift()?.();
  }

  /** The oldest item, waiting for one if the mailbox is empty. */
  async get(): Promise<T> {
    while (!this.items.length) await this.tb.suspend(`${this.name}.get()`, (wake) => this.getters.push(wake));
    return this.items.shift()!;
  }

  tryGet(): T | undefined {
    return this.items.shift();
  }
}
