// WrapCounter with a bug: it wraps one step late (atLimit compares with `limit`, not `limit - 1`). rtgpu prove finds it.
import { Bool, UInt, defineModule, input, mux, output } from 'rtgpu/hdl';

export const params = { limit: 10 };

export const WrapCounter = defineModule(
  'WrapCounter',
  (p: { limit: number }) => ({ en: input(Bool), clear: input(Bool), count: output(UInt(8)), wrapped: output(Bool) }),
  (m, io, p) => {
    const count = m.reg(UInt(8), { reset: 0 });
    const atLimit = count.eq(p.limit);
    m.when(io.clear, () => count.set(0)).elsewhen(io.en, () => count.set(mux(atLimit, 0, count.add(1))));
    io.count.set(count);
    io.wrapped.set(atLimit.and(io.en));

    m.assert(count.lt(p.limit), 'the count stays below the limit');
    m.assert(m.impliesNext(io.en.and(io.clear.not()).and(atLimit.not()), count.ne(0)), 'counting up never lands on 0');
    m.assert(m.impliesNext(io.clear, count.eq(0)), 'clear empties the counter');
    m.assume(io.en.and(io.clear).not(), 'the environment never enables and clears at once');
    m.cover(atLimit.and(io.en), 'wraps');
  },
);
