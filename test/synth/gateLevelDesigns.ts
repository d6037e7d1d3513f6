// The catalogue designs whose every module test/synth/postSynthCosim.test.ts synthesizes with Yosys in CI (rtl-out's check leaves their `synth` to it).
import { floatDesigns } from '../../src/designs/catalogue/floatCosim.ts';

/**
 * The GPU's blocks run on their gates from reset in CI; the two IC systems only in the soak (RTGPU_SOAK=1): Icarus
 * runs their gates at about 7 cycles/s, and they need 400 cycles to load a scene (ic_core about 120 s, bvh_ic 170 s).
 */
export const gateLevelBlocks: readonly string[] = ['rtcore', ...(process.env.RTGPU_SOAK === '1' ? ['ic_core', 'bvh_ic'] : []), 'memory_controller', 'command_patcher', 'ic_buffer', 'main_memory', 'triangle_memory'];

/** Every design synthesized by the gate-level checks: the float units and the blocks above. */
export const gateLevelDesigns: ReadonlySet<string> = new Set([...floatDesigns.map((d) => d.name), ...gateLevelBlocks]);
