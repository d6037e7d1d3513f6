// The chains `m.when` and `m.switch` return: elsewhen/otherwise branches and a switch's `is` alternatives.
import type { Expr } from './ast.ts';
import { Bool as BoolT } from './types.ts';
import { wrap, type Bits, type EnumValue, type Literal } from './values.ts';
import { conditionExpr, matchOr, type WhenPath } from './whenPath.ts';

/** A when/elsewhen/otherwise chain: each branch runs under "all earlier conditions false, mine true". */
export class WhenChain {
  readonly #path: WhenPath;
  readonly #earlier: Expr[];

  constructor(path: WhenPath, earlier: Expr[]) {
    this.#path = path;
    this.#earlier = earlier;
  }

  /** Runs `body` when no earlier branch of this chain applied and `cond` holds. */
  elsewhen(cond: Bits | boolean, body: () => void): WhenChain {
    const c = conditionExpr(cond);
    this.#path.under([...this.#notEarlier(), { cond: c, pos: true }], body);
    this.#earlier.push(c);
    return this;
  }

  /** Runs `body` when no branch of this chain applied. */
  otherwise(body: () => void): void {
    this.#path.under(this.#notEarlier(), body);
  }

  #notEarlier() {
    return this.#earlier.map((e) => ({ cond: e, pos: false }));
  }
}

/** `m.switch(subject)`: a when chain whose conditions compare the subject with values. */
export class SwitchChain<V extends Bits> {
  readonly #chain: WhenChain;
  readonly #subject: V;
  #started = false;

  constructor(path: WhenPath, subject: V) {
    this.#chain = new WhenChain(path, []);
    this.#subject = subject;
  }

  /** Runs `body` when the subject equals one of `values` (and no earlier `is` matched). */
  is(values: V extends EnumValue<infer N> ? N | N[] | Literal | Literal[] : Literal | Literal[] | Bits, body: () => void): this {
    const list = (Array.isArray(values) ? values : [values]) as (Literal | string | Bits)[];
    let hit: Expr | null = null;
    for (const v of list) {
      const eq = this.#subject.eq(v as never).expr;
      hit = hit ? matchOr(hit, eq) : eq;
    }
    this.#chain.elsewhen(wrap(hit!, BoolT), body);
    this.#started = true;
    return this;
  }

  /** Runs `body` when no `is` matched. */
  default(body: () => void): void {
    if (this.#started) this.#chain.otherwise(body);
    else body();
  }
}
