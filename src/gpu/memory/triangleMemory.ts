// Triangle memory: parses the streamed scene image and answers one triangle per cycle (index table, then X/Y/Z banks).
import { Bool, Bundle, UInt, Vec, cat, defineModule, fsm, input, mux, packBits, unpackBits, type MemoryHandle, type ModuleBuilder, type PortsValue, type UIntType, type UIntValue } from '../../hdl/index.ts';
import { clog2 } from '../../hdl/lib/index.ts';
import { SceneLoad } from './sceneLoad.ts';
import { TriangleRead } from './triangleRead.ts';

export interface TriangleMemoryParams {
  /** Capacity of the index table (2 to 2^20). */
  readonly triangles: number;
  /** Capacity of each vertex bank (2 to 2^20). */
  readonly vertices: number;
}

export const defaultTriangleMemoryParams: TriangleMemoryParams = { triangles: 512, vertices: 2048 };

/** Cycles from `req_valid` to `resp_valid`: the index table read, then the vertex bank reads. */
export const TRIANGLE_MEMORY_LATENCY = 2;

/** Bits of a vertex index as stored in the index table. */
export const vertexIndexBits = (p: TriangleMemoryParams): number => clog2(p.vertices);

/** Bits of a triangle id or count: they reach `triangles` itself, the first id past a full table. */
export const triangleIdBits = (p: TriangleMemoryParams): number => clog2(p.triangles + 1);

function checkParams(p: TriangleMemoryParams): void {
  const ok = (n: number) => Number.isInteger(n) && n >= 2 && n <= 1 << 20;
  if (!ok(p.triangles) || !ok(p.vertices)) throw new Error(`TriangleMemory: triangles and vertices must be integers from 2 to 2^20, got ${p.triangles} and ${p.vertices}`);
}

const triangleMemoryPorts = (p: TriangleMemoryParams) => ({
  /** The scene image (SV ports load_start … load_triangle_count); load_error: the image did not fit, or named a vertex past the banks, and the load stopped. */
  load: input(SceneLoad(triangleIdBits(p))),
  /** The core's lookups (SV ports read_req_valid … read_resp_not_valid); resp.not_valid: the id was >= the triangle count in the request cycle. */
  read: input(TriangleRead(triangleIdBits(p))),
});

type TriangleMemoryIo = PortsValue<ReturnType<typeof triangleMemoryPorts>>;

/** One index-table entry per triangle: its three vertex indices (v0 lowest), then its shader id. */
const IndexEntry = (vertexBits: number) => Bundle({ vertices: Vec(3, UInt(vertexBits)), shader: UInt(32) });
type WordMemory = MemoryHandle<UIntType>;

export const TriangleMemory = defineModule('TriangleMemory', triangleMemoryPorts, (m, io, p) => {
  checkParams(p);
  const vw = vertexIndexBits(p);
  const indexTable = m.memory(UInt(IndexEntry(vw).width), p.triangles, { name: 'index_table' });
  const banks = ['bank_x', 'bank_y', 'bank_z'].map((name) => m.memory(UInt(32), p.vertices, { name }));
  const triangleCount = loadParser(m, io, p, indexTable, banks);
  io.load.triangle_count.set(triangleCount);
  lookupPipeline(m, io, vw, triangleCount, indexTable, banks);
});

/**
 * The load side: walks the image word by word. In the triangle phase it collects v0, v1, v2 and writes
 * the entry when the shader id arrives (a zero shader id ends the table); in the vertex phase it writes
 * x, y, z of record k to word k of the X, Y, Z banks. Returns the triangle count register.
 */
