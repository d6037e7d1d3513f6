// JavaScript operators that coerce a hardware value to a primitive (==, <, +, template strings) are located errors naming the eDSL method, never silent constants.
import { describe, expect, test } from 'vitest';
import { fileURLToPath } from 'node:url';
import { Bool, Bundle, HdlError, UInt, Vec, defineModule, elaborate, input, output, type PortsValue } from '../../src/hdl/index.ts';
import { markerLine } from './markers.ts';

const here = fileURLToPath(import.meta.url);

const ports = () => ({ a: input(UInt(8)), b: input(UInt(8)), v: input(Vec(2, UInt(2))), s: input(Bundle({ x: UInt(3) })), y: output(Bool) });
type Io = PortsValue<ReturnType<typeof ports>>;

/** Elaborates a module whose body is `body` and returns the diagnostic it fails with. */
function failure(body: (io: Io) => void): { code: string; line: number; file: string; message: string } {
  const M = defineModule('M', ports, (_m, io) => body(io as Io));
  try {
    elaborate(M, undefined);
  } catch (e) {
    expect(e).toBeInstanceOf(HdlError);
    const d = (e as HdlError).diagnostics[0]!;
    return { code: d.code, line: d.loc.line, file: d.loc.file, message: d.message };
  }
  throw new Error('elaborated without an error');
}

// The casts are what a JavaScript user writes without types; TypeScript users get a type error first.
describe('coercing a hardware value to a primitive', () => {
  test('== with a number: the line, and .eq() named', () => {
    const f = failure((io) => io.y.set((io.a as any) == 3)); // @mark:eq
    expect(f).toMatchObject({ code: 'JavaScriptOperator', file: here, line: markerLine(here, 'eq') });
    expect(f.message).toMatch(/a UInt\(8\) value was used as a JavaScript primitive: .*use \.eq\(\) \/ \.ne\(\)/);
  });

  test('< between two values: .lt() named', () => {
    const f = failure((io) => io.y.set((io.a as any) < (io.b as any))); // @mark:lt
    expect(f).toMatchObject({ code: 'JavaScriptOperator', line: markerLine(here, 'lt') });
    expect(f.message).toMatch(/used as a JavaScript number: .*\.lt\(\) \.le\(\) \.gt\(\) \.ge\(\)/);
  });

  test('+ with a number: .add() named', () => {
    const f = failure((io) => io.y.set(((io.a as any) + 1) as any)); // @mark:plus
    expect(f).toMatchObject({ code: 'JavaScriptOperator', line: markerLine(here, 'plus') });
    expect(f.message).toMatch(/\.add\(\) to add/);
  });

  test('a template string: .named() and peek named', () => {
    const f = failure((io) => io.y.set(`${io.a}` as any)); // @mark:template
    expect(f).toMatchObject({ code: 'JavaScriptOperator', line: markerLine(here, 'template') });
    expect(f.message).toMatch(/used as a JavaScript string: .*\.named\(\).*peek/);
  });

  test('vectors and bundles refuse too, with their type', () => {
    const v = failure((io) => io.y.set((io.v as any) == 1)); // @mark:vec
    expect(v).toMatchObject({ code: 'JavaScriptOperator', line: markerLine(here, 'vec') });
    expect(v.message).toMatch(/a Vec\(2, UInt\(2\)\) value/);
    const b = failure((io) => io.y.set((io.s as any) > 0)); // @mark:bundle
    expect(b).toMatchObject({ code: 'JavaScriptOperator', line: markerLine(here, 'bundle') });
    expect(b.message).toMatch(/a Bundle\{x: UInt\(3\)\} value/);
  });

  test('what is not coercion still works: identity of two values, a JavaScript condition', () => {
    const M = defineModule('M', ports, (_m, io) => {
      const maybe: unknown = undefined;
      io.y.set(io.a === io.b || maybe ? io.a.eq(io.b) : io.a.lt(io.b));
    });
    expect(() => elaborate(M, undefined)).not.toThrow();
  });
});
