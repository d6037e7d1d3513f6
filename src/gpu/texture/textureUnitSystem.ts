// The texture unit with its texture memory: what the RT cores' txd ports (through a TextureArbiter) and the memory controller's load port see in rtgpu_top, and a test and co-simulation top.
import { Decoupled, defineModule, input, output } from '../../hdl/index.ts';
import { TextureMemory, TextureLoad, type TextureMemoryParams } from './textureMemory.ts';
import { TextureUnit, TextureUnitCounters, type TextureUnitParams } from './textureUnit.ts';
import { TxdRequest, TxdResponse } from './txdLink.ts';

export interface TextureUnitSystemParams extends TextureMemoryParams {
  readonly unit: TextureUnitParams;
}

export const TextureUnitSystem = defineModule(
  'TextureUnitSystem',
  (p: TextureUnitSystemParams) => ({
    req: input(Decoupled(TxdRequest(p.unit.tagBits))),
    resp: output(Decoupled(TxdResponse(p.unit.tagBits))),
    load: input(TextureLoad),
    counters: output(TextureUnitCounters),
  }),
  (m, io, p) => {
    const unit = m.instance(TextureUnit, p.unit, { name: 'unit' });
    const memory = m.instance(TextureMemory, { readLatency: p.readLatency, ...(p.init ? { init: p.init } : {}) }, { name: 'memory' });
    m.connect(unit.io.req, io.req);
    m.connect(io.resp, unit.io.resp);
    m.connect(memory.io.load, io.load);
    // A load makes the caches' lines stale.
    unit.io.flush.set(io.load.start);
    m.connect(memory.io.read, unit.io.mem);
    m.connect(io.counters, unit.io.counters);
  },
);
