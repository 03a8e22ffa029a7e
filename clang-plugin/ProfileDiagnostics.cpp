//===- ProfileDiagnostics.cpp - findings of a run as compiler warnings ----===//
//
// Reads a saved ompdp report (the C reader of rt/, linked into ompdp.so)
// and, at the end of the host compile, matches each finding to this
// translation unit's own region table by region ID and item. A match is
// placed at the map item as the compiler sees it now (never at the line the
// report names), after checking that the item still has the report's
// variable, clause and range. Rewrites become fix-it hints under the checks
// `ompdp fix` makes (content hash, line:column, byte offsets, original
// text) and its choice among overlapping rewrites, so `-fixit` and `ompdp
// fix --apply` edit a file the same way. Any failed check marks the file
// stale: one warning, and nothing placed in it.
//
// Clang 19's custom diagnostics have no warning groups and ignore -w and
// -Werror, so the level of each group is worked out here from the warning
// options cc1 was given (and the plugin's own W<spec> arguments), and the
// group is printed as Clang prints its own.
//
//===----------------------------------------------------------------------===//
#include "ProfileDiagnostics.h"

#include "RegionTable.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <memory>

extern "C" {
#include "report.h"
}

using namespace clang;
using namespace ompdp;

namespace {

// Groups: one per finding kind (OMPDP_FINDING_RULE), then the profile's own.
constexpr unsigned NumKinds = OMPDP_FK_COUNT;
constexpr unsigned StaleGroup = NumKinds;
constexpr unsigned NumGroups = NumKinds + 1;
constexpr const char *StaleGroupName = "ompdp-stale-profile";
constexpr const char *UmbrellaGroup = "ompdp";

const char *groupName(unsigned G) {
  return G == StaleGroup
             ? StaleGroupName
             : ompdp_finding_kind_warning_group((ompdp_finding_kind_t)G);
}

/// Index of a group name, NumGroups for the umbrella `ompdp`, -1 if none.
int groupIndex(llvm::StringRef Name) {
  if (Name == UmbrellaGroup)
    return NumGroups;
  for (unsigned G = 0; G < NumGroups; ++G)
    if (Name == groupName(G))
      return G;
  return -1;
}

/// The level of each group, from -W options applied in order, as Clang
/// applies its own: -Wno-X off, -WX on, -Werror=X on and an error,
/// -Wno-error=X never an error; then -w (unless -Werror=X) and -Werror.
class GroupLevels {
public:
  enum Level { Ignored, Warning, Error };

  /// Applies one option (without "-W"). Returns false when it names an
  /// ompdp group that does not exist (IsOurs: it starts with "ompdp").
  bool apply(llvm::StringRef Spec, bool &IsOurs) {
    bool Enable = true, ErrorForm = false, NoError = false;
    if (Spec.consume_front("no-error="))
      NoError = true;
    else if (Spec.consume_front("error="))
      ErrorForm = true;
    else if (Spec.consume_front("no-"))
      Enable = false;
    IsOurs = Spec.starts_with(UmbrellaGroup) || Spec == "everything";
    if (Spec == "everything") {
      if (ErrorForm || NoError)
        return true;
      for (unsigned G = 0; G < NumGroups; ++G)
        On[G] = Enable;
      return true;
    }
    if (!IsOurs)
      return true;
    int I = groupIndex(Spec);
    if (I < 0)
      return false;
    unsigned First = I == (int)NumGroups ? 0 : I;
    unsigned Last = I == (int)NumGroups ? NumGroups : I + 1;
    for (unsigned G = First; G < Last; ++G) {
      if (NoError) {
        Err[G] = NotError;
      } else if (ErrorForm) {
        On[G] = true;
        Err[G] = IsError;
      } else {
        On[G] = Enable;
      }
    }
    return true;
  }

