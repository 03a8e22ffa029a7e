#===- cmake/ompdp_plugin.cmake - the compiler half of ompdp ---------------===#
#
# Builds lib/ompdp.so (Clang frontend plugin + LLVM pass plugin in one module)
# and lib/ompdp.cfg (the clang config file users add with --config=), and
# defines ompdp_instrument(<target>) for CMake users. Skipped, with a
# message, when the LLVM 19 / Clang 19 development files are missing.
#
#===----------------------------------------------------------------------===#
# find_package(LLVM 19) rejects 19.1.x (LLVM's version file wants the
# minor version too), so look again without a version and check the major.
if(NOT LLVM_FOUND)
  find_package(LLVM CONFIG QUIET
    HINTS /usr/lib/llvm-19/lib/cmake/llvm NO_DEFAULT_PATH)
endif()
if(NOT LLVM_FOUND OR NOT LLVM_VERSION_MAJOR EQUAL 19)
  message(STATUS "ompdp: LLVM 19 development files not found; not building lib/ompdp.so")
  return()
endif()
find_package(Clang CONFIG QUIET
  HINTS ${LLVM_DIR}/../clang /usr/lib/llvm-19/lib/cmake/clang NO_DEFAULT_PATH)
if(NOT Clang_FOUND OR NOT EXISTS ${CLANG_INCLUDE_DIRS}/clang/Frontend/FrontendPluginRegistry.h)
  message(STATUS "ompdp: Clang 19 development files not found; not building lib/ompdp.so")
  return()
endif()

separate_arguments(OMPDP_LLVM_DEFS NATIVE_COMMAND "${LLVM_DEFINITIONS}")
add_subdirectory(${CMAKE_SOURCE_DIR}/region-table ${CMAKE_BINARY_DIR}/region-table)

add_library(ompdp-plugin MODULE
  ${CMAKE_SOURCE_DIR}/clang-plugin/OmpdpPlugin.cpp
  ${CMAKE_SOURCE_DIR}/clang-plugin/OmpdpAction.cpp
  ${CMAKE_SOURCE_DIR}/clang-plugin/PluginArgs.cpp
  ${CMAKE_SOURCE_DIR}/clang-plugin/RegionCollector.cpp
  ${CMAKE_SOURCE_DIR}/clang-plugin/HostContext.cpp
  ${CMAKE_SOURCE_DIR}/clang-plugin/UseBounds.cpp
  ${CMAKE_SOURCE_DIR}/clang-plugin/Markers.cpp
  ${CMAKE_SOURCE_DIR}/clang-plugin/Routines.cpp
  ${CMAKE_SOURCE_DIR}/clang-plugin/Calls.cpp
  $<TARGET_OBJECTS:ompdp-region-table>
  ${CMAKE_SOURCE_DIR}/clang-plugin/AccessAnalysis.cpp
  ${CMAKE_SOURCE_DIR}/clang-plugin/JumpCheck.cpp
  ${CMAKE_SOURCE_DIR}/clang-plugin/WritesAll.cpp
  ${CMAKE_SOURCE_DIR}/clang-plugin/FreshHost.cpp
  ${CMAKE_SOURCE_DIR}/clang-plugin/CopyOf.cpp
  ${CMAKE_SOURCE_DIR}/clang-plugin/HostUnread.cpp
  ${CMAKE_SOURCE_DIR}/clang-plugin/HostValues.cpp
  ${CMAKE_SOURCE_DIR}/clang-plugin/CompileCommand.cpp
  ${CMAKE_SOURCE_DIR}/llvm-pass/OmpdpPassPlugin.cpp
  ${CMAKE_SOURCE_DIR}/llvm-pass/TagOffloadCalls.cpp
  ${CMAKE_SOURCE_DIR}/clang-plugin/ProfileDiagnostics.cpp)
