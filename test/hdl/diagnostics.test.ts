import { describe, expect, test } from 'vitest';
import { fileURLToPath } from 'node:url';
import { Bool, Bundle, HdlError, UInt, SInt, Vec, defineModule, elaborate, flip, input, output, type DiagnosticCode } from '../../src/hdl/index.ts';
import { markerLine } from './markers.ts';

const here = fileURLToPath(import.meta.url);

function expectError(run: () => unknown, code: DiagnosticCode, mark: string, message: RegExp): HdlError {
  let err: unknown;
  try {
    run();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(HdlError);
  const h = err as HdlError;
  const d = h.diagnostics.find((x) => x.code === code);
  expect(d, `expected ${code}, got ${h.message}`).toBeDefined();
  expect(d!.loc.file).toBe(here);
  expect(d!.loc.line).toBe(markerLine(here, mark));
  expect(d!.message).toMatch(message);
  expect(h.message).toContain(`${here}:${markerLine(here, mark)}:`);
  expect(h.message).toContain(`error[${code}]`);
  return h;
}

describe('named elaboration errors point at the user line', () => {
  test('WidthMismatch: assigning a wider value needs explicit truncation', () => {
    const M = defineModule('M', () => ({ a: input(UInt(8)), y: output(UInt(4)) }), (m, io) => {
      io.y.set(io.a); // @mark:width
    });
    expectError(() => elaborate(M, undefined), 'WidthMismatch', 'width', /8-bit value to a 4-bit signal.*trunc\(4\)/);
  });

  test('InvalidArgument: an option a DSL call does not have (a typo, or another tool\'s) is named, never ignored', () => {
    const M = defineModule('M', () => ({ a: input(UInt(8)), y: output(UInt(8)) }), (m, io) => {
      const r = m.reg(UInt(8), { rest: 0 } as never); // @mark:optionOfReg
      r.set(io.a);
      io.y.set(r);
    });
    expectError(() => elaborate(M, undefined), 'InvalidArgument', 'optionOfReg', /^reg\(\) has no option 'rest' \(did you mean 'reset'\?\); its options: reset, async, init, enable, name, domain, synchronizer$/);
    const W = defineModule('W', () => ({ a: input(UInt(8)), y: output(UInt(8)) }), (m, io) => {
      const w = m.wire(UInt(8), { defualt: 0 } as never); // @mark:optionOfWire
      w.set(io.a);
      io.y.set(w);
    });
    expectError(() => elaborate(W, undefined), 'InvalidArgument', 'optionOfWire', /^wire\(\) has no option 'defualt' \(did you mean 'default'\?\)/);
    const C = defineModule('C', () => ({ a: input(UInt(8)), y: output(UInt(8)) }), (m, io) => {
      io.y.set(m.regNext(io.a, { clock: 1 } as never)); // @mark:optionOfRegNext
    });
    expectError(() => elaborate(C, undefined), 'InvalidArgument', 'optionOfRegNext', /^regNext\(\) has no option 'clock' \(a register's clock is its domain's: \{ domain: m\.clockDomain\(\{ clock \}\) \}, docs\/hdl-guide\.md "Clock domains and resets"\); its options: reset, async, enable, name, domain, synchronizer$/);
    const Mem = defineModule('Mem', () => ({ a: input(UInt(2)), y: output(UInt(8)) }), (m, io) => {
      io.y.set(m.memory(UInt(8), 4, { initial: [1] } as never).read(io.a)); // @mark:optionOfMemory
    });
    expectError(() => elaborate(Mem, undefined), 'InvalidArgument', 'optionOfMemory', /^memory\(\) has no option 'initial' \(did you mean 'init'\?\)/);
  });

  test('InvalidArgument: a width given as a string or a bigint says so', () => {
    expectError(() => UInt('8' as never), 'InvalidArgument', 'stringWidth', /^UInt width must be an integer from 1 to 4096, got the string '8' \(write 8 without quotes\)$/); // @mark:stringWidth
    expectError(() => SInt(8n as never), 'InvalidArgument', 'bigintWidth', /got 8n, a bigint \(write a number\)$/); // @mark:bigintWidth
  });

  test('InvalidArgument: a port, a Vec element, a bundle field or a flip() whose type is not a hardware type (JavaScript lets NaN through)', () => {
    const nan = UInt(8) as unknown as number;
    const M = defineModule('M', () => ({ a: input((nan - 1) as never), y: output(UInt(4)) }), () => {}); // @mark:porttype
    expectError(() => elaborate(M, undefined), 'InvalidArgument', 'porttype', /^input\(\) needs a hardware type such as UInt\(8\), Bool or a Bundle, got NaN$/);
    expectError(() => Vec(2, 'UInt8' as never), 'InvalidArgument', 'vecelem', /^Vec needs a hardware type .*, got 'UInt8'$/); // @mark:vecelem
    expectError(() => Bundle({ a: Bool, b: { width: 8 } as never }), 'InvalidArgument', 'field', /^bundle field 'b' needs a hardware type .*, got an object with keys width$/); // @mark:field
    expectError(() => flip(undefined as never), 'InvalidArgument', 'flip', /^flip\(\) needs a hardware type .*, got undefined$/); // @mark:flip
  });

  test('explicit truncation and implicit widening are accepted', () => {
    const M = defineModule('M', () => ({ a: input(UInt(8)), y: output(UInt(4)), z: output(UInt(12)) }), (m, io) => {
      io.y.set(io.a.trunc(4));
      io.z.set(io.a);
    });
    expect(elaborate(M, undefined).design.modules).toHaveLength(1);
  });

  test('TypeMismatch: SInt into UInt', () => {
    const M = defineModule('M', () => ({ a: input(SInt(8)), y: output(UInt(8)) }), (m, io) => {
      io.y.set(io.a); // @mark:type
    });
    expectError(() => elaborate(M, undefined), 'TypeMismatch', 'type', /SInt\(8\) to UInt\(8\).*asUInt/);
  });

  test('ValueOutOfRange: literal too wide', () => {
    const M = defineModule('M', () => ({ a: input(UInt(4)), y: output(UInt(4)) }), (m, io) => {
      io.y.set(io.a.add(16)); // @mark:range
    });
    expectError(() => elaborate(M, undefined), 'ValueOutOfRange', 'range', /16 does not fit UInt\(4\)/);
  });

  test('CombinationalLoop names the signals on the cycle', () => {
    const M = defineModule('M', () => ({ a: input(UInt(8)), y: output(UInt(8)) }), (m, io) => {
      const x = m.wire(UInt(8)); // @mark:loop
      const z = x.add(io.a);
      x.set(z.xor(1));
      io.y.set(x);
    });
    const h = expectError(() => elaborate(M, undefined), 'CombinationalLoop', 'loop', /combinational loop: .*x.*z.*/);
    expect(h.message).toMatch(/x -> .* -> x|z -> .* -> z/);
  });

  test('CombinationalLoop across a submodule boundary', () => {
    const Pass = defineModule('Pass', () => ({ i: input(UInt(4)), o: output(UInt(4)) }), (m, io) => io.o.set(io.i));
    const M = defineModule('M', () => ({ y: output(UInt(4)) }), (m, io) => {
      const p = m.instance(Pass, undefined);
      p.io.i.set(p.io.o.add(1));
      io.y.set(p.io.o);
    });
    expect(() => elaborate(M, undefined)).toThrow(/CombinationalLoop.*p\.o/s);
  });

  test('UndrivenOutput', () => {
    const M = defineModule('M', () => ({ a: input(UInt(8)), y: output(UInt(8)) }), (m) => {
      void m;
    }); // @mark:undriven
    // Port declarations are attributed to the defineModule call.
    const h = (() => {
      try {
        elaborate(M, undefined);
      } catch (e) {
        return e as HdlError;
      }
      throw new Error('no error');
    })();
    const d = h.diagnostics.find((x) => x.code === 'UndrivenOutput')!;
    expect(d.message).toMatch(/output 'y' is never assigned/);
    expect(d.loc.file).toBe(here);
    expect(d.loc.line).toBe(markerLine(here, 'undriven') - 2);
  });

  test('UndrivenWire', () => {
    const M = defineModule('M', () => ({ y: output(UInt(8)) }), (m, io) => {
      const w = m.wire(UInt(8)); // @mark:wire
      io.y.set(w);
    });
    expectError(() => elaborate(M, undefined), 'UndrivenWire', 'wire', /wire 'w' is never assigned/);
  });

  test('Latch: a combinational signal assigned on some paths only', () => {
    const M = defineModule('M', () => ({ c: input(Bool), a: input(UInt(8)), y: output(UInt(8)) }), (m, io) => {
      const w = m.wire(UInt(8)); // @mark:latch
      m.when(io.c, () => w.set(io.a));
      io.y.set(w);
    });
    expectError(() => elaborate(M, undefined), 'Latch', 'latch', /'w' is not assigned on every path/);
  });

  test('no latch when every branch assigns or a default exists', () => {
    const M = defineModule('M', () => ({ c: input(Bool), a: input(UInt(8)), y: output(UInt(8)), z: output(UInt(8)) }), (m, io) => {
      const w = m.wire(UInt(8));
      m.when(io.c, () => w.set(io.a)).otherwise(() => w.set(3));
      const d = m.wire(UInt(8), { default: 7 });
      m.when(io.c, () => d.set(io.a));
      io.y.set(w);
      io.z.set(d);
    });
    expect(() => elaborate(M, undefined)).not.toThrow();
  });

  test('MultipleDrivers: an assignment overridden under the same condition', () => {
    const M = defineModule('M', () => ({ a: input(UInt(8)), y: output(UInt(8)) }), (m, io) => {
      io.y.set(io.a); // @mark:multi
      io.y.set(0);
    });
    const h = expectError(() => elaborate(M, undefined), 'MultipleDrivers', 'multi', /assigned again under the same condition/);
    expect(h.diagnostics[0]!.notes![0]!.loc!.line).toBe(markerLine(here, 'multi') + 1);
  });

  test('UnconnectedInput of a submodule', () => {
    const Child = defineModule('Child', () => ({ i: input(UInt(4)), o: output(UInt(4)) }), (m, io) => io.o.set(io.i));
    const M = defineModule('M', () => ({ y: output(UInt(4)) }), (m, io) => {
      const child = m.instance(Child, undefined); // @mark:unconnected
      io.y.set(child.io.o);
    });
    expectError(() => elaborate(M, undefined), 'UnconnectedInput', 'unconnected', /input 'i' of instance 'child' is never connected/);
  });

  test('ReadOnly: assigning an input or a submodule output', () => {
    const Child = defineModule('Child', () => ({ o: output(UInt(4)) }), (m, io) => io.o.set(1));
    const M = defineModule('M', () => ({ a: input(UInt(4)), y: output(UInt(4)) }), (m, io) => {
      const child = m.instance(Child, undefined);
      io.y.set(child.io.o);
      child.io.o.set(io.a); // @mark:readonly
    });
    expectError(() => elaborate(M, undefined), 'ReadOnly', 'readonly', /cannot assign to an output of a submodule/);
  });

  test('CrossModuleReference: a signal captured from another module', () => {
    let leaked: ReturnType<typeof UInt> | undefined;
    let leakedValue: any;
    const A = defineModule('A', () => ({ o: output(UInt(4)) }), (m, io) => {
      leakedValue = m.reg(UInt(4), { reset: 0 });
      io.o.set(leakedValue);
    });
    const B = defineModule('B', () => ({ o: output(UInt(4)) }), (m, io) => {
      const a = m.instance(A, undefined);
      io.o.set(a.io.o);
      leakedValue.set(1); // @mark:cross
    });
    void leaked;
    expectError(() => elaborate(B, undefined), 'CrossModuleReference', 'cross', /belongs to module A/);
  });

  test('OutsideModule: set() with no module under elaboration', () => {
    let v: any;
    const M = defineModule('M', () => ({ y: output(UInt(4)) }), (m, io) => {
      v = io.y;
      io.y.set(1);
    });
    elaborate(M, undefined);
    expectError(() => v.set(2), 'OutsideModule', 'outside', /must be called while a module is being elaborated/); // @mark:outside
  });

  test('UnusedInput is a warning with the port location', () => {
    const M = defineModule('M', () => ({ a: input(UInt(4)), b: input(UInt(4)), y: output(UInt(4)) }), (m, io) => io.y.set(io.a));
    const { warnings } = elaborate(M, undefined);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.code).toBe('UnusedInput');
    expect(warnings[0]!.message).toMatch(/input 'b'/);
    expect(warnings[0]!.severity).toBe('warning');
  });

  test('MixedResetKinds warns about one reset used both ways', () => {
    const M = defineModule('M', () => ({ y: output(UInt(4)), z: output(UInt(4)) }), (m, io) => {
      io.y.set(m.reg(UInt(4), { reset: 1 }));
      io.z.set(m.reg(UInt(4), { reset: 2, async: true }));
    });
    const { warnings } = elaborate(M, undefined);
    expect(warnings.map((w) => w.code)).toEqual(['MixedResetKinds']);
    expect(warnings[0]!.message).toMatch(/'rst_n' resets .* asynchronously and .* synchronously/);
  });

  test('several errors are reported together', () => {
    const M = defineModule('M', () => ({ y: output(UInt(4)), z: output(UInt(4)) }), (m) => void m);
    expect(() => elaborate(M, undefined)).toThrow(/output 'y'[\s\S]*output 'z'/);
  });
});

