// Mutational fuzzing of every parser of user input (test/fuzz/targets.ts), two targets at a time in
// worker threads, with a time limit per input. Crashes and hangs are written to --out and fail the run.
// Usage: npm run fuzz -- [--time SECONDS | --runs N] [--target a,b] [--seed S] [--out DIR] [--input-timeout MS]
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { fuzzTargets, fuzzTarget, type FuzzTarget } from '../test/fuzz/targets.ts';
import { minimize, runOne, type Crash } from '../test/fuzz/fuzzLoop.ts';
import { MAX_INPUT_BYTES } from '../test/fuzz/mutator.ts';
import { SHARED_HEADER_BYTES, type WorkerJob, type WorkerMessage } from '../test/fuzz/workerProtocol.ts';
import { seedFromEnv } from '../src/util/seededRandom.ts';
import { startWorker } from '../src/hdl/tools/typescriptWorker.ts';

const usage = `usage: npm run fuzz -- [--time SECONDS | --runs N] [--target NAMES] [--seed S] [--out DIR] [--input-timeout MS]

  --time SECONDS        wall time of the whole run, shared by the targets (default 60)
  --runs N              inputs per target instead of a time (the soak run uses 1000000; a slow target
                        runs N divided by its cost: design-file N/100)
  --target NAMES        comma-separated targets (default all): ${fuzzTargets.map((t) => t.name).join(', ')}
  --seed S              the run's seed (default: $SEED or random; printed)
  --out DIR             where crashes and hangs are written (default fuzz-findings)
  --input-timeout MS    an input running longer is a hang (default 2000)`;

function fail(message: string): never {
  console.error(`fuzz: ${message}\n\n${usage}`);
  process.exit(2);
}

function options() {
  try {
    return parseArgs({ options: { time: { type: 'string' }, runs: { type: 'string' }, target: { type: 'string' }, seed: { type: 'string' }, out: { type: 'string', default: 'fuzz-findings' }, 'input-timeout': { type: 'string', default: '2000' }, help: { type: 'boolean', short: 'h' } } }).values;
  } catch (e) {
    fail((e as Error).message);
  }
}

const values = options();
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const positive = (name: string, v: string) => (/^\d+$/.test(v) && Number(v) > 0 ? Number(v) : fail(`--${name} must be a positive whole number, got '${v}'`));
if (values.time !== undefined && values.runs !== undefined) fail('give --time or --runs, not both');
const runs = values.runs === undefined ? undefined : positive('runs', values.runs);
const totalSeconds = values.time === undefined ? (runs === undefined ? 60 : undefined) : positive('time', values.time);
const inputTimeout = positive('input-timeout', values['input-timeout']!);
const seed = values.seed === undefined ? seedFromEnv() : positive('seed', values.seed) >>> 0;
let targets: FuzzTarget[];
try {
  targets = values.target === undefined ? [...fuzzTargets] : values.target.split(',').map((n) => fuzzTarget(n.trim()));
} catch (e) {
  fail((e as Error).message);
}
const out = resolve(values.out!);
const PARALLEL = 2;
const secondsPerTarget = totalSeconds === undefined ? undefined : (totalSeconds * Math.min(PARALLEL, targets.length)) / targets.length;

const fuzzDir = fileURLToPath(new URL('../test/fuzz/', import.meta.url));
function readInputs(dir: string): Uint8Array[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((f) => new Uint8Array(readFileSync(join(dir, f))));
}

interface TargetResult {
  readonly target: string;
  runs: number;
  corpus: number;
  seconds: number;
  readonly crashes: Map<string, Crash>;
  readonly hangs: Uint8Array[];
}

const digest = (b: Uint8Array) => createHash('sha1').update(b).digest('hex').slice(0, 12);

