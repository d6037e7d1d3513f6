// The simulators table (src/hdl/sim/simulators.ts): every list of simulator names the API and the CLI use comes from it, in its order.
import { describe, expect, test } from 'vitest';
import { engineOptions, gateLevelSimulatorNames, isGateLevel, isSimulatorId, liveSimulatorNames, simulatorBackends, simulatorOptions, simulators, vectorSimulatorNames } from '../../src/hdl/sim/index.ts';
import { externalSimulator, simulatorNames } from '../../src/hdl/cosim/backends.ts';

describe('the simulators table', () => {
  test('each list is the table filtered, in its order', () => {
    expect(Object.keys(simulators)).toEqual(['ts', 'js', 'wasm', 'verilator', 'icarus', 'lockstep', 'icarus-gate', 'icarus-gate-reset']);
    expect(simulatorBackends).toEqual(['js', 'wasm', 'verilator', 'icarus', 'lockstep']);
    expect(liveSimulatorNames).toEqual(['ts', 'js', 'wasm', 'verilator', 'icarus', 'lockstep']);
    expect(vectorSimulatorNames).toEqual(['ts', 'verilator', 'icarus', 'icarus-gate', 'icarus-gate-reset']);
    expect(simulatorNames).toEqual(vectorSimulatorNames);
    expect(gateLevelSimulatorNames).toEqual(['icarus-gate', 'icarus-gate-reset']);
  });

  test('names are checked against the table, not its prototype', () => {
    expect(isSimulatorId('verilator')).toBe(true);
    expect(isSimulatorId('toString')).toBe(false);
    expect(isGateLevel('icarus-gate-reset')).toBe(true);
    expect(isGateLevel('icarus')).toBe(false);
  });

  test('a name opens with the options its entry gives', () => {
    const log = () => {};
    expect(engineOptions('ts')).toEqual({});
    expect(engineOptions('js')).toEqual({ backend: 'js' });
    expect(engineOptions('verilator', { log, trace: true })).toEqual({ backend: 'verilator', trace: true, log });
    expect(engineOptions('icarus', { log, trace: true })).toEqual({ backend: 'icarus', log });
    expect(simulatorOptions('lockstep', { log })).toEqual({ backend: 'lockstep', backends: [{}, { backend: 'verilator', trace: undefined, log }, { backend: 'icarus', log }], log });
  });

  test('only the simulators outside this process have a vector-file harness', () => {
    expect(externalSimulator('icarus-gate').name).toBe('icarus-gate');
    // @ts-expect-error the TS simulator is no external simulator: the names come from the table's kinds.
    expect(() => externalSimulator('ts')).toThrow("'ts' is not an external simulator");
  });
});
