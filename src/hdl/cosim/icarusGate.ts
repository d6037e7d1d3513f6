// Post-synthesis simulation: the Icarus back end run on Yosys' gate-level netlist of the design instead of its SystemVerilog.
import { gateNetlist } from '../synth/gateNetlist.ts';
import { icarus } from './icarusHarness.ts';
import { toolVersion } from '../tools/toolchain.ts';
import type { ExternalSimulator, HarnessDesign, PreparedSimulation } from './harness.ts';
import type { GateLevelSimulatorName } from '../sim/index.ts';

const NETLIST = 'netlist.v';

function gateSimulator(name: GateLevelSimulatorName, registerPowerOn: boolean): ExternalSimulator {
  return {
    name,
    async prepare(d: HarnessDesign, log?: (line: string) => void): Promise<PreparedSimulation> {
      // Synthesis renames, merges and removes registers: only the ports survive it by name.
      if (d.probes?.length) throw new Error(`${name} compares outputs only: the registers of a synthesized netlist are renamed, merged or optimized away`);
      // Before a synthesis that can take minutes: is there a simulator to run its result?
      await Promise.all([toolVersion('iverilog'), toolVersion('vvp')]);
      const net = await gateNetlist({ top: d.top, files: d.svFiles, fileList: d.fileList }, log, { registerPowerOn });
      log?.(`${name}: netlist of ${(net.text.length / 1e6).toFixed(1)} MB, ${net.synthesized} modules synthesized in ${net.seconds.toFixed(1)} s, ${net.cached} from the cache`);
      return icarus.prepare({ ...d, svFiles: [{ path: NETLIST, text: net.text }], fileList: [NETLIST] });
    },
  };
}

/** Icarus on the gates, flip-flops and memories at their power-on values (as an FPGA configures them). */
export const icarusGate = gateSimulator('icarus-gate', true);

/**
 * Icarus on the gates with flip-flops that start X, as in silicon (memories keep their contents): only the
 * design's reset may define them. An output still X or Z once the stimulus's initial reset is over is an
 * error naming the port and cycle (the outputs during that reset are not compared).
 */
export const icarusGateReset = gateSimulator('icarus-gate-reset', false);
