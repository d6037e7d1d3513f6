#!/usr/bin/env bash
# Installs the external tools rtgpu's tests use (Verilator, Icarus Verilog, Yosys with yosys-smtbmc, the z3 solver that
# `rtgpu prove` runs, nextpnr-ice40, and the make, C++ compiler and ccache that Verilator builds and Icarus VPI modules
# use) from Debian packages when missing.
set -euo pipefail

missing=()
command -v verilator >/dev/null 2>&1 || missing+=(verilator)
{ command -v iverilog >/dev/null 2>&1 && command -v vvp >/dev/null 2>&1; } || missing+=(iverilog)
# yosys-smtbmc (the formal flow's bounded model checker) comes with the yosys package.
{ command -v yosys >/dev/null 2>&1 && command -v yosys-smtbmc >/dev/null 2>&1; } || missing+=(yosys)
command -v z3 >/dev/null 2>&1 || missing+=(z3)
command -v nextpnr-ice40 >/dev/null 2>&1 || missing+=(nextpnr-ice40)
command -v make >/dev/null 2>&1 || missing+=(make)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
# Not required: Verilator builds use it to compile Verilator's runtime library once instead of in every build.
command -v ccache >/dev/null 2>&1 || missing+=(ccache)

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-tools: verilator, iverilog, yosys (with yosys-smtbmc), z3, nextpnr-ice40, make, g++ and ccache are installed"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  if [ "${missing[*]}" = ccache ]; then
    echo "install-tools: ccache is not installed (optional: Verilator builds are faster with it; sudo apt-get install -y ccache)"
    exit 0
  fi
  echo "install-tools: missing ${missing[*]}; install them as root:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi

echo "install-tools: installing ${missing[*]} from Debian packages"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
