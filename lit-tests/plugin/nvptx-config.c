// ===- nvptx-config.c - lib/ompdp-nvptx.cfg builds cubins LLVM 19 loads ----===//
//
// One --config= is all an NVIDIA offload build needs, and its cubins must be
// ones LLVM 19's offload runtime loads: ELF ABI version 7 with the SM in the
// low byte of e_flags. A ptxas of CUDA 12.8 or later writes ABI version 8
// (the SM in bits 8-15); LLVM 19 then finds "No images found compatible"
// and the program runs on the host or crashes. scripts/setup.sh (with
// OMPDP_NVPTX_ARCH) picks CUDA tools that pass this check, and CI checks it
// here without a GPU. The checker itself refuses an ABI 8 header and the
// wrong SM (negative cases). plugin/nvptx-no-gpu.c runs such a build where
// there is no GPU.
//
// REQUIRES: plugin, cuda
// RUN: rm -rf %t.d && mkdir -p %t.d && cd %t.d
// RUN: %clang --config=%nvptx-cfg -O1 %S/../gpu/Inputs/sum.c -o %t.d/prog -Wl,-rpath,%llvm-libdir
// RUN: llvm-objdump --offloading %t.d/prog | FileCheck %s --check-prefix=IMAGE -DARCH=%nvptx-arch
// IMAGE: arch [[ARCH]]
// IMAGE: triple nvptx64-nvidia-cuda
// RUN: clang-offload-packager %t.d/prog --image=file=%t.d/img.cubin,arch=%nvptx-arch
// RUN: llvm-readelf -h %t.d/img.cubin | FileCheck %s --check-prefix=HEADER -DARCH=%nvptx-arch
// HEADER: OS/ABI: NVIDIA - CUDA
// HEADER-NEXT: ABI Version: 7
// HEADER: Machine: NVIDIA CUDA architecture
// HEADER: Flags: 0x{{[0-9A-F]+}}, [[ARCH]]
// RUN: bash %src-root/scripts/nvptx-toolchain.sh --check-cubin %t.d/img.cubin %nvptx-arch
//
// The checker refuses what LLVM 19 cannot load: ABI version 8 (byte 8),
// another SM (the low byte of e_flags, at 48), no ELF at all.
// RUN: %python -c "import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[8] = 8; open(sys.argv[2], 'wb').write(b)" %t.d/img.cubin %t.d/abi8.cubin
// RUN: not bash %src-root/scripts/nvptx-toolchain.sh --check-cubin %t.d/abi8.cubin %nvptx-arch 2>&1 | FileCheck %s --check-prefix=ABI8
// ABI8: has ELF ABI version 8 (LLVM 19 reads version 7
// RUN: %python -c "import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[48] = 52; open(sys.argv[2], 'wb').write(b)" %t.d/img.cubin %t.d/sm52.cubin
// RUN: not bash %src-root/scripts/nvptx-toolchain.sh --check-cubin %t.d/sm52.cubin %nvptx-arch 2>&1 | FileCheck %s --check-prefix=SM -DARCH=%nvptx-arch
// SM: is for SM 52, not [[ARCH]]
// RUN: not bash %src-root/scripts/nvptx-toolchain.sh --check-cubin %s %nvptx-arch 2>&1 | FileCheck %s --check-prefix=NOELF
// NOELF: is no ELF file (no cubin)
