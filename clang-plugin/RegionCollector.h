//===- RegionCollector.h - find offload constructs and mark them ---------===//
//
// Walks each declaration the compiler hands to the AST consumers, records
// every OpenMP construct that maps data (target and its combined forms,
// target data, target enter data, target exit data, target update) with its
// map items, explicit and implicit, and the innermost loop around it; and,
// before code generation sees the declaration, puts the pass's marker in
// front of each directive (see OmpdpFormat.inc, OMPDP_MARKER_FN).
//
//===----------------------------------------------------------------------===//
#ifndef OMPDP_CLANG_PLUGIN_REGIONCOLLECTOR_H
#define OMPDP_CLANG_PLUGIN_REGIONCOLLECTOR_H

#include "RegionTable.h"

#include <memory>

namespace clang {
class CompilerInstance;
class Decl;
class FunctionDecl;
} // namespace clang

namespace ompdp {

class RegionCollector {
public:
  /// Markers: also insert the markers (only worth it when the compile has
  /// offload targets: without them Clang emits no offload calls).
  RegionCollector(clang::CompilerInstance &CI, TableBuilder &Table,
                  bool Markers);
  ~RegionCollector();
  /// Adds the constructs of D (a top-level declaration, an inline member
  /// function or a template instantiation) to the table. Must run before
  /// code generation handles D. A directive is handled once, however often
  /// it is reached.
  void handle(clang::Decl *D);
  /// At the end of the translation unit, before the table is emitted: the
  /// facts that need every function of it (HostValues.cpp).
  void finish();
  /// The markers' no-op function, once a marker calls it: code generation
  /// must get its definition.
  clang::FunctionDecl *markerFunction() const;

private:
  class Impl;
  std::unique_ptr<Impl> P;
};

} // namespace ompdp

#endif
