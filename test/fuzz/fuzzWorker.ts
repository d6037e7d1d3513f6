// A worker thread that fuzzes one target; it writes each input to shared memory before running it, so
// that the main thread can name the input of a hang after stopping the worker.
import { parentPort, workerData } from 'node:worker_threads';
import { fuzzLoop } from './fuzzLoop.ts';
import { fuzzTarget } from './targets.ts';
import { SHARED_HEADER_BYTES, type WorkerJob, type WorkerMessage } from './workerProtocol.ts';

const job = workerData as WorkerJob;
const header = new Int32Array(job.shared, 0, 2);
const started = new Float64Array(job.shared, 8, 1);
const bytes = new Uint8Array(job.shared, SHARED_HEADER_BYTES);
const post = (m: WorkerMessage) => parentPort!.postMessage(m);

const report = await fuzzLoop(fuzzTarget(job.target), job.corpus, {
  seed: job.seed,
  runs: job.runs,
  until: job.seconds === undefined ? undefined : performance.now() + 1000 * job.seconds,
  before: (input) => {
    bytes.set(input.subarray(0, bytes.length));
    Atomics.store(header, 1, Math.min(input.length, bytes.length));
    started[0] = Date.now();
    Atomics.add(header, 0, 1);
  },
  onNew: (kind, input, crash) => post(kind === 'crash' ? { kind, input, key: crash!.key, message: crash!.message, stack: crash!.stack } : { kind, input }),
  onProgress: (runs) => post({ kind: 'progress', runs, corpusSize: 0 }),
});
post({ kind: 'done', runs: report.runs, corpusSize: report.corpus.length });
