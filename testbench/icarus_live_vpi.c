/*
 * rtgpu live Icarus back end: a VPI module through which Node drives a running vvp simulation.
 *
 * The generated testbench (icarus_live_tb.sv) loops on `$rtgpu_next(op, count)`. This task reads
 * commands from file descriptor 3, serves those that need no simulated time (bind names, poke, peek,
 * memory access) and returns to the testbench only to let time pass: settle, step N cycles, one cycle
 * of a vector run, one instant of the clocks, start or stop a waveform. Replies go to file descriptor 4. Every word on both pipes
 * is a little-endian uint32; a message is [code, payload words, payload...] (docs/hdl-guide.md,
 * "Live back ends", describes the protocol).
 *
 * Time: one clock cycle is 10 units; inputs settle at 10c with the clock low, it rises at 10c + 5. A
 * design with several clocks runs instant by instant, each at its time in ps (CLOCKS gives it).
 *
 * `$error` (what a failed property calls) is ours: it records a report (its text, the scope that called
 * it, the cycle and time of the edge) and stops the run after that edge; the command's answer is then
 * REPLY_REPORTS, and every later command that would let time pass is answered so without running.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <vpi_user.h>

#define CMD_FD 3
#define REPLY_FD 4
#define PROTOCOL_VERSION 4

/* Commands from Node. */
enum { OP_BIND = 1, OP_POKE, OP_PEEK, OP_STEP, OP_VECTORS, OP_MEM_WRITE, OP_MEM_READ, OP_DUMP_START, OP_DUMP_OFF, OP_DUMP_ON, OP_FINISH, OP_SYNC, OP_CLOCKS, OP_DUMP_FLUSH };
/* What the testbench does when $rtgpu_next returns (values of its `op` argument). */
enum { SV_SETTLE = 1, SV_STEP = 2, SV_VECTOR_CYCLE = 3, SV_DUMP_START = 4, SV_DUMP_OFF = 5, SV_DUMP_ON = 6, SV_FINISH = 7, SV_INSTANT = 8, SV_DUMP_FLUSH = 9 };
/* Reply codes. */
enum { REPLY_OK = 0, REPLY_ERROR = 1, REPLY_HELLO = 2, REPLY_REPORTS = 3 };

typedef struct {
  vpiHandle h;
  uint32_t width;
  uint32_t depth; /* 0 for a signal, words for a memory */
  char *name;
} Binding;

static Binding *binds;
static uint32_t nbinds, capbinds;

static uint32_t *payload;
static size_t payload_cap;

static int said_hello;
static int dirty;          /* inputs or memories changed since the last settle */
static int ack_pending;    /* an op that ran in the testbench waits for its empty reply */
static uint32_t pending_peek = UINT32_MAX; /* a peek that waits for its settle */

/* The instant the testbench runs next ($rtgpu_clocks applies it): clock i is binding first_clock + i. */
static struct {
  uint32_t first_clock, mask, levels;
} instant;

/*
 * Cycles completed (rising edges of the first clock since power-on, as Node counts them), and the command
 * running: whole cycles (a step or a vector run: cycle k of it rises 10k + 5 units after `time`), or an
 * instant. A $error's cycle follows from them.
 */
enum { RUN_NONE, RUN_CYCLES, RUN_INSTANT };
static struct {
  uint64_t cycles_done;
  int kind;
  uint64_t first_cycle, time;
  uint32_t cycles;   /* a step's cycles, added once it is over */
  int first_rises;   /* an instant: the first clock rises (a cycle completes) */
  int timed;         /* an instant of a design with several clocks: time is in ps */
} run;

/* The $error reports of the edge that stopped the run: [count, then each: cycle (2 words), time (2 words, ps or -1), scope, text]. */
static uint32_t *reports;
static uint32_t reports_len, reports_cap;
static int stopped;

/* The vector run in progress. */
static struct {
  int active;
  uint32_t cycle, cycles, nin, nout, in_row, out_row;
  uint32_t *in_h, *out_h, *stim, *out;
  char error[512];
} vec;

