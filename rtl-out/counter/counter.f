Counter_max9.sv
