// rtgpu live Verilator back end: a C ABI over one Verilated design, loaded in-process by Node (koffi).
// Template: the {{...}} parts are generated per design (src/hdl/sim/verilator/modelSource.ts).
//
// Signals and memories are numbered by Node: signal i is row i of SIGNALS (ports, then registers made
// public by the .vlt file), memory i is row i of MEMORIES. Values cross as little-endian 32-bit words.
// Cycle convention: inputs settle with the clock low, outputs are sampled, the clock rises (and falls, at
// once where some register samples its falling edge); one cycle is 10 time units in the waveform, the
// clock rising at 10c + 5. A design with several clocks runs instant by instant (rtgpu_clocks), its
// waveform in ps of simulated time.
#include "V{{TOP}}.h"
#include "verilated.h"
#include "verilated_syms.h"
{{TRACE_INCLUDE}}
#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#define RTGPU_API extern "C" __attribute__((visibility("default")))

// $finish, $stop, $fatal and Verilator's own runtime errors would end the whole Node process; built with
// VL_USER_FINISH/STOP/FATAL, they throw instead, and every entry point reports them as a status.
struct SimulationStop {
  std::string what;
  std::string printed;
};

static std::string where(const char* filename, int linenum) {
  return filename && filename[0] ? std::string(" at ") + filename + ":" + std::to_string(linenum) : std::string();
}

namespace {

const uint32_t ABI_VERSION = 3;

// How a value is stored: 1, 2, 4 or 8 bytes (CData … QData), or 0: VlWide, `words` 32-bit words.
struct Signal {
  void* p;
  uint8_t bytes;
  uint16_t words;
  uint32_t topMask;
};

struct Memory {
  uint8_t* base;
  uint32_t stride;  // bytes per word
  uint8_t bytes;
  uint16_t words;
  uint32_t topMask;
  uint32_t depth;
};

struct SignalSpec {
  const char* scope;  // null: a top-level port, reached through `port`
  const char* name;
  uint32_t width;
};

struct MemorySpec {
  const char* scope;
  const char* name;
  uint32_t width;
  uint32_t depth;
};

const SignalSpec SIGNALS[] = {
{{SIGNAL_SPECS}}
};
const MemorySpec MEMORIES[] = {
{{MEMORY_SPECS}}
};
const int SIGNAL_COUNT = {{SIGNAL_COUNT}};
const int MEMORY_COUNT = {{MEMORY_COUNT}};

uint8_t storageBytes(uint32_t width) { return width <= 8 ? 1 : width <= 16 ? 2 : width <= 32 ? 4 : width <= 64 ? 8 : 0; }
uint16_t wordsOf(uint32_t width) { return (uint16_t)((width + 31) / 32); }
uint32_t topMaskOf(uint32_t width) { return width % 32 ? (1u << (width % 32)) - 1 : 0xffffffffu; }

inline void store(void* p, uint8_t bytes, uint16_t words, uint32_t topMask, const uint32_t* w) {
  switch (bytes) {
    case 1: *static_cast<CData*>(p) = (CData)(w[0] & topMask); break;
    case 2: *static_cast<SData*>(p) = (SData)(w[0] & topMask); break;
    case 4: *static_cast<IData*>(p) = w[0] & topMask; break;
    case 8: *static_cast<QData*>(p) = (QData)w[0] | ((QData)(w[1] & topMask) << 32); break;
    default: {
      uint32_t* d = static_cast<uint32_t*>(p);
      std::memcpy(d, w, 4u * (words - 1));
      d[words - 1] = w[words - 1] & topMask;
    }
  }
}

inline void load(const void* p, uint8_t bytes, uint16_t words, uint32_t* w) {
  switch (bytes) {
    case 1: w[0] = *static_cast<const CData*>(p); break;
    case 2: w[0] = *static_cast<const SData*>(p); break;
    case 4: w[0] = *static_cast<const IData*>(p); break;
    case 8: {
      QData q = *static_cast<const QData*>(p);
      w[0] = (uint32_t)q;
      w[1] = (uint32_t)(q >> 32);
      break;
    }
    default: std::memcpy(w, p, 4u * words);
  }
}

struct Model {
  VerilatedContext ctx;
  V{{TOP}}* top = nullptr;
  std::vector<Signal> signals;
  std::vector<Memory> memories;
  bool dirty = true;  // inputs changed (or the clock fell) since the last eval
  bool poked = false;  // inputs changed since the last instant (a timed waveform shows them after it)
  int64_t lastInstant = -1;  // time of the last instant in a timed waveform, ps
  uint64_t cycle = 0;
  std::string error;  // set once the design stopped the simulation; every later call fails
  std::string printed;  // the tail of what it printed
  std::string lastLine;  // the last line it printed (a $error's text, when vl_stop_maybe runs)
  // Each $error of the edge that stopped the run (a failed property prints one): its text, and the cycle
  // and time (ps, -1: not timed) of the edge. Once there is one, every entry point returns 2.
  struct Report {
    uint64_t cycle;
    int64_t timePs;
    std::string line;
  };
  std::vector<Report> reports;
  int64_t edgeTime = -1;  // the time of the instant being evaluated (ps), or -1
  {{TRACE_MEMBER}}

