//===- RegionTable.cpp - build, serialize, dump and read region tables ----===//
//
// The table is built in memory by the Clang plugin, serialized into the
// layout of include/ompdp/OmpdpFormat.inc, and read back by the LLVM pass.
// Strings are pooled and referred to by offset, so a table is position
// independent and needs no relocations in a shared library.
//
//===----------------------------------------------------------------------===//
#include "RegionTable.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cstring>
#include <tuple>

using namespace ompdp;

const char *ompdp::constructKindName(uint32_t K) {
  static const char *const Names[] = {
#define OMPDP_CONSTRUCT_KIND(Enum, Spelling) Spelling,
#include "ompdp/OmpdpFormat.inc"
  };
  return K < sizeof(Names) / sizeof(Names[0]) ? Names[K] : "unknown";
}

const char *ompdp::mapTypeName(uint32_t T) {
  static const char *const Names[] = {
#define OMPDP_MAP_TYPE(Enum, Spelling) Spelling,
#include "ompdp/OmpdpFormat.inc"
  };
  return T < sizeof(Names) / sizeof(Names[0]) ? Names[T] : "none";
}

const char *ompdp::accessName(uint32_t A) {
  static const char *const Names[] = {
#define OMPDP_ACCESS(Enum, Spelling) Spelling,
#include "ompdp/OmpdpFormat.inc"
  };
  return A < sizeof(Names) / sizeof(Names[0]) ? Names[A] : "unknown";
}

const char *ompdp::exitKindName(uint32_t K) {
  static const char *const Names[] = {
#define OMPDP_EXIT_KIND(Enum, Spelling) Spelling,
#include "ompdp/OmpdpFormat.inc"
  };
  return K < sizeof(Names) / sizeof(Names[0]) ? Names[K] : "unknown";
}

uint64_t ompdp::regionId(llvm::StringRef File, uint32_t Line, uint32_t Column,
                         uint32_t Kind) {
  std::string Key;
  llvm::raw_string_ostream OS(Key);
  OS << File << '\0' << Line << '\0' << Column << '\0' << Kind;
  return llvm::xxh3_64bits(llvm::StringRef(Key));
}

uint32_t TableBuilder::add(Region R, bool &Added) {
  auto [It, New] = Seen.try_emplace({R.Id, R.Function}, uint32_t(Regions.size()));
  Added = New;
  if (New)
    Regions.push_back(std::move(R));
  return It->second;
}

namespace {
/// Deduplicating string pool; offset 0 is the empty string.
class StringPool {
public:
  StringPool() { Data.push_back('\0'); }
  uint32_t get(llvm::StringRef S) {
    if (S.empty())
      return 0;
    auto [It, New] = Offsets.try_emplace(S, uint32_t(Data.size()));
    if (New) {
      Data.append(S.begin(), S.end());
      Data.push_back('\0');
    }
    return It->second;
  }
  std::string Data;

private:
  llvm::StringMap<uint32_t> Offsets;
};

template <typename T> void append(std::string &Out, const T &V) {
  Out.append(reinterpret_cast<const char *>(&V), sizeof(V));
}
} // namespace

