#!/usr/bin/env bash
#===- scripts/setup.sh - install what ompdp needs, then build it ---------===#
#
# Installs the Debian bookworm packages (only those missing), configures and
# builds ompdp into $OMPDP_BUILD (default: ./build). Sourced by demo.sh and
# test.sh; safe to run again.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

OMPDP_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OMPDP_BUILD="${OMPDP_BUILD:-$OMPDP_ROOT/build}"
OMPDP_PACKAGES=(clang-19 libomp-19-dev llvm-19-dev libclang-19-dev llvm-19-tools
                libdw-dev libxxhash-dev cmake make python3)

ompdp_install_packages() {
  local missing=()
  for p in "${OMPDP_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "ompdp: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

ompdp_build() {
  cmake -S "$OMPDP_ROOT" -B "$OMPDP_BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
  cmake --build "$OMPDP_BUILD" -j"$(nproc)"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  ompdp_install_packages
  ompdp_build "$@"
fi
