import { buildFrame } from '/work/main/src/host/frame.ts';
import { defaultCamera } from '/work/main/src/host/camera.ts';
import { defaultScene } from '/work/main/src/golden/defaultScene.ts';
import { runGpu } from '/work/main/src/host/runtime/index.ts';
const job = buildFrame({ kernel: 'shade', camera: defaultCamera, width: 32, height: 24, scene: defaultScene() });
for (const ic of [2, 3, 4]) {
  const r = await runGpu(job, { sim: 'ts', icCores: ic });
  const s = r.stats;
  console.log(`icCores ${ic}: cycles ${s.cycles}, RT issue ${s.rtIssueCycles.map((b) => (b / s.cycles).toFixed(2)).join(' ')}, IC busy ${s.icBusyCycles.map((b) => (b / s.cycles).toFixed(2)).join(' ')}`);
}