std::string TableBuilder::serialize() const {
  StringPool Pool;
  std::vector<RegionRecord> RR;
  std::vector<ItemRecord> IR;
  std::vector<HostAccessRecord> HR;
  std::vector<ExitRecord> ER;
  uint32_t CompileDirOff = Pool.get(CompileDir);
  uint32_t CompileArgsOff = Pool.get(CompileArgs);
  for (const Region &R : Regions) {
    RegionRecord Rec;
    std::memset(&Rec, 0, sizeof(Rec));
    Rec.Id = R.Id;
    Rec.FileHash = R.FileHash;
    Rec.FileDevice = R.FileDevice;
    Rec.FileInode = R.FileInode;
    Rec.OffloadLine = R.OffloadLine;
    Rec.SourceFile = Pool.get(R.SourceFile);
    Rec.DirectiveOffset = R.DirectiveBytes.Offset;
    Rec.DirectiveLength = R.DirectiveBytes.Length;
    Rec.LoopOffset = R.LoopBytes.Offset;
    Rec.LoopLength = R.LoopBytes.Length;
    Rec.Directive = Pool.get(R.Directive);
    Rec.OtherClauses = Pool.get(R.OtherClauses);
    Rec.Arguments = Pool.get(R.Arguments);
    Rec.StmtText = Pool.get(R.StmtText);
    Rec.Callee = Pool.get(R.Callee);
    Rec.CalleeSymbol = Pool.get(R.CalleeSymbol);
    Rec.Parameters = Pool.get(R.Parameters);
    Rec.FnParameters = Pool.get(R.FnParameters);
    Rec.FnParamUses = Pool.get(R.FnParamUses);
    Rec.ParamArgs = Pool.get(R.ParamArgs);
    Rec.StmtLine = R.StmtBegin.Line;
    Rec.StmtColumn = R.StmtBegin.Column;
    Rec.StmtEndLine = R.StmtEnd.Line;
    Rec.StmtEndColumn = R.StmtEnd.Column;
    Rec.StmtOffset = R.StmtBytes.Offset;
    Rec.StmtLength = R.StmtBytes.Length;
    Rec.Block = R.Block;
    Rec.BlockIndex = R.BlockIndex;
    Rec.BlockDecls = R.BlockDecls;
    Rec.BlockJumps = R.BlockJumps;
    Rec.BlockBranch = R.BlockBranch;
    Rec.Kind = R.Kind;
    Rec.Flags = R.Flags;
    Rec.File = Pool.get(R.File);
    Rec.Function = Pool.get(R.Function);
    Rec.Line = R.Begin.Line;
    Rec.Column = R.Begin.Column;
    Rec.EndLine = R.End.Line;
    Rec.EndColumn = R.End.Column;
    Rec.LoopKind = Pool.get(R.LoopKind);
    Rec.LoopLine = R.LoopBegin.Line;
    Rec.LoopColumn = R.LoopBegin.Column;
    Rec.LoopEndLine = R.LoopEnd.Line;
    Rec.LoopEndColumn = R.LoopEnd.Column;
    Rec.FirstItem = uint32_t(IR.size());
    Rec.NumItems = uint32_t(R.Items.size());
    Rec.Index = uint32_t(RR.size());
    Rec.LoopStmtEndLine = R.LoopStmtEndLine;
    Rec.CompileDir = CompileDirOff;
    Rec.CompileArgs = CompileArgsOff;
    Rec.FirstExit = uint32_t(ER.size());
    Rec.NumExits = uint32_t(R.Exits.size());
    for (const LoopExit &X : R.Exits) {
      ExitRecord E;
      std::memset(&E, 0, sizeof(E));
      E.Kind = X.Kind;
      E.Flags = X.Flags;
      E.Line = X.Begin.Line;
      E.Column = X.Begin.Column;
      E.EndLine = X.End.Line;
      E.EndColumn = X.End.Column;
      E.Offset = X.Bytes.Offset;
      E.Length = X.Bytes.Length;
      ER.push_back(E);
    }
    RR.push_back(Rec);
    for (const Item &It : R.Items) {
      ItemRecord I;
      std::memset(&I, 0, sizeof(I));
      I.Name = Pool.get(It.Name);
      I.Expr = Pool.get(It.Expr);
      I.Clause = Pool.get(It.Clause);
      I.MatchName = Pool.get(It.MatchName);
      I.MapType = It.MapType;
      I.Modifiers = It.Modifiers;
      I.DeclLine = It.Decl.Line;
      I.DeclColumn = It.Decl.Column;
      I.ClauseLine = It.ClauseBegin.Line;
      I.ClauseColumn = It.ClauseBegin.Column;
      I.ClauseEndLine = It.ClauseEnd.Line;
      I.ClauseEndColumn = It.ClauseEnd.Column;
      I.ItemLine = It.ItemBegin.Line;
      I.ItemColumn = It.ItemBegin.Column;
      I.ItemEndLine = It.ItemEnd.Line;
      I.ItemEndColumn = It.ItemEnd.Column;
      I.Access = It.Access;
      I.ClauseOffset = It.ClauseBytes.Offset;
      I.ClauseLength = It.ClauseBytes.Length;
      I.ItemOffset = It.ItemBytes.Offset;
      I.ItemLength = It.ItemBytes.Length;
      I.FillType = Pool.get(It.FillType);
      I.FillElemSize = It.FillElemSize;
      I.FillFlags = It.FillFlags;
      I.FillLower = Pool.get(It.FillLower);
      I.FillLength = Pool.get(It.FillLength);
      I.FillCount = It.FillCount;
      I.AccessFlags = It.AccessFlags;
      I.UseFlags = It.UseFlags;
      I.UseBeginLine = It.UseBegin.Line;
      I.UseBeginColumn = It.UseBegin.Column;
      I.UseBeginOffset = It.UseBeginOffset;
      I.UseLeadLine = It.UseLead.Line;
      I.UseLeadColumn = It.UseLead.Column;
      I.UseEndLine = It.UseEnd.Line;
      I.UseEndColumn = It.UseEnd.Column;
      I.UseEndOffset = It.UseEndOffset;
      I.UseTailLine = It.UseTail.Line;
      I.UseTailColumn = It.UseTail.Column;
      I.UseIndent = It.UseIndent;
      I.SectionSkip = uint32_t(It.SectionSkip);
      I.SectionEnd = uint32_t(It.SectionEnd);
      I.SectionElemSize = It.SectionElemSize;
      I.SectionLower = Pool.get(It.SectionLower);
      I.SectionLength = Pool.get(It.SectionLength);
      I.FirstHostAccess = uint32_t(HR.size());
      I.NumHostAccesses = uint32_t(It.HostAccesses.size());
      for (const HostAccess &A : It.HostAccesses) {
        HostAccessRecord H;
        std::memset(&H, 0, sizeof(H));
        H.Item = uint32_t(IR.size());
        H.Access = A.Access;
        H.Flags = A.Flags;
        H.ExternArgs = A.ExternArgs;
        H.Line = A.Begin.Line;
        H.Column = A.Begin.Column;
        H.EndLine = A.End.Line;
        H.EndColumn = A.End.Column;
        H.Offset = A.Bytes.Offset;
        H.Length = A.Bytes.Length;
        HR.push_back(H);
      }
      IR.push_back(I);
    }
  }
  std::string Strings = Pool.Data;
  while (Strings.size() % 8)
    Strings.push_back('\0');

  TableHeader H;
  std::memset(&H, 0, sizeof(H));
  H.Magic = OMPDP_REGION_TABLE_MAGIC;
  H.Version = OMPDP_REGION_TABLE_VERSION;
  H.HeaderSize = sizeof(TableHeader);
  H.RegionSize = sizeof(RegionRecord);
  H.ItemSize = sizeof(ItemRecord);
  H.HostAccessSize = sizeof(HostAccessRecord);
  H.ExitSize = sizeof(ExitRecord);
  H.NumExits = uint32_t(ER.size());
  H.NumRegions = uint32_t(RR.size());
  H.NumItems = uint32_t(IR.size());
  H.NumHostAccesses = uint32_t(HR.size());
  H.StringsSize = uint32_t(Strings.size());
  H.TotalSize = uint32_t(sizeof(H) + RR.size() * sizeof(RegionRecord) +
                         IR.size() * sizeof(ItemRecord) +
                         HR.size() * sizeof(HostAccessRecord) +
                         ER.size() * sizeof(ExitRecord) + Strings.size());
  std::string Out;
  Out.reserve(H.TotalSize);
  append(Out, H);
  for (const RegionRecord &R : RR)
    append(Out, R);
  for (const ItemRecord &I : IR)
    append(Out, I);
  for (const HostAccessRecord &A : HR)
    append(Out, A);
  for (const ExitRecord &E : ER)
    append(Out, E);
  Out += Strings;
  return Out;
}

