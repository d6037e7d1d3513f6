import { buildFrame } from '/work/main/src/host/frame.ts';
import { defaultCamera } from '/work/main/src/host/camera.ts';
import { defaultScene } from '/work/main/src/golden/defaultScene.ts';
import { gpuDesign } from '/work/main/src/gpu/top/gpuDesign.ts';
import { compileSimulator } from '/work/main/src/hdl/sim/index.ts';
import { runFrame } from '/work/main/src/host/runtime/index.ts';
const job = buildFrame({ kernel: 'shade', camera: defaultCamera, width: 32, height: 24, scene: defaultScene() });
const run = await runFrame(job, { sim: 'ts', record: true });
const rec = run.recording!;
const sim = compileSimulator(gpuDesign());
const rowWords = rec.rows.length / rec.cycles;
const states = ['free', 'launching', 'ready', 'busy', 'halted'];
const hist: Record<string, number> = {};
let issued = 0, noEligible = 0, readyButBlocked = 0;
const ctxCount: number[] = Array(9).fill(0);
for (let c = 0; c < rec.cycles; c++) {
  sim.runVectors(rec.inputs, ['irq'], rec.rows.subarray(c * rowWords, (c + 1) * rowWords), 1);
  // core 0
  let occupied = 0, ready = 0;
  for (let x = 0; x < 8; x++) {
    const st = states[Number(sim.peek(`rt_core0.core.ctx${x}_state`))]!;
    hist[st] = (hist[st] ?? 0) + 1;
    if (st !== 'free') occupied++;
    if (st === 'ready') ready++;
  }
  ctxCount[occupied]!++;
  const iss = sim.peek('rt_core0.core.issued') === 1n;
  if (iss) issued++;
  else if (ready === 0) noEligible++;
  else readyButBlocked++;
}
console.log('cycles', rec.cycles, 'issued', issued, 'no ready ctx', noEligible, 'ready but blocked', readyButBlocked);
console.log('state-cycles', hist);
console.log('occupied contexts histogram', ctxCount.map((v) => (v / rec.cycles).toFixed(3)).join(' '));