  Level level(unsigned G, const DiagnosticsEngine &D) const {
    if (!On[G] || D.getSuppressAllDiagnostics())
      return Ignored;
    if (Err[G] == IsError)
      return Error;
    if (D.getIgnoreAllWarnings())
      return Ignored;
    if (Err[G] != NotError && D.getWarningsAsErrors())
      return Error;
    return Warning;
  }

private:
  enum ErrState { Default, IsError, NotError };
  bool On[NumGroups] = {true, true, true, true, true, true, true, true};
  ErrState Err[NumGroups] = {};
};
static_assert(NumGroups == 8, "update GroupLevels::On");

/// A source file of this compile, as it was compiled.
struct SourceFile {
  FileID FID;
  std::string Name; // as the profile names it
  llvm::StringRef Text;
  uint64_t Hash = 0;
  std::vector<size_t> Lines; // byte offset of each line's start
  // Why the profile does not match it (empty: it does).
  std::string Stale;
  unsigned Hidden = 0;     // findings not shown because of Stale
  unsigned WithoutId = 0;  // findings without a region ID

  /// Byte offset of line:col (1-based), as `ompdp fix` counts; -1 if none.
  int64_t offsetOf(uint32_t Line, uint32_t Col) const {
    if (Line == 0 || Col == 0 || Line > Lines.size())
      return -1;
    size_t Start = Lines[Line - 1];
    size_t End = Line < Lines.size() ? Lines[Line] - 1 : Text.size();
    if (uint64_t(Col) - 1 > End - Start)
      return -1;
    return int64_t(Start + Col - 1);
  }
};

/// One edit, placed in a file of this compile.
struct PlacedEdit {
  SourceFile *File = nullptr;
  size_t Start = 0, End = 0;
  const ompdp_edit_t *E = nullptr;
};

/// One distinct rewrite of the findings of this compile.
struct Fix {
  const ompdp_rewrite_t *RW = nullptr;
  const ompdp_finding_t *F = nullptr; // the first finding that has it
  size_t Order = 0;
  std::vector<PlacedEdit> Edits;
  enum State { Offered, OtherFile, StaleFile, SelfOverlap, Overlaps } St = Offered;
  std::string Why;        // OtherFile, StaleFile: the file
  const Fix *Winner = nullptr; // Overlaps: the rewrite kept instead
  // Where its fix-its went (the first warning shown that has it).
  bool Attached = false;
  std::string AttachedTo;
};

/// A finding placed at an item of this compile.
struct Placed {
  const ompdp_finding_t *F;
  const Region *R;
  const Item *It;
  SourceFile *File;
  size_t Offset, Length; // where the warning goes (Length 0: a point)
  std::vector<Fix *> Fixes;
};

std::string hex16(uint64_t V) {
  std::string S;
  llvm::raw_string_ostream(S) << llvm::format_hex_no_prefix(V, 16);
  return S;
}

std::string times(uint64_t N) {
  if (N == 1)
    return "once";
  return std::to_string(N) + " times";
}

/// The warning's text: what happened to the item, and how often
/// (OMPDP_FINDING_TEXT). Which rule found an overbroad map follows from the
/// item's access (detect_overbroad.c).
std::string findingMessage(const ompdp_finding_t &F, const Item &It) {
  std::string What = "'" + It.Name + "' in " + It.Clause;
  std::string Text = ompdp_finding_kind_warning_text(F.kind);
  if (F.kind == OMPDP_FK_OVERBROAD_MAP && It.Access == AC_READ)
    Text = " copies back data the region only reads, ";
  else if (F.kind == OMPDP_FK_OVERBROAD_MAP && It.Access == AC_WRITE)
    Text = " copies in data the region only writes, ";
  return std::string(ompdp_finding_kind_name(F.kind)) + ": " + What + Text +
         times(F.count);
}

/// The note with the measured cost.
std::string costMessage(const ompdp_finding_t &F) {
  char B[OMPDP_UNIT_BUF], T[OMPDP_UNIT_BUF], S[OMPDP_UNIT_BUF];
  std::string M;
  llvm::raw_string_ostream OS(M);
  OS << "measured: " << F.count << " "
     << ompdp_finding_kind_noun(F.kind, F.count != 1)
     << ", " << ompdp_format_bytes(B, F.bytes) << " in "
     << ompdp_format_time(T, F.time_ns);
  if (F.num_devices) {
    OS << (F.num_devices == 1 ? " on device " : " on devices ");
    for (size_t I = 0; I < F.num_devices; ++I)
      OS << (I ? "," : "") << F.devices[I];
  }
  OS << "; the fix saves " << ompdp_format_time(S, F.time_saved_ns);
  return M;
}

std::string fixSummary(const ompdp_rewrite_t &RW) {
  char T[OMPDP_UNIT_BUF], B[OMPDP_UNIT_BUF];
  std::string M;
  llvm::raw_string_ostream OS(M);
  OS << "fix (" << ompdp_rewrite_kind_json(RW.kind)
     << "): " << (RW.description ? RW.description : "")
     << "  [saves " << (RW.lower_bound ? "at least " : "")
     << ompdp_format_time(T, RW.time_saved_ns) << ": "
     << RW.transfers_removed << " transfers ("
     << ompdp_format_bytes(B, RW.bytes_removed) << "), " << RW.allocs_removed
     << " allocations]";
  if (RW.assumption)
    OS << "; it assumes " << RW.assumption;
  return M;
}

/// At most 60 bytes of Text on one line, for messages.
std::string shown(llvm::StringRef Text) {
  std::string S;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (I == 60)
      return S + "...";
    char C = Text[I];
    if (C == '\n')
      S += "\\n";
    else
      S += (C >= 0x20 && C < 0x7f) ? C : '?';
  }
  return S;
}