  void* port(const char* name);

  void settle() {
    if (dirty) {
      top->eval();
      dirty = false;
    }
  }

  // One cycle. Inputs are settled first (clock low), then the rising edge; the falling edge is left for
  // the next settle, so a cycle costs two evaluations, unless registers sample it: then it is evaluated
  // at once (they sample the values of the cycle, as on the TS simulator).
  void edge() {
    settle();
    {{TRACE_DUMP_LOW}}
    {{CLOCK_HIGH}}
    top->eval();
    {{TRACE_DUMP_HIGH}}
    cycle++;
    // An edge that failed a property ends the run before its falling edge (the model stops there).
    if (!reports.empty()) return;
    {{CLOCK_LOW}}
    {{FALL_EVAL}}
  }

  // What the design printed: kept (the tail, and the last line) so that a stop or a $error can say it.
  void print(const std::string& text) {
    printed.append(text);
    if (printed.size() > 4096) printed.erase(0, printed.size() - 4096);
    lastLine = text;
    while (!lastLine.empty() && (lastLine.back() == '\n' || lastLine.back() == '\r')) lastLine.pop_back();
  }

  std::string printedBefore() const {
    std::string t = printed;
    while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
    return t.empty() ? "" : "; it printed:\n" + t;
  }

  // One instant: the clocks in `mask` take their bit of `levels`, all at once (one evaluation, so every
  // register on an edge samples the values before it). Timed (`time` >= 0, ps): the waveform shows inputs
  // changed since the last instant 1 ps after it, then the instant at its time (each instant at least
  // 1 ps after the one before, as Icarus runs them). Else the first clock's rise is a cycle's edge.
  void instant(uint32_t mask, uint32_t levels, int64_t time) {
    settle();
    bool firstRises = (mask & levels & 1u) != 0;
    int64_t at = std::max<int64_t>(time, lastInstant + 1);
    (void)at;
    if (time < 0) {
      if (firstRises) {
        {{TRACE_DUMP_LOW}}
      }
    } else if (poked && lastInstant + 1 < at) {
      {{TRACE_DUMP_POKED}}
    }
{{SET_CLOCKS}}
    edgeTime = time;
    top->eval();
    edgeTime = -1;
    if (time < 0) {
      if (firstRises) {
        {{TRACE_DUMP_HIGH}}
      }
    } else {
      {{TRACE_DUMP_AT}}
      lastInstant = at;
    }
    poked = false;
    dirty = false;
    if (firstRises) cycle++;
  }
};

void* Model::port(const char* name) {
{{PORT_LOOKUP}}
  return nullptr;
}

// The model whose entry point runs on this thread: the hooks below report to it.
thread_local Model* current = nullptr;

}  // namespace

// A line a failed property's $error may have printed (propertyLine below says for sure).
static bool mentionsProperty(const std::string& t) {
  return t.find(": Assertion failed in ") != std::string::npos && (t.find(": assertion ") != std::string::npos || t.find(": assumption ") != std::string::npos);
}

