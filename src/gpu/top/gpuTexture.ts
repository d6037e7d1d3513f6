// rtgpu_top's optional texture unit: the RT cores' txd links (through a TextureArbiter when there are several)
// onto one TextureUnitSystem, whose texture memory the memory controller's fourth load fills.
import type { ModuleBuilder, ValueOf } from '../../hdl/index.ts';
import { TextureArbiter, textureArbiterTagBits } from '../texture/textureArbiter.ts';
import { TextureUnitSystem, type TextureUnitSystemParams } from '../texture/textureUnitSystem.ts';
import { defaultTextureUnitParams, type TextureUnitCounters, type TextureUnitParams } from '../texture/textureUnit.ts';
import type { TextureLink } from '../texture/txdLink.ts';
import type { TextureLoad } from '../texture/textureMemory.ts';
import { contextBits } from '../rtCore/registerFile.ts';

/** The texture unit's configuration in a GPU (GpuParams.texture): TextureUnitParams but the tag (set by the GPU), and texture memory's read latency. */
export type GpuTextureParams = Partial<Omit<TextureUnitParams, 'tagBits'>> & { readonly readLatency?: number };

/** Texture memory's default read latency in the GPU (cycles from a line request to its data). */
export const GPU_TEXTURE_READ_LATENCY = 4;

/** Whether GpuParams.texture asks for a texture unit. */
export const hasTextureUnit = (texture: boolean | GpuTextureParams | undefined): boolean => texture !== undefined && texture !== false;

/** The texture unit system of a GPU with `rtCores` cores of `contexts` contexts: the tag carries the core's index (when several) above its context. */
export function gpuTextureSystemParams(texture: true | GpuTextureParams, rtCores: number, contexts: number): TextureUnitSystemParams {
  const { readLatency, ...unit } = texture === true ? {} : texture;
  const coreTag = contextBits(contexts);
  const tagBits = rtCores === 1 ? coreTag : textureArbiterTagBits({ cores: rtCores, tagBits: coreTag });
  return { readLatency: readLatency ?? GPU_TEXTURE_READ_LATENCY, unit: { ...defaultTextureUnitParams, ...unit, tagBits } };
}

export type TextureLinkValue = ValueOf<ReturnType<typeof TextureLink>>;
export type TextureLoadValue = ValueOf<typeof TextureLoad>;
export type TextureCountersValue = ValueOf<typeof TextureUnitCounters>;

/** The texture unit and its joins: every core's link to it, the controller's load port to its texture memory, its counters to the controller's registers. */
export function textureUnit(m: ModuleBuilder, params: TextureUnitSystemParams, links: readonly TextureLinkValue[], controller: { readonly load: TextureLoadValue; readonly counters: TextureCountersValue }, contexts: number): void {
  const system = m.instance(TextureUnitSystem, params, { name: 'texture_unit' });
  m.connect(system.io.load, controller.load);
  m.connect(controller.counters, system.io.counters);
  if (links.length === 1) {
    m.connect(system.io.req, links[0]!.request);
    m.connect(links[0]!.response, system.io.resp);
    return;
  }
  const arbiter = m.instance(TextureArbiter, { cores: links.length, tagBits: contextBits(contexts) }, { name: 'texture_arbiter' });
  links.forEach((link, c) => m.connect(arbiter.io.cores.at(c), link));
  m.connect(system.io.req, arbiter.io.unit.request);
  m.connect(arbiter.io.unit.response, system.io.resp);
}