function loadParser(m: ModuleBuilder, io: TriangleMemoryIo, p: TriangleMemoryParams, indexTable: WordMemory, banks: readonly WordMemory[]): UIntValue {
  const vw = vertexIndexBits(p);
  // The image: the triangle section (index-table entries, a zero shader id ends it), then the vertex records.
  const section = fsm(m, 'section', ['triangles', 'vertices'], 'triangles');
  const wordOfRecord = m.reg(UInt(2), { reset: 0 });
  const triangleCount = m.reg(UInt(triangleIdBits(p)), { reset: 0 });
  // Up to vertices + 1: record number `vertices` may only be the all-zero terminator.
  const vertexRecord = m.reg(UInt(clog2(p.vertices + 2)), { reset: 0 });
  const loadError = m.reg(Bool, { reset: 0 });
  const stagedIndex = [0, 1, 2].map((k) => m.reg(UInt(vw), { name: `staged_v${k}` }));
  const stagedIndexBad = m.reg(Bool, { name: 'staged_index_bad' });

  // load_start restarts the parse at once, so a word arriving with it is word 0 of the new image.
  const start = io.load.start;
  const inVerticesNow = section.is('vertices').and(start.not());
  const wordNow = mux(start, 0, wordOfRecord);
  const countNow = mux(start, 0, triangleCount);
  const recordNow = mux(start, 0, vertexRecord);
  const errorNow = loadError.and(start.not());
  const word = io.load.data;
  // After an error the rest of the image is ignored until the next load_start.
  const accept = io.load.valid.and(errorNow.not());
  const indexOutOfRange = word.ge(p.vertices);
  // The entry the shader id word completes.
  const stagedEntry = m.wire(IndexEntry(vw), { name: 'staged_entry' });
  stagedIndex.forEach((r, k) => stagedEntry.vertices.at(k).set(r));
  stagedEntry.shader.set(word);

  m.when(start, () => {
    section.goto('triangles');
    wordOfRecord.set(0);
    triangleCount.set(0);
    vertexRecord.set(0);
    loadError.set(0);
  });
  m.when(accept, () => {
    wordOfRecord.set(wordNow.add(1));
    m.when(inVerticesNow.not(), () => {
      m.switch(wordNow)
        .is(0, () => {
          stagedIndex[0]!.set(word.trunc(vw));
          stagedIndexBad.set(indexOutOfRange);
        })
        .is(1, () => {
          stagedIndex[1]!.set(word.trunc(vw));
          stagedIndexBad.set(stagedIndexBad.or(indexOutOfRange));
        })
        .is(2, () => {
          stagedIndex[2]!.set(word.trunc(vw));
          stagedIndexBad.set(stagedIndexBad.or(indexOutOfRange));
        })
        .default(() => {
          // The shader id word: 0 ends the table; otherwise the triangle must fit and name real vertices.
          m.when(word.eq(0), () => section.goto('vertices'))
            .elsewhen(countNow.eq(p.triangles).or(stagedIndexBad), () => loadError.set(1))
            .otherwise(() => {
              indexTable.write(countNow, packBits(stagedEntry));
              triangleCount.set(countNow.add(1));
            });
        });
    }).otherwise(() => {
      m.when(wordNow.eq(3), () => vertexRecord.set(recordNow.add(1)));
      m.when(recordNow.lt(p.vertices), () => {
        banks.forEach((bank, k) => m.when(wordNow.eq(k), () => bank.write(recordNow, word)));
      }).elsewhen(recordNow.gt(p.vertices).or(word.ne(0)), () => loadError.set(1));
    });
  });
  io.load.error.set(loadError);
  return triangleCount;
}

/**
 * The read side, two stages: the request reads the index table; the entry's three vertex indices then
 * read all three ports of every bank at once. Only a valid answer carries data.
 */
function lookupPipeline(m: ModuleBuilder, io: TriangleMemoryIo, vw: number, triangleCount: UIntValue, indexTable: WordMemory, banks: readonly WordMemory[]): void {
  const entry = unpackBits(IndexEntry(vw), indexTable.read(io.read.req.id));
  const stage1Valid = m.regNext(io.read.req.valid, { reset: 0 });
  const stage1NotValid = m.regNext(io.read.req.valid.and(io.read.req.id.ge(triangleCount)), { reset: 0 });

  const vertexWords = [0, 1, 2].map((k) => {
    const vertex = entry.vertices.at(k).named(`stage1_v${k}`);
    const stage2X = banks[0]!.read(vertex);
    const stage2Y = banks[1]!.read(vertex);
    const stage2Z = banks[2]!.read(vertex);
    return cat(stage2Z, stage2Y, stage2X);
  });
  const stage2Shader = m.regNext(entry.shader);
  const stage2Valid = m.regNext(stage1Valid, { reset: 0 });
  const stage2NotValid = m.regNext(stage1NotValid, { reset: 0 });

  const answer = stage2Valid.and(stage2NotValid.not());
  io.read.resp.valid.set(stage2Valid);
  io.read.resp.not_valid.set(stage2NotValid);
  io.read.resp.v0.set(mux(answer, vertexWords[0]!, 0));
  io.read.resp.v1.set(mux(answer, vertexWords[1]!, 0));
  io.read.resp.v2.set(mux(answer, vertexWords[2]!, 0));
  // The shader word (docs/rays.md): the id [15:0], the geometry mask inverted [23:16], one-sided [24].
  io.read.resp.shader.set(mux(answer, stage2Shader.bits(15, 0).zext(32), 0));
  io.read.resp.mask.set(mux(answer, stage2Shader.bits(23, 16).not(), 0));
  io.read.resp.one_sided.set(answer.and(stage2Shader.bit(24)));
}
