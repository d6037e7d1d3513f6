FCmp_stages1.sv
