//===- JumpCheck.h - jumps out of the code a rewrite wraps ---------------===//
//
// A rewrite that keeps data on the device across a loop puts a structured
// block around it (`#pragma omp target data` before the loop), and OpenMP
// forbids leaving a structured block by a jump: `return` there is "cannot
// return from OpenMP region", a `goto` out is an error too, and a `throw`
// that escapes it ends the program. So the plugin lists, for the innermost
// loop around each construct, every statement that leaves the loop other
// than by finishing it (and every label inside it that a jump from outside
// reaches); the rewrite planner then uses `target enter data` / `exit data`
// placed on every path out, or no rewrite (docs/fixes.md).
//
//===----------------------------------------------------------------------===//
#ifndef OMPDP_CLANG_PLUGIN_JUMPCHECK_H
#define OMPDP_CLANG_PLUGIN_JUMPCHECK_H

#include <cstdint>
#include <vector>

namespace clang {
class Stmt;
} // namespace clang

namespace ompdp {

/// One jump out of (or into) a wrapped statement.
struct Jump {
  /// The jump's statement: a return, goto, break, continue, co_return or
  /// indirect goto; for a throw, the expression (its statement when it is
  /// one); for a jump in, the label or case statement inside.
  const clang::Stmt *S = nullptr;
  uint32_t Kind = 0;      // OMPDP_EXIT_KIND (EK_*)
  bool Statement = false; // S is a whole statement (a throw used as one)
  bool InBlock = false;   // ... directly in a compound statement
  bool InTry = false;     // a throw inside a try block of the wrapped code
};

/// The jumps out of Loop (a for, while, do or range-for statement: a break
/// or continue of the loop itself stays inside, as the block wraps the
/// whole statement) and into it from the rest of Function (the body of the
/// function it is in), in source order. Bodies of lambdas and of target
/// regions (device code) are not the loop's code.
std::vector<Jump> jumpsOutOfLoop(const clang::Stmt *Loop,
                                 const clang::Stmt *Function);

} // namespace ompdp

#endif
