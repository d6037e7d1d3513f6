// A render worker thread: one GPU instance (a GpuSession) that runs the pixel ranges the main thread sends it.
import { parentPort, workerData } from 'node:worker_threads';
import { GpuSession, type DriverOptions } from './gpuDriver.ts';
import { GpuRunError, type GpuJob } from './gpuJob.ts';
import type { ToWorker, FromWorker } from './parallelFrame.ts';
import type { Design } from '../../hdl/index.ts';

const port = parentPort!;
const { job, opts } = workerData as { job: GpuJob; opts: DriverOptions };
const post = (m: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
// The main thread elaborates the GPU while this thread loads its modules; the design comes first.
const design = await new Promise<Design>((resolve) => port.once('message', (m: ToWorker) => m.type === 'design' && resolve(m.design)));

function failure(e: unknown): FromWorker {
  const err = e instanceof Error ? e : new Error(String(e));
  return { type: 'error', name: err.name, message: err.message, stack: err.stack, partial: err instanceof GpuRunError ? err.partial : undefined };
}

let session: GpuSession | undefined;
try {
  // Progress counts this range's pixels and every cycle since power-on.
  session = await GpuSession.open(job, { ...opts, design, onProgress: (written) => post({ type: 'progress', written, cycles: session?.cycle ?? 0 }) });
  post({ type: 'ready' });
} catch (e) {
  post(failure(e));
}

port.on('message', (m: ToWorker) => {
  if (session === undefined) return;
  try {
    if (m.type === 'design') return;
    if (m.type === 'run') {
      const r = session.run(m.first, m.count);
      const ret = new Uint32Array(4 * m.count);
      r.pixels.forEach((p, i) => ret.set(p.ret, 4 * i));
      post({ type: 'done', first: m.first, count: m.count, ret, faults: [...r.faults] }, [ret.buffer]);
    } else {
      post({ type: 'stats', stats: session.stats() });
      session.close();
      session = undefined;
      port.close();
    }
  } catch (e) {
    post(failure(e));
  }
});
