// A vitest reporter that ends the run with the plain "N passed, N failed, N skipped" line CI logs are read for, after the slowest files (CI has a time budget).
import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest test files the summary lists. */
const SLOWEST = 12;

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (m.state() === 'failed' && [...m.children.allTests()].length === 0) failed++;
    }
    const slowest = modules
      .map((m) => ({ file: m.relativeModuleId, ms: m.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SLOWEST)
      .map((f) => `  ${(f.ms / 1000).toFixed(1).padStart(6)} s  ${f.file}`);
    process.stdout.write(`\nslowest test files:\n${slowest.join('\n')}\n`);
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
