// A coverage file of `rtgpu sim --coverage` and `rtgpu cosim --coverage`: one design's report, merged run after run.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { CoverageRecorder, mergeCoverage, type CoverageReport, type Simulator } from '../hdl/sim/index.ts';
import type { Design } from '../hdl/index.ts';
import { CliError } from './cliError.ts';

/** This run's coverage merged into `file` (written back), or written there first. */
export function saveCoverage(file: string, report: CoverageReport): CoverageReport {
  let merged = report;
  if (existsSync(file)) {
    let before: CoverageReport;
    try {
      before = JSON.parse(readFileSync(file, 'utf8')) as CoverageReport;
      if (typeof before?.design !== 'string' || typeof before.runs !== 'number' || ![before.covers, before.fsms, before.toggles].every((x) => typeof x === 'object' && x !== null)) throw new Error('its fields are not those of a coverage report');
    } catch (e) {
      throw new CliError(`--coverage ${file}: not a coverage file written by rtgpu sim (${(e as Error).message}); give another file name`, 2);
    }
    try {
      merged = mergeCoverage(before, report);
    } catch (e) {
      throw new CliError(`--coverage ${file}: ${(e as Error).message}; give another file name`, 2);
    }
  }
  writeFileSync(file, `${JSON.stringify(merged, null, 2)}\n`);
  return merged;
}

/** The coverage recorder of a run: on the TS simulator, or the TS member of a lockstep run. */
export function coverageOf(engine: Simulator, design: Design): CoverageRecorder {
  try {
    return new CoverageRecorder(design, engine);
  } catch {
    throw new CliError(`--coverage is measured on the TS simulator: run with --sim ts (or lockstep with ts in it, which checks that the others agree with it), not ${engine.backend}`);
  }
}
