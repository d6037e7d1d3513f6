// Times the whole-library flow the eDSL promises to keep fast: elaborate, emit and lint every library block.
import { emitSystemVerilog } from '../../hdl/index.ts';
import { topModule } from '../../hdl/index.ts';
import { verilatorLint } from '../../hdl/cosim/index.ts';
import { libraryDesigns } from '../catalogue/libraryCosim.ts';

export async function measureLibraryFlow(): Promise<Record<string, number>> {
  const t0 = performance.now();
  const emitted = libraryDesigns.map((d) => {
    const design = d.elaborate();
    return { top: topModule(design).name, ...emitSystemVerilog(design) };
  });
  const t1 = performance.now();
  const lints = await Promise.all(emitted.map((e) => verilatorLint(e)));
  const t2 = performance.now();
  const failed = lints.filter((l) => !l.ok).length;
  return {
    libraryElaborateEmitSeconds: (t1 - t0) / 1000,
    libraryElaborateEmitLintSeconds: (t2 - t0) / 1000,
    libraryLintFailures: failed,
  };
}
