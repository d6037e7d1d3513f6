import { rtCoreCosimDesign } from './src/gpu/rtCore/cosimDesign.ts';
import { runCosim, formatMismatch } from './src/hdl/cosim/runCosim.ts';
import { findDesign } from './src/designs/index.ts';
for (const name of process.argv.slice(2)) {
  const d = await findDesign(name);
  try {
    const r = await runCosim(d, { cycles: Number(process.env.CYCLES ?? 300), seed: 5, sims: ['ts', 'icarus-gate-reset'], log: (l) => console.log(l) });
    console.log(name, r.mismatch ? formatMismatch(r.mismatch) : 'no mismatch', r.seconds);
  } catch (e) { console.log(name, 'ERROR', (e as Error).message.slice(0, 400)); }
}
