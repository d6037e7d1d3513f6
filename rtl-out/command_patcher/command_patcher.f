CommandPatcher.sv
