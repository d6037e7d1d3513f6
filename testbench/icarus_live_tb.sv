// rtgpu live testbench for Icarus Verilog (template: the {{...}} parts are generated per design).
// Node drives it through the VPI module icarus_live_vpi.c: run as
//   vvp -n -M <dir> -m rtgpu_live sim.vvp    with the command pipe on fd 3 and the reply pipe on fd 4.
// One clock cycle is 10 time units: inputs settle at 10c with clk low, clk rises at 10c + 5.
module rtgpu_live_tb;
  logic clk = 1'b0;
{{DECLS}}
  integer op = 0;
  integer count = 0;
  reg [8*4096-1:0] rtgpu_vcd_path = 0;
  logic rtgpu_power_on_done = 1'b0;
  logic rtgpu_settled = 1'b0;

  {{TOP}} dut (
{{CONNS}}
  );

  initial begin
    // Asynchronous resets power on low: a falling edge makes their registers take the reset (as a level).
{{POWER_ON_RESETS}}
    forever begin
      $rtgpu_next(op, count);
      case (op)
        // Settle after pokes: past the nonblocking updates an input change causes (an asynchronous
        // reset asserted between edges), then the logic they feed.
        1: begin
          #0 rtgpu_settled <= ~rtgpu_settled;
          @(rtgpu_settled);
          #0;
        end
        2: begin
          repeat (count) begin
            #5 clk = 1'b1;
            #5 clk = 1'b0;
          end
          // The waveform is complete after every step call (a no-op while nothing is dumped).
          $dumpflush;
        end
        3: begin
          #5 $rtgpu_sample;
          clk = 1'b1;
          #5 clk = 1'b0;
        end
        4: begin
          $dumpfile(rtgpu_vcd_path);
          $dumpvars(0, rtgpu_live_tb);
        end
        5: begin
          $dumpflush;
          $dumpoff;
        end
        6: $dumpon;
        default: $finish;
      endcase
    end
  end
endmodule
