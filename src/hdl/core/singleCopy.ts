// Refuses a second copy of the eDSL in one process: its types and values would not be the first copy's.
const key = Symbol.for('rtgpu.hdl.loadedFrom');
const g = globalThis as Record<symbol, unknown>;
const here = import.meta.url.replace(/\/core\/singleCopy\.[jt]s$/, '');
const first = g[key];
if (typeof first === 'string' && first !== here) {
  throw new Error(
    `rtgpu is loaded twice, from ${first} and from ${here}: a design built with one copy cannot be elaborated or simulated by the other. ` +
      "Import rtgpu from one installation: run your project's own command (npx rtgpu …) and import 'rtgpu/hdl' in your design files.",
  );
}
g[key] = here;