// What the design prints ($display, Verilator's warnings) goes to stdout as usual and is kept by its
// model: built with VL_PRINTF=rtgpu_vl_printf (declared by rtgpu_hooks.h). A failed property's line is
// only kept: Node raises it (vl_stop_maybe below).
void rtgpu_vl_printf(const char* format, ...) {
  va_list ap, again;
  va_start(ap, format);
  va_copy(again, ap);
  int n = std::vsnprintf(nullptr, 0, format, ap);
  va_end(ap);
  std::string text(n > 0 ? (size_t)n : 0, '\0');
  if (n > 0) std::vsnprintf(&text[0], (size_t)n + 1, format, again);
  va_end(again);
  if (!current || !mentionsProperty(text)) {
    std::fputs(text.c_str(), stdout);
    std::fflush(stdout);
  }
  if (current) current->print(text);
}

static std::string printedBefore() { return current ? current->printedBefore() : ""; }

void vl_finish(const char* filename, int linenum, const char* hier) {
  (void)hier;
  throw SimulationStop{"the design called $finish" + where(filename, linenum), printedBefore()};
}

void vl_stop(const char* filename, int linenum, const char* hier) {
  (void)hier;
  throw SimulationStop{"the design called $stop" + where(filename, linenum), printedBefore()};
}

void vl_fatal(const char* filename, int linenum, const char* hier, const char* msg) {
  (void)hier;
  throw SimulationStop{std::string(msg ? msg : "fatal error") + where(filename, linenum), printedBefore()};
}

// Whether a line a $error printed is a failed property's (svFragments.ts): `[t] %Error: <sv file>:<line>:
// Assertion failed in <scope>: <ts file>:<line>: assertion|assumption <Module>.<name> failed…`.
static bool propertyLine(const std::string& line, const char* filename, int linenum) {
  std::string head = std::string("%Error: ") + (filename ? filename : "") + ":" + std::to_string(linenum) + ": Assertion failed in ";
  size_t at = line.find(head);
  if (at == std::string::npos) return false;
  size_t text = line.find(": ", at + head.size());
  if (text == std::string::npos) return false;
  size_t kind = line.find(": ", text + 2);
  if (kind == std::string::npos) return false;
  bool known = line.compare(kind, 12, ": assertion ") == 0 || line.compare(kind, 13, ": assumption ") == 0;
  return known && line.find(" failed", kind) != std::string::npos;
}

// Verilator calls this for $error, $fatal and $stop alike (VL_USER_STOP_MAYBE leaves it to us). A failed
// property's $error is reported, not fatal: the evaluation goes on (every property of the edge is
// checked), the run stops after the edge, and Node reads the reports (rtgpu_reports) and raises the
// failure. Anything else stops the simulation at once, as Verilator's own would with its error limit 1.
void vl_stop_maybe(const char* filename, int linenum, const char* hier, bool maybe) {
  (void)maybe;
  if (!current || !propertyLine(current->lastLine, filename, linenum)) return vl_stop(filename, linenum, hier);
  current->reports.push_back({current->cycle, current->edgeTime, current->lastLine});
  current->lastLine.clear();
}

namespace {

std::mutex liveLock;
std::set<Model*>* live = nullptr;

// Verilator registers and erases scopes in the thread's current context: with several models in one
// thread, each call must make its own model's context current first.
inline Model* use(void* handle) {
  Model* m = static_cast<Model*>(handle);
  Verilated::threadContextp(&m->ctx);
  current = m;
  return m;
}

void destroyModel(Model* m) {
  use(m);
  {{TRACE_CLOSE}}
  try {
    m->top->final();
  } catch (const SimulationStop&) {
    // a final block that stops: the model goes anyway
  }
  delete m->top;
  delete m;
  Verilated::threadContextp(nullptr);
  current = nullptr;
}

// Verilator's runtime must not be torn down under a live model: destroy the ones Node left open before
// the library's own static destructors run (atexit handlers run in reverse order of registration).
void destroyLive() {
  std::lock_guard<std::mutex> g(liveLock);
  if (!live) return;
  for (Model* m : *live) destroyModel(m);
  live->clear();
}

void fail(char* err, int errLen, const std::string& msg) {
  if (err && errLen > 0) {
    std::strncpy(err, msg.c_str(), (size_t)errLen - 1);
    err[errLen - 1] = 0;
  }
}

// Runs `f` unless the model already stopped; 0 on success, 1 when the design stopped the simulation,
// 2 when an edge reported a $error (a failed property): rtgpu_reports says which.
template <typename F>
int32_t guarded(Model* m, F f) {
  if (!m->error.empty()) return 1;
  if (!m->reports.empty()) return 2;
  try {
    f();
  } catch (const SimulationStop& e) {
    m->error = e.what + " (cycle " + std::to_string(m->cycle) + ")" + e.printed;
    return 1;
  }
  return m->reports.empty() ? 0 : 2;
}

}  // namespace

