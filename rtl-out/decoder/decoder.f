Decoder_n6.sv
