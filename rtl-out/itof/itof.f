IToF_stages2.sv
