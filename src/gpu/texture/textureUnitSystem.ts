// The texture unit with its texture memory: what the RT core's txd port and the memory controller's load port will see (a test and co-simulation top).
import { Decoupled, UInt, defineModule, input, output } from '../../hdl/index.ts';
import { TextureMemory, TextureLoad, type TextureMemoryParams } from './textureMemory.ts';
import { TextureUnit, TxdRequest, TxdResponse, type TextureUnitParams } from './textureUnit.ts';

export interface TextureUnitSystemParams extends TextureMemoryParams {
  readonly unit: TextureUnitParams;
}

export const TextureUnitSystem = defineModule(
  'TextureUnitSystem',
  (p: TextureUnitSystemParams) => ({
    req: input(Decoupled(TxdRequest(p.unit.tagBits))),
    resp: output(TxdResponse(p.unit.tagBits)),
    load: input(TextureLoad),
    issued: output(UInt(32)),
    texel_lookups: output(UInt(32)),
    texel_hits: output(UInt(32)),
    texel_fills: output(UInt(32)),
    descriptor_fills: output(UInt(32)),
    stall_cycles: output(UInt(32)),
    descriptor_stall_cycles: output(UInt(32)),
  }),
  (m, io, p) => {
    const unit = m.instance(TextureUnit, p.unit, { name: 'unit' });
    const memory = m.instance(TextureMemory, { readLatency: p.readLatency, ...(p.init ? { init: p.init } : {}) }, { name: 'memory' });
    m.connect(unit.io.req, io.req);
    m.connect(io.resp, unit.io.resp);
    m.connect(memory.io.load, io.load);
    m.connect(memory.io.read, unit.io.mem);
    io.issued.set(unit.io.issued);
    io.texel_lookups.set(unit.io.texel_lookups);
    io.texel_hits.set(unit.io.texel_hits);
    io.texel_fills.set(unit.io.texel_fills);
    io.descriptor_fills.set(unit.io.descriptor_fills);
    io.stall_cycles.set(unit.io.stall_cycles);
    io.descriptor_stall_cycles.set(unit.io.descriptor_stall_cycles);
  },
);
