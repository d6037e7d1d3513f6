// Formal equivalence of the readable SystemVerilog against the netlist-style SystemVerilog of one design, with Yosys.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { emitSystemVerilog } from '../emit/index.ts';
import type { Design } from '../ir/netlist.ts';
import { runYosys, YosysError } from '../tools/yosys.ts';

/** Emitted files and their order (what `emitSystemVerilog` returns). */
export interface SvFiles {
  readonly files: readonly { readonly path: string; readonly text: string }[];
  readonly fileList: readonly string[];
}

export interface EquivalenceOptions {
  /** Stop Yosys after this long (the result is then not proven, and says so). */
  readonly timeoutMs?: number;
  /**
   * `flatten` (default): prove the whole hierarchy. `opaque`: prove the top module alone, its submodules
   * black boxes whose outputs are the same free values on both sides (each submodule is proven on its own).
   */
  readonly submodules?: 'flatten' | 'opaque';
}

export interface EquivalenceResult {
  readonly top: string;
  /** Every matched signal proven equal (combinationally, or by induction over the registers). */
  readonly proven: boolean;
  /** Yosys's `equiv_status` report, or its error. */
  readonly report: string;
}

/**
 * Emits `design` in both styles under `dir` (gold: netlist style, gate: readable), flattens each, matches
 * signals by name (ports, registers, named nets) with `equiv_make`, and proves them with `equiv_simple` and
 * `equiv_induct`. A memory is one cell on each side, matched by name: the proof covers its ports' inputs
 * (address, data, enables), which is what the two styles print differently. Black boxes are not supported.
 */
export async function checkEmitterEquivalence(design: Design, dir: string, opts: EquivalenceOptions = {}): Promise<EquivalenceResult> {
  if (design.modules.some((m) => m.blackBox)) throw new Error(`${design.top}: equivalence checks do not read black boxes' Verilog`);
  const children = design.modules.filter((m) => m.name !== design.top).map((m) => m.name);
  return checkSvEquivalence(design.top, children, { gold: emitSystemVerilog(design, { style: 'netlist' }), gate: emitSystemVerilog(design) }, dir, opts);
}

/** Two SystemVerilog texts of module `top` (children: the modules below it, in both), proven equal as above. */
export async function checkSvEquivalence(
  top: string,
  children: readonly string[],
  styles: { readonly gold: SvFiles; readonly gate: SvFiles },
  dir: string,
  opts: EquivalenceOptions = {},
): Promise<EquivalenceResult> {
  // Submodules as black boxes: both sides instantiate the same ones, matched by instance name.
  // Their outputs become inputs of the module, shared by name: the same free values on both sides.
  const instanceOutputs = `${children.map((c, i) => (i ? `t:${c} %u` : `t:${c}`)).join(' ')} %co1 w:* %i`;
  const opaque = opts.submodules === 'opaque' && children.length > 0;
  const read: string[] = [];
  for (const [name, emitted] of Object.entries(styles)) {
    mkdirSync(join(dir, name), { recursive: true });
    for (const f of emitted.files) writeFileSync(f.path.endsWith('.hex') ? join(dir, f.path) : join(dir, name, f.path), f.text);
    read.push(
      `read_verilog -sv ${emitted.fileList.map((f) => `${name}/${f}`).join(' ')}`,
      `hierarchy -top ${top}`,
      ...(opaque ? [`blackbox ${children.join(' ')}`, `hierarchy -top ${top}`] : []),
      // Read ports in the order the text gives them, before any pass erases a cell (which reorders Yosys's cell table).
      'rename -enumerate -pattern memrd_% t:$memrd t:$memrd_v2 %u',
      // Both sides alike: processes to cells, one flat module, memories as cells, async resets as sync logic.
      'proc',
      // After proc: expose rewires cells and connections, not the reads inside processes.
      ...(opaque ? [`expose -cut ${instanceOutputs}`] : ['flatten']),
      // Write ports (made by proc), named by order likewise: their cells' names hold source line numbers.
      'rename -enumerate -pattern memport_% t:$memwr t:$memwr_v2 %u',
      'memory -nomap',
      // Yosys's SAT has no model of a memory cell: its read data become inputs shared by name (the cell kept),
      // which is sound because the cells are matched and their inputs (addresses, enables, data) proven equal.
      'setattr -set keep 1 t:$mem_v2',
      'expose -input t:$mem_v2 %co1 w:* %i',
      'opt_clean',
      'async2sync',
      'dffunmap',
      // Bit-level gates: a SAT problem for one bit then holds that bit's cone, not every bit of a wide word's cells.
      'simplemap',
      `rename ${top} ${name}`,
      `design -stash ${name}`,
    );
  }
  const script = [
    ...read,
    'design -copy-from gold -as gold gold',
    'design -copy-from gate -as gate gate',
    'equiv_make gold gate equiv',
    'hierarchy -top equiv',
    // Cells alike on both sides merge first (cheap), so the SAT passes see only what the styles print differently:
    // opt_merge takes word-level cells with the same inputs (a multiplier on each side is one, not a SAT problem;
    // equiv_struct leaves Yosys's own cell types alone), equiv_struct the rest.
    'opt_merge',
    'equiv_struct',
    // Short cones (stopped where the other side's cone begins) first: smaller SAT problems, and the only ones that look
    // a cycle back in Yosys before 0.45 (Debian's is 0.23), which drops the registers' inputs from the full cones. So a
    // register whose next value the two styles print differently is proven here, in seconds, not by equiv_induct over
    // the whole module (which did not finish on the GFX12 box decoder). Full cones then prove what short ones cannot.
    'equiv_simple -short',
    'equiv_simple',
    'equiv_induct',
    'tee -o equiv_status.txt equiv_status',
    'equiv_status -assert',
    '',
  ].join('\n');
  try {
    const r = await runYosys(script, { cwd: dir, quiet: true, timeoutMs: opts.timeoutMs });
    return { top, proven: true, report: r.output };
  } catch (e) {
    if (e instanceof YosysError) return { top, proven: false, report: e.message };
    throw e;
  }
}
