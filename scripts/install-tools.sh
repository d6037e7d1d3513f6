#!/usr/bin/env bash
# Installs the external tools rtgpu's tests use (Verilator, Icarus Verilog, Yosys) from Debian packages when missing.
set -euo pipefail

missing=()
command -v verilator >/dev/null 2>&1 || missing+=(verilator)
{ command -v iverilog >/dev/null 2>&1 && command -v vvp >/dev/null 2>&1; } || missing+=(iverilog)
command -v yosys >/dev/null 2>&1 || missing+=(yosys)

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-tools: verilator, iverilog and yosys are installed"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-tools: missing ${missing[*]}; install them as root:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi

echo "install-tools: installing ${missing[*]} from Debian packages"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
