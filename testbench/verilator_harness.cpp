// rtgpu co-simulation harness for Verilator (template: the {{...}} parts are generated per design).
// Usage: sim <stimulus.bin> <outputs.bin> <cycles> [repeat]
// Per cycle: apply one row of input words, evaluate, record one row of output words, rising clock edge.
// The whole run happens in this process; only the stepping loop is timed. `repeat` (default 1) runs the
// stimulus that many times over, the design running on (a benchmark's timed window without a larger file);
// the outputs written are the last pass's. A $error (a failed property),
// $fatal or $stop ends the run after its cycle with exit status 3 and "stopped at cycle N" on stderr (its
// text is on stdout), not an abort.
#include "V{{TOP}}.h"
{{ROOT_INCLUDE}}
#include "verilated.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

static const size_t IN_WORDS = {{IN_WORDS}};
static const size_t OUT_WORDS = {{OUT_WORDS}};

static std::vector<uint32_t> read_words(const char* path, size_t count) {
  std::vector<uint32_t> v(count);
  FILE* f = std::fopen(path, "rb");
  if (!f) { std::fprintf(stderr, "cannot open %s\n", path); std::exit(2); }
  if (count && std::fread(v.data(), 4, count, f) != count) { std::fprintf(stderr, "short stimulus file %s\n", path); std::exit(2); }
  std::fclose(f);
  return v;
}

int main(int argc, char** argv) {
  if (argc != 4 && argc != 5) { std::fprintf(stderr, "usage: %s stimulus.bin outputs.bin cycles [repeat]\n", argv[0]); return 2; }
  const size_t cycles = std::strtoull(argv[3], nullptr, 10);
  const size_t repeat = argc == 5 ? std::strtoull(argv[4], nullptr, 10) : 1;
  if (repeat < 1) { std::fprintf(stderr, "repeat must be at least 1\n"); return 2; }
  std::vector<uint32_t> stim = read_words(argv[1], cycles * IN_WORDS);
  std::vector<uint32_t> out(cycles * OUT_WORDS + 1);
  VerilatedContext ctx;
  ctx.fatalOnError(false);
  V{{TOP}} top{&ctx};
  // Power-on: 1-bit inputs start high so that an active-low reset in row 0 is a falling edge, as in Icarus.
{{POWER_ON}}
  top.eval();
  const uint32_t* in = stim.data();
  uint32_t* o = out.data();
  const size_t total = cycles * repeat;
  const auto t0 = std::chrono::steady_clock::now();
  for (size_t n = 0, c = 0; n < total; n++, c++) {
    if (c == cycles) {
      c = 0;
      in = stim.data();
      o = out.data();
    }
{{APPLY}}
    top.eval();
{{SAMPLE}}
{{CLOCK}}
    if (ctx.gotError()) {
      std::fprintf(stderr, "stopped at cycle %zu\n", n);
      return 3;
    }
    in += IN_WORDS;
    o += OUT_WORDS;
  }
  const auto t1 = std::chrono::steady_clock::now();
  top.final();
  FILE* f = std::fopen(argv[2], "wb");
  if (!f) { std::fprintf(stderr, "cannot write %s\n", argv[2]); return 2; }
  if (cycles * OUT_WORDS) std::fwrite(out.data(), 4, cycles * OUT_WORDS, f);
  std::fclose(f);
  std::printf("seconds %.9f\n", std::chrono::duration<double>(t1 - t0).count());
  return 0;
}
