FToI_stages2.sv