namespace {
void putLEB(std::string &Out, uint64_t V) {
  do {
    uint8_t B = V & 0x7f;
    V >>= 7;
    Out.push_back(char(B | (V ? 0x80 : 0)));
  } while (V);
}
bool getLEB(llvm::StringRef &In, uint64_t &V) {
  V = 0;
  for (unsigned Shift = 0; Shift < 64; Shift += 7) {
    if (In.empty())
      return false;
    uint8_t B = uint8_t(In.front());
    In = In.drop_front();
    V |= uint64_t(B & 0x7f) << Shift;
    if (!(B & 0x80))
      return true;
  }
  return false;
}
} // namespace

std::string ompdp::packTable(llvm::StringRef Table) {
  std::string Out;
  Out.reserve(Table.size() / 3 + 16);
  putLEB(Out, OMPDP_REGION_TRANSPORT_MAGIC);
  putLEB(Out, Table.size());
  for (size_t I = 0; I + 4 <= Table.size(); I += 4) {
    const auto *P = reinterpret_cast<const uint8_t *>(Table.data() + I);
    putLEB(Out, uint32_t(P[0]) | uint32_t(P[1]) << 8 | uint32_t(P[2]) << 16 |
                    uint32_t(P[3]) << 24);
  }
  return Out;
}

