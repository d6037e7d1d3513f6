// The catalogue of named designs that `cosim`, `bench` and `rtl` know: library blocks, float units, GPU blocks.
import type { CosimDesign } from '../hdl/cosim/index.ts';

/** Loaded lazily so that commands which need one design do not elaborate them all. */
export async function allDesigns(): Promise<CosimDesign[]> {
  const groups = await Promise.all([
    import('./libraryCosim.ts').then((m) => m.libraryDesigns as CosimDesign[]),
    import('./floatCosim.ts').then((m) => m.floatDesigns),
    import('../gpu/rtCore/cosimDesign.ts').then((m) => [m.rtCoreCosimDesign]),
    import('../gpu/icCore/cosimDesign.ts').then((m) => [m.icCoreCosimDesign, m.icCoreWatertightCosimDesign]),
    import('../gpu/bvh/cosimDesign.ts').then((m) => [m.rayBox4CosimDesign]),
    import('../gpu/bvh8/rayBox8Cosim.ts').then((m) => [m.rayBox8CosimDesign]),
    import('../gpu/bvh8/trianglePairCosim.ts').then((m) => [m.trianglePairCosimDesign]),
    import('../gpu/bvh8/obbRayRotateCosim.ts').then((m) => [m.obbRayRotateCosimDesign]),
    import('../gpu/bvh8/rayTransformCosim.ts').then((m) => [m.rayTransformCosimDesign]),
    import('../gpu/texture/textureLodCosim.ts').then((m) => [m.textureLodCosimDesign]),
    import('../gpu/texture/texelCoordinatesCosim.ts').then((m) => [m.texelCoordinatesCosimDesign]),
    import('../gpu/texture/bilinearBlendCosim.ts').then((m) => [m.bilinearBlendCosimDesign]),
    import('../gpu/texture/levelBlendCosim.ts').then((m) => [m.levelBlendCosimDesign]),
    import('../gpu/texture/textureArbiterCosim.ts').then((m) => [m.textureArbiterCosimDesign]),
    import('./textureUnitCosim.ts').then((m) => [m.textureUnitCosimDesign]),
    import('../gpu/bvh/bvhIcCosimDesign.ts').then((m) => [m.bvhIcCosimDesign]),
    import('../gpu/bvh8/bvh8IcCosimDesign.ts').then((m) => [m.bvh8IcCosimDesign]),
    import('../gpu/bvh8/gfx12DecodersCosim.ts').then((m) => [m.gfx12BoxCosimDesign, m.gfx12PrimitiveCosimDesign]),
    import('../gpu/memory/triangleMemoryCosim.ts').then((m) => [m.triangleMemoryCosimDesign]),
    import('../gpu/icBuffer/cosimDesign.ts').then((m) => [m.icBufferCosimDesign]),
    import('../gpu/memory/unifiedMainMemoryCosim.ts').then((m) => [m.unifiedMainMemoryCosimDesign]),
    import('../gpu/commandPatcher/cosimDesign.ts').then((m) => [m.commandPatcherCosimDesign]),
    import('../gpu/memoryController/cosimDesign.ts').then((m) => [m.memoryControllerCosimDesign]),
    import('./benchDesign.ts').then((m) => [m.benchDesign]),
  ]);
  return groups.flat();
}

export async function findDesign(name: string): Promise<CosimDesign> {
  const all = await allDesigns();
  const d = all.find((x) => x.name === name);
  if (!d) throw new Error(`unknown design '${name}'; 'rtgpu cosim --list' lists them: ${all.map((x) => x.name).join(', ')}`);
  return d;
}