RTGPU_API uint32_t rtgpu_abi_version() { return ABI_VERSION; }

RTGPU_API void* rtgpu_create(char* err, int errLen) {
  Model* m = new Model;  // constructing the context makes it the thread's current one
  use(m);
  m->ctx.fatalOnError(false);
  {{TRACE_EVER_ON}}
  m->top = new V{{TOP}}{&m->ctx, "TOP"};
  {{POWER_ON_CLOCK}}
  for (int i = 0; i < SIGNAL_COUNT; i++) {
    const SignalSpec& s = SIGNALS[i];
    void* p = nullptr;
    if (!s.scope) {
      p = m->port(s.name);
    } else {
      const VerilatedScope* scope = m->ctx.scopeFind(s.scope);
      VerilatedVar* var = scope ? scope->varFind(s.name) : nullptr;
      p = var ? var->datap() : nullptr;
    }
    if (!p) {
      fail(err, errLen, std::string("the Verilated model has no signal ") + (s.scope ? s.scope : "TOP") + "." + s.name);
      destroyModel(m);
      return nullptr;
    }
    m->signals.push_back({p, storageBytes(s.width), wordsOf(s.width), topMaskOf(s.width)});
  }
  for (int i = 0; i < MEMORY_COUNT; i++) {
    const MemorySpec& s = MEMORIES[i];
    const VerilatedScope* scope = m->ctx.scopeFind(s.scope);
    VerilatedVar* var = scope ? scope->varFind(s.name) : nullptr;
    // (A memory of 1-bit words is listed with one dimension, its address range, not as unpacked.)
    if (!var || !var->datap()) {
      fail(err, errLen, std::string("the Verilated model has no memory ") + s.scope + "." + s.name);
      destroyModel(m);
      return nullptr;
    }
    uint8_t bytes = storageBytes(s.width);
    uint32_t stride = bytes ? bytes : 4u * wordsOf(s.width);
    m->memories.push_back({static_cast<uint8_t*>(var->datap()), stride, bytes, wordsOf(s.width), topMaskOf(s.width), s.depth});
  }
  try {
    {{POWER_ON_RESETS}}
    m->top->eval();
  } catch (const SimulationStop& e) {
    m->error = e.what + " (at power-on)" + e.printed;
  }
  m->dirty = false;
  std::lock_guard<std::mutex> g(liveLock);
  if (!live) {
    live = new std::set<Model*>;
    std::atexit(destroyLive);
  }
  live->insert(m);
  return m;
}

RTGPU_API void rtgpu_destroy(void* handle) {
  Model* m = static_cast<Model*>(handle);
  {
    std::lock_guard<std::mutex> g(liveLock);
    if (!live || !live->erase(m)) return;
  }
  destroyModel(m);
}

// The message of the stop that made an entry point return 1 ("" while the model runs).
RTGPU_API int32_t rtgpu_error(void* handle, char* buf, int32_t len) {
  Model* m = use(handle);
  fail(buf, len, m->error);
  return (int32_t)m->error.size();
}

// The reports of the edge that made an entry point return 2, a line each: cycle, tab, time in ps (-1: not
// timed), tab, the text the $error printed. Returns the length of the whole text (longer than `len`: call
// again with a larger buffer).
RTGPU_API int32_t rtgpu_reports(void* handle, char* buf, int32_t len) {
  Model* m = use(handle);
  std::string text;
  for (const Model::Report& r : m->reports) text += std::to_string(r.cycle) + "\t" + std::to_string(r.timePs) + "\t" + r.line + "\n";
  fail(buf, len, text);
  return (int32_t)text.size();
}

