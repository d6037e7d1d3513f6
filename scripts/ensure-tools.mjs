// Runs before the tests: makes sure Verilator, Icarus Verilog, Yosys, nextpnr-ice40, make and g++ are installed, and ccache if it can
// (installs them as root; ccache is optional).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const tools = [['verilator', '--version'], ['iverilog', '-V'], ['vvp', '-V'], ['yosys', '-V'], ['nextpnr-ice40', '--version'], ['make', '--version'], ['g++', '--version'], ['ccache', '--version']];
const missing = tools.filter(([t, flag]) => spawnSync(t, [flag], { stdio: 'ignore' }).error);
if (missing.length) {
  console.log(`ensure-tools: missing ${missing.map(([t]) => t).join(', ')}`);
  const script = join(dirname(fileURLToPath(import.meta.url)), 'install-tools.sh');
  const r = spawnSync('bash', [script], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
