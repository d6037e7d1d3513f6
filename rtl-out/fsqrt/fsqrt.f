FSqrt_stages13.sv
