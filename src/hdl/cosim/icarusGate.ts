// Post-synthesis simulation: the Icarus back end run on Yosys' gate-level netlist of the design instead of its SystemVerilog.
import { gateNetlist } from '../synth/gateNetlist.ts';
import { icarus } from './icarusHarness.ts';
import { toolVersion } from '../tools/toolchain.ts';
import type { ExternalSimulator, HarnessDesign, PreparedSimulation } from './harness.ts';

const NETLIST = 'netlist.v';

export const icarusGate: ExternalSimulator = {
  name: 'icarus-gate',
  async prepare(d: HarnessDesign, log?: (line: string) => void): Promise<PreparedSimulation> {
    // Synthesis renames, merges and removes registers: only the ports survive it by name.
    if (d.probes?.length) throw new Error('icarus-gate compares outputs only: the registers of a synthesized netlist are renamed, merged or optimized away');
    // Before a synthesis that can take minutes: is there a simulator to run its result?
    await Promise.all([toolVersion('iverilog'), toolVersion('vvp')]);
    const net = await gateNetlist({ top: d.top, files: d.svFiles, fileList: d.fileList }, log);
    log?.(`icarus-gate: netlist of ${(net.text.length / 1e6).toFixed(1)} MB, ${net.synthesized} modules synthesized in ${net.seconds.toFixed(1)} s, ${net.cached} from the cache`);
    return icarus.prepare({ ...d, svFiles: [{ path: NETLIST, text: net.text }], fileList: [NETLIST] });
  },
};