function save(target: string, kind: 'crash' | 'hang', input: Uint8Array, note: string): string {
  const dir = join(out, target);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${kind}-${digest(input)}`);
  writeFileSync(file, input);
  writeFileSync(`${file}.txt`, note);
  return file;
}

/** Fuzz one target in a worker; on a hang, stop the worker, keep the input, and go on with a new one. */
async function fuzzOne(target: FuzzTarget, running: TargetResult[]): Promise<TargetResult> {
  const result: TargetResult = { target: target.name, runs: 0, corpus: 0, seconds: 0, crashes: new Map(), hangs: [] };
  running.push(result);
  const corpus = [...readInputs(join(fuzzDir, 'corpus', target.name)), ...readInputs(join(fuzzDir, 'regressions', target.name))];
  const t0 = performance.now();
  const deadline = secondsPerTarget === undefined ? undefined : t0 + 1000 * secondsPerTarget;
  for (let attempt = 0; ; attempt++) {
    const left = deadline === undefined ? undefined : (deadline - performance.now()) / 1000;
    const leftRuns = runs === undefined ? undefined : Math.ceil(runs / (target.cost ?? 1)) - result.runs;
    if ((left !== undefined && left <= 0.05) || (leftRuns !== undefined && leftRuns <= 0)) break;
    const shared = new SharedArrayBuffer(SHARED_HEADER_BYTES + MAX_INPUT_BYTES);
    const job: WorkerJob = { target: target.name, seed: (seed + 7919 * attempt) >>> 0, corpus, runs: leftRuns, seconds: left, shared };
    const hang = await runWorker(job, result, corpus, inputTimeout);
    if (!hang) break;
    result.runs += 1;
    result.hangs.push(hang);
    console.log(`  ${target.name}: hang (over ${inputTimeout} ms): ${save(target.name, 'hang', hang, `an input of ${target.name} ran longer than ${inputTimeout} ms\n`)}`);
  }
  result.seconds = (performance.now() - t0) / 1000;
  running.splice(running.indexOf(result), 1);
  return result;
}

/** Resolves with the hanging input, or undefined when the worker finished its budget. */
function runWorker(job: WorkerJob, result: TargetResult, corpus: Uint8Array[], timeoutMs: number): Promise<Uint8Array | undefined> {
  return new Promise((done, reject) => {
    const worker = startWorker(new URL('../test/fuzz/fuzzWorker.ts', import.meta.url), job);
    const header = new Int32Array(job.shared, 0, 2);
    const started = new Float64Array(job.shared, 8, 1);
    let lastSeq = -1;
    let runsBefore = result.runs;
    const watchdog = setInterval(() => {
      const seq = Atomics.load(header, 0);
      if (seq === lastSeq && seq > 0 && Date.now() - started[0]! > timeoutMs) {
        clearInterval(watchdog);
        const input = new Uint8Array(job.shared, SHARED_HEADER_BYTES, Atomics.load(header, 1)).slice();
        result.runs = runsBefore + seq - 1;
        void worker.terminate().then(() => done(input));
      }
      lastSeq = seq;
    }, Math.min(250, timeoutMs / 4));
    worker.on('message', (m: WorkerMessage) => {
      if (m.kind === 'corpus') {
        corpus.push(m.input);
        result.corpus++;
      } else if (m.kind === 'crash') {
        if (!result.crashes.has(m.key)) result.crashes.set(m.key, { input: m.input, key: m.key, message: m.message, stack: m.stack });
      } else if (m.kind === 'progress') {
        result.runs = runsBefore + m.runs;
      } else if (m.kind === 'done') {
        clearInterval(watchdog);
        result.runs = runsBefore + m.runs;
        runsBefore = result.runs;
        done(undefined);
      }
    });
    worker.on('error', (e) => {
      clearInterval(watchdog);
      reject(e);
    });
  });
}

console.log(`fuzz: ${targets.length} targets, ${runs !== undefined ? `${runs} inputs each` : `${totalSeconds} s`}, seed ${seed} (SEED=${seed} or --seed ${seed} reruns it), findings in ${out}`);
const results: TargetResult[] = [];
const running: TargetResult[] = [];
const queue = [...targets];
// A line now and then on long runs (the soak), so a log shows where it is.
const status = setInterval(() => console.log(`  … ${running.map((r) => `${r.target} ${r.runs}`).join(', ')}`), 30_000);
await Promise.all(
  Array.from({ length: Math.min(PARALLEL, targets.length) }, async () => {
    for (let t = queue.shift(); t; t = queue.shift()) results.push(await fuzzOne(t, running));
  }),
);
clearInterval(status);

let findings = 0;
console.log('\ntarget          inputs    inputs/s  corpus+  crashes  hangs');
for (const t of targets) {
  const r = results.find((x) => x.target === t.name)!;
  console.log(`${t.name.padEnd(14)} ${String(r.runs).padStart(8)} ${String(Math.round(r.runs / Math.max(r.seconds, 1e-3))).padStart(10)} ${String(r.corpus).padStart(8)} ${String(r.crashes.size).padStart(8)} ${String(r.hangs.length).padStart(6)}`);
  for (const c of r.crashes.values()) {
    findings++;
    // A smaller input with the same crash, for the regression corpus.
    const small = await minimize(t, c);
    const check = await runOne(t, small);
    const file = save(t.name, 'crash', small, `${c.key}\n\n${check.kind === 'crash' ? check.crash.stack : c.stack}\n`);
    console.log(`  crash: ${c.key}\n    ${file}`);
  }
  findings += r.hangs.length;
}
if (findings) {
  console.log(`\n${findings} finding(s). Fix each, then copy its input into test/fuzz/regressions/<target>/ (test/fuzz/fuzzCorpus.test.ts replays them).`);
  process.exit(1);
}
console.log('\nno crashes, no hangs');