static void fail_hard(const char *what) {
  vpi_printf("rtgpu live testbench: %s (%s); finishing\n", what, strerror(errno));
  vpi_control(vpiFinish, 1);
}

static int write_all(const void *buf, size_t n) {
  const char *p = (const char *)buf;
  while (n) {
    ssize_t w = write(REPLY_FD, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* 1: read all n bytes; 0: the other side closed the pipe (Node is gone). */
static int read_all(void *buf, size_t n) {
  char *p = (char *)buf;
  while (n) {
    ssize_t r = read(CMD_FD, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return 0;
    p += r;
    n -= (size_t)r;
  }
  return 1;
}

static void send_reply(uint32_t code, const uint32_t *words, uint32_t n) {
  uint32_t head[2] = {code, n};
  if (write_all(head, sizeof head) || (n && write_all(words, 4u * n))) fail_hard("cannot write to Node");
}

static void push_word(uint32_t w) {
  if (reports_len == reports_cap) {
    reports_cap = reports_cap ? 2 * reports_cap : 256;
    reports = (uint32_t *)realloc(reports, 4u * reports_cap);
  }
  reports[reports_len++] = w;
}

/* A string as its byte length, then its bytes padded to words. */
static void push_string(const char *s) {
  uint32_t len = (uint32_t)strlen(s);
  push_word(len);
  for (uint32_t at = 0; at < len; at += 4) {
    uint32_t w = 0;
    memcpy(&w, s + at, len - at < 4 ? len - at : 4);
    push_word(w);
  }
}

static void send_error(const char *msg) {
  size_t len = strlen(msg);
  uint32_t n = (uint32_t)(1 + (len + 3) / 4);
  uint32_t *w = (uint32_t *)calloc(n, 4);
  w[0] = (uint32_t)len;
  memcpy(w + 1, msg, len);
  send_reply(REPLY_ERROR, w, n);
  free(w);
}

static uint32_t words_of(uint32_t width) { return (width + 31) / 32; }

static int put_words(vpiHandle h, uint32_t width, const uint32_t *w) {
  uint32_t n = words_of(width);
  s_vpi_vecval vv[n];
  for (uint32_t k = 0; k < n; k++) {
    vv[k].aval = (PLI_INT32)w[k];
    vv[k].bval = 0;
  }
  s_vpi_value v;
  v.format = vpiVectorVal;
  v.value.vector = vv;
  vpi_put_value(h, &v, NULL, vpiNoDelay);
  return 0;
}

/* 0, or -1 when some bit is X or Z (read as 0). */
static int get_words(vpiHandle h, uint32_t width, uint32_t *w) {
  s_vpi_value v;
  v.format = vpiVectorVal;
  vpi_get_value(h, &v);
  int x = 0;
  for (uint32_t k = 0; k < words_of(width); k++) {
    uint32_t mask = (k == words_of(width) - 1 && width % 32) ? ((1u << (width % 32)) - 1) : 0xffffffffu;
    uint32_t unknown = (uint32_t)v.value.vector[k].bval & mask;
    w[k] = (uint32_t)v.value.vector[k].aval & mask & ~unknown;
    if (unknown) x = 1;
  }
  return x ? -1 : 0;
}

/* An output handle of a vector run with this bit set reads X and Z as 0 instead of failing the run (a don't-care value). */
#define X_AS_ZERO 0x80000000u

static void put_int(vpiHandle h, int value) {
  s_vpi_value v;
  v.format = vpiIntVal;
  v.value.integer = value;
  vpi_put_value(h, &v, NULL, vpiNoDelay);
}

static Binding *binding(uint32_t index) {
  if (index >= nbinds) return NULL;
  return &binds[index];
}

/* BIND: [count, then per name: kind (0 signal, 1 memory), byte length, bytes padded to words]. */
static void do_bind(const uint32_t *p, uint32_t n) {
  uint32_t count = n ? p[0] : 0, at = 1;
  uint32_t *out = (uint32_t *)calloc(2u * count + 1, 4);
  for (uint32_t i = 0; i < count; i++) {
    uint32_t kind = p[at], len = p[at + 1];
    char *name = (char *)calloc(len + 1, 1);
    memcpy(name, p + at + 2, len);
    at += 2 + (len + 3) / 4;
    vpiHandle h = vpi_handle_by_name(name, NULL);
    uint32_t width = 0, depth = 0;
    if (h && kind == 1) {
      depth = (uint32_t)vpi_get(vpiSize, h);
      vpiHandle w0 = depth ? vpi_handle_by_index(h, 0) : NULL;
      width = w0 ? (uint32_t)vpi_get(vpiSize, w0) : 0;
      if (!w0) depth = 0;
    } else if (h) {
      width = (uint32_t)vpi_get(vpiSize, h);
    }
    if (nbinds == capbinds) {
      capbinds = capbinds ? 2 * capbinds : 64;
      binds = (Binding *)realloc(binds, capbinds * sizeof *binds);
    }
    binds[nbinds++] = (Binding){h, width, depth, name};
    out[2 * i] = width;
    out[2 * i + 1] = depth;
  }
  send_reply(REPLY_OK, out, 2 * count);
  free(out);
}

/* PEEK: the index, with X_AS_ZERO set for a don't-care value (X and Z read as 0). */
static void do_peek(uint32_t index) {
  uint32_t lax = index & X_AS_ZERO;
  Binding *b = binding(index & ~X_AS_ZERO);
  if (!b || !b->h || b->depth) return send_error("peek of an unbound signal");
  uint32_t w[words_of(b->width)];
  if (get_words(b->h, b->width, w) && !lax) {
    char msg[600];
    snprintf(msg, sizeof msg, "'%s' is X or Z: an uninitialized or undriven value reaches it", b->name);
    return send_error(msg);
  }
  send_reply(REPLY_OK, w, words_of(b->width));
}

static void do_memory(int write, const uint32_t *p, uint32_t n) {
  Binding *b = binding(n >= 3 ? p[0] : UINT32_MAX);
  if (!b || !b->h || !b->depth) {
    if (!write) send_error("memory access to an unbound memory");
    return;
  }
  uint32_t addr = p[1], count = p[2], ww = words_of(b->width);
  if ((uint64_t)addr + count > b->depth) {
    if (!write) send_error("memory access out of range");
    return;
  }
  uint32_t *out = write ? NULL : (uint32_t *)calloc((size_t)count * ww + 1, 4);
  for (uint32_t i = 0; i < count; i++) {
    vpiHandle word = vpi_handle_by_index(b->h, (PLI_INT32)(addr + i));
    if (!word) continue;
    if (write) put_words(word, b->width, p + 3 + (size_t)i * ww);
    else if (get_words(word, b->width, out + (size_t)i * ww)) memset(out + (size_t)i * ww, 0, 4u * ww);
    vpi_free_object(word);
  }
  if (write) dirty = 1;
  else {
    send_reply(REPLY_OK, out, count * ww);
    free(out);
  }
}

static uint32_t row_words(const uint32_t *handles, uint32_t n) {
  uint32_t s = 0;
  for (uint32_t i = 0; i < n; i++) s += words_of(binding(handles[i] & ~X_AS_ZERO)->width);
  return s;
}

static void vec_apply_row(void) {
  const uint32_t *row = vec.stim + (size_t)vec.cycle * vec.in_row;
  for (uint32_t i = 0; i < vec.nin; i++) {
    Binding *b = binding(vec.in_h[i]);
    put_words(b->h, b->width, row);
    row += words_of(b->width);
  }
}

/* VECTORS: [cycles, nin, in handles..., nout, out handles..., stimulus rows...]. 1: the run started. */
static int start_vectors(const uint32_t *p, uint32_t n) {
  if (n < 3) return send_error("malformed vector command"), 0;
  uint32_t cycles = p[0], nin = p[1];
  if (n < 3 + nin) return send_error("malformed vector command"), 0;
  uint32_t nout = p[2 + nin];
  if (n < 3 + nin + nout) return send_error("malformed vector command"), 0;
  const uint32_t *in_h = p + 2, *out_h = p + 3 + nin;
  for (uint32_t i = 0; i < nin + nout; i++) {
    Binding *b = binding(i < nin ? in_h[i] : out_h[i - nin] & ~X_AS_ZERO);
    if (!b || !b->h || b->depth) return send_error("vector run over an unbound signal"), 0;
  }
  uint32_t in_row = row_words(in_h, nin), out_row = row_words(out_h, nout);
  if ((uint64_t)n != 3 + nin + nout + (uint64_t)in_row * cycles) return send_error("vector command has the wrong length"), 0;
  free(vec.in_h);
  free(vec.out_h);
  free(vec.stim);
  free(vec.out);
  vec.in_h = (uint32_t *)malloc(4u * (nin + 1));
  vec.out_h = (uint32_t *)malloc(4u * (nout + 1));
  memcpy(vec.in_h, in_h, 4u * nin);
  memcpy(vec.out_h, out_h, 4u * nout);
  vec.stim = (uint32_t *)malloc(4u * ((size_t)in_row * cycles + 1));
  memcpy(vec.stim, p + 3 + nin + nout, 4u * (size_t)in_row * cycles);
  vec.out = (uint32_t *)calloc((size_t)out_row * cycles + 1, 4);
  vec.cycle = 0;
  vec.cycles = cycles;
  vec.nin = nin;
  vec.nout = nout;
  vec.in_row = in_row;
  vec.out_row = out_row;
  vec.error[0] = 0;
  if (cycles == 0) {
    send_reply(REPLY_OK, NULL, 0);
    return 0;
  }
  vec.active = 1;
  return 1;
}

/* $rtgpu_sample: records the outputs of the vector run's current cycle (inputs settled, clock low). */
static PLI_INT32 sample_calltf(PLI_BYTE8 *user) {
  (void)user;
  if (!vec.active) return 0;
  uint32_t *row = vec.out + (size_t)vec.cycle * vec.out_row;
  for (uint32_t i = 0; i < vec.nout; i++) {
    Binding *b = binding(vec.out_h[i] & ~X_AS_ZERO);
    if (get_words(b->h, b->width, row) && !(vec.out_h[i] & X_AS_ZERO) && !vec.error[0])
      snprintf(vec.error, sizeof vec.error, "'%s' is X or Z in cycle %u of the vector run: an uninitialized or undriven value reaches it", b->name, vec.cycle);
    row += words_of(b->width);
  }
  return 0;
}

/* $rtgpu_clocks: every clock of the pending instant takes its level, all before any process runs. */
static PLI_INT32 clocks_calltf(PLI_BYTE8 *user) {
  (void)user;
  for (uint32_t i = 0; i < 32; i++) {
    if (!(instant.mask >> i & 1u)) continue;
    Binding *b = binding(instant.first_clock + i);
    if (b && b->h) put_int(b->h, (int)(instant.levels >> i & 1u));
  }
  instant.mask = 0;
  return 0;
}

/* A growing string. */
typedef struct {
  char *s;
  size_t len, cap;
} Text;

static void text_add(Text *t, const char *s, size_t n) {
  if (t->len + n + 1 > t->cap) {
    t->cap = 2 * (t->len + n + 1);
    t->s = (char *)realloc(t->s, t->cap);
  }
  memcpy(t->s + t->len, s, n);
  t->len += n;
  t->s[t->len] = 0;
}

/* An argument's value as %h, %d, %b, %o or %s print it; `trim`: no leading zeros or spaces (%0h, %0d). */
static void text_value(Text *t, vpiHandle arg, char conv, int trim) {
  s_vpi_value v;
  v.format = conv == 'd' ? vpiDecStrVal : conv == 'b' ? vpiBinStrVal : conv == 'o' ? vpiOctStrVal : conv == 's' ? vpiStringVal : vpiHexStrVal;
  vpi_get_value(arg, &v);
  const char *p = v.value.str ? v.value.str : "";
  if (trim && conv != 's') {
    while (*p == ' ') p++;
    while (*p == '0' && p[1]) p++;
  }
  text_add(t, p, strlen(p));
}

/*
 * The text `$error(format, args...)` prints: the conversions the emitted properties use (%h and %0h, %%)
 * and the common ones (%d, %b, %o, %s, %m), each taking the next argument.
 */
static char *format_error(vpiHandle call, const char *scope) {
  Text t = {0};
  text_add(&t, "", 0);
  vpiHandle args = vpi_iterate(vpiArgument, call);
  vpiHandle fmt = args ? vpi_scan(args) : NULL;
  if (!fmt) return t.s;
  s_vpi_value v;
  v.format = vpiStringVal;
  vpi_get_value(fmt, &v);
  char *format = strdup(v.value.str ? v.value.str : "");
  for (const char *p = format; *p; p++) {
    if (*p != '%') {
      text_add(&t, p, 1);
      continue;
    }
    int trim = 0;
    while (p[1] == '0' || (p[1] >= '1' && p[1] <= '9')) trim |= *++p == '0';
    char conv = p[1] ? (char)(*++p | 0x20) : '%';
    if (conv == '%') text_add(&t, "%", 1);
    else if (conv == 'm') text_add(&t, scope, strlen(scope));
    else {
      vpiHandle arg = args ? vpi_scan(args) : NULL;
      if (!arg) args = NULL;
      else text_value(&t, arg, conv == 'x' ? 'h' : conv, trim);
    }
  }
  if (args) vpi_free_object(args);
  free(format);
  return t.s;
}

static uint64_t sim_time(void) {
  s_vpi_time now;
  now.type = vpiSimTime;
  vpi_get_time(NULL, &now);
  return ((uint64_t)now.high << 32) | now.low;
}

/* A failed property's text (svFragments.ts): `<file>:<line>: assertion|assumption <Module>.<name> failed…`. */
static int property_text(const char *text) {
  const char *sep = strstr(text, ": ");
  if (!sep || sep == text || sep[-1] < '0' || sep[-1] > '9') return 0;
  const char *kind = sep + 2;
  return (!strncmp(kind, "assertion ", 10) || !strncmp(kind, "assumption ", 11)) && strstr(kind, " failed") != NULL;
}

/*
 * $error: the line vvp's own prints, in its log; a failed property's is also a report of the edge (the
 * run stops after it). Any other $error goes on, as vvp's own does.
 */
static PLI_INT32 error_calltf(PLI_BYTE8 *user) {
  (void)user;
  vpiHandle call = vpi_handle(vpiSysTfCall, NULL);
  vpiHandle scope = vpi_handle(vpiScope, call);
  const char *scope_name = scope ? vpi_get_str(vpiFullName, scope) : "";
  char *scope_copy = strdup(scope_name ? scope_name : "");
  char *text = format_error(call, scope_copy);
  vpi_printf("ERROR: %s:%d: %s\n       Time: %llu  Scope: %s\n", vpi_get_str(vpiFile, call), (int)vpi_get(vpiLineNo, call), text, (unsigned long long)sim_time(), scope_copy);
  if (!property_text(text)) {
    free(text);
    free(scope_copy);
    return 0;
  }
  uint64_t now = sim_time();
  uint64_t cycle = run.kind == RUN_CYCLES ? run.first_cycle + (now - run.time) / 10 : run.cycles_done;
  uint64_t time = run.kind == RUN_INSTANT && run.timed ? now : UINT64_MAX;
  if (!reports_len) push_word(0);
  reports[0]++;
  push_word((uint32_t)cycle);
  push_word((uint32_t)(cycle >> 32));
  push_word((uint32_t)time);
  push_word((uint32_t)(time >> 32));
  push_string(scope_copy);
  push_string(text);
  if (!stopped) {
    stopped = 1;
    vpiHandle flag = vpi_handle_by_name("rtgpu_live_tb.rtgpu_stopped", NULL);
    if (flag) put_int(flag, 1);
  }
  free(text);
  free(scope_copy);
  return 0;
}

/* CLOCKS: [first clock binding, mask, levels, target time low, high word, timed]; 1: the instant runs. */
static int start_instant(const uint32_t *p, uint32_t n, uint32_t *count) {
  if (n < 6) return send_error("malformed clocks command"), 0;
  instant.first_clock = p[0];
  instant.mask = p[1];
  instant.levels = p[2];
  vpiHandle target = vpi_handle_by_name("rtgpu_live_tb.rtgpu_target", NULL);
  if (!target) return send_error("the testbench has no rtgpu_target"), 0;
  put_words(target, 64, p + 3);
  *count = (p[5] ? 1u : 0u) | (dirty ? 2u : 0u);
  dirty = 0;
  ack_pending = 1;
  run.kind = RUN_INSTANT;
  run.first_rises = (p[1] & p[2] & 1u) != 0;
  run.timed = p[5] != 0;
  return 1;
}

/* The answer of a command once a $error stopped the run: the reports of its edge. */
static void send_reports(void) { send_reply(REPLY_REPORTS, reports, reports_len); }

/* Serves commands until one needs simulated time; returns what the testbench does next. */
static int serve(uint32_t *count) {
  *count = 0;
  if (!said_hello) {
    uint32_t hello[1] = {PROTOCOL_VERSION};
    send_reply(REPLY_HELLO, hello, 1);
    said_hello = 1;
  }
  if (vec.active) {
    if (++vec.cycle < vec.cycles && !stopped) {
      vec_apply_row();
      return SV_VECTOR_CYCLE;
    }
    vec.active = 0;
    dirty = 0;
    run.kind = RUN_NONE;
    if (stopped) send_reports();
    else if (vec.error[0]) send_error(vec.error);
    else {
      run.cycles_done += vec.cycles;
      send_reply(REPLY_OK, vec.out, vec.out_row * vec.cycles);
    }
  }
  if (ack_pending) {
    ack_pending = 0;
    if (stopped) send_reports();
    else {
      if (run.kind == RUN_CYCLES) run.cycles_done += run.cycles;
      else if (run.kind == RUN_INSTANT && run.first_rises) run.cycles_done++;
      send_reply(REPLY_OK, NULL, 0);
    }
    run.kind = RUN_NONE;
  }
  if (pending_peek != UINT32_MAX) {
    uint32_t index = pending_peek;
    pending_peek = UINT32_MAX;
    do_peek(index);
  }
  for (;;) {
    uint32_t head[2];
    if (!read_all(head, sizeof head)) return SV_FINISH;
    uint32_t op = head[0], n = head[1];
    if (n > payload_cap) {
      payload_cap = n;
      payload = (uint32_t *)realloc(payload, 4u * payload_cap);
    }
    if (n && !read_all(payload, 4u * n)) return SV_FINISH;
    switch (op) {
      case OP_BIND:
        do_bind(payload, n);
        break;
      case OP_POKE: {
        Binding *b = binding(n ? payload[0] : UINT32_MAX);
        if (b && b->h && !b->depth && n == 1 + words_of(b->width)) {
          put_words(b->h, b->width, payload + 1);
          dirty = 1;
        }
        break;
      }
      case OP_PEEK:
        if (dirty) {
          pending_peek = n ? payload[0] : UINT32_MAX;
          dirty = 0;
          return SV_SETTLE;
        }
        do_peek(n ? payload[0] : UINT32_MAX);
        break;
      case OP_STEP:
        if (stopped) {
          send_reports();
          break;
        }
        *count = n ? payload[0] : 0;
        dirty = 0;
        ack_pending = 1;
        run.kind = RUN_CYCLES;
        run.first_cycle = run.cycles_done;
        run.time = sim_time();
        run.cycles = *count;
        return SV_STEP;
      case OP_VECTORS:
        if (stopped) {
          send_reports();
          break;
        }
        if (start_vectors(payload, n)) {
          run.kind = RUN_CYCLES;
          run.first_cycle = run.cycles_done;
          run.time = sim_time();
          vec_apply_row();
          return SV_VECTOR_CYCLE;
        }
        break;
      case OP_MEM_WRITE:
        do_memory(1, payload, n);
        break;
      case OP_MEM_READ:
        do_memory(0, payload, n);
        break;
      case OP_DUMP_START: {
        vpiHandle path = vpi_handle_by_name("rtgpu_live_tb.rtgpu_vcd_path", NULL);
        uint32_t len = n ? payload[0] : 0;
        char *s = (char *)calloc(len + 1, 1);
        if (n) memcpy(s, payload + 1, len);
        s_vpi_value v;
        v.format = vpiStringVal;
        v.value.str = s;
        if (path) vpi_put_value(path, &v, NULL, vpiNoDelay);
        free(s);
        ack_pending = 1;
        return SV_DUMP_START;
      }
      case OP_DUMP_OFF:
        ack_pending = 1;
        return SV_DUMP_OFF;
      case OP_DUMP_ON:
        ack_pending = 1;
        return SV_DUMP_ON;
      case OP_SYNC:
        send_reply(REPLY_OK, NULL, 0);
        break;
      case OP_CLOCKS:
        if (stopped) send_reports();
        else if (start_instant(payload, n, count)) return SV_INSTANT;
        break;
      case OP_DUMP_FLUSH:
        ack_pending = 1;
        return SV_DUMP_FLUSH;
      case OP_FINISH:
        return SV_FINISH;
      default: {
        char msg[64];
        snprintf(msg, sizeof msg, "unknown command %u", op);
        send_error(msg);
      }
    }
  }
}

/* $rtgpu_next(op, count): both arguments are integer variables of the testbench. */
static PLI_INT32 next_calltf(PLI_BYTE8 *user) {
  (void)user;
  vpiHandle call = vpi_handle(vpiSysTfCall, NULL);
  vpiHandle args = vpi_iterate(vpiArgument, call);
  vpiHandle op_h = args ? vpi_scan(args) : NULL;
  vpiHandle count_h = op_h ? vpi_scan(args) : NULL;
  if (count_h) vpi_free_object(args);
  if (!op_h || !count_h) {
    vpi_printf("rtgpu live testbench: $rtgpu_next needs two integer variables\n");
    vpi_control(vpiFinish, 1);
    return 0;
  }
  uint32_t count = 0;
  int op = serve(&count);
  put_int(op_h, op);
  put_int(count_h, (int)count);
  return 0;
}

static void register_tasks(void) {
  s_vpi_systf_data next = {vpiSysTask, 0, (PLI_BYTE8 *)"$rtgpu_next", next_calltf, NULL, NULL, NULL};
  s_vpi_systf_data sample = {vpiSysTask, 0, (PLI_BYTE8 *)"$rtgpu_sample", sample_calltf, NULL, NULL, NULL};
  s_vpi_systf_data clocks = {vpiSysTask, 0, (PLI_BYTE8 *)"$rtgpu_clocks", clocks_calltf, NULL, NULL, NULL};
  /* Registered after vvp's own: ours is the one the design's $error calls. */
  s_vpi_systf_data error = {vpiSysTask, 0, (PLI_BYTE8 *)"$error", error_calltf, NULL, NULL, NULL};
  vpi_register_systf(&next);
  vpi_register_systf(&sample);
  vpi_register_systf(&clocks);
  vpi_register_systf(&error);
}

void (*vlog_startup_routines[])(void) = {register_tasks, 0};
