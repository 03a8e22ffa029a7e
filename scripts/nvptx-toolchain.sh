#!/usr/bin/env bash
#===- scripts/nvptx-toolchain.sh - CUDA tools whose cubins LLVM 19 loads --===#
#
# clang 19 compiles OpenMP offload code for NVIDIA GPUs to PTX and runs the
# CUDA toolkit's ptxas and nvlink on it. ptxas of CUDA 12.8 and later (13 on
# the machines we were lent) writes cubins with ELF ABI version 8, which
# keeps the SM in bits 8-15 of e_flags; LLVM 19's offload runtime reads it
# from bits 0-7, finds "No images found compatible with the installed
# hardware", and the program falls back to the host or crashes (fixed only
# in LLVM 21, llvm/llvm-project issue 159088). Rewriting the header does not
# help (the driver then refuses the image).
#
# So the toolkit is checked the way it will be used: a small offload program
# is compiled with it and the cubin that clang embeds must have ABI version 7
# and the SM in the low byte of e_flags. If no toolkit on the machine
# passes, ptxas, nvlink, fatbinary and libdevice of Debian's non-free
# nvidia-cuda-toolkit 11.8 (bookworm; 84 MB to download, 38 MB kept) are
# extracted into a private folder (no CUDA is installed), with a cuda.h that
# tells clang their version (clang then writes PTX 7.8, which they read).
#
#   bash scripts/nvptx-toolchain.sh sm_90          the CUDA folder to use (provided
#                                                 if needed), on stdout
#   bash scripts/nvptx-toolchain.sh --check-cubin FILE sm_90
#                                                 0 if LLVM 19 loads FILE for sm_90,
#                                                 else 1 and why on stderr
#
# Sourced by setup.sh (OMPDP_NVPTX_ARCH). OMPDP_CUDA_PATH names a toolkit to
# try first; OMPDP_CUDA_CACHE the private folder's parent (default
# ${XDG_CACHE_HOME:-$HOME/.cache}/ompdp).
#
#===----------------------------------------------------------------------===#

OMPDP_LLVM=${OMPDP_LLVM:-/usr/lib/llvm-19}