RTGPU_API void rtgpu_poke(void* handle, int32_t signal, const uint32_t* words) {
  Model* m = use(handle);
  const Signal& s = m->signals[(size_t)signal];
  store(s.p, s.bytes, s.words, s.topMask, words);
  m->dirty = true;
  m->poked = true;
}

RTGPU_API int32_t rtgpu_peek(void* handle, int32_t signal, uint32_t* words) {
  Model* m = use(handle);
  return guarded(m, [&] {
    m->settle();
    const Signal& s = m->signals[(size_t)signal];
    load(s.p, s.bytes, s.words, words);
  });
}

RTGPU_API int32_t rtgpu_step(void* handle, uint32_t cycles) {
  Model* m = use(handle);
  return guarded(m, [&] {
    for (uint32_t c = 0; c < cycles && m->reports.empty(); c++) m->edge();
    {{TRACE_FLUSH}}
  });
}

// One instant of the clocks (Model::instant); `time` < 0: not timed.
RTGPU_API int32_t rtgpu_clocks(void* handle, uint32_t mask, uint32_t levels, double time) {
  Model* m = use(handle);
  return guarded(m, [&] {
    m->instant(mask, levels, time < 0 ? -1 : (int64_t)time);
  });
}

// The waveform complete up to here (after a run of instants).
RTGPU_API void rtgpu_trace_flush(void* handle) {
  Model* m = use(handle);
  (void)m;
  {{TRACE_FLUSH}}
}

// Each cycle: the row's inputs, settle, sample the outputs, rising edge (as the standalone harness).
RTGPU_API int32_t rtgpu_run_vectors(void* handle, const int32_t* ins, int32_t nIn, const int32_t* outs, int32_t nOut, const uint32_t* stimulus, uint32_t* out, uint32_t cycles) {
  Model* m = use(handle);
  std::vector<Signal> in, o;
  for (int32_t i = 0; i < nIn; i++) in.push_back(m->signals[(size_t)ins[i]]);
  for (int32_t i = 0; i < nOut; i++) o.push_back(m->signals[(size_t)outs[i]]);
  return guarded(m, [&] {
    for (uint32_t c = 0; c < cycles; c++) {
      for (const Signal& s : in) {
        store(s.p, s.bytes, s.words, s.topMask, stimulus);
        stimulus += s.words;
      }
      if (nIn) m->dirty = true;
      m->settle();
      for (const Signal& s : o) {
        load(s.p, s.bytes, s.words, out);
        out += s.words;
      }
      m->edge();
      if (!m->reports.empty()) break;
    }
    {{TRACE_FLUSH}}
  });
}

RTGPU_API int32_t rtgpu_memory_write(void* handle, int32_t memory, uint32_t addr, uint32_t count, const uint32_t* words) {
  Model* m = use(handle);
  const Memory& mem = m->memories[(size_t)memory];
  if ((uint64_t)addr + count > mem.depth) return -1;
  for (uint32_t i = 0; i < count; i++) {
    store(mem.base + (size_t)(addr + i) * mem.stride, mem.bytes, mem.words, mem.topMask, words);
    words += mem.words;
  }
  m->dirty = true;
  m->poked = true;
  return 0;
}

RTGPU_API int32_t rtgpu_memory_read(void* handle, int32_t memory, uint32_t addr, uint32_t count, uint32_t* words) {
  Model* m = use(handle);
  const Memory& mem = m->memories[(size_t)memory];
  if ((uint64_t)addr + count > mem.depth) return -1;
  for (uint32_t i = 0; i < count; i++) {
    load(mem.base + (size_t)(addr + i) * mem.stride, mem.bytes, mem.words, words);
    words += mem.words;
  }
  return 0;
}

// 0: tracing to `path`; -1: the model was built without waveform support.
RTGPU_API int32_t rtgpu_trace_open(void* handle, const char* path) {
  Model* m = use(handle);
  (void)path;
  {{TRACE_OPEN}}
}

RTGPU_API void rtgpu_trace_close(void* handle) {
  Model* m = use(handle);
  (void)m;
  {{TRACE_CLOSE}}
}
