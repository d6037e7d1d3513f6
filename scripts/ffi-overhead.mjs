// Measures the cost of one call from JavaScript into C through koffi (what the live Verilator back end
// uses) against a minimal Node-API addon doing the same work (docs/performance.md, "Live back ends").
// Needs gcc and Node's headers (node_api.h); run: node scripts/ffi-overhead.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import koffi from 'koffi';

const headers = [join(dirname(process.execPath), '..', 'include', 'node'), '/usr/include/node'].find((d) => existsSync(join(d, 'node_api.h')));
if (!headers) {
  console.error("ffi-overhead: node_api.h not found (Debian: apt-get install libnode-dev, or Node's own include/node)");
  process.exit(1);
}
const dir = mkdtempSync(join(tmpdir(), 'rtgpu-ffi-'));
try {
  // The same body as rtgpu_peek: copy a word of state into the caller's buffer.
  writeFileSync(
    join(dir, 'addon.c'),
    `#include <node_api.h>
#include <stdint.h>
static uint32_t state[4] = {1, 2, 3, 4};
static napi_value Peek(napi_env env, napi_callback_info info) {
  size_t argc = 2; napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  int32_t sig; napi_get_value_int32(env, argv[0], &sig);
  void* data; size_t len; napi_typedarray_type t; napi_value ab; size_t off;
  napi_get_typedarray_info(env, argv[1], &t, &len, &data, &ab, &off);
  ((uint32_t*)data)[0] = state[sig & 3];
  return NULL;
}
static napi_value Init(napi_env env, napi_value exports) {
  napi_value fn; napi_create_function(env, "peek", NAPI_AUTO_LENGTH, Peek, NULL, &fn);
  napi_set_named_property(env, exports, "peek", fn);
  return exports;
}
NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
`,
  );
  writeFileSync(join(dir, 'lib.c'), '#include <stdint.h>\nstatic uint32_t state[4] = {1, 2, 3, 4};\nint32_t peek(void* m, int32_t sig, uint32_t* w) { (void)m; w[0] = state[sig & 3]; return 0; }\n');
  execFileSync('gcc', ['-O2', '-shared', '-fPIC', `-I${headers}`, '-o', join(dir, 'addon.node'), join(dir, 'addon.c')]);
  execFileSync('gcc', ['-O2', '-shared', '-fPIC', '-o', join(dir, 'lib.so'), join(dir, 'lib.c')]);
  const addon = createRequire(import.meta.url)(join(dir, 'addon.node'));
  const kpeek = koffi.load(join(dir, 'lib.so')).func('int32_t peek(void *m, int32_t sig, _Out_ uint32_t *w)');
  const buf = new Uint32Array(1);
  const n = 2_000_000;
  const time = (f) => {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) f(i);
    return ((performance.now() - t0) * 1e6) / n;
  };
  const rounds = [];
  for (let r = 0; r < 5; r++) rounds.push({ napi: time((i) => addon.peek(i, buf)), koffi: time((i) => kpeek(null, i, buf)) });
  const best = (k) => Math.min(...rounds.map((x) => x[k]));
  console.log(JSON.stringify({ napiCallNs: best('napi'), koffiCallNs: best('koffi'), koffiOverNapi: best('koffi') / best('napi') }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