// Two edits conflict as in `ompdp fix`: they share a byte, or both insert
// at one place, or one inserts strictly inside what the other replaces.
bool overlap(const PlacedEdit &A, const PlacedEdit &B) {
  if (A.File != B.File)
    return false;
  if (A.Start == A.End && B.Start == B.End)
    return A.Start == B.Start;
  if (A.Start == A.End)
    return A.Start > B.Start && A.Start < B.End;
  if (B.Start == B.End)
    return B.Start > A.Start && B.Start < A.End;
  return A.Start < B.End && B.Start < A.End;
}

bool sameEdit(const PlacedEdit &A, const PlacedEdit &B) {
  return A.File == B.File && A.Start == B.Start && A.End == B.End &&
         llvm::StringRef(A.E->replacement ? A.E->replacement : "") ==
             llvm::StringRef(B.E->replacement ? B.E->replacement : "");
}

struct ReportDeleter {
  void operator()(ompdp_report_t *R) const {
    ompdp_report_free(R);
    delete R;
  }
};

class Emitter {
public:
  Emitter(CompilerInstance &CI, const TableBuilder &Table,
          const ProfileOptions &Opts)
      : CI(CI), D(CI.getDiagnostics()), SM(CI.getSourceManager()),
        Table(Table), Opts(Opts) {}

  void run();

private:
  bool setUpLevels();
  SourceFile *fileFor(const char *Name);
  void markStale(SourceFile *File, std::string Why) {
    if (File->Stale.empty())
      File->Stale = std::move(Why);
  }
  void place(const ompdp_finding_t &F);
  void checkItem(const ompdp_finding_t &F, const Region &R, const Item &It,
                 SourceFile *File);
  void collectFixes();
  void placeEdits(Fix &X);
  void chooseFixes();
  void report(GroupLevels::Level L, unsigned Group, SourceLocation Loc,
              const std::string &Msg, llvm::ArrayRef<CharSourceRange> Ranges,
              llvm::ArrayRef<FixItHint> Hints);
  void note(SourceLocation Loc, const std::string &Msg);
  void emitStale();
  void emitFinding(Placed &P);
  std::string where(const SourceFile &File, size_t Offset) const;

  CompilerInstance &CI;
  DiagnosticsEngine &D;
  SourceManager &SM;
  const TableBuilder &Table;
  const ProfileOptions &Opts;
  GroupLevels Levels;
  std::unique_ptr<ompdp_report_t, ReportDeleter> Rep;
  llvm::DenseMap<uint64_t, const Region *> Regions;
  llvm::StringMap<SourceFile *> Names; // profile name -> file (null: none)
  std::vector<std::unique_ptr<SourceFile>> Files;
  std::vector<Placed> Findings;
  std::vector<std::unique_ptr<Fix>> Fixes;
};

bool Emitter::setUpLevels() {
  for (const std::string &W : CI.getDiagnosticOpts().Warnings) {
    bool Ours = false;
    Levels.apply(W, Ours); // cc1 already warned about unknown names
  }
  for (const std::string &W : Opts.WarningSpecs) {
    bool Ours = false;
    Levels.apply(W, Ours); // checked when the argument was parsed
  }
  return true;
}

