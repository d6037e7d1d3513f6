// The module builder is the user's view only: what it records (the fragment lowering reads) is out of a body's reach.
import { describe, expect, test } from 'vitest';
import { Bool, UInt, defineModule, elaborate, input, output, type MemoryHandle, type ModuleBuilder } from '../../src/hdl/index.ts';

/** Names that were fields or `@internal` methods of the builder before the fragment held them. */
const LOWERING_NAMES = ['sigs', 'portSigs', 'memories', 'instances', 'unusedSigs', 'clockPorts', 'unusedClocks', 'falsePaths', 'properties', 'resetSig', 'finishBody', 'condition', 'under', 'underPath', 'currentGuard', 'and', 'or', 'not', 'constTrue', 'useReset', 'run', 'domainFor', 'assign'];

describe('the builder a module body receives', () => {
  test('has no own fields and none of the lowering names; its memories show no port records', () => {
    let seen: ModuleBuilder | undefined;
    let mem: MemoryHandle | undefined;
    const M = defineModule('M', () => ({ we: input(Bool), a: input(UInt(4)), q: output(UInt(8)) }), (m, io) => {
      seen = m;
      mem = m.memory(UInt(8), 16);
      m.when(io.we, () => mem!.write(io.a, 1));
      io.q.set(mem.read(io.a));
    });
    const ir = elaborate(M, undefined).design.modules[0]!;
    expect(Object.keys(seen!)).toEqual([]);
    for (const name of LOWERING_NAMES) expect(name in seen!, name).toBe(false);
    expect(seen!.moduleName).toBe('M');
    expect(Object.keys(mem!).sort()).toEqual(['depth', 'type']);
    for (const name of ['readPorts', 'writePorts', 'init', 'owner']) expect(name in mem!, name).toBe(false);
    // What it recorded reached lowering all the same.
    expect(ir.memories[0]!.readPorts.length).toBe(1);
    expect(ir.memories[0]!.writePorts.length).toBe(1);
  });
});
