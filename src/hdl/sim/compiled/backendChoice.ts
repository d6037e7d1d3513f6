// The TS simulator's choice of back end: WebAssembly where it can run the netlist, else the generated JavaScript, and the state both run on.
import type { Layout } from './layout.ts';
import { generateWasmCombAll } from './wasmCodegen.ts';
import type { WasmLayout } from './wasmLayout.ts';
import type { NetlistImage } from './netlistImage.ts';
import { W, parity, wordsOf } from './wideOps.ts';

/** What the generated code exports: the comb, the store-everything comb, and the clock edge of the edges in mask `ev`. */
export interface GeneratedFunctions {
  readonly comb: () => void;
  readonly combAll: () => void;
  readonly commit: (ev: number) => void;
}

/** One back end, ready to run: its functions over its state (`s`), commit shadow (`t`) and memories. */
export interface ChosenBackend {
  readonly backend: 'wasm' | 'js';
  readonly s: Int32Array;
  readonly t: Int32Array;
  readonly mems: Int32Array[];
  readonly fns: GeneratedFunctions;
  /** The WebAssembly back end's linear memory (the state views above are views of it) and its map. */
  readonly wasm?: { readonly memory: WebAssembly.Memory; readonly layout: WasmLayout };
}

/**
 * `asked` undefined: WebAssembly when the image has it (every cell supported, the functions within the
 * engine's limits), else JavaScript; 'wasm' insists (the error names why it cannot); 'js' forces JavaScript.
 * `jsSource` gives the generated JavaScript (only called on that path: it costs a large design's compile).
 */
export function chooseBackend(image: NetlistImage, asked: 'wasm' | 'js' | undefined, jsSource: () => string): ChosenBackend {
  const L = image.layout;
  if (asked !== 'js' && 'bytes' in image.wasm) return wasmBackend(L, image.wasm.layout, image.wasm.bytes);
  if (asked === 'wasm') throw new Error(`the WebAssembly back end cannot run ${L.flat.name}: ${(image.wasm as { obstacle: string }).obstacle}; use the default or { backend: 'js' }`);
  return jsBackend(L, jsSource());
}

function wasmBackend(L: Layout, wl: WasmLayout, bytes: Uint8Array<ArrayBuffer>): ChosenBackend {
  const memory = new WebAssembly.Memory({ initial: wl.pages });
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } });
  const exports = instance.exports as unknown as Omit<GeneratedFunctions, 'combAll'>;
  // combAll is the largest function of a large design: generated when first needed (peeks of internal nets, waveforms).
  let combAll: (() => void) | undefined;
  return {
    backend: 'wasm',
    s: new Int32Array(memory.buffer, 0, Math.max(1, L.stateWords)),
    t: new Int32Array(memory.buffer, wl.shadowByte, Math.max(1, L.stateWords)),
    mems: L.flat.memories.map((m, i) => new Int32Array(memory.buffer, wl.memoryBytes[i]!, m.depth * wordsOf(m.width))),
    fns: {
      comb: exports.comb,
      commit: exports.commit,
      combAll: () => (combAll ??= (new WebAssembly.Instance(new WebAssembly.Module(generateWasmCombAll(L, wl)), { env: { memory } }).exports as { combAll: () => void }).combAll)(),
    },
    wasm: { memory, layout: wl },
  };
}

function jsBackend(L: Layout, source: string): ChosenBackend {
  const s = new Int32Array(Math.max(1, L.stateWords));
  const t = new Int32Array(s.length);
  const mems = L.flat.memories.map((m) => new Int32Array(m.depth * wordsOf(m.width)));
  const fns = new Function('s', 't', 'm', 'W', 'parity', source)(s, t, mems, W, parity) as GeneratedFunctions;
  return { backend: 'js', s, t, mems, fns };
}