set_target_properties(ompdp-plugin PROPERTIES
  OUTPUT_NAME ompdp PREFIX "" SUFFIX ".so"
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib
  CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
target_include_directories(ompdp-plugin SYSTEM PRIVATE
  ${LLVM_INCLUDE_DIRS} ${CLANG_INCLUDE_DIRS})
target_include_directories(ompdp-plugin PRIVATE ${CMAKE_SOURCE_DIR}/include
                           ${CMAKE_SOURCE_DIR}/region-table)
# -fplugin-arg-ompdp-profile= reads reports with the report library's
# reader and plans fix-its with its fix planner (static libraries built
# -fPIC, hidden symbols; jansson comes from its shared library).
target_link_libraries(ompdp-plugin PRIVATE ompdp-report-reader ompdp-report)
target_compile_options(ompdp-plugin PRIVATE ${OMPDP_LLVM_DEFS} -fno-rtti
  -Wno-unused-parameter)
# Clang's AST headers, parsed once for the plugin's 21 files instead of in
# each (a precompiled header; the files still include what they use).
# OMPDP_PLUGIN_PCH=OFF builds without it.
option(OMPDP_PLUGIN_PCH "Precompile the Clang headers of lib/ompdp.so" ON)
if(OMPDP_PLUGIN_PCH)
  target_precompile_headers(ompdp-plugin PRIVATE
    <clang/AST/ASTContext.h> <clang/AST/Expr.h> <clang/AST/ExprCXX.h>
    <clang/AST/OpenMPClause.h> <clang/AST/RecursiveASTVisitor.h>
    <clang/AST/StmtOpenMP.h> <clang/Basic/SourceManager.h>
    <clang/Frontend/CompilerInstance.h> <clang/Lex/Lexer.h>
    <llvm/ADT/DenseMap.h> <llvm/ADT/SmallVector.h> <llvm/ADT/StringMap.h>
    <llvm/Support/raw_ostream.h> <map> <string> <vector>)
endif()
# Clang and LLVM symbols come from the compiler that loads the plugin.

# The one thing users add: --config=<build>/lib/ompdp.cfg. Both flags are
# needed: the AST plugin records the table in the host compile from source,
# the pass tags the calls in the host compile from IR.
set(OMPDP_PLUGIN_SO ${CMAKE_BINARY_DIR}/lib/ompdp.so)
file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/lib/ompdp.cfg CONTENT
"# ompdp: record offload regions and tag offload calls (clang 19)
-fplugin=${OMPDP_PLUGIN_SO}
-fpass-plugin=${OMPDP_PLUGIN_SO}
")

# lib/ompdp-nvptx.cfg: the same, plus what an NVIDIA offload build needs
# with Debian's clang 19, whose driver does not find the device runtime's
# bitcode by itself (--libomptarget-nvptx-bc-path), for OMPDP_NVPTX_ARCH.
set(OMPDP_NVPTX_ARCH sm_90 CACHE STRING "GPU arch of lib/ompdp-nvptx.cfg (sm_XX)")
set(OMPDP_CUDA_PATH /usr/local/cuda CACHE PATH "CUDA toolkit of lib/ompdp-nvptx.cfg")
function(ompdp_nvptx_flags out arch)
  set(${out}
    -fopenmp-targets=nvptx64-nvidia-cuda --offload-arch=${arch} --cuda-path=${OMPDP_CUDA_PATH}
    --libomptarget-nvptx-bc-path=${OMPDP_LLVM_LIBDIR}/libomptarget-nvptx-${arch}.bc
    PARENT_SCOPE)
endfunction()
ompdp_nvptx_flags(nvptx_flags ${OMPDP_NVPTX_ARCH})
list(JOIN nvptx_flags "\n" nvptx_lines)
if(OMPDP_CUDA_PATH STREQUAL "")
  set(nvptx_note "# no CUDA toolkit that writes cubins LLVM 19 loads: OMPDP_NVPTX_ARCH=sm_XX bash scripts/setup.sh\n")
else()
  set(nvptx_note "")
endif()
file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/lib/ompdp-nvptx.cfg CONTENT
"# ompdp for OpenMP offload to NVIDIA ${OMPDP_NVPTX_ARCH} (clang 19)
${nvptx_note}@${CMAKE_BINARY_DIR}/lib/ompdp.cfg
-fopenmp
${nvptx_lines}
")

# ompdp_instrument(<target> [NVPTX_ARCH sm_XX]): compile <target>'s C/C++
# sources with ompdp; with NVPTX_ARCH, also for offload to that NVIDIA arch
# (the target's link gets the offload flags too).
function(ompdp_instrument target)
  cmake_parse_arguments(arg "" "NVPTX_ARCH" "" ${ARGN})
  target_compile_options(${target} PRIVATE
    "$<$<COMPILE_LANGUAGE:C,CXX>:--config=${CMAKE_BINARY_DIR}/lib/ompdp.cfg>")
  if(arg_NVPTX_ARCH)
    ompdp_nvptx_flags(flags ${arg_NVPTX_ARCH})
    target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:C,CXX>:-fopenmp;${flags}>")
    target_link_options(${target} PRIVATE -fopenmp ${flags})
  endif()
  add_dependencies(${target} ompdp-plugin)
endfunction()
