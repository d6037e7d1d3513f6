// The netlist image: what compiling a flattened netlist for the TS simulator computes before any state exists (its layout and WebAssembly), and what the compile cache stores.
import type { ModuleIR, NetId } from '../../ir/netlist.ts';
import { simplifyNetlist } from '../../ir/simplify.ts';
import { layoutNetlist, type CombStep, type Layout } from './layout.ts';
import { findLeadingZeroCounts } from './leadingZeros.ts';
import { findShiftRightJams } from './shiftRightJam.ts';
import { generateWasm } from './wasmCodegen.ts';
import { wasmLayout, wasmObstacle, type WasmLayout } from './wasmLayout.ts';
import { WasmSizeError } from './wasmEncoding.ts';

export interface NetlistImage {
  /** The netlist as given (without its properties when they are not checked): the names a peek or a failed property shows. */
  readonly flat: ModuleIR;
  /** The levelized (and, by default, simplified) netlist the generated code computes. */
  readonly layout: Layout;
  /** The WebAssembly module of comb and commit with its memory map, or why the netlist runs on JavaScript. */
  readonly wasm: { readonly layout: WasmLayout; readonly bytes: Uint8Array<ArrayBuffer> } | { readonly obstacle: string };
}

/** What an image depends on besides the netlist (the compile cache keys on these). */
export interface ImageOptions {
  /** Default true: simplify first (ir/simplify.ts, leading-zero counts, shift-right jams). */
  readonly optimize?: boolean;
  /** Default true; false drops the netlist's properties. */
  readonly checkProperties?: boolean;
  /** 'js': no WebAssembly is generated. */
  readonly backend?: 'wasm' | 'js';
}

export function compileImage(design: ModuleIR, opts: ImageOptions = {}): NetlistImage {
  // Without property checks the netlist has none (and the fused loop its full speed).
  const flat = opts.checkProperties === false && design.properties ? { ...design, properties: undefined } : design;
  const special = () => new Map<NetId, CombStep>([...findLeadingZeroCounts(flat), ...findShiftRightJams(flat)]);
  const layout = (opts.optimize ?? true) ? layoutNetlist(simplifyNetlist(flat), special()) : layoutNetlist(flat);
  return { flat, layout, wasm: opts.backend === 'js' ? { obstacle: 'the JavaScript back end was asked for' } : wasmOf(layout) };
}

/** The WebAssembly of comb and commit, unless a cell has no WebAssembly code or a function is over the engine's limits. */
function wasmOf(L: Layout): NetlistImage['wasm'] {
  const obstacle = wasmObstacle(L);
  if (obstacle !== null) return { obstacle };
  const wl = wasmLayout(L);
  try {
    return { layout: wl, bytes: generateWasm(L, wl) };
  } catch (e) {
    if (!(e instanceof WasmSizeError)) throw e;
    return { obstacle: e.message };
  }
}
