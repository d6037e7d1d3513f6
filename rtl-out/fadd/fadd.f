FAdd_stages3.sv
