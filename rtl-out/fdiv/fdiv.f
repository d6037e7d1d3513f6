FDiv_stages14.sv