bool ompdp::unpackTable(llvm::StringRef Packed, std::string &Table) {
  uint64_t Magic, Size, W;
  if (!getLEB(Packed, Magic) || Magic != OMPDP_REGION_TRANSPORT_MAGIC ||
      !getLEB(Packed, Size) || Size % 8 || Size > (1ull << 32))
    return false;
  Table.clear();
  Table.reserve(Size);
  while (Table.size() < Size) {
    if (!getLEB(Packed, W) || W > UINT32_MAX)
      return false;
    for (int K = 0; K < 4; ++K)
      Table.push_back(char((W >> (8 * K)) & 0xff));
  }
  return true;
}

static void printModifiers(llvm::raw_ostream &OS, uint32_t M) {
  bool First = true;
#define OMPDP_MAP_MODIFIER(Enum, Bit, Spelling)                                \
  if (M & (1u << Bit)) {                                                       \
    OS << (First ? "" : ",") << Spelling;                                      \
    First = false;                                                             \
  }
#include "ompdp/OmpdpFormat.inc"
  if (First)
    OS << "-";
}

static void printSpan(llvm::raw_ostream &OS, const Span &S) {
  OS << S.Offset << "+" << S.Length;
}

void TableBuilder::dump(llvm::raw_ostream &OS) const {
  OS << "ompdp region table: " << Regions.size() << " region(s), section "
     << OMPDP_REGION_SECTION << "\n";
  // Source order, whatever order the compiler handed the functions over in
  // (template instantiations come last).
  std::vector<const Region *> Order;
  for (const Region &R : Regions)
    Order.push_back(&R);
  std::sort(Order.begin(), Order.end(), [](const Region *A, const Region *B) {
    return std::tie(A->File, A->Begin.Line, A->Begin.Column, A) <
           std::tie(B->File, B->Begin.Line, B->Begin.Column, B);
  });
  for (const Region *RP : Order) {
    const Region &R = *RP;
    OS << "region " << llvm::format_hex(R.Id, 18) << " '"
       << constructKindName(R.Kind) << "' at " << R.File << ":" << R.Begin.Line
       << ":" << R.Begin.Column << " in '" << R.Function << "'";
    if (R.Flags & RF_NOWAIT)
      OS << " nowait";
    if (R.Flags & RF_IN_MACRO)
      OS << " macro";
    if (R.Flags & RF_IN_TEMPLATE)
      OS << " template";
    if (R.Flags & RF_DEPEND)
      OS << " depend";
    if (R.Flags & RF_EXTERN_CALLEE)
      OS << " extern-callee";
    if (R.Flags & RF_INDIRECT_CALLEE)
      OS << " indirect-callee";
    if (R.Kind != CK_CALL && R.FnParamUses.find_first_not_of('-') != std::string::npos)
      OS << " param-uses '" << R.FnParamUses << "'";
    OS << "\n";
    if (!R.Arguments.empty() || R.Kind == CK_CALL) {
      // A call: the call as written, then its arguments.
      OS << "  call: '" << R.Directive << "' end " << R.End.Line << ":"
         << R.End.Column;
      if (R.Flags & RF_ARGS_INVARIANT)
        OS << " args-invariant";
      if (R.Flags & RF_IN_LOOP_BODY)
        OS << " in-loop-body";
      if (R.Flags & RF_DECL_STMT)
        OS << " decl-stmt";
      OS << " args";
      llvm::StringRef Rest(R.Arguments);
      while (!Rest.empty()) {
        auto [Arg, Tail] = Rest.split('\n');
        OS << " '" << Arg << "'";
        Rest = Tail;
      }
      OS << "\n";
    }
    if (R.Kind == CK_CALL) {
      OS << "  callee: '" << R.Callee << "' symbol '" << R.CalleeSymbol
         << "' params";
      llvm::StringRef Rest(R.Parameters);
      while (!Rest.empty()) {
        auto [Param, Tail] = Rest.split('\n');
        OS << " '" << Param << "'";
        Rest = Tail;
      }
      // The arguments in the caller's parameters (3.15), where one is.
      if (R.ParamArgs.find_first_not_of('\n') != std::string::npos) {
        OS << " in-params";
        llvm::SmallVector<llvm::StringRef, 8> Args;
        llvm::StringRef(R.ParamArgs).split(Args, '\n');
        for (llvm::StringRef A : Args)
          OS << " '" << A << "'";
      }
      if (R.FnParamUses.find_first_not_of('-') != std::string::npos)
        OS << " caller-param-uses '" << R.FnParamUses << "'";
      OS << "\n";
    }
    if (R.LoopKind.empty()) {
      OS << "  loop: none\n";
    } else {
      OS << "  loop: " << R.LoopKind << " " << R.LoopBegin.Line << ":"
         << R.LoopBegin.Column << "-" << R.LoopEnd.Line << ":"
         << R.LoopEnd.Column << " bytes ";
      printSpan(OS, R.LoopBytes);
      if (R.LoopStmtEndLine)
        OS << " last-line " << R.LoopStmtEndLine;
      if (R.Flags & RF_LOOP_OWN_LINES)
        OS << " own-lines";
      OS << "\n";
    }
    for (const LoopExit &X : R.Exits) {
      OS << "  exit " << exitKindName(X.Kind) << " at " << X.Begin.Line << ":"
         << X.Begin.Column << "-" << X.End.Line << ":" << X.End.Column
         << " bytes ";
      printSpan(OS, X.Bytes);
#define OMPDP_EXIT_FLAG(Enum, Bit, Spelling)                                   \
  if (X.Flags & (1u << Bit))                                                   \
    OS << " " << Spelling;
#include "ompdp/OmpdpFormat.inc"
      OS << "\n";
    }
    for (size_t I = 0; I < R.Items.size(); ++I) {
      const Item &It = R.Items[I];
      OS << "  item " << I << ": " << mapTypeName(It.MapType) << " '" << It.Expr
         << "' var '" << It.Name << "' mods ";
      printModifiers(OS, It.Modifiers);
      OS << " clause '" << It.Clause << "'";
      if (It.ClauseBegin.Line)
        OS << " clause-range " << It.ClauseBegin.Line << ":"
           << It.ClauseBegin.Column << "-" << It.ClauseEnd.Line << ":"
           << It.ClauseEnd.Column;
      if (It.ItemBegin.Line)
        OS << " item-range " << It.ItemBegin.Line << ":" << It.ItemBegin.Column
           << "-" << It.ItemEnd.Line << ":" << It.ItemEnd.Column;
      OS << " access " << accessName(It.Access);
#define OMPDP_ITEM_ACCESS_FLAG(Enum, Bit, Spelling)                             \
  if (It.AccessFlags & (1u << (Bit)))                                          \
    OS << " " Spelling;
#include "ompdp/OmpdpFormat.inc"
      if (It.ClauseBytes.Length) {
        OS << " clause-bytes ";
        printSpan(OS, It.ClauseBytes);
      }
      if (It.ItemBytes.Length) {
        OS << " item-bytes ";
        printSpan(OS, It.ItemBytes);
      }
      if (It.FillFlags & (FF_SECTION | FF_WHOLE | FF_CONST_WHOLE)) {
        OS << " fill '" << It.FillType << "' x" << It.FillElemSize;
        if (It.FillFlags & FF_SECTION)
          OS << " [" << It.FillLower << ":" << It.FillLength << "]";
        else
          OS << " *" << It.FillCount;
        if (It.FillFlags & FF_CONST_WHOLE)
          OS << " const";
        if (It.FillFlags & FF_SCALAR)
          OS << " scalar";
        if (It.FillFlags & FF_HOST_VALUES)
          OS << " host-values";
      }
      if (It.AccessFlags & IA_SECTION_END)
        OS << " used [lb" << (It.SectionSkip < 0 ? " - " : " + ")
           << (It.SectionSkip < 0 ? -int64_t(It.SectionSkip) : int64_t(It.SectionSkip))
           << ", len" << (It.SectionEnd < 0 ? " - " : " + ")
           << (It.SectionEnd < 0 ? -int64_t(It.SectionEnd) : int64_t(It.SectionEnd)) << ") of ["
           << It.SectionLower << ":" << It.SectionLength << "] x" << It.SectionElemSize;
      OS << "\n";
      if (It.UseFlags || It.UseBegin.Line || It.UseEnd.Line) {
        // Where the block may use it (enter/exit data, target data).
        OS << "    uses:";
        if (It.UseBegin.Line)
          OS << " first " << It.UseBegin.Line << ":" << It.UseBegin.Column << " @"
             << It.UseBeginOffset << " lead " << It.UseLead.Line << ":" << It.UseLead.Column;
        if (It.UseEnd.Line)
          OS << " last-end " << It.UseEnd.Line << ":" << It.UseEnd.Column << " @"
             << It.UseEndOffset << " tail " << It.UseTail.Line << ":" << It.UseTail.Column;
        OS << " indent " << It.UseIndent;
#define OMPDP_USE_FLAG(Enum, Bit, Spelling)                                    \
  if (It.UseFlags & (1u << (Bit)))                                             \
    OS << " " Spelling;
#include "ompdp/OmpdpFormat.inc"
        OS << "\n";
      }
    }
    OS << "  source: '" << R.SourceFile << "' hash "
       << llvm::format_hex(R.FileHash, 18) << " directive-bytes ";
    printSpan(OS, R.DirectiveBytes);
    if (R.Kind == CK_TARGET)
      OS << " entry "
         << llvm::format("%x_%x", unsigned(R.FileDevice), unsigned(R.FileInode))
         << " l" << R.OffloadLine;
    OS << "\n";
    OS << "  stmt: " << R.StmtBegin.Line << ":" << R.StmtBegin.Column << "-"
       << R.StmtEnd.Line << ":" << R.StmtEnd.Column << " bytes ";
    printSpan(OS, R.StmtBytes);
    if (R.Block)
      OS << " block " << (R.Block - 1) << " #" << R.BlockIndex << " decls "
         << R.BlockDecls << " jumps " << R.BlockJumps;
    if (R.BlockBranch)
      OS << " branch " << llvm::format_hex(R.BlockBranch, 10);
    if (R.Flags & RF_OWN_LINES)
      OS << " own-lines";
    if (!R.StmtText.empty())
      OS << " text '" << R.StmtText << "'";
    OS << "\n";
    for (size_t I = 0; I < R.Items.size(); ++I) {
      for (const HostAccess &A : R.Items[I].HostAccesses) {
        OS << "  host " << I << " '" << R.Items[I].Name << "' "
           << accessName(A.Access) << " at " << A.Begin.Line
           << ":" << A.Begin.Column << "-" << A.End.Line << ":" << A.End.Column
           << " bytes ";
        printSpan(OS, A.Bytes);
#define OMPDP_HOST_ACCESS_FLAG(Enum, Bit, Spelling)                            \
  if (A.Flags & (1u << Bit))                                                   \
    OS << " " << Spelling;
#include "ompdp/OmpdpFormat.inc"
        if (A.ExternArgs)
          OS << " extern-args " << A.ExternArgs;
        OS << "\n";
      }
    }
  }
}

