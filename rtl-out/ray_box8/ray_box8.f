FAdd_stages3.sv
FMul_stages3.sv
FMax_stages0.sv
FMin_stages0.sv
FCmp_stages0.sv
RayBox8_fadd3_fmul3_tagBits16.sv
