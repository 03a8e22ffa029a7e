#!/usr/bin/env bash
#===- scripts/setup.sh - install what ompdp needs, check it, build ompdp --===#
#
# Installs the Debian bookworm packages (only those missing), checks that
# every program and file ompdp relies on is there, and builds ompdp into
# $OMPDP_BUILD (default: ./build). Sourced by demo.sh and test.sh; safe to
# run again.
#
#   bash scripts/setup.sh [CMAKE_ARGS...]   install, check, build
#   bash scripts/setup.sh --check           check only; one line per missing
#                                           file, naming its package; exit 1
#   bash scripts/setup.sh --list            the table below, "package path"
#
# The check exists because a package that a developer's machine happens to
# have (clang-tools-19, whose clang-offload-packager every offload link runs)
# is invisible until a fresh machine lacks it. OMPDP_CHECK_ROOT (default
# empty) is prepended to every path, so a test can check a fake tree.
# OMPDP_NVPTX_ARCH=sm_XX adds what an NVIDIA build needs: the device
# runtime's bitcode for that arch, and CUDA tools whose cubins LLVM 19's
# runtime loads (scripts/nvptx-toolchain.sh: the machine's own if they do,
# else those of CUDA 11.8 from Debian, in a private folder), which
# build/lib/ompdp-nvptx.cfg then names.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

OMPDP_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OMPDP_BUILD="${OMPDP_BUILD:-$OMPDP_ROOT/build}"
OMPDP_LLVM=/usr/lib/llvm-19

# One line per package: the package, then the files of it that ompdp uses.
# This is the only list: installing and checking both read it.
OMPDP_REQUIRES=(
  "clang-19           /usr/bin/clang-19 /usr/bin/clang++-19 $OMPDP_LLVM/lib/cmake/clang/ClangConfig.cmake"
  "clang-tools-19     $OMPDP_LLVM/bin/clang-offload-packager $OMPDP_LLVM/bin/clang-linker-wrapper $OMPDP_LLVM/bin/clang-apply-replacements"
  "libclang-19-dev    $OMPDP_LLVM/include/clang/Frontend/FrontendPluginRegistry.h"
  "libclang-rt-19-dev $OMPDP_LLVM/lib/clang/19/lib/linux/libclang_rt.asan-x86_64.so $OMPDP_LLVM/lib/clang/19/lib/linux/libclang_rt.tsan-x86_64.so $OMPDP_LLVM/lib/clang/19/lib/linux/libclang_rt.fuzzer-x86_64.a"
  "libomp-19-dev      $OMPDP_LLVM/lib/libomp.so $OMPDP_LLVM/lib/libomptarget.so $OMPDP_LLVM/lib/clang/19/include/omp-tools.h"
  "llvm-19-dev        $OMPDP_LLVM/lib/cmake/llvm/LLVMConfig.cmake"
  "llvm-19            $OMPDP_LLVM/bin/llvm-readelf"
  "llvm-19-tools      $OMPDP_LLVM/bin/FileCheck $OMPDP_LLVM/bin/not $OMPDP_LLVM/bin/split-file $OMPDP_LLVM/build/utils/lit/lit.py"
  "libdw-dev          /usr/include/elfutils/libdwfl.h"
  "libxxhash-dev      /usr/include/xxhash.h"
  "libjansson-dev     /usr/include/jansson.h"
  "openmpi-bin        /usr/bin/mpirun"
  "libopenmpi-dev     /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h /usr/bin/mpicc"
  "chromium           /usr/bin/chromium"
  "nodejs             /usr/bin/node"
  "npm                /usr/bin/npm"
  "neovim             /usr/bin/nvim"
  "cmake              /usr/bin/cmake"
  "make               /usr/bin/make"
  "python3            /usr/bin/python3"
)
if [ -n "${OMPDP_NVPTX_ARCH:-}" ]; then
  OMPDP_REQUIRES+=("libomp-19-dev $OMPDP_LLVM/lib/libomptarget-nvptx-$OMPDP_NVPTX_ARCH.bc")
fi

ompdp_packages() {
  local line
  for line in "${OMPDP_REQUIRES[@]}"; do
    echo "${line%% *}"
  done | sort -u
}