std::optional<TableReader> TableReader::open(llvm::StringRef Bytes,
                                             std::string &Error) {
  TableReader R;
  if (Bytes.size() < sizeof(TableHeader)) {
    Error = "region table truncated";
    return std::nullopt;
  }
  std::memcpy(&R.Hdr, Bytes.data(), sizeof(TableHeader));
  if (R.Hdr.Magic != OMPDP_REGION_TABLE_MAGIC) {
    Error = "region table has a wrong magic number";
    return std::nullopt;
  }
  if (R.Hdr.Version != OMPDP_REGION_TABLE_VERSION) {
    Error = "region table version " + std::to_string(R.Hdr.Version & 0xffff) +
            "." + std::to_string(R.Hdr.Version >> 16) +
            " is not the supported version " +
            std::to_string(OMPDP_REGION_TABLE_MAJOR_VERSION) + "." +
            std::to_string(OMPDP_REGION_TABLE_MINOR_VERSION);
    return std::nullopt;
  }
  uint64_t Need = uint64_t(R.Hdr.HeaderSize) +
                  uint64_t(R.Hdr.NumRegions) * R.Hdr.RegionSize +
                  uint64_t(R.Hdr.NumItems) * R.Hdr.ItemSize +
                  uint64_t(R.Hdr.NumHostAccesses) * R.Hdr.HostAccessSize +
                  uint64_t(R.Hdr.NumExits) * R.Hdr.ExitSize +
                  R.Hdr.StringsSize;
  if (R.Hdr.HeaderSize != sizeof(TableHeader) ||
      R.Hdr.RegionSize != sizeof(RegionRecord) ||
      R.Hdr.ItemSize != sizeof(ItemRecord) ||
      R.Hdr.HostAccessSize != sizeof(HostAccessRecord) ||
      R.Hdr.ExitSize != sizeof(ExitRecord) ||
      Need != R.Hdr.TotalSize ||
      Need > Bytes.size()) {
    Error = "region table sizes are inconsistent";
    return std::nullopt;
  }
  R.Bytes = Bytes.take_front(Need);
  return R;
}

