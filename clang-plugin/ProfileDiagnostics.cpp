//===- ProfileDiagnostics.cpp - findings of a run as compiler warnings ----===//
//
// Reads a saved ompdp report (the C reader of rt/, linked into ompdp.so)
// and, at the end of the host compile, matches each finding to this
// translation unit's own region table by region ID and item. A match is
// placed at the map item as the compiler sees it now (never at the line the
// report names), after checking that the item still has the report's
// variable, clause and range. Rewrites become fix-it hints as the fix
// planner of the report library (report/fix_plan.c) chooses them, the one
// `ompdp fix` uses, so `-fixit` and `ompdp fix --apply` edit a file the
// same way. Any failed check marks the file stale: one warning, and nothing
// placed in it. A finding whose verdict is no saving (OMPDP_VERDICT:
// necessary, coincidence, repeated computation) is a remark, not a warning.
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

#include <algorithm>
#include <iterator>
#include <memory>

extern "C" {
#include "fix_plan.h"
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

  GroupLevels() { std::fill(std::begin(On), std::end(On), true); } // every group on

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
  bool On[NumGroups];
  ErrState Err[NumGroups] = {};
};

/// A source file of this compile, as it was compiled.
struct SourceFile {
  FileID FID;
  std::string Name; // as the profile names it
  llvm::StringRef Text;
  ompdp_fix_file_t FF = {}; // the fix planner's view of it
  // Why the profile does not match it (empty: it does).
  std::string Stale;
  unsigned Hidden = 0;     // findings not shown because of Stale
  unsigned WithoutId = 0;  // findings without a region ID

  ~SourceFile() { ompdp_fix_file_free(&FF); }
};

