// The catalogue designs whose every module test/synth/postSynthCosim.test.ts synthesizes with Yosys in CI (rtl-out's check leaves their `synth` to it).
import { floatDesigns } from '../../src/designs/catalogue/floatCosim.ts';

/**
 * The GPU's blocks run on their gates from reset in CI; the RT core and the two IC systems only in the soak
 * (RTGPU_SOAK=1): Yosys takes about 2.5 min of CI's 25 to synthesize the RT core (its gates then run 400 cycles in
 * 24 s), and Icarus runs the IC systems' gates at about 7 cycles/s while they need 400 cycles to load a scene
 * (ic_core about 120 s, bvh_ic 170 s). Their RTL still gets Yosys' front end in CI (test/cli/rtlOut.test.ts).
 */
export const gateLevelBlocks: readonly string[] = [...(process.env.RTGPU_SOAK === '1' ? ['rtcore', 'ic_core', 'bvh_ic'] : []), 'memory_controller', 'command_patcher', 'ic_buffer', 'main_memory', 'triangle_memory'];

/** Every design synthesized by the gate-level checks: the float units and the blocks above. */
export const gateLevelDesigns: ReadonlySet<string> = new Set([...floatDesigns.map((d) => d.name), ...gateLevelBlocks]);