describe('an uncaught HdlError in a user script', () => {
  test('prints the error list and the user frames only, without the DSL internals or a field dump', async () => {
    const { execa } = await import('execa');
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'rtgpu-uncaught-'));
    try {
      const script = join(dir, 'script.mts');
      const root = process.cwd();
      writeFileSync(
        script,
        [
          `import { UInt, defineModule, elaborate, input, output } from '${root}/src/hdl/index.ts';`,
          `const Inner = defineModule('Inner', () => ({ y: output(UInt(8)) }), (m, io) => { const w = m.wire(UInt(8)); io.y.set(w); });`,
          `const Outer = defineModule('Outer', () => ({ y: output(UInt(8)) }), (m, io) => { io.y.set(m.instance(Inner, undefined).io.y); });`,
          `elaborate(Outer, undefined);`,
        ].join('\n'),
      );
      const r = await execa(process.execPath, ['--import', 'tsx', script], { reject: false, cwd: root });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain(`HdlError: ${script}:2:`);
      expect(r.stderr).toContain('error[UndrivenWire]');
      expect(r.stderr).toMatch(new RegExp(`at .*${script.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:4:`));
      expect(r.stderr).not.toMatch(/src\/hdl\/(core|ir|elaborate)\//);
      expect(r.stderr).not.toContain('diagnostics:');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test('keeps the full stack for debugging as internalStack', () => {
    const M = defineModule('M', () => ({ y: output(UInt(8)) }), (m) => void m.wire(UInt(8)));
    try {
      elaborate(M, undefined);
      expect.unreachable();
    } catch (e) {
      expect((e as HdlError).internalStack).toMatch(/src\/hdl\/elaborate\//);
      expect((e as HdlError).stack).not.toMatch(/src\/hdl\/elaborate\//);
    }
  });
});