/// The file of this compile that Name (a path from the profile) refers to,
/// or null when this compile did not read it.
SourceFile *Emitter::fileFor(const char *Name) {
  if (!Name || !*Name)
    return nullptr;
  auto [It, New] = Names.try_emplace(Name, nullptr);
  if (!New)
    return It->second;
  OptionalFileEntryRef FE =
      SM.getFileManager().getOptionalFileRef(Name, /*OpenFile=*/false);
  if (!FE)
    return nullptr;
  FileID FID = SM.translateFile(*FE);
  if (FID.isInvalid())
    return nullptr;
  // Two names of one file share its state.
  for (const auto &F : Files)
    if (F->FID == FID)
      return It->second = F.get();
  bool Invalid = false;
  llvm::StringRef Text = SM.getBufferData(FID, &Invalid);
  if (Invalid)
    return nullptr;
  auto File = std::make_unique<SourceFile>();
  File->FID = FID;
  File->Name = Name;
  File->Text = Text;
  File->Hash = llvm::xxh3_64bits(Text);
  File->Lines.push_back(0);
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      File->Lines.push_back(I + 1);
  Files.push_back(std::move(File));
  return It->second = Files.back().get();
}

std::string Emitter::where(const SourceFile &File, size_t Offset) const {
  PresumedLoc PL =
      SM.getPresumedLoc(SM.getComposedLoc(File.FID, unsigned(Offset)));
  if (PL.isInvalid())
    return File.Name;
  return std::string(PL.getFilename()) + ":" + std::to_string(PL.getLine()) +
         ":" + std::to_string(PL.getColumn());
}

void Emitter::checkItem(const ompdp_finding_t &F, const Region &R,
                        const Item &It, SourceFile *File) {
  auto Differs = [](const char *Report, const std::string &Now) {
    return Report && Now != Report;
  };
  std::string Site = std::string(F.loc.file ? F.loc.file : "?") + ":" +
                     std::to_string(F.loc.line) + ":" +
                     std::to_string(F.loc.column);
  if (Differs(F.variable, It.Name) || Differs(F.clause, It.Clause)) {
    markStale(File, "item " + std::to_string(F.item) + " of the construct at " +
                        Site + " was '" + (F.variable ? F.variable : "") +
                        "' in " + (F.clause ? F.clause : "?") + ", it is '" +
                        It.Name + "' in " + It.Clause);
    return;
  }
  const Pos *B = nullptr, *E = nullptr;
  if (It.ItemBegin.Line)
    B = &It.ItemBegin, E = &It.ItemEnd;
  else if (It.ClauseBegin.Line)
    B = &It.ClauseBegin, E = &It.ClauseEnd;
  const ompdp_range_t &G = F.range;
  if (!G.line)
    return;
  if (!B || B->Line != G.line || B->Column != G.column ||
      E->Line != G.end_line || E->Column != G.end_column)
    markStale(File, "'" + It.Name + "' of the construct at " + Site +
                        " is no longer at " + std::to_string(G.line) + ":" +
                        std::to_string(G.column));
}

void Emitter::place(const ompdp_finding_t &F) {
  if (F.kind >= OMPDP_FK_COUNT)
    return;
  if (!F.region_id) {
    if (SourceFile *File = fileFor(F.loc.file))
      ++File->WithoutId;
    return;
  }
  // DenseMap reserves its empty and tombstone keys, and a profile may hold
  // any ID: looking those up would read an empty bucket.
  bool Reserved =
      F.region_id == llvm::DenseMapInfo<uint64_t>::getEmptyKey() ||
      F.region_id == llvm::DenseMapInfo<uint64_t>::getTombstoneKey();
  auto RI = Reserved ? Regions.end() : Regions.find(F.region_id);
  if (RI == Regions.end()) {
    // Another translation unit's construct, or one of ours that moved.
    if (SourceFile *File = fileFor(F.loc.file)) {
      markStale(File, "the construct at " + std::string(F.loc.file) + ":" +
                          std::to_string(F.loc.line) + ":" +
                          std::to_string(F.loc.column) + ", region ID " +
                          hex16(F.region_id) + ", is no longer there");
      ++File->Hidden;
    }
    return;
  }
  const Region &R = *RI->second;
  SourceFile *File = fileFor(R.SourceFile.c_str());
  if (!File)
    return; // a buffer without a file: nothing to place it in
  if (F.item < 0 || size_t(F.item) >= R.Items.size()) {
    markStale(File, "the construct at " + std::to_string(R.Begin.Line) + ":" +
                        std::to_string(R.Begin.Column) + " has no item " +
                        std::to_string(F.item));
    ++File->Hidden;
    return;
  }
  const Item &It = R.Items[F.item];
  checkItem(F, R, It, File);
  // The item as compiled now; the clause for an item without its own
  // range; the directive for an implicit one.
  Span S = It.ItemBytes.Length ? It.ItemBytes : It.ClauseBytes;
  size_t Len = S.Length;
  if (!Len) {
    S = R.DirectiveBytes;
    Len = 0;
  }
  if (!S.Length || S.Offset + uint64_t(Len) > File->Text.size()) {
    markStale(File, "no source range for the construct at " +
                        std::to_string(R.Begin.Line) + ":" +
                        std::to_string(R.Begin.Column));
    ++File->Hidden;
    return;
  }
  Findings.push_back({&F, &R, &It, File, S.Offset, Len, {}});
}

