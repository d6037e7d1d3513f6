// rtgpu live testbench for Icarus Verilog (template: the {{...}} parts are generated per design).
// Node drives it through the VPI module icarus_live_vpi.c: run as
//   vvp -n -M <dir> -m rtgpu_live sim.vvp    with the command pipe on fd 3 and the reply pipe on fd 4.
// One clock cycle is 10 time units: inputs settle at 10c with the clock low, it rises at 10c + 5 (and
// falls at 10c + 10). A design with several clocks runs instant by instant at their times in ps.
module rtgpu_live_tb;
{{TIMEUNIT}}
{{CLOCK_DECLS}}
{{DECLS}}
  integer op = 0;
  integer count = 0;
  logic [63:0] rtgpu_target = 0;
  reg [8*4096-1:0] rtgpu_vcd_path = 0;
  logic rtgpu_power_on_done = 1'b0;
  logic rtgpu_settled = 1'b0;
  // Set by the VPI module's $error (a failed property): a step ends after that cycle.
  logic rtgpu_stopped = 1'b0;

  {{TOP}} dut (
{{CONNS}}
  );

  // Settles what pokes or clock edges set off: the nonblocking updates they cause (an asynchronous reset
  // asserted between edges), those these cause in turn (a reset synchronizer's output resetting its
  // domain's registers at once), and the logic they feed. Four rounds: reset chains are one or two deep.
  task automatic rtgpu_settle;
    repeat (4) begin
      #0 rtgpu_settled <= ~rtgpu_settled;
      @(rtgpu_settled);
    end
    #0;
  endtask

  initial begin
    // Asynchronous resets power on low: a falling edge makes their registers take the reset (as a level).
{{POWER_ON_RESETS}}
    forever begin
      $rtgpu_next(op, count);
      case (op)
        1: rtgpu_settle;
        2: begin
          while (count > 0 && !rtgpu_stopped) begin
            #5 {{CLOCK_HIGH}}
            #5 {{CLOCK_LOW}}
            count = count - 1;
          end
{{STEP_FALL_SETTLE}}
          // The waveform is complete after every step call (a no-op while nothing is dumped).
          $dumpflush;
        end
        3: begin
          #5 $rtgpu_sample;
          {{CLOCK_HIGH}}
          #5 {{CLOCK_LOW}}
        end
        4: begin
          $dumpfile(rtgpu_vcd_path);
          {{DUMPVARS}}
        end
        5: begin
          $dumpflush;
          $dumpoff;
        end
        6: $dumpon;
        // One instant: inputs changed since the last settle settle first (count[1]); time moves to the
        // instant's; every clock that changes takes its level at once ($rtgpu_clocks), so registers on
        // simultaneous edges all sample the values before them. Then all settles: 1 ps later (count[0],
        // timed: inputs poked next show after the instant) or at the same time.
        8: begin
          if (count[1]) rtgpu_settle;
          if (rtgpu_target > $time) #(rtgpu_target - $time);
          $rtgpu_clocks;
          if (count[0]) #1;
          else rtgpu_settle;
        end
        9: $dumpflush;
        default: $finish;
      endcase
    end
  end
endmodule
