FMul_stages3.sv