void Emitter::placeEdits(Fix &X) {
  X.Edits.resize(X.RW->num_edits);
  for (size_t I = 0; I < X.RW->num_edits; ++I) {
    const ompdp_edit_t &E = X.RW->edits[I];
    SourceFile *File = fileFor(E.file);
    if (!File) {
      if (X.St == Fix::Offered) {
        X.St = Fix::OtherFile;
        X.Why = E.file ? E.file : "?";
      }
      continue;
    }
    const ompdp_range_t &G = E.range;
    std::string Pos = std::to_string(G.line) + ":" + std::to_string(G.column);
    int64_t A = File->offsetOf(G.line, G.column);
    int64_t B = File->offsetOf(G.end_line, G.end_column);
    if (E.file_hash && E.file_hash != File->Hash)
      markStale(File, "it changed since the profiled program was built: its "
                      "XXH3 is " +
                          hex16(File->Hash) + ", the profile's " +
                          hex16(E.file_hash));
    else if (A < 0 || B < 0)
      markStale(File, "it has no line " +
                          std::to_string(A < 0 ? G.line : G.end_line) +
                          ", column " +
                          std::to_string(A < 0 ? G.column : G.end_column));
    else if (B < A)
      markStale(File, "an edit at " + Pos + " ends before it starts");
    else if (G.offset >= 0 && (G.offset != A || G.end_offset != B))
      markStale(File, "the edit at " + Pos + " has byte offsets " +
                          std::to_string(G.offset) + "-" +
                          std::to_string(G.end_offset) + ", the file " +
                          std::to_string(A) + "-" + std::to_string(B));
    else if (E.original &&
             !ompdp_text_matches(File->Text.data() + A, size_t(B - A),
                                 E.original))
      markStale(File, "expected '" + shown(E.original) + "' at " + Pos +
                          ", found '" +
                          shown(File->Text.substr(A, B - A)) + "'");
    if (!File->Stale.empty()) {
      X.St = Fix::StaleFile;
      X.Why = File->Name;
      continue;
    }
    X.Edits[I] = {File, size_t(A), size_t(B), &E};
  }
}

/// The distinct rewrites of the findings placed here, checked and chosen
/// as `ompdp fix` chooses: most saving first; one that overlaps (or makes
/// the same edit as) a rewrite already kept is left out.
void Emitter::collectFixes() {
  for (Placed &P : Findings)
    for (size_t J = 0; J < P.F->num_rewrites; ++J) {
      const ompdp_rewrite_t *RW = &P.F->rewrites[J];
      if (!RW->num_edits)
        continue;
      Fix *Same = nullptr;
      for (auto &X : Fixes)
        if (ompdp_rewrite_same_edits(X->RW, RW))
          Same = X.get();
      if (!Same) {
        Fixes.push_back(std::make_unique<Fix>());
        Same = Fixes.back().get();
        Same->RW = RW;
        Same->F = P.F;
        Same->Order = Fixes.size();
      }
      P.Fixes.push_back(Same);
    }
  for (auto &X : Fixes)
    placeEdits(*X);
  // A file found stale by a later rewrite voids the earlier ones in it.
  for (auto &X : Fixes)
    for (const PlacedEdit &E : X->Edits)
      if (X->St == Fix::Offered && E.File && !E.File->Stale.empty()) {
        X->St = Fix::StaleFile;
        X->Why = E.File->Name;
      }
  chooseFixes();
}

