// A two-entry FIFO written the way vendor IP is (examples/vendorip): plain Verilog-2001, a timescale,
// an active-high synchronous reset, data registers that are never reset (only valid is), a debug
// net nothing drives and a status output most users ignore. verilator -Wall warns about it; that is
// its author's business, not ours: the example waives those findings for this file only.
`timescale 1ns / 1ps
module skid_fifo #(
  parameter DATA_WIDTH = 8
) (
  input  wire                  clk,
  input  wire                  rst,
  input  wire [DATA_WIDTH-1:0] s_data,
  input  wire                  s_valid,
  output wire                  s_ready,
  output wire [DATA_WIDTH-1:0] m_data,
  output wire                  m_valid,
  input  wire                  m_ready,
  output wire                  overflow
);
  reg [DATA_WIDTH-1:0] mem0, mem1;  // no reset, no initial value: X until written
  reg                  head, tail;
  reg [1:0]            count;
  wire                 dbg_parity;  // a leftover the vendor never drove

  wire push = s_valid && s_ready;
  wire pop  = m_valid && m_ready;

  assign s_ready  = count != 2'd2;
  assign m_valid  = count != 2'd0;
  assign m_data   = head ? mem1 : mem0;
  assign overflow = 1'b0;

  always @(posedge clk) begin
    if (rst) begin
      head  <= 1'b0;
      tail  <= 1'b0;
      count <= 2'd0;
    end else begin
      if (push) tail <= ~tail;
      if (pop) head <= ~head;
      count <= count + push - pop;
    end
    if (push && !tail) mem0 <= s_data;
    if (push && tail) mem1 <= s_data;
  end
endmodule