# Whether every file the table takes from package $1 is there, whoever
# installed it: NodeSource's nodejs carries npm and conflicts with Debian's.
ompdp_has_files() {
  local line path
  for line in "${OMPDP_REQUIRES[@]}"; do
    [ "${line%% *}" = "$1" ] || continue
    for path in ${line#* }; do
      [ -e "${OMPDP_CHECK_ROOT:-}$path" ] || return 1
    done
  done
}

ompdp_install_packages() {
  local missing=() p
  for p in $(ompdp_packages); do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
      ompdp_has_files "$p" || missing+=("$p")
  done
  if [ ${#missing[@]} -ne 0 ]; then
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
      # A Debian installed with a root password has no sudo.
      if ! command -v sudo >/dev/null; then
        echo "ompdp: installing ${missing[*]} needs root: run this as root, or install sudo" >&2
        return 1
      fi
      sudo="sudo"
    fi
    echo "ompdp: installing ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
  ompdp_check || return 1
  if [ -n "${OMPDP_NVPTX_ARCH:-}" ]; then
    source "$OMPDP_ROOT/scripts/nvptx-toolchain.sh"
    OMPDP_NVPTX_CUDA=$(ompdp_cuda_path "$OMPDP_NVPTX_ARCH") || return 1
    echo "ompdp: NVIDIA $OMPDP_NVPTX_ARCH builds use the CUDA tools in $OMPDP_NVPTX_CUDA"
  fi
}

# Every file of the table must exist; each missing one is one line naming
# the package to install. Returns 1 if any is missing.
ompdp_check() {
  local line pkg path bad=0
  for line in "${OMPDP_REQUIRES[@]}"; do
    pkg="${line%% *}"
    for path in ${line#* }; do
      if [ ! -e "${OMPDP_CHECK_ROOT:-}$path" ]; then
        echo "ompdp: missing $path: install the Debian package $pkg" >&2
        bad=1
      fi
    done
  done
  return $bad
}

ompdp_build() {
  local nvptx=()
  if [ -n "${OMPDP_NVPTX_CUDA:-}" ]; then
    nvptx=(-DOMPDP_NVPTX_ARCH="$OMPDP_NVPTX_ARCH" -DOMPDP_CUDA_PATH="$OMPDP_NVPTX_CUDA")
  else
    # No NVIDIA arch asked for: lib/ompdp-nvptx.cfg names a toolkit already
    # on the machine whose cubins LLVM 19 loads for sm_90 (nothing fetched).
    # Where there is a toolkit but none passes (CUDA 12.8 and later), it
    # names none, so that an NVIDIA build stops at its compile ("cannot find
    # libdevice") instead of finding no image at run time.
    # shellcheck source=nvptx-toolchain.sh
    source "$OMPDP_ROOT/scripts/nvptx-toolchain.sh"
    local cuda
    if cuda=$(OMPDP_CUDA_FETCH=0 ompdp_cuda_path sm_90 2>/dev/null); then
      nvptx=(-DOMPDP_CUDA_PATH="$cuda")
    elif [ -d "${OMPDP_CUDA_PATH:-/usr/local/cuda}/bin" ] || [ -d /usr/lib/cuda/bin ]; then
      echo "ompdp: no CUDA toolkit here builds cubins LLVM 19 can load, so" \
           "build/lib/ompdp-nvptx.cfg names none; OMPDP_NVPTX_ARCH=sm_XX bash scripts/setup.sh fetches one" >&2
      nvptx=(-DOMPDP_CUDA_PATH=)
    fi
  fi
  cmake -S "$OMPDP_ROOT" -B "$OMPDP_BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${nvptx[@]}" "$@" >/dev/null
  cmake --build "$OMPDP_BUILD" -j"$(nproc)"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  case "${1:-}" in
    --check) ompdp_check && echo "ompdp: every required file is present"; exit ;;
    --list)
      for line in "${OMPDP_REQUIRES[@]}"; do
        for path in ${line#* }; do echo "${line%% *} $path"; done
      done
      exit 0 ;;
  esac
  ompdp_install_packages
  ompdp_build "$@"
fi
