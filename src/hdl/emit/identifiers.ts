// SystemVerilog identifier legalization: escapes reserved words of the languages our tools read.

// IEEE 1800-2017 keywords plus Verilog-2005 and a few tool-reserved names (C++ keywords are added below).
const reserved = new Set(
  `accept_on alias always always_comb always_ff always_latch and assert assign assume automatic before begin bind bins binsof bit break
buf bufif0 bufif1 byte case casex casez cell chandle checker class clocking cmos config const constraint context continue cover covergroup
coverpoint cross deassign default defparam design disable dist do edge else end endcase endchecker endclass endclocking endconfig endfunction
endgenerate endgroup endinterface endmodule endpackage endprimitive endprogram endproperty endspecify endsequence endtable endtask enum event
eventually expect export extends extern final first_match for force foreach forever fork forkjoin function generate genvar global highz0
highz1 if iff ifnone ignore_bins illegal_bins implements implies import incdir include initial inout input inside instance int integer
interconnect interface intersect join join_any join_none large let liblist library local localparam logic longint macromodule matches medium
modport module nand negedge nettype new nexttime nmos nor noshowcancelled not notif0 notif1 null or output package packed parameter pmos
posedge primitive priority program property protected pull0 pull1 pulldown pullup pulsestyle_ondetect pulsestyle_onevent pure rand randc
randcase randsequence rcmos real realtime ref reg reject_on release repeat restrict return rnmos rpmos rtran rtranif0 rtranif1 s_always
s_eventually s_nexttime s_until s_until_with scalared sequence shortint shortreal showcancelled signed small soft solve specify specparam
static string strong strong0 strong1 struct super supply0 supply1 sync_accept_on sync_reject_on table tagged task this throughout time
timeprecision timeunit tran tranif0 tranif1 tri tri0 tri1 triand trior trireg type typedef union unique unique0 unsigned until until_with
untyped use uwire var vectored virtual void wait wait_order wand weak weak0 weak1 while wildcard wire with within wor xnor xor`.split(/\s+/),
);

// C++ keywords: Verilator turns every signal into a C++ member and warns (SYMRSVDWORD) on these.
const cppReserved = `alignas alignof and_eq asm atomic_cancel atomic_commit atomic_noexcept auto bitand bitor bool case catch char char8_t char16_t
char32_t compl concept const_cast consteval constexpr constinit co_await co_return co_yield decltype delete double dynamic_cast explicit
false float friend goto inline long mutable namespace noexcept not_eq nullptr operator or_eq private public reflexpr register
reinterpret_cast requires short sizeof static_assert static_cast switch template thread_local throw true try typeid typename using
volatile wchar_t xor_eq NULL`.split(/\s+/);
for (const w of cppReserved) reserved.add(w);

/** A legal SV identifier for `name`: reserved words get a trailing underscore. */
export function legalizeIdentifier(name: string): string {
  let s = name.replace(/[^A-Za-z0-9_$]/g, '_');
  if (!/^[A-Za-z_]/.test(s)) s = `_${s}`;
  return reserved.has(s) ? `${s}_` : s;
}

/** Maps every name of one module to a unique legal identifier (renaming never collides). */
export class IdentifierMap {
  private readonly taken = new Set<string>();
  private readonly map = new Map<string, string>();

  constructor(fixed: readonly string[]) {
    for (const f of fixed) this.taken.add(f);
  }

  get(name: string): string {
    return this.named(name, name);
  }

  /** The identifier for key `key`, made from `preferred` the first time (for names that are not nets, such as enum members). */
  named(key: string, preferred: string): string {
    let id = this.map.get(key);
    if (id === undefined) {
      const base = legalizeIdentifier(preferred);
      id = base;
      for (let i = 1; this.taken.has(id); i++) id = `${base}_${i}`;
      this.taken.add(id);
      this.map.set(key, id);
    }
    return id;
  }

  /** Every name mapped so far, with its identifier (keys given to `named` with a NUL in them are left out). */
  entries(): Record<string, string> {
    return Object.fromEntries([...this.map].filter(([k]) => !k.includes('\u0000')));
  }
}
