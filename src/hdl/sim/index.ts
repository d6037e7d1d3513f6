// The TypeScript simulator: compiles a design's netlist to JavaScript and drives it cycle by cycle.
export { compileSimulator, type Simulator, type SimulatorOptions, type PortHandle } from './simulator.ts';
export { VcdWriter } from './vcd.ts';
