// A registered multiply-accumulate in plain Verilog-2001: the existing module the black-box example instantiates.
//
// Every rising edge: acc <= (clear ? 0 : acc) + (en ? a * b : 0); a synchronous active-low reset clears acc.
module mac #(
  parameter WIDTH = 8,       // operand width
  parameter ACC_WIDTH = 24   // accumulator width, more than 2 * WIDTH (headroom for the sum)
) (
  input  wire                 clk,
  input  wire                 reset_n,
  input  wire                 en,     // add a * b this cycle
  input  wire                 clear,  // start a new sum (with a * b when en is high)
  input  wire [WIDTH-1:0]     a,
  input  wire [WIDTH-1:0]     b,
  output reg  [ACC_WIDTH-1:0] acc
);
  wire [2*WIDTH-1:0]   product = a * b;
  wire [ACC_WIDTH-1:0] addend  = en ? {{(ACC_WIDTH - 2*WIDTH){1'b0}}, product} : {ACC_WIDTH{1'b0}};
  wire [ACC_WIDTH-1:0] base    = clear ? {ACC_WIDTH{1'b0}} : acc;

`ifndef SYNTHESIS
  // The power-on value of the TypeScript model's register (a 4-state simulator would show X until reset).
  initial acc = {ACC_WIDTH{1'b0}};
`endif

  always @(posedge clk) begin
    if (!reset_n) acc <= {ACC_WIDTH{1'b0}};
    else acc <= base + addend;
  end
endmodule