void Emitter::chooseFixes() {
  std::vector<Fix *> ByGain;
  for (auto &X : Fixes)
    ByGain.push_back(X.get());
  // Ties keep the report's order (as `ompdp fix` does).
  std::sort(ByGain.begin(), ByGain.end(), [](Fix *A, Fix *B) {
    if (A->RW->time_saved_ns != B->RW->time_saved_ns)
      return A->RW->time_saved_ns > B->RW->time_saved_ns;
    return A->Order < B->Order;
  });
  for (size_t I = 0; I < ByGain.size(); ++I) {
    Fix &X = *ByGain[I];
    if (X.St != Fix::Offered)
      continue;
    size_t N = X.Edits.size();
    for (size_t J = 0; J < N && X.St == Fix::Offered; ++J)
      for (size_t K = J + 1; K < N && X.St == Fix::Offered; ++K)
        if (overlap(X.Edits[J], X.Edits[K]) || sameEdit(X.Edits[J], X.Edits[K]))
          X.St = Fix::SelfOverlap;
    for (size_t P = 0; P < I && X.St == Fix::Offered; ++P) {
      Fix &Q = *ByGain[P];
      if (Q.St != Fix::Offered)
        continue;
      for (const PlacedEdit &A : X.Edits)
        for (const PlacedEdit &B : Q.Edits)
          if (X.St == Fix::Offered && (overlap(A, B) || sameEdit(A, B))) {
            X.St = Fix::Overlaps;
            X.Winner = &Q;
          }
    }
  }
}

void Emitter::report(GroupLevels::Level L, unsigned Group, SourceLocation Loc,
                     const std::string &Msg,
                     llvm::ArrayRef<CharSourceRange> Ranges,
                     llvm::ArrayRef<FixItHint> Hints) {
  std::string Text = Msg + (L == GroupLevels::Error ? " [-Werror,-W" : " [-W") +
                     groupName(Group) + "]";
  unsigned ID = L == GroupLevels::Error
                    ? D.getCustomDiagID(DiagnosticsEngine::Error, "%0")
                    : D.getCustomDiagID(DiagnosticsEngine::Warning, "%0");
  DiagnosticBuilder DB = D.Report(Loc, ID);
  DB << Text;
  for (const CharSourceRange &R : Ranges)
    DB << R;
  for (const FixItHint &H : Hints)
    DB << H;
}

void Emitter::note(SourceLocation Loc, const std::string &Msg) {
  D.Report(Loc, D.getCustomDiagID(DiagnosticsEngine::Note, "%0")) << Msg;
}

void Emitter::emitStale() {
  GroupLevels::Level L = Levels.level(StaleGroup, D);
  if (L == GroupLevels::Ignored)
    return;
  for (const auto &F : Files) {
    if (!F->Stale.empty()) {
      std::string Shown;
      if (F->Hidden)
        Shown = "; its " + std::to_string(F->Hidden) +
                " finding(s) in this file are not shown and its fixes not "
                "offered";
      else
        Shown = "; its findings in this file are not shown and its fixes "
                "not offered";
      report(L, StaleGroup, SourceLocation(),
             "ompdp: the profile '" + Opts.Path + "' does not match '" +
                 F->Name + "' (" + F->Stale + ")" + Shown +
                 "; run the program under ompdp again",
             {}, {});
    } else if (F->WithoutId) {
      report(L, StaleGroup, SourceLocation(),
             "ompdp: the profile '" + Opts.Path + "' has " +
                 std::to_string(F->WithoutId) + " finding(s) in '" + F->Name +
                 "' without a region ID (the profiled program was not built "
                 "with the ompdp plugin); they are not shown",
             {}, {});
    }
  }
}