# 0 if the cubin at $1 is one LLVM 19's runtime reads as $2 (sm_XX).
ompdp_cubin_check() {
  local file=$1 arch=$2 sm abi flags
  sm=${arch#sm_}
  sm=${sm%%[!0-9]*}
  if [ ! -s "$file" ] || [ "$(head -c 4 "$file" | od -An -tx1 | tr -d ' \n')" != 7f454c46 ]; then
    echo "ompdp: $file is no ELF file (no cubin)" >&2
    return 1
  fi
  abi=$(od -An -tu1 -j8 -N1 "$file" | tr -d ' ')
  flags=$(od -An -tu4 -j48 -N4 "$file" | tr -d ' ')
  if [ "$abi" != 7 ]; then
    echo "ompdp: $file has ELF ABI version $abi (LLVM 19 reads version 7: a ptxas of CUDA" \
         "12.8 or later wrote it, and the program would find no image it can load)" >&2
    return 1
  fi
  if [ $((flags & 255)) != "$sm" ]; then
    echo "ompdp: $file is for SM $((flags & 255)), not $arch" >&2
    return 1
  fi
  return 0
}

# 0 if the toolkit at $1 builds offload code for $2 whose cubin LLVM 19 loads.
ompdp_cuda_works() {
  local cuda=$1 arch=$2 tmp rc=1
  [ -x "$cuda/bin/ptxas" ] && [ -x "$cuda/bin/nvlink" ] &&
    [ -f "$cuda/nvvm/libdevice/libdevice.10.bc" ] || return 1
  tmp=$(mktemp -d) || return 1
  printf 'int main(void) {\n  int x = 1;\n#pragma omp target map(tofrom: x)\n  x += 1;\n  return x != 2;\n}\n' > "$tmp/t.c"
  if "$OMPDP_LLVM/bin/clang" -fopenmp -fopenmp-targets=nvptx64-nvidia-cuda \
       --offload-arch="$arch" --cuda-path="$cuda" \
       --libomptarget-nvptx-bc-path="$OMPDP_LLVM/lib/libomptarget-nvptx-$arch.bc" \
       "$tmp/t.c" -o "$tmp/t" >"$tmp/log" 2>&1 &&
     (cd "$tmp" && "$OMPDP_LLVM/bin/clang-offload-packager" t --image=file=t.cubin,arch="$arch") \
       >>"$tmp/log" 2>&1 &&
     ompdp_cubin_check "$tmp/t.cubin" "$arch" 2>>"$tmp/log"; then
    rc=0
  else
    sed -n '1,3s/^/  /p' "$tmp/log" >&2
  fi
  rm -rf "$tmp"
  return $rc
}

# Debian's nvidia-cuda-toolkit 11.8 pieces into $1 (from bookworm non-free,
# through a private apt list: the machine's sources stay as they are).
ompdp_cuda_provide() {
  local dest=$1 tmp sudo="" mirror suite
  tmp=$(mktemp -d) || return 1
  mirror=$(sed -n 's/^URIs:[[:space:]]*\(http[^ ]*debian\/\?\)[[:space:]]*$/\1/p' \
             /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)
  [ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $2 ~ /debian\/?$/ { print $2; exit }' \
                                 /etc/apt/sources.list 2>/dev/null)
  [ -n "$mirror" ] || mirror=http://deb.debian.org/debian
  suite=$(. /etc/os-release 2>/dev/null; echo "${VERSION_CODENAME:-bookworm}")
  echo "deb $mirror $suite non-free" > "$tmp/sources.list"
  mkdir -p "$tmp/lists/partial"
  local apt=(-o "Dir::Etc::SourceList=$tmp/sources.list" -o Dir::Etc::SourceParts=/dev/null
             -o "Dir::State::Lists=$tmp/lists" -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
             -o APT::Sandbox::User=root)
  echo "ompdp: fetching ptxas, nvlink and libdevice of CUDA 11.8 (Debian's nvidia-cuda-toolkit," \
       "non-free, 84 MB) into $dest" >&2
  if ! (cd "$tmp" && apt-get "${apt[@]}" update -qq >/dev/null 2>"$tmp/err" &&
        apt-get "${apt[@]}" download nvidia-cuda-toolkit >/dev/null 2>>"$tmp/err"); then
    echo "ompdp: cannot download nvidia-cuda-toolkit from $mirror $suite non-free:" \
         "$(tail -n1 "$tmp/err")" >&2
    rm -rf "$tmp"
    return 1
  fi
  local deb version
  deb=$(ls "$tmp"/nvidia-cuda-toolkit_*.deb | head -n1)
  version=$(dpkg-deb -f "$deb" Version)
  dpkg -x "$deb" "$tmp/x"
  rm -rf "$dest.new" && mkdir -p "$dest.new/bin" "$dest.new/nvvm/libdevice" "$dest.new/include"
  cp "$tmp/x/usr/bin/ptxas" "$tmp/x/usr/bin/nvlink" "$tmp/x/usr/bin/fatbinary" "$dest.new/bin/" &&
    cp "$tmp/x/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc" "$dest.new/nvvm/libdevice/"
  local rc=$?
  # clang reads the toolkit's version from include/cuda.h; the rest of the
  # header is of no use to an OpenMP build.
  local major minor
  major=$(echo "$version" | sed -n 's/^\([0-9]*\)\.\([0-9]*\).*/\1/p')
  minor=$(echo "$version" | sed -n 's/^\([0-9]*\)\.\([0-9]*\).*/\2/p')
  printf '/* ompdp: the version of the CUDA tools in this folder (%s), for clang */\n#define CUDA_VERSION %d\n' \
    "$version" $((major * 1000 + minor * 10)) > "$dest.new/include/cuda.h"
  echo "nvidia-cuda-toolkit $version (Debian non-free): bin/ptxas bin/nvlink bin/fatbinary" \
       "nvvm/libdevice/libdevice.10.bc" > "$dest.new/SOURCE"
  rm -rf "$tmp"
  [ $rc = 0 ] && rm -rf "$dest" && mv "$dest.new" "$dest"
}

# The CUDA folder for $1 (sm_XX) on stdout: OMPDP_CUDA_PATH, /usr/local/cuda
# or /usr/lib/cuda if they build loadable cubins, else the private one
# (fetched unless OMPDP_CUDA_FETCH=0, when only one already there counts).
ompdp_cuda_path() {
  local arch=$1 cand cache
  cache=${OMPDP_CUDA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ompdp}/cuda-11.8
  for cand in ${OMPDP_CUDA_PATH:-} /usr/local/cuda /usr/lib/cuda "$cache"; do
    [ -d "$cand" ] || continue
    if ompdp_cuda_works "$cand" "$arch"; then
      echo "$cand"
      return 0
    fi
    [ "$cand" = "$cache" ] || echo "ompdp: $cand does not build cubins LLVM 19 can load for $arch" >&2
  done
  [ "${OMPDP_CUDA_FETCH:-1}" != 0 ] && ompdp_cuda_provide "$cache" &&
    ompdp_cuda_works "$cache" "$arch" && { echo "$cache"; return 0; }
  echo "ompdp: no CUDA toolkit builds cubins LLVM 19 can load for $arch" >&2
  return 1
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -uo pipefail
  case "${1:-}" in
    --check-cubin)
      [ $# = 3 ] || { echo "usage: $0 --check-cubin FILE sm_XX" >&2; exit 2; }
      ompdp_cubin_check "$2" "$3" ;;
    sm_*) ompdp_cuda_path "$1" ;;
    *) echo "usage: $0 sm_XX | --check-cubin FILE sm_XX" >&2; exit 2 ;;
  esac
fi
