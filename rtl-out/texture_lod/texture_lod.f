IToF_stages2.sv
FMul_stages5.sv
FAdd_stages3.sv
FMax_stages0.sv
FMin_stages0.sv
FToI_stages2.sv
TextureLod_fadd3_fmul5_ftoi2_itof2.sv
