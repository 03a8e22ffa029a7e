//===- RegionTable.h - the region table, in C++ -----------------*- C++ -*-===//
//
// C++ view of the region table defined in include/ompdp/OmpdpFormat.inc: the
// record structs (generated from the X-macros, so they match the C runtime's
// byte for byte), a builder that the Clang plugin fills and serializes, and a
// reader that the LLVM pass uses to find the region behind an offload call.
//
//===----------------------------------------------------------------------===//
#ifndef OMPDP_CLANG_PLUGIN_REGIONTABLE_H
#define OMPDP_CLANG_PLUGIN_REGIONTABLE_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ompdp/OmpdpFormat.inc"

namespace ompdp {

struct TableHeader {
#define OMPDP_REGION_HEADER_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
};
struct RegionRecord {
#define OMPDP_REGION_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
};
struct ItemRecord {
#define OMPDP_ITEM_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
};
struct HostAccessRecord {
#define OMPDP_HOST_ACCESS_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
};
struct ExitRecord {
#define OMPDP_EXIT_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
};
/// A tagged call's descriptor, without the item indices that may follow.
struct CallDescriptor {
#define OMPDP_CALL_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
};
static_assert(sizeof(TableHeader) % 8 == 0 && sizeof(RegionRecord) % 8 == 0 &&
                  sizeof(ItemRecord) % 8 == 0 &&
                  sizeof(HostAccessRecord) % 8 == 0 &&
                  sizeof(ExitRecord) % 8 == 0,
              "region table records must be multiples of 8 bytes");

enum ConstructKind : uint32_t {
#define OMPDP_CONSTRUCT_KIND(Enum, Spelling) CK_##Enum,
#include "ompdp/OmpdpFormat.inc"
};
enum MapType : uint32_t {
#define OMPDP_MAP_TYPE(Enum, Spelling) MT_##Enum,
#include "ompdp/OmpdpFormat.inc"
};
enum MapModifier : uint32_t {
#define OMPDP_MAP_MODIFIER(Enum, Bit, Spelling) MM_##Enum = 1u << Bit,
#include "ompdp/OmpdpFormat.inc"
};
enum RegionFlag : uint32_t {
#define OMPDP_REGION_FLAG(Enum, Bit, Spelling) RF_##Enum = 1u << Bit,
#include "ompdp/OmpdpFormat.inc"
};
enum HostAccessFlag : uint32_t {
#define OMPDP_HOST_ACCESS_FLAG(Enum, Bit, Spelling) HA_##Enum = 1u << Bit,
#include "ompdp/OmpdpFormat.inc"
};
enum FillFlag : uint32_t {
#define OMPDP_FILL_FLAG(Enum, Bit, Spelling) FF_##Enum = 1u << Bit,
#include "ompdp/OmpdpFormat.inc"
};
enum ExitKind : uint32_t {
#define OMPDP_EXIT_KIND(Enum, Spelling) EK_##Enum,
#include "ompdp/OmpdpFormat.inc"
};
enum ExitFlag : uint32_t {
#define OMPDP_EXIT_FLAG(Enum, Bit, Spelling) EF_##Enum = 1u << Bit,
#include "ompdp/OmpdpFormat.inc"
};
enum ItemAccessFlag : uint32_t {
#define OMPDP_ITEM_ACCESS_FLAG(Enum, Bit, Spelling) IA_##Enum = 1u << Bit,
#include "ompdp/OmpdpFormat.inc"
};
enum UseFlag : uint32_t {
#define OMPDP_USE_FLAG(Enum, Bit, Spelling) UF_##Enum = 1u << Bit,
#include "ompdp/OmpdpFormat.inc"
};
enum Access : uint32_t {
#define OMPDP_ACCESS(Enum, Spelling) AC_##Enum,
#include "ompdp/OmpdpFormat.inc"
};

const char *constructKindName(uint32_t K);
const char *mapTypeName(uint32_t T);
const char *accessName(uint32_t A);
const char *exitKindName(uint32_t K);

/// A source position as Clang presents it (presumed location).
struct Pos {
  uint32_t Line = 0, Column = 0;
};

/// A byte range in the region's source file (Length 0: unknown).
struct Span {
  uint32_t Offset = 0, Length = 0;
};

/// Host code around a construct that uses an item (OMPDP_HOST_ACCESS_FIELD).
struct HostAccess {
  uint32_t Access = AC_UNKNOWN, Flags = 0;
  /// A call's argument: the statement uses it only as this many arguments
  /// of calls of functions the translation unit has no body for (3.9).
  uint32_t ExternArgs = 0;
  Pos Begin, End;
  Span Bytes;
};

/// A jump out of (or into) a construct's innermost loop (OMPDP_EXIT_FIELD).
struct LoopExit {
  uint32_t Kind = EK_RETURN, Flags = 0;
  Pos Begin, End;
  Span Bytes;
};

/// One map or motion list item, before serialization.
struct Item {
  std::string Name, Expr, Clause, MatchName;
  uint32_t MapType = MT_NONE, Modifiers = 0, Access = AC_UNKNOWN;
  Pos Decl, ClauseBegin, ClauseEnd, ItemBegin, ItemEnd;
  Span ClauseBytes, ItemBytes;
  std::vector<HostAccess> HostAccesses;
  /// What a device-side fill of the item needs (OMPDP_FILL_FLAG).
  std::string FillType, FillLower, FillLength;
  uint32_t FillElemSize = 0, FillFlags = 0, FillCount = 0;
  /// OMPDP_ITEM_ACCESS_FLAG bits.
  uint32_t AccessFlags = 0;
  /// SECTION_END: the region uses only [lb + SectionSkip, len + SectionEnd).
  /// The section's element size and its bounds as written.
  int32_t SectionSkip = 0, SectionEnd = 0;
  uint32_t SectionElemSize = 0;
  std::string SectionLower, SectionLength;
  /// The statements of the construct's block that may use the item
  /// (OMPDP_USE_FLAG, Use* fields): the first one's begin and the construct
  /// it leads with, the last one's end and the construct it ends with.
  uint32_t UseFlags = 0, UseBeginOffset = 0, UseEndOffset = 0, UseIndent = 0;
  Pos UseBegin, UseLead, UseEnd, UseTail;
};

/// One offload construct, before serialization.
struct Region {
  uint64_t Id = 0;
  uint32_t Kind = CK_UNKNOWN, Flags = 0;
  std::string File, Function, LoopKind;
  Pos Begin, End, LoopBegin, LoopEnd;
  /// The file the byte ranges refer to, and the hash of its contents.
  std::string SourceFile;
  uint64_t FileHash = 0;
  Span DirectiveBytes, LoopBytes;
  /// The construct's statement (directive through its associated
  /// statement) and the block it is directly in ('{' offset + 1, 0: none).
  Pos StmtBegin, StmtEnd;
  Span StmtBytes;
  uint32_t Block = 0, BlockIndex = 0, BlockDecls = 0, BlockJumps = 0, BlockBranch = 0;
  /// The directive as written and its clauses that no item records
  /// (white space collapsed).
  std::string Directive, OtherClauses;
  /// A routine call's arguments as written, one per line (a call is
  /// recorded as a region: Directive is the call, the items its pointers).
  std::string Arguments;
  /// A routine call's statement as written (white space collapsed).
  std::string StmtText;
  /// A call (CK_CALL): its callee, qualified as Function names functions,
  /// its symbol, and its parameters' names, one per line.
  std::string Callee, CalleeSymbol, Parameters;
  /// The parameters' names of the function the construct (or call) is in,
  /// one per line (3.6).
  std::string FnParameters;
  /// What that function's host code does with each parameter, one letter
  /// each: 'u' never named, 'm' named only in OpenMP clauses and device
  /// code, 'r' a pointer only read through, 'e' a pointer only passed to
  /// one call of a function defined elsewhere, 'b' both, '-' anything else
  /// (3.9, 3.15;
  /// OMPDP_REGION_FIELD FnParamUses).
  std::string FnParamUses;
  /// A call (CK_CALL): each argument in that function's parameters' terms,
  /// one per line ("" where it cannot be; 3.15, OMPDP_REGION_FIELD
  /// ParamArgs).
  std::string ParamArgs;
  /// Key of the kernel entry name (.__omp_offloading_<dev>_<ino>_..._l<line>).
  uint64_t FileDevice = 0, FileInode = 0;
  uint32_t OffloadLine = 0;
  /// The innermost loop's statement: its last line, and the jumps out of it.
  uint32_t LoopStmtEndLine = 0;
  std::vector<LoopExit> Exits;
  std::vector<Item> Items;
};

/// The regions of one translation unit.
class TableBuilder {
public:
  /// Adds R unless a region with the same ID is already there (template
  /// instantiations share their pattern's directive). Returns the index of
  /// the region in the table; Added says whether R was new.
  uint32_t add(Region R, bool &Added);
  bool empty() const { return Regions.empty(); }
  /// The compile as a syntax check (compiler and arguments, one per line)
  /// and its working directory, recorded in every region.
  void setCompile(std::string Dir, std::string Args) {
    CompileDir = std::move(Dir);
    CompileArgs = std::move(Args);
  }
  const std::vector<Region> &regions() const { return Regions; }
  /// Region I, for facts decided at the end of the translation unit.
  Region &region(uint32_t I) { return Regions[I]; }
  /// The table in its object-file layout (size a multiple of 8).
  std::string serialize() const;
  /// Human-readable listing in source order (the plugin's dump option; lit
  /// tests check it).
  void dump(llvm::raw_ostream &OS) const;

private:
  std::vector<Region> Regions;
  /// By region ID and enclosing function: each instance of a template is
  /// a region of its own (same ID, its own function name and items), so
  /// that a finding names the instance that ran.
  std::map<std::pair<uint64_t, std::string>, uint32_t> Seen;
  std::string CompileDir, CompileArgs;
};

/// The table packed for the trip through the host IR (see
/// OMPDP_REGION_TRANSPORT_MAGIC), and back. unpackTable returns false on
/// anything that is not a well-formed packed table.
std::string packTable(llvm::StringRef Table);
bool unpackTable(llvm::StringRef Packed, std::string &Table);

/// The stable region ID: a hash of where the directive is and what it is.
uint64_t regionId(llvm::StringRef File, uint32_t Line, uint32_t Column,
                  uint32_t Kind);

/// Read-only access to a serialized table (the pass's side).
class TableReader {
public:
  /// Fails (returns nullopt) on a wrong magic, version or size.
  static std::optional<TableReader> open(llvm::StringRef Bytes,
                                         std::string &Error);
  uint32_t numRegions() const { return Hdr.NumRegions; }
  RegionRecord region(uint32_t I) const;
  ItemRecord item(uint32_t I) const;
  uint32_t numHostAccesses() const { return Hdr.NumHostAccesses; }
  HostAccessRecord hostAccess(uint32_t I) const;
  uint32_t numExits() const { return Hdr.NumExits; }
  ExitRecord exit(uint32_t I) const;
  llvm::StringRef str(uint32_t Off) const;
  /// Byte offset of region I from the start of the table.
  uint64_t regionOffset(uint32_t I) const {
    return Hdr.HeaderSize + uint64_t(I) * Hdr.RegionSize;
  }

private:
  llvm::StringRef Bytes;
  TableHeader Hdr{};
};

} // namespace ompdp

#endif