RegionRecord TableReader::region(uint32_t I) const {
  RegionRecord R;
  std::memcpy(&R, Bytes.data() + regionOffset(I), sizeof(R));
  return R;
}

ItemRecord TableReader::item(uint32_t I) const {
  ItemRecord R;
  std::memcpy(&R,
              Bytes.data() + Hdr.HeaderSize +
                  uint64_t(Hdr.NumRegions) * Hdr.RegionSize +
                  uint64_t(I) * Hdr.ItemSize,
              sizeof(R));
  return R;
}

HostAccessRecord TableReader::hostAccess(uint32_t I) const {
  HostAccessRecord R;
  std::memcpy(&R,
              Bytes.data() + Hdr.HeaderSize +
                  uint64_t(Hdr.NumRegions) * Hdr.RegionSize +
                  uint64_t(Hdr.NumItems) * Hdr.ItemSize +
                  uint64_t(I) * Hdr.HostAccessSize,
              sizeof(R));
  return R;
}

ExitRecord TableReader::exit(uint32_t I) const {
  ExitRecord R;
  std::memcpy(&R,
              Bytes.data() + Hdr.HeaderSize +
                  uint64_t(Hdr.NumRegions) * Hdr.RegionSize +
                  uint64_t(Hdr.NumItems) * Hdr.ItemSize +
                  uint64_t(Hdr.NumHostAccesses) * Hdr.HostAccessSize +
                  uint64_t(I) * Hdr.ExitSize,
              sizeof(R));
  return R;
}

llvm::StringRef TableReader::str(uint32_t Off) const {
  uint64_t Base = Bytes.size() - Hdr.StringsSize;
  if (Off >= Hdr.StringsSize)
    return "";
  return llvm::StringRef(Bytes.data() + Base + Off);
}