/// Where the fix-its of one planned rewrite went (the first warning shown
/// that has it).
struct FixNote {
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
  std::vector<const ompdp_fix_t *> Fixes;
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
/// item's map type, access and flags (ompdp_overbroad_rule).
std::string findingMessage(const ompdp_finding_t &F, const Item &It) {
  std::string What = "'" + It.Name + "' in " + It.Clause;
  std::string Text = ompdp_finding_warning_text(&F);
  bool Over = F.kind == OMPDP_FK_OVERBROAD_MAP;
  if (Over && It.MapType == MT_TOFROM && It.Access == AC_READ)
    Text = " copies back data the region only reads, ";
  else if (Over && It.MapType == MT_TOFROM && It.Access == AC_WRITE)
    Text = " copies in data the region only writes, ";
  else if (Over && (It.AccessFlags & IA_HOST_UNREAD))
    Text = " copies back data the host never reads, ";
  else if (Over && (It.AccessFlags & IA_WRITES_FIRST))
    Text = " copies in data a kernel overwrites before reading, ";
  else if (Over && (It.AccessFlags & IA_SECTION_END))
    Text = " moves elements of the section that the region's loops never touch, ";
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
     << ", " << ompdp_format_bytes(B, F.bytes);
  if (!F.peak || F.time_ns) // a finding about the peak took no time
    OS << " in " << ompdp_format_time(T, F.time_ns);
  if (F.num_devices) {
    OS << (F.num_devices == 1 ? " on device " : " on devices ");
    for (size_t I = 0; I < F.num_devices; ++I)
      OS << (I ? "," : "") << F.devices[I];
  }
  if (!ompdp_verdict_saves(F.verdict))
    OS << "; no saving: " << ompdp_verdict_description(F.verdict);
  else if (F.peak) // memory held while unused: the peak, never time
    OS << "; the fix lowers the device's peak of memory in use by "
       << ompdp_format_bytes(S, F.peak_saved_bytes);
  else
    OS << "; the fix saves " << ompdp_format_time(S, F.time_saved_ns);
  return M;
}

std::string fixSummary(const ompdp_rewrite_t &RW) {
  char T[OMPDP_UNIT_BUF], B[OMPDP_UNIT_BUF];
  std::string M;
  llvm::raw_string_ostream OS(M);
  OS << "fix (" << ompdp_rewrite_kind_json(RW.kind)
     << "): " << (RW.description ? RW.description : "");
  if (RW.peak) {
    OS << "  [lowers the peak of device memory by "
       << ompdp_format_bytes(B, RW.peak_saved_bytes) << "; saves no time]";
    if (RW.assumption)
      OS << "; it assumes " << RW.assumption;
    return M;
  }
  OS << "  [saves " << (RW.lower_bound ? "at least " : "")
     << ompdp_format_time(T, RW.time_saved_ns) << ": "
     << RW.transfers_removed << " transfers ("
     << ompdp_format_bytes(B, RW.bytes_removed) << "), " << RW.allocs_removed
     << " allocations]";
  if (RW.assumption)
    OS << "; it assumes " << RW.assumption;
  return M;
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
    File->FF.stale = 1;
  }
  void place(const ompdp_finding_t &F);
  void checkItem(const ompdp_finding_t &F, const Region &R, const Item &It,
                 SourceFile *File);
  void collectFixes();
  static ompdp_fix_file_t *openFile(void *Ctx, const char *Name);
  static void mismatch(void *Ctx, ompdp_fix_file_t *FF, const ompdp_edit_t *E,
                       const ompdp_fix_mismatch_t *Why);
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
  ompdp_fix_plan_t Plan = {};
  std::vector<FixNote> Notes; // one per planned rewrite

public:
  ~Emitter() { ompdp_fix_plan_free(&Plan); }
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
  if (ompdp_fix_file_init(&File->FF, Name, Text.data(), Text.size()))
    return nullptr;
  File->FF.user = File.get();
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
  // A routine call's item has the call where a map item has its clause.
  const char *Clause = F.clause ? F.clause : F.call;
  if (Differs(F.variable, It.Name) || Differs(Clause, It.Clause)) {
    markStale(File, "item " + std::to_string(F.item) + " of the construct at " +
                        Site + " was '" + (F.variable ? F.variable : "") +
                        "' in " + (Clause ? Clause : "?") + ", it is '" +
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

/// The planner's source: the files of this compile (null: another one's).
ompdp_fix_file_t *Emitter::openFile(void *Ctx, const char *Name) {
  SourceFile *File = static_cast<Emitter *>(Ctx)->fileFor(Name);
  return File ? &File->FF : nullptr;
}

/// An edit that does not match its file: the file is stale, for this reason.
void Emitter::mismatch(void *Ctx, ompdp_fix_file_t *FF, const ompdp_edit_t *E,
                       const ompdp_fix_mismatch_t *Why) {
  auto *Self = static_cast<Emitter *>(Ctx);
  auto *File = static_cast<SourceFile *>(FF->user);
  char Buf[400];
  ompdp_fix_mismatch_words(Buf, sizeof(Buf), E, Why, "profile");
  Self->markStale(File, Buf);
}

/// The distinct rewrites of the findings placed here, checked and chosen
/// by the fix planner, as `ompdp fix` chooses.
void Emitter::collectFixes() {
  std::vector<const ompdp_finding_t *> Placed;
  for (const struct Placed &P : Findings)
    Placed.push_back(P.F);
  ompdp_fix_source_t Src = {openFile, mismatch, this};
  if (ompdp_fix_plan_make(Placed.data(), Placed.size(), &Src, &Plan))
    return; // out of memory: no fix-its
  Notes.resize(Plan.num_fixes);
  for (struct Placed &P : Findings)
    for (size_t J = 0; J < P.F->num_rewrites; ++J)
      if (const ompdp_fix_t *X = ompdp_fix_plan_find(&Plan, &P.F->rewrites[J]))
        P.Fixes.push_back(X);
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
  // A finding that is no saving (necessary, coincidence, repeated
  // computation) is a remark, never a warning: there is nothing to fix, and
  // -Werror must not fail the build over it. It has no rewrite. (Not a
  // note: Clang drops a note that follows no shown diagnostic.)
  if (!ompdp_verdict_saves(P.F->verdict)) {
    D.Report(Loc, D.getCustomDiagID(DiagnosticsEngine::Remark, "%0"))
        << "ompdp: " + findingMessage(*P.F, *P.It) + " (verdict " +
               ompdp_verdict_json(P.F->verdict) + ": no saving) [-W" +
               groupName(P.F->kind) + "]";
    note(Loc, costMessage(*P.F));
    return;
  }
  llvm::SmallVector<CharSourceRange, 1> Ranges;
  if (P.Length)
    Ranges.push_back(CharSourceRange::getCharRange(
        Loc, Loc.getLocWithOffset(int(P.Length))));
  // Each rewrite's fix-its go with the first warning shown that has it:
  // `-fixit` applies every warning's fix-its, and an edit made twice would
  // insert its text twice.
  llvm::SmallVector<FixItHint, 4> Hints;
  std::vector<const ompdp_fix_t *> AttachedHere;
  for (const ompdp_fix_t *X : P.Fixes) {
    FixNote &N = Notes[size_t(X - Plan.fixes)];
    if (X->state != OMPDP_FIX_APPLY || N.Attached)
      continue;
    for (size_t I = 0; I < X->rw->num_edits; ++I) {
      const ompdp_fix_edit_t &E = X->edits[I];
      FileID FID = static_cast<SourceFile *>(E.file->user)->FID;
      SourceLocation B = SM.getComposedLoc(FID, unsigned(E.start));
      SourceLocation End = SM.getComposedLoc(FID, unsigned(E.end));
      std::string Text(ompdp_fix_edit_text(&E, nullptr), '\0');
      ompdp_fix_edit_text(&E, Text.data()); // in the file's line breaks
      if (E.start == E.end)
        Hints.push_back(FixItHint::CreateInsertion(B, Text));
      else if (Text.empty())
        Hints.push_back(
            FixItHint::CreateRemoval(CharSourceRange::getCharRange(B, End)));
      else
        Hints.push_back(FixItHint::CreateReplacement(
            CharSourceRange::getCharRange(B, End), Text));
    }
    N.Attached = true;
    N.AttachedTo = std::string("the ") + ompdp_finding_kind_json(P.F->kind) +
                   " warning at " + where(*P.File, P.Offset);
    AttachedHere.push_back(X);
  }
  report(L, P.F->kind, Loc, findingMessage(*P.F, *P.It), Ranges, Hints);
  note(Loc, costMessage(*P.F));
  for (const ompdp_fix_t *X : P.Fixes) {
    bool Here = std::find(AttachedHere.begin(), AttachedHere.end(), X) !=
                AttachedHere.end();
    if (X->state == OMPDP_FIX_APPLY && !Here) {
      note(Loc, std::string("fix (") + ompdp_rewrite_kind_json(X->rw->kind) +
                    "): the same rewrite as for " +
                    Notes[size_t(X - Plan.fixes)].AttachedTo);
      continue;
    }
    std::string M = fixSummary(*X->rw);
    const char *Why = X->file_name ? X->file_name : "?";
    switch (X->state) {
    case OMPDP_FIX_APPLY:
      break;
    case OMPDP_FIX_NO_FILE:
      M += std::string("; not offered here: it edits '") + Why +
           "', which this compile does not read (`ompdp fix` applies it)";
      break;
    case OMPDP_FIX_STALE_FILE:
      M += std::string("; not offered: '") + Why + "' does not match the profile";
      break;
    case OMPDP_FIX_SELF_OVERLAP:
      M += "; not offered: its edits overlap each other";
      break;
    case OMPDP_FIX_OVERLAPS: {
      const ompdp_fix_t &W = Plan.fixes[X->winner];
      M += std::string("; not offered: it overlaps the ") +
           ompdp_rewrite_kind_json(W.rw->kind) + " fix for " +
           ompdp_finding_kind_json(W.f->kind) + ", which saves more";
      break;
    }
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
