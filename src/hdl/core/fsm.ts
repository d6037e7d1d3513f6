// A finite-state-machine helper: an enum-typed state register whose state names reach the SV and waveforms.
import { hdlError } from '../ir/diagnostics.ts';
import type { ModuleBuilder } from './module.ts';
import type { ClockDomain } from './clockDomain.ts';
import { callerLocation } from './sourceLocation.ts';
import { checkOptions } from './options.ts';
import { Enum, type EnumType } from './types.ts';
import type { Bool, EnumValue } from './values.ts';

export class Fsm<N extends string> {
  readonly type: EnumType<N>;
  /** The current state (a register). */
  readonly state: EnumValue<N>;

  constructor(
    private readonly m: ModuleBuilder,
    name: string,
    states: readonly N[],
    initial: N,
    opts: FsmOptions,
  ) {
    this.type = Enum(name, states);
    if (!states.includes(initial)) throw hdlError('InvalidArgument', `initial state '${initial}' is not one of ${states.join(', ')}`, callerLocation());
    checkOptions('fsm()', opts, ['domain', 'async'], callerLocation());
    this.state = m.reg(this.type, { reset: initial as never, name: `${name}_state`, ...(opts.domain ? { domain: opts.domain } : {}), ...(opts.async !== undefined ? { async: opts.async } : {}) }) as EnumValue<N>;
  }

  /** True while in `state`. */
  is(state: N): Bool {
    return this.state.is(state);
  }

  /** Move to `state` at the next clock edge (under the active `when` conditions). */
  goto(state: N): void {
    this.state.set(state);
  }

  /** `m.when(fsm.is(s), body)` for each listed state, as one chain. */
  on(handlers: Partial<Record<N, () => void>>): void {
    const sw = this.m.switch(this.state);
    for (const [s, body] of Object.entries(handlers) as [N, () => void][]) sw.is(s as never, body);
  }
}

export interface FsmOptions {
  /** The clock domain of the state register (default: the one in effect); it resets to `initial` with the domain's reset, of any kind. */
  readonly domain?: ClockDomain;
  /** On the implicit clock: reset asynchronously by `rst_n` (default: synchronously). A declared domain's reset kind is its own. */
  readonly async?: boolean;
}

/** Create a state machine in module `m`: `const f = fsm(m, 'ctrl', ['idle', 'run'], 'idle')`. */
export function fsm<const N extends string>(m: ModuleBuilder, name: string, states: readonly N[], initial: N, opts: FsmOptions = {}): Fsm<N> {
  return new Fsm(m, name, states, initial, opts);
}
