// Refuses JavaScript's coercion of hardware values to primitives, which builds no hardware and would otherwise go unnoticed.
//
// `io.a == 3`, `io.a < io.b`, `io.a + 1` and `${io.a}` all ask the value for a primitive first
// (Symbol.toPrimitive). Answering with an error at the user's line turns a silent constant into a named
// mistake. Truthiness (`?:`, `if`, `&&`, `!`) asks nothing of the object, so no runtime hook can see it:
// src/hdl/check/jsConditions.ts finds those in the source.
import { hdlError } from '../ir/diagnostics.ts';
import { callerLocation } from './sourceLocation.ts';

/** What each coercion hint comes from, and the eDSL call that does it in hardware. */
const advice: Record<string, string> = {
  number: 'an ordering comparison or arithmetic (<, <=, >, >=, -, *, /, unary +) asked for a number: use .lt() .le() .gt() .ge(), .add() .sub() .mul(), or .shl() .shr()',
  string: 'a template string or String() asked for a string: name a signal with .named(), print a simulated value with sim.peek()',
  default: '== or != or + asked for a primitive: use .eq() / .ne() to compare, .add() to add, cat() to concatenate',
};

/** Throws the located error for coercing `what` (e.g. "a UInt<8> value") with `hint`. */
export function refuseCoercion(what: string, hint: string): never {
  throw hdlError('JavaScriptOperator', `${what} was used as a JavaScript ${hint === 'default' ? 'primitive' : hint}: JavaScript operators build no hardware; ${advice[hint] ?? advice.default}`, callerLocation());
}
