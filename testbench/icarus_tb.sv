// rtgpu co-simulation testbench for Icarus Verilog (template: the {{...}} parts are generated per design).
// Run: vvp sim.vvp +stim=<stimulus.hex> +out=<outputs.hex> +cycles=<n>
// Per cycle: apply one row of input words, let logic settle, record the outputs, rising clock edge.
module rtgpu_tb;
{{DECLS}}
  integer fi, fo, c, cycles, r;
  logic [31:0] w;
  reg [8*1024-1:0] stim_path, out_path;

  {{TOP}} dut (
{{CONNS}}
  );

  initial begin
    if (!$value$plusargs("stim=%s", stim_path) || !$value$plusargs("out=%s", out_path) || !$value$plusargs("cycles=%d", cycles)) begin
      $display("usage: vvp sim.vvp +stim=FILE +out=FILE +cycles=N");
      $finish;
    end
    fi = $fopen(stim_path, "r");
    fo = $fopen(out_path, "w");
    if (fi == 0 || fo == 0) begin
      $display("cannot open the stimulus or output file");
      $finish;
    end
    // Power-on: 1-bit inputs start high, as in the Verilator harness.
{{POWER_ON}}
    #1;
    for (c = 0; c < cycles; c = c + 1) begin
{{APPLY}}
      #1;
      $fwrite(fo, "{{FORMAT}}\n"{{OUTS}});
{{CLOCK}}
    end
    $fclose(fo);
    $finish;
  end
endmodule