void Emitter::emitFinding(Placed &P) {
  GroupLevels::Level L = Levels.level(P.F->kind, D);
  if (L == GroupLevels::Ignored)
    return;
  SourceLocation Loc = SM.getComposedLoc(P.File->FID, unsigned(P.Offset));
  llvm::SmallVector<CharSourceRange, 1> Ranges;
  if (P.Length)
    Ranges.push_back(CharSourceRange::getCharRange(
        Loc, Loc.getLocWithOffset(int(P.Length))));
  // Each rewrite's fix-its go with the first warning shown that has it:
  // `-fixit` applies every warning's fix-its, and an edit made twice would
  // insert its text twice.
  llvm::SmallVector<FixItHint, 4> Hints;
  std::vector<Fix *> AttachedHere;
  for (Fix *X : P.Fixes) {
    if (X->St != Fix::Offered || X->Attached)
      continue;
    for (const PlacedEdit &E : X->Edits) {
      SourceLocation B = SM.getComposedLoc(E.File->FID, unsigned(E.Start));
      SourceLocation End = SM.getComposedLoc(E.File->FID, unsigned(E.End));
      llvm::StringRef Text = E.E->replacement ? E.E->replacement : "";
      if (E.Start == E.End)
        Hints.push_back(FixItHint::CreateInsertion(B, Text));
      else if (Text.empty())
        Hints.push_back(
            FixItHint::CreateRemoval(CharSourceRange::getCharRange(B, End)));
      else
        Hints.push_back(FixItHint::CreateReplacement(
            CharSourceRange::getCharRange(B, End), Text));
    }
    X->Attached = true;
    X->AttachedTo = std::string("the ") + ompdp_finding_kind_json(P.F->kind) +
                    " warning at " + where(*P.File, P.Offset);
    AttachedHere.push_back(X);
  }
  report(L, P.F->kind, Loc, findingMessage(*P.F, *P.It), Ranges, Hints);
  note(Loc, costMessage(*P.F));
  for (Fix *X : P.Fixes) {
    bool Here = std::find(AttachedHere.begin(), AttachedHere.end(), X) !=
                AttachedHere.end();
    if (X->St == Fix::Offered && !Here) {
      note(Loc, std::string("fix (") + ompdp_rewrite_kind_json(X->RW->kind) +
                    "): the same rewrite as for " + X->AttachedTo);
      continue;
    }
    std::string M = fixSummary(*X->RW);
    switch (X->St) {
    case Fix::Offered:
      break;
    case Fix::OtherFile:
      M += "; not offered here: it edits '" + X->Why +
           "', which this compile does not read (`ompdp fix` applies it)";
      break;
    case Fix::StaleFile:
      M += "; not offered: '" + X->Why + "' does not match the profile";
      break;
    case Fix::SelfOverlap:
      M += "; not offered: its edits overlap each other";
      break;
    case Fix::Overlaps:
      M += std::string("; not offered: it overlaps the ") +
           ompdp_rewrite_kind_json(X->Winner->RW->kind) + " fix for " +
           ompdp_finding_kind_json(X->Winner->F->kind) +
           ", which saves more";
      break;
    }
    note(Loc, M);
  }
}

void Emitter::run() {
  setUpLevels();
  Rep.reset(new ompdp_report_t);
  ompdp_report_init(Rep.get());
  char Err[512] = "";
  if (ompdp_report_read_json_file(Opts.Path.c_str(), Rep.get(), Err,
                                  sizeof(Err))) {
    D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                               "ompdp: cannot use the profile '%0': %1"))
        << Opts.Path << Err;
    return;
  }
  for (const Region &R : Table.regions())
    Regions.try_emplace(R.Id, &R);
  for (size_t I = 0; I < Rep->num_findings; ++I)
    place(Rep->findings[I]);
  collectFixes();
  // Findings in stale files are not shown at all.
  std::vector<Placed *> Shown;
  for (Placed &P : Findings) {
    if (P.File->Stale.empty())
      Shown.push_back(&P);
    else
      ++P.File->Hidden;
  }
  emitStale();
  std::sort(Shown.begin(), Shown.end(), [&](Placed *A, Placed *B) {
    if (A->File != B->File)
      return SM.isBeforeInTranslationUnit(SM.getLocForStartOfFile(A->File->FID),
                                          SM.getLocForStartOfFile(B->File->FID));
    if (A->Offset != B->Offset)
      return A->Offset < B->Offset;
    if (A->F->kind != B->F->kind)
      return A->F->kind < B->F->kind;
    return A->F < B->F; // report order
  });
  for (Placed *P : Shown)
    emitFinding(*P);
}

} // namespace

void ompdp::emitProfileDiagnostics(CompilerInstance &CI,
                                   const TableBuilder &Table,
                                   const ProfileOptions &Opts) {
  if (!Opts.enabled())
    return;
  Emitter(CI, Table, Opts).run();
}
