//===- TagOffloadCalls.cpp - tag offload calls with their regions ---------===//
//
// The plugin put a marker right before the code of every directive: a call
// __ompdp_marker(region index, &variable of item 0, ...). For each __tgt_*
// call the pass
//   1. finds its region: the nearest marker on the call's dominator path
//      with no other offload call in between. A `target data` end call
//      shares its begin call's argument arrays and takes its region. A call
//      in a target task (nowait, depend) is in an outlined function: the
//      search goes on from the task allocation in the function that created
//      it. Kernel launches are checked against their entry name, which holds
//      the file's unique ID and the line;
//   2. matches each map argument to an item: the argument's base and pointer
//      are computed from the item's variable, so the address computation of
//      the best marker argument is a prefix of the argument's (same root
//      storage, then the same loads and field offsets);
//   3. records both in a call descriptor (OMPDP_CALL_FIELD; all of a
//      module's descriptors are one constant) and inserts before the call
//        __ompdp_tag2(descriptor, kernel_args)                 (kernels)
//        __ompdp_tag{2,3,4}(descriptor, args[, sizes[, mappers]]) (data)
//      passing only what is not a constant. The helpers forward to the hook
//      the runtime wrote into the table header, or to the weak
//      __ompdp_region_call when the runtime was preloaded before the table
//      was registered, or do nothing.
// A call of a device memory routine (omp_target_memcpy, ...) has a marker
// of its own right before it, in the same expression; its descriptor says
// OMPDP_CALL_ROUTINE, and a second helper call after it tells the runtime
// that the routine returned. A call of a function that holds constructs (a
// region of kind CALL) is the first call of the callee's symbol after its
// marker in the marker's block; its descriptor says OMPDP_CALL_CONTEXT, and
// helper calls after it, on the normal path and, for an invoke, in its
// landing pad, tell the runtime that it returned, so that the runtime knows
// which call each construct runs in.
// Then it deletes the markers and their function. At -O0 every argument of
// an inserted call costs compile time, hence the descriptors.
//
// The table is found by section, not by name (C++ mangles internal names).
// An ELF note pointing at it (PC-relative, so no dynamic relocation) lets the
// runtime find the tables of every loaded object via dl_iterate_phdr. The
// module is marked so that a second run (the offload driver compiles the
// host IR twice) changes nothing.
//
//===----------------------------------------------------------------------===//
#include "TagOffloadCalls.h"

#include "RegionTable.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <map>

using namespace llvm;
using namespace ompdp;

namespace {

enum class CallKind { None, Kernel, Begin, End, Update, Routine, Context, LoopEntry };

/// The construct kind of a device memory routine (CK_UNKNOWN: not one).
uint32_t routineKind(StringRef Name) {
  static const char *const Names[] = {
#define OMPDP_CONSTRUCT_KIND(Enum, Spelling) Spelling,
#include "ompdp/OmpdpFormat.inc"
  };
  if (!Name.starts_with("omp_target_"))
    return CK_UNKNOWN;
  for (uint32_t K = CK_TARGET_ALLOC; K < std::size(Names); ++K)
    if (Name == Names[K])
      return K;
  return CK_UNKNOWN;
}

CallKind classify(const Function *F) {
  if (!F)
    return CallKind::None;
  StringRef Name = F->getName();
  if (routineKind(Name) != CK_UNKNOWN)
    return CallKind::Routine;
  if (Name == "__tgt_target_kernel" || Name == "__tgt_target_kernel_nowait")
    return CallKind::Kernel;
  if (Name == "__tgt_target_data_begin_mapper" ||
      Name == "__tgt_target_data_begin_nowait_mapper")
    return CallKind::Begin;
  if (Name == "__tgt_target_data_end_mapper" ||
      Name == "__tgt_target_data_end_nowait_mapper")
    return CallKind::End;
  if (Name == "__tgt_target_data_update_mapper" ||
      Name == "__tgt_target_data_update_nowait_mapper")
    return CallKind::Update;
  return CallKind::None;
}

bool isTaskAlloc(const Function *F) {
  return F && (F->getName() == "__kmpc_omp_task_alloc" ||
               F->getName() == "__kmpc_omp_target_task_alloc");
}

bool compatible(CallKind C, uint32_t K, const CallBase *CB) {
  switch (C) {
  case CallKind::Routine:
    return K == routineKind(CB->getCalledFunction()->getName());
  case CallKind::Kernel:
    return K == CK_TARGET;
  case CallKind::Begin:
    return K == CK_TARGET_DATA || K == CK_TARGET_ENTER_DATA;
  case CallKind::End:
    return K == CK_TARGET_DATA || K == CK_TARGET_EXIT_DATA;
  case CallKind::Update:
    return K == CK_TARGET_UPDATE;
  case CallKind::Context:
    return K == CK_CALL;
  default:
    return false;
  }
}

//===- address paths
//-------------------------------------------------------===//

/// How a pointer (or pointer-sized integer) is computed from the storage it
/// starts at: loads, and byte offsets (Any: not constant). Item markers and
/// map arguments are both computed from the item's variable in the same
/// function, so comparing paths tells which item an argument belongs to.
struct Path {
  static constexpr int64_t Load = INT64_MIN, Any = INT64_MIN + 1;
  Value *Root = nullptr;
  SmallVector<int64_t, 6> Steps; // from the root outwards
};

Path pathOf(Value *V, const DataLayout &DL) {
  Path P;
  SmallVector<int64_t, 6> Rev;
  auto Offset = [&](int64_t O) {
    // Consecutive address arithmetic is one step.
    if (!Rev.empty() && Rev.back() != Path::Load) {
      if (Rev.back() == Path::Any || O == Path::Any)
        Rev.back() = Path::Any;
      else
        Rev.back() += O;
      return;
    }
    Rev.push_back(O);
  };
  for (unsigned Depth = 0; V && Depth < 64; ++Depth) {
    if (auto *Op = dyn_cast<PtrToIntOperator>(V)) {
      V = Op->getOperand(0);
    } else if (auto *BC = dyn_cast<BitCastOperator>(V)) {
      V = BC->getOperand(0);
    } else if (auto *AC = dyn_cast<AddrSpaceCastOperator>(V)) {
      V = AC->getOperand(0);
    } else if (auto *GEP = dyn_cast<GEPOperator>(V)) {
      APInt Off(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
      Offset(GEP->accumulateConstantOffset(DL, Off) ? Off.getSExtValue()
                                                    : Path::Any);
      V = GEP->getPointerOperand();
    } else if (auto *LI = dyn_cast<LoadInst>(V)) {
      Rev.push_back(Path::Load);
      V = LI->getPointerOperand();
    } else {
      break;
    }
  }
  P.Root = V;
  P.Steps.assign(Rev.rbegin(), Rev.rend());
  return P;
}

/// How well marker path M explains argument path A: 0 = not at all; more
/// is better (longer marker paths are more specific, exact offsets beat an
/// argument that points further into the marked object).
uint64_t score(const Path &M, const Path &A) {
  if (!M.Root || M.Root != A.Root || M.Steps.size() > A.Steps.size())
    return 0;
  uint64_t Penalty = 0;
  for (size_t K = 0; K < M.Steps.size(); ++K) {
    int64_t X = M.Steps[K], Y = A.Steps[K];
    if (X == Y)
      continue;
    if (X == Path::Load || Y == Path::Load)
      return 0;
    if (X == Path::Any || Y == Path::Any) {
      Penalty += 1;
      continue;
    }
    // The last step may point further into the marked object (a member
    // array's section starts past the member).
    if (K + 1 != M.Steps.size() || Y < X)
      return 0;
    Penalty += 1 + uint64_t(Y - X);
  }
  return (uint64_t(M.Steps.size() + 1) << 40) -
         std::min<uint64_t>(Penalty, 1ull << 39);
}

//===- the pass
//------------------------------------------------------------===//

struct Marker {
  uint32_t Region = 0;
  /// Item index -> path of the item's variable.
  SmallVector<std::pair<uint32_t, Path>, 4> Items;
};

class Tagger {
public:
  Tagger(Module &M, const TableReader &R, GlobalVariable *Table,
         bool Optimizing)
      : M(M), DL(M.getDataLayout()), R(R), Table(Table),
        // Optimized code keeps its registers across an inserted call (the
        // helper saves what it uses): less for the register allocator to
        // do. At -O0 FastISel lowers only C calls, and nothing is kept in
        // registers across calls anyway.
        TagCC(Optimizing ? CallingConv::PreserveMost : CallingConv::C) {}
  bool run();

private:
  struct Match {
    uint32_t Region = 0;
    const Marker *Mk = nullptr;    // null: matched by the entry name only
    Instruction *Anchor = nullptr; // where the search found the marker
  };
  struct Tagged {
    CallBase *CB;
    CallKind K;
    Match Mt;
    SmallVector<int16_t, 8> Items; // empty: not known
  };

  void collectMarkers();
  void findContextCalls(SmallVectorImpl<Tagged> &Calls);
  DominatorTree &domTree(Function &F);
  const Marker *nearestMarker(Instruction *From);
  std::optional<Match> findRegion(CallBase *CB, CallKind K);
  std::optional<uint32_t>
  regionFromEntryName(CallBase *CB, std::optional<uint32_t> Hint, bool &Parsed);
  std::pair<AllocaInst *, AllocaInst *> argArrays(CallBase *CB, CallKind K,
                                                  const Match &Mt);
  SmallVector<int16_t, 8> argItems(CallBase *CB, CallKind K, const Match &Mt);
  void tagAll(ArrayRef<Tagged> Calls);
  Function *tagHelper(unsigned NumArgs);
  void deleteMarkers();

  Module &M;
  const DataLayout &DL;
  const TableReader &R;
  GlobalVariable *Table;
  Function *MarkerFn = nullptr;
  DenseMap<Instruction *, Marker> Markers; // marker call -> marker
  // Loop-entry markers (OMPDP_LOOP_MARKER) and their call regions.
  SmallVector<std::pair<CallBase *, uint32_t>, 8> LoopEntries;
  std::map<Function *, std::unique_ptr<DominatorTree>> DTs;
  Function *Helpers[5] = {};
  GlobalVariable *Descriptors = nullptr;
  CallingConv::ID TagCC;
};

void Tagger::collectMarkers() {
  MarkerFn = M.getFunction(OMPDP_MARKER_FN);
  if (!MarkerFn)
    return;
  for (User *U : MarkerFn->users()) {
    auto *CI = dyn_cast<CallBase>(U);
    if (!CI || CI->getCalledFunction() != MarkerFn || CI->arg_size() < 1)
      continue;
    auto *Idx = dyn_cast<ConstantInt>(CI->getArgOperand(0));
    if (Idx && (Idx->getZExtValue() & OMPDP_LOOP_MARKER)) {
      // The entry of the loop around a call region: tagged where it is.
      uint64_t Call = Idx->getZExtValue() & ~uint64_t(OMPDP_LOOP_MARKER);
      if (Call < R.numRegions() && R.region(uint32_t(Call)).Kind == CK_CALL &&
          isa<CallInst>(CI))
        LoopEntries.push_back({CI, uint32_t(Call)});
      continue;
    }
    if (!Idx || Idx->getZExtValue() >= R.numRegions())
      continue;
    Marker &Mk = Markers[CI];
    Mk.Region = uint32_t(Idx->getZExtValue());
    for (unsigned A = 1; A < CI->arg_size(); ++A) {
      Value *V = CI->getArgOperand(A);
      if (!isa<Constant>(V) || !cast<Constant>(V)->isNullValue())
        Mk.Items.push_back({A - 1, pathOf(V, DL)});
    }
  }
}

DominatorTree &Tagger::domTree(Function &F) {
  auto &DT = DTs[&F];
  if (!DT)
    DT = std::make_unique<DominatorTree>(F);
  return *DT;
}

/// The nearest region marker before From on its dominator path, unless
/// another offload call or task allocation comes first (then the marker is
/// that one's).
const Marker *Tagger::nearestMarker(Instruction *From) {
  DominatorTree &DT = domTree(*From->getFunction());
  BasicBlock *BB = From->getParent();
  BasicBlock::iterator It = From->getIterator();
  for (;;) {
    while (It != BB->begin()) {
      --It;
      auto *CB = dyn_cast<CallBase>(&*It);
      if (!CB)
        continue;
      Function *Callee = CB->getCalledFunction();
      if (Callee == MarkerFn) {
        auto MI = Markers.find(CB);
        // A call's marker marks no offload call: look on past it.
        if (MI != Markers.end() && R.region(MI->second.Region).Kind == CK_CALL)
          continue;
        return MI == Markers.end() ? nullptr : &MI->second;
      }
      if (classify(Callee) != CallKind::None || isTaskAlloc(Callee))
        return nullptr;
    }
    DomTreeNode *N = DT.getNode(BB);
    if (!N || !N->getIDom())
      return nullptr;
    BB = N->getIDom()->getBlock();
    It = BB->end();
  }
}

/// Use of F that creates a task running it: a task allocation taking F (the
/// task entry) or a call of F from such a task entry.
CallBase *taskCreation(Function *F) {
  for (int Depth = 0; Depth < 2 && F; ++Depth) {
    if (!F->hasLocalLinkage() || !F->hasOneUse())
      return nullptr;
    auto *CB = dyn_cast<CallBase>(F->use_begin()->getUser());
    if (!CB)
      return nullptr;
    if (isTaskAlloc(CB->getCalledFunction()))
      return CB;
    if (CB->getCalledFunction() != F)
      return nullptr;
    F = CB->getFunction();
  }
  return nullptr;
}

AllocaInst *arrayAlloca(Value *V) {
  auto *AI = dyn_cast_or_null<AllocaInst>(V ? getUnderlyingObject(V) : nullptr);
  return AI && AI->getAllocatedType()->isArrayTy() ? AI : nullptr;
}

/// Kernel launches pass their arrays in a __tgt_kernel_arguments: the value
/// stored at Offset of the struct KA.
Value *storedField(Value *KA, uint64_t Offset, const DataLayout &DL) {
  for (User *U : KA->users()) {
    auto *GEP = dyn_cast<GEPOperator>(U);
    if (!GEP)
      continue;
    APInt Off(64, 0);
    if (!GEP->accumulateConstantOffset(DL, Off) || Off != Offset)
      continue;
    for (User *GU : GEP->users())
      if (auto *SI = dyn_cast<StoreInst>(GU))
        if (SI->getPointerOperand() == GEP)
          return SI->getValueOperand();
  }
  return nullptr;
}

std::optional<Tagger::Match> Tagger::findRegion(CallBase *CB, CallKind K) {
  Match Mt;
  Instruction *Anchor = CB;
  const Marker *Mk = nearestMarker(Anchor);
  bool ThroughTask = false;
  if (!Mk && K != CallKind::Routine) {
    // A target task: the offload call runs in the task's outlined function.
    if (CallBase *Alloc = taskCreation(CB->getFunction())) {
      Anchor = Alloc;
      Mk = nearestMarker(Anchor);
      ThroughTask = true;
    }
  }
  if (Mk) {
    RegionRecord Rec = R.region(Mk->Region);
    bool Ok = compatible(K, Rec.Kind, CB) &&
              (!ThroughTask || (Rec.Flags & (RF_NOWAIT | RF_DEPEND)));
    if (Ok) {
      Mt.Region = Mk->Region;
      Mt.Mk = Mk;
      Mt.Anchor = Anchor;
    }
  }
  if (K == CallKind::Kernel) {
    // The entry name, when it can be read, has the last word for kernels.
    bool Parsed = false;
    std::optional<uint32_t> ByName = regionFromEntryName(
        CB, Mt.Mk ? std::optional<uint32_t>(Mt.Region) : std::nullopt, Parsed);
    if (Parsed) {
      if (!ByName)
        return std::nullopt;
      if (!Mt.Mk || *ByName != Mt.Region)
        return Match{*ByName, nullptr, nullptr};
    }
  }
  if (!Mt.Mk)
    return std::nullopt;
  return Mt;
}

/// ".__omp_offloading_<dev>_<file>_<parent>_l<line>[_<count>].region_id":
/// the target regions of this table with that file and line. With a hint
/// (the marker's region), the hint if it fits, else the only candidate.
/// Parsed says whether the name had that form.
std::optional<uint32_t>
Tagger::regionFromEntryName(CallBase *CB, std::optional<uint32_t> Hint,
                            bool &Parsed) {
  Parsed = false;
  auto *GV =
      dyn_cast<GlobalVariable>(CB->getArgOperand(4)->stripPointerCasts());
  if (!GV)
    return std::nullopt;
  StringRef N = GV->getName();
  if (!N.consume_front(".__omp_offloading_") || !N.consume_back(".region_id"))
    return std::nullopt;
  auto [DevS, Rest] = N.split('_');
  auto [FileS, Rest2] = Rest.split('_');
  uint64_t Dev, File, Line;
  if (DevS.getAsInteger(16, Dev) || FileS.getAsInteger(16, File))
    return std::nullopt;
  auto [Head, Last] = Rest2.rsplit('_');
  if (!Last.empty() && Last.find_first_not_of("0123456789") == StringRef::npos)
    std::tie(Head, Last) = Head.rsplit('_'); // the count
  if (!Last.consume_front("l") || Last.getAsInteger(10, Line))
    return std::nullopt;
  Parsed = true;
  auto Fits = [&](uint32_t I) {
    RegionRecord Rec = R.region(I);
    if (Rec.Kind != CK_TARGET || Rec.OffloadLine != Line)
      return false;
    // No unique ID recorded (the file could not be found): line only.
    return (Rec.FileDevice == 0 && Rec.FileInode == 0) ||
           (uint32_t(Rec.FileDevice) == uint32_t(Dev) &&
            uint32_t(Rec.FileInode) == uint32_t(File));
  };
  if (Hint && Fits(*Hint))
    return Hint;
  std::optional<uint32_t> Only;
  for (uint32_t I = 0; I < R.numRegions(); ++I)
    if (Fits(I)) {
      if (Only)
        return std::nullopt; // several constructs on that line
      Only = I;
    }
  return Only;
}

/// The arrays the call's base pointers and pointers were stored in, in the
/// function that filled them (for a target task: the one that created it,
/// which copies them into the task).
std::pair<AllocaInst *, AllocaInst *>
Tagger::argArrays(CallBase *CB, CallKind K, const Match &Mt) {
  Value *Bases, *Ptrs;
  if (K == CallKind::Kernel) {
    // struct __tgt_kernel_arguments (LLVM 19): Version, NumArgs,
    // ArgBasePtrs (8), ArgPtrs (16), ...
    Value *KA = CB->getArgOperand(5);
    Bases = storedField(KA, 8, DL);
    Ptrs = storedField(KA, 16, DL);
  } else {
    Bases = CB->getArgOperand(3);
    Ptrs = CB->getArgOperand(4);
  }
  AllocaInst *B = arrayAlloca(Bases), *P = arrayAlloca(Ptrs);
  if (B && P && B->getFunction() == Mt.Anchor->getFunction())
    return {B, P};
  // Target task: the creator copies its arrays into the task after
  // allocating it, base pointers first, then pointers.
  auto *Alloc = dyn_cast<CallBase>(Mt.Anchor);
  if (!Alloc || !isTaskAlloc(Alloc->getCalledFunction()))
    return {nullptr, nullptr};
  SmallVector<AllocaInst *, 4> Copied;
  for (Instruction *I = Alloc->getNextNode(); I; I = I->getNextNode()) {
    auto *MC = dyn_cast<MemCpyInst>(I);
    if (!MC) {
      if (auto *C = dyn_cast<CallBase>(I);
          C && C->getCalledFunction() &&
          C->getCalledFunction()->getName().starts_with("__kmpc_omp_task"))
        break;
      continue;
    }
    if (getUnderlyingObject(MC->getDest()) != Alloc)
      continue;
    if (AllocaInst *A = arrayAlloca(MC->getSource());
        A &&
        cast<ArrayType>(A->getAllocatedType())->getElementType()->isPointerTy())
      Copied.push_back(A);
  }
  if (Copied.size() < 2)
    return {nullptr, nullptr};
  return {Copied[0], Copied[1]};
}

/// What is stored in each slot of array A.
SmallVector<Value *, 8> slots(AllocaInst *A, const DataLayout &DL) {
  auto *AT = cast<ArrayType>(A->getAllocatedType());
  uint64_t N = AT->getNumElements();
  uint64_t Size = DL.getTypeAllocSize(AT->getElementType());
  SmallVector<Value *, 8> Out(N, nullptr);
  SmallVector<Value *, 8> Work{A};
  SmallPtrSet<Value *, 16> Seen;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (User *U : V->users()) {
      if (auto *GEP = dyn_cast<GEPOperator>(U)) {
        if (GEP->getPointerOperand() == V)
          Work.push_back(GEP);
      } else if (auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getPointerOperand() != V)
          continue;
        APInt Off(64, 0);
        Value *Base =
            SI->getPointerOperand()->stripAndAccumulateConstantOffsets(
                DL, Off, /*AllowNonInbounds=*/true);
        if (Base != A || Off.getZExtValue() % Size)
          continue;
        uint64_t J = Off.getZExtValue() / Size;
        if (J < N && !Out[J])
          Out[J] = SI->getValueOperand();
      }
    }
  }
  return Out;
}

/// The item of each map argument (-1: none); empty if none is known.
SmallVector<int16_t, 8> Tagger::argItems(CallBase *CB, CallKind K,
                                         const Match &Mt) {
  SmallVector<int16_t, 8> Map;
  if (!Mt.Mk || Mt.Mk->Items.empty())
    return Map;
  auto [BA, PA] = argArrays(CB, K, Mt);
  if (!BA || !PA)
    return Map;
  SmallVector<Value *, 8> Bases = slots(BA, DL), Ptrs = slots(PA, DL);
  size_t N = std::min(Bases.size(), Ptrs.size());
  uint32_t NumItems = R.region(Mt.Region).NumItems;
  Map.assign(N, -1);
  bool Any = false;
  for (size_t J = 0; J < N; ++J) {
    Path PB = Bases[J] ? pathOf(Bases[J], DL) : Path();
    Path PP = Ptrs[J] ? pathOf(Ptrs[J], DL) : Path();
    uint64_t Best = 0;
    for (const auto &[Item, MP] : Mt.Mk->Items) {
      if (Item >= NumItems || Item > INT16_MAX)
        continue;
      uint64_t S = std::max(score(MP, PB), score(MP, PP));
      if (S > Best) {
        Best = S;
        Map[J] = int16_t(Item);
      }
    }
    Any |= Best != 0;
  }
  if (!Any)
    Map.clear();
  return Map;
}

/// internal void __ompdp_tag<N>(i32 index, ptr a[, ptr b[, ptr c]]):
/// calls the hook with (&descriptors[index], a, b, c), missing arguments
/// null. __ompdp_tag4 does the work; the shorter ones save the caller
/// arguments.
Function *Tagger::tagHelper(unsigned NumArgs) {
  if (Helpers[NumArgs])
    return Helpers[NumArgs];
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  Type *I32 = Type::getInt32Ty(C);
  SmallVector<Type *, 4> Params{I32};
  Params.append(NumArgs - 1, Ptr);
  FunctionType *FT = FunctionType::get(Type::getVoidTy(C), Params, false);
  Function *F = Function::Create(FT, GlobalValue::InternalLinkage,
                                 "__ompdp_tag" + Twine(NumArgs), M);
  F->addFnAttr(Attribute::NoInline);
  F->addFnAttr(Attribute::NoUnwind);
  F->setCallingConv(TagCC);
  Helpers[NumArgs] = F;
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  SmallVector<Value *, 4> Args;
  for (Argument &A : F->args())
    Args.push_back(&A);
  if (NumArgs != 4) {
    while (Args.size() < 4)
      Args.push_back(ConstantPointerNull::get(PointerType::getUnqual(C)));
    B.CreateCall(tagHelper(4), Args)->setCallingConv(TagCC);
    B.CreateRetVoid();
    return F;
  }
  FunctionType *HookTy =
      FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr, Ptr, Ptr}, false);
  FunctionCallee Weak = M.getOrInsertFunction(OMPDP_REGION_HOOK_FN, HookTy);
  if (auto *WF = dyn_cast<Function>(Weak.getCallee()))
    WF->setLinkage(GlobalValue::ExternalWeakLinkage);
  BasicBlock *CallSlot = BasicBlock::Create(C, "slot", F);
  BasicBlock *TryWeak = BasicBlock::Create(C, "tryweak", F);
  BasicBlock *CallWeak = BasicBlock::Create(C, "weak", F);
  BasicBlock *Ret = BasicBlock::Create(C, "ret", F);
  Args[0] = B.CreateInBoundsGEP(Descriptors->getValueType(), Descriptors,
                                {ConstantInt::get(I32, 0), F->getArg(0)});
  Value *SlotAddr = B.CreateConstInBoundsGEP1_64(Type::getInt8Ty(C), Table,
                                                 offsetof(TableHeader, Hook));
  // Volatile: the slot is written by the runtime, never by this module, and
  // the optimizer must not fold the load to the initializer's zero.
  LoadInst *Hook = B.CreateAlignedLoad(Ptr, SlotAddr, Align(8), true, "hook");
  Hook->setAtomic(AtomicOrdering::Monotonic);
  B.CreateCondBr(B.CreateIsNull(Hook), TryWeak, CallSlot);

  B.SetInsertPoint(CallSlot);
  B.CreateCall(HookTy, Hook, Args);
  B.CreateBr(Ret);

  B.SetInsertPoint(TryWeak);
  B.CreateCondBr(B.CreateIsNull(Weak.getCallee()), Ret, CallWeak);
  B.SetInsertPoint(CallWeak);
  B.CreateCall(Weak, Args);
  B.CreateBr(Ret);

  B.SetInsertPoint(Ret);
  B.CreateRetVoid();
  return F;
}

/// The descriptors of all tagged calls are one constant array (their items
/// another), which only the helper refers to: each call passes its index,
/// and what is not constant, to the shortest helper that carries it.
void Tagger::tagAll(ArrayRef<Tagged> Calls) {
  if (Calls.empty())
    return;
  LLVMContext &C = M.getContext();
  Type *I8 = Type::getInt8Ty(C), *I32 = Type::getInt32Ty(C);
  Type *I64 = Type::getInt64Ty(C);
  Constant *Null = ConstantPointerNull::get(PointerType::getUnqual(C));
  auto ConstOrNull = [&](Value *V) -> Constant * {
    auto *K = dyn_cast<Constant>(V);
    return K ? K : Null;
  };
  // All items, and where each call's start (or -1: none).
  SmallVector<uint16_t, 64> Pool;
  SmallVector<int64_t, 64> ItemStart;
  for (const Tagged &T : Calls) {
    bool Usable = !T.Items.empty() && T.K != CallKind::Routine && T.K != CallKind::Context &&
                  T.K != CallKind::LoopEntry;
    if (Usable && T.K != CallKind::Kernel)
      if (auto *NA = dyn_cast<ConstantInt>(T.CB->getArgOperand(2)))
        Usable &= NA->getZExtValue() == T.Items.size();
    ItemStart.push_back(Usable ? int64_t(Pool.size()) : -1);
    if (Usable)
      Pool.append(T.Items.begin(), T.Items.end());
  }
  GlobalVariable *Items = nullptr;
  if (!Pool.empty()) {
    Constant *Init = ConstantDataArray::get(C, ArrayRef<uint16_t>(Pool));
    Items = new GlobalVariable(M, Init->getType(), true,
                               GlobalValue::PrivateLinkage, Init,
                               "__ompdp_call_items");
    Items->setAlignment(Align(2));
  }
  StructType *DescTy =
      StructType::get(C, {I8->getPointerTo(), I8->getPointerTo(),
                          I8->getPointerTo(), I8->getPointerTo(),
                          I8->getPointerTo(), I8->getPointerTo(), I32, I32,
                          I8->getPointerTo()});
  static_assert(sizeof(CallDescriptor) == 64, "descriptor layout");
  SmallVector<Constant *, 64> Descs;
  struct Site {
    CallBase *CB;
    SmallVector<Value *, 3> Dynamic;
    bool Routine = false; // tagged after it returns too
    bool Context = false; // ... on every path out
  };
  SmallVector<Site, 64> Sites;
  for (size_t I = 0; I < Calls.size(); ++I) {
    const Tagged &T = Calls[I];
    Constant *Rec = ConstantExpr::getInBoundsGetElementPtr(
        I8, Table, ConstantInt::get(I64, R.regionOffset(T.Mt.Region)));
    Constant *ItemsPtr =
        ItemStart[I] < 0
            ? Null
            : ConstantExpr::getInBoundsGetElementPtr(
                  Items->getValueType(), Items,
                  ArrayRef<Constant *>{ConstantInt::get(I64, 0),
                                       ConstantInt::get(I64, ItemStart[I])});
    uint32_t Flags = 0, NumArgs = uint32_t(T.Items.size());
    Site S{T.CB, {}, T.K == CallKind::Routine || T.K == CallKind::Context,
           T.K == CallKind::Context};
    Constant *Types = Null, *Names = Null, *Sizes = Null, *Mappers = Null;
    if (T.K == CallKind::LoopEntry) {
      Flags |= OMPDP_CALL_CONTEXT | OMPDP_CALL_LOOP_ENTRY;
      NumArgs = 0;
    } else if (T.K == CallKind::Context) {
      Flags |= OMPDP_CALL_CONTEXT;
      NumArgs = 0;
      // Through a pointer: the runtime is told the function called, to
      // know its constructs from those of the functions it calls.
      if (T.CB->isIndirectCall())
        S.Dynamic.push_back(T.CB->getCalledOperand());
    } else if (T.K == CallKind::Routine) {
      Flags |= OMPDP_CALL_ROUTINE;
      NumArgs = 0;
      // An asynchronous copy runs in a task, after the tags: the runtime
      // knows it by the addresses it copies (offsets added as libomptarget
      // adds them).
      uint32_t RK = routineKind(T.CB->getCalledFunction()->getName());
      if (RK == CK_TARGET_MEMCPY_ASYNC || RK == CK_TARGET_MEMSET_ASYNC) {
        IRBuilder<> B(T.CB);
        Value *Dst = T.CB->getArgOperand(0), *Src = Null;
        if (RK == CK_TARGET_MEMCPY_ASYNC) {
          Dst = B.CreateGEP(I8, Dst, T.CB->getArgOperand(3));
          Src = B.CreateGEP(I8, T.CB->getArgOperand(1), T.CB->getArgOperand(4));
        }
        S.Dynamic.push_back(Null);
        S.Dynamic.push_back(Dst);
        if (RK == CK_TARGET_MEMCPY_ASYNC)
          S.Dynamic.push_back(Src);
      }
    } else if (T.K == CallKind::Kernel) {
      Flags |= OMPDP_CALL_KERNEL;
      S.Dynamic.push_back(T.CB->getArgOperand(5));
    } else {
      if (auto *NA = dyn_cast<ConstantInt>(T.CB->getArgOperand(2)))
        NumArgs = uint32_t(NA->getZExtValue());
      Types = ConstOrNull(T.CB->getArgOperand(6));
      Names = ConstOrNull(T.CB->getArgOperand(7));
      Value *Sz = T.CB->getArgOperand(5), *Mp = T.CB->getArgOperand(8);
      S.Dynamic.push_back(T.CB->getArgOperand(4));
      if (!isa<Constant>(Mp)) {
        S.Dynamic.push_back(Sz);
        S.Dynamic.push_back(Mp);
      } else {
        Mappers = cast<Constant>(Mp);
        if (isa<Constant>(Sz))
          Sizes = cast<Constant>(Sz);
        else
          S.Dynamic.push_back(Sz);
      }
    }
    Descs.push_back(
        ConstantStruct::get(DescTy, {Rec, Types, Names, Sizes, Mappers,
                                     ItemsPtr, ConstantInt::get(I32, NumArgs),
                                     ConstantInt::get(I32, Flags),
                                     T.CB->getFunction()}));
    Sites.push_back(std::move(S));
  }
  ArrayType *AllTy = ArrayType::get(DescTy, Descs.size());
  Descriptors =
      new GlobalVariable(M, AllTy, true, GlobalValue::PrivateLinkage,
                         ConstantArray::get(AllTy, Descs), "__ompdp_calls");
  Descriptors->setAlignment(Align(8));
  for (size_t I = 0; I < Sites.size(); ++I) {
    CallBase *CB = Sites[I].CB;
    SmallVector<Value *, 4> Args{ConstantInt::get(I32, I)};
    Args.append(Sites[I].Dynamic.begin(), Sites[I].Dynamic.end());
    IRBuilder<> B(CB);
    CallInst *TagCall = B.CreateCall(tagHelper(Args.size()), Args);
    TagCall->setCallingConv(TagCC);
    if (CB->getDebugLoc())
      TagCall->setDebugLoc(CB->getDebugLoc());
    if (!Sites[I].Routine)
      continue;
    // A routine's operations come without a target construct: the call
    // after it returns ends them, so that later operations of code without
    // a table are not taken for the routine's. (An invoke has no single
    // place after it; the runtime then lets the next call end it.) A
    // context call must end on every path out, or the constructs run after
    // it would be taken for its own: after an invoke, at the start of its
    // normal destination and after its landing pad (shared or not: the end
    // names this call, which the runtime ignores when it is not open).
    Type *Ptr = PointerType::getUnqual(C);
    Value *After[] = {
        ConstantInt::get(I32, I),
        ConstantExpr::getIntToPtr(ConstantInt::get(I64, OMPDP_CALL_RETURNED),
                                  Ptr)};
    SmallVector<Instruction *, 2> Ends;
    if (isa<CallInst>(CB) && CB->getNextNode())
      Ends.push_back(CB->getNextNode());
    else if (auto *II = dyn_cast<InvokeInst>(CB); II && Sites[I].Context) {
      Ends.push_back(&*II->getNormalDest()->getFirstInsertionPt());
      Ends.push_back(&*II->getUnwindDest()->getFirstInsertionPt());
    }
    for (Instruction *At : Ends) {
      B.SetInsertPoint(At);
      CallInst *EndCall = B.CreateCall(tagHelper(2), After);
      EndCall->setCallingConv(TagCC);
      if (CB->getDebugLoc())
        EndCall->setDebugLoc(CB->getDebugLoc());
    }
  }
}

/// Calls of functions that hold constructs (regions of kind CALL): each
/// call of a function that some call's marker names is that call's when
/// the nearest such marker on its dominator path names its symbol and no
/// other call of the symbol comes in between (the arguments, calls and
/// branches among them, come between the marker and the call). In the
/// order of the module's code, so that the descriptors come out the same
/// in every build; each marker marks one call. A call not found is not
/// tagged: its constructs then run in no known call, which only costs the
/// rewrites at the caller.
void Tagger::findContextCalls(SmallVectorImpl<Tagged> &Calls) {
  // A call through a pointer (INDIRECT_CALLEE) has no symbol: its key is
  // one no function's name can be, and it matches calls through pointers.
  static constexpr StringLiteral Indirect = "\x01indirect";
  auto KeyOf = [&](const RegionRecord &Rec) -> StringRef {
    if (Rec.Kind != CK_CALL)
      return {};
    if (Rec.Flags & RF_INDIRECT_CALLEE)
      return Indirect;
    return R.str(Rec.CalleeSymbol);
  };
  auto CallKey = [&](CallBase *CB) -> StringRef {
    if (CB->isIndirectCall() && !CB->isInlineAsm())
      return Indirect;
    Function *F = CB->getCalledFunction();
    return F ? F->getName() : StringRef();
  };
  StringSet<> Symbols;
  for (auto &[MI, Mk] : Markers) {
    StringRef Key = KeyOf(R.region(Mk.Region));
    if (!Key.empty())
      Symbols.insert(Key);
  }
  if (Symbols.empty())
    return;
  SmallPtrSet<Instruction *, 16> Used;
  for (Function &F : M)
    for (BasicBlock &BB : F)
      for (Instruction &I : BB) {
        auto *CB = dyn_cast<CallBase>(&I);
        if (!CB || !isa<CallInst, InvokeInst>(CB))
          continue;
        StringRef Sym = CallKey(CB);
        if (Sym.empty() || !Symbols.count(Sym))
          continue;
        DominatorTree &DT = domTree(F);
        Instruction *Found = nullptr;
        BasicBlock *B = CB->getParent();
        BasicBlock::iterator It = CB->getIterator();
        for (unsigned Steps = 0; !Found && B && Steps < 64; ++Steps) {
          bool Stop = false;
          while (It != B->begin() && !Stop) {
            --It;
            auto *Prev = dyn_cast<CallBase>(&*It);
            if (!Prev)
              continue;
            Function *PF = Prev->getCalledFunction();
            if (PF && PF == MarkerFn) {
              auto MI = Markers.find(Prev);
              if (MI == Markers.end())
                continue;
              if (KeyOf(R.region(MI->second.Region)) == Sym) {
                Found = Prev;
                Stop = true;
              }
            } else if (CallKey(Prev) == Sym) {
              Stop = true; // that call has the marker before it
            }
          }
          if (Stop)
            break;
          DomTreeNode *N = DT.getNode(B);
          B = N && N->getIDom() ? N->getIDom()->getBlock() : nullptr;
          if (B)
            It = B->end();
        }
        if (!Found || !Used.insert(Found).second)
          continue;
        const Marker &Mk = Markers.find(Found)->second;
        Calls.push_back({CB, CallKind::Context, Match{Mk.Region, &Mk, Found}, {}});
      }
}

/// Markers have done their job; they and the address computations that
/// only they used go, and so does their function.
void Tagger::deleteMarkers() {
  if (!MarkerFn)
    return;
  for (User *U : make_early_inc_range(MarkerFn->users())) {
    auto *CI = dyn_cast<CallBase>(U);
    if (!CI || CI->getCalledFunction() != MarkerFn)
      continue;
    SmallVector<Value *, 8> Args(CI->args());
    if (auto *II = dyn_cast<InvokeInst>(CI))
      CI = changeToCall(II);
    CI->eraseFromParent();
    for (Value *V : Args)
      RecursivelyDeleteTriviallyDeadInstructions(V);
  }
  if (MarkerFn->use_empty())
    MarkerFn->eraseFromParent();
}

bool Tagger::run() {
  collectMarkers();
  struct Pending {
    CallBase *CB;
    CallKind K;
    Match Mt;
  };
  SmallVector<Pending, 16> Found;
  SmallVector<std::pair<CallBase *, CallKind>, 4> Ends;
  for (Function &Callee : M) {
    CallKind K = classify(&Callee);
    if (K == CallKind::None || !Callee.isDeclaration())
      continue;
    for (User *U : Callee.users()) {
      auto *CB = dyn_cast<CallBase>(U);
      if (!CB || CB->getCalledFunction() != &Callee ||
          (K != CallKind::Routine &&
           CB->arg_size() < (K == CallKind::Kernel ? 6u : 9u)))
        continue;
      if (K == CallKind::End) {
        Ends.push_back({CB, K});
        continue;
      }
      if (std::optional<Match> Mt = findRegion(CB, K))
        Found.push_back({CB, K, *Mt});
    }
  }
  // An end call uses its begin call's arrays (target data); otherwise
  // (target exit data) it has its own marker.
  DenseMap<AllocaInst *, size_t> BeginByArray;
  for (size_t I = 0; I < Found.size(); ++I)
    if (Found[I].K == CallKind::Begin)
      if (AllocaInst *A = arrayAlloca(Found[I].CB->getArgOperand(3)))
        BeginByArray.try_emplace(A, I);
  for (auto [CB, K] : Ends) {
    AllocaInst *A = arrayAlloca(CB->getArgOperand(3));
    auto It = A ? BeginByArray.find(A) : BeginByArray.end();
    if (It != BeginByArray.end() &&
        R.region(Found[It->second].Mt.Region).Kind == CK_TARGET_DATA) {
      Match Mt = Found[It->second].Mt;
      Found.push_back({CB, K, Mt});
      continue;
    }
    if (std::optional<Match> Mt = findRegion(CB, K))
      if (R.region(Mt->Region).Kind == CK_TARGET_EXIT_DATA)
        Found.push_back({CB, K, *Mt});
  }
  SmallVector<Tagged, 16> Calls;
  for (Pending &P : Found)
    Calls.push_back({P.CB, P.K, P.Mt, argItems(P.CB, P.K, P.Mt)});
  findContextCalls(Calls);
  // A loop's entry is tagged only where a call in it is (its calls say
  // nothing about the loop without it).
  for (auto &[CI, Region] : LoopEntries)
    if (llvm::any_of(Calls, [&, Region = Region](const Tagged &T) {
          return T.K == CallKind::Context && T.Mt.Region == Region;
        }))
      Calls.push_back({CI, CallKind::LoopEntry, Match{Region, nullptr, CI}, {}});
  tagAll(Calls);
  deleteMarkers();
  return !Calls.empty();
}

GlobalVariable *findTable(Module &M) {
  for (GlobalVariable &GV : M.globals())
    if (GV.hasSection() && GV.getSection() == OMPDP_REGION_SECTION &&
        GV.hasInitializer())
      return &GV;
  return nullptr;
}

/// The ELF note { namesz, descsz, type, "ompdp_table", table - &desc }.
void emitNote(Module &M, GlobalVariable *Table) {
  LLVMContext &C = M.getContext();
  Type *I32 = Type::getInt32Ty(C);
  Type *I64 = Type::getInt64Ty(C);
  ArrayType *NameTy =
      ArrayType::get(Type::getInt8Ty(C), sizeof(OMPDP_REGION_NOTE_NAME));
  StructType *NoteTy = StructType::get(C, {I32, I32, I32, NameTy, I64},
                                       /*isPacked=*/true);
  auto *Note = new GlobalVariable(M, NoteTy, true, GlobalValue::InternalLinkage,
                                  nullptr, "__ompdp_region_note");
  Constant *Desc = ConstantExpr::getInBoundsGetElementPtr(
      NoteTy, Note,
      ArrayRef<Constant *>{ConstantInt::get(I32, 0), ConstantInt::get(I32, 4)});
  Constant *Diff = ConstantExpr::getSub(ConstantExpr::getPtrToInt(Table, I64),
                                        ConstantExpr::getPtrToInt(Desc, I64));
  const char Name[] = OMPDP_REGION_NOTE_NAME;
  static_assert(sizeof(Name) == 12, "note layout assumes a 12-byte name");
  Note->setInitializer(ConstantStruct::get(
      NoteTy,
      {ConstantInt::get(I32, sizeof(OMPDP_REGION_NOTE_NAME)),
       ConstantInt::get(I32, 8), ConstantInt::get(I32, OMPDP_REGION_NOTE_TYPE),
       ConstantDataArray::get(
           C, ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Name),
                                sizeof(Name))),
       Diff}));
  Note->setSection(OMPDP_REGION_NOTE_SECTION);
  Note->setAlignment(Align(8));
  appendToUsed(M, {Note});
}

} // namespace

bool ompdp::tagOffloadCalls(Module &M, bool Optimizing) {
  if (M.getNamedMetadata("ompdp.tagged"))
    return false;
  GlobalVariable *Table = findTable(M);
  if (!Table)
    return false;
  auto *Init = dyn_cast<ConstantDataSequential>(Table->getInitializer());
  std::string Error, Unpacked;
  std::optional<TableReader> R;
  if (Init && unpackTable(Init->getRawDataValues(), Unpacked)) {
    // The plugin's packed table becomes the table the runtime reads.
    auto *Full = new GlobalVariable(
        M, ArrayType::get(Type::getInt8Ty(M.getContext()), Unpacked.size()),
        false, GlobalValue::InternalLinkage,
        ConstantDataArray::getRaw(Unpacked, Unpacked.size(),
                                  Type::getInt8Ty(M.getContext())),
        "", Table);
    Full->setSection(OMPDP_REGION_SECTION);
    Full->takeName(Table);
    Table->replaceAllUsesWith(Full);
    Table->eraseFromParent();
    Table = Full;
    Init = cast<ConstantDataSequential>(Table->getInitializer());
  }
  if (Init)
    R = TableReader::open(Init->getRawDataValues(), Error);
  else
    Error = "region table has an unexpected initializer";
  if (!R) {
    // A table this plugin did not write is an error, not something to guess.
    M.getContext().emitError(Twine("ompdp: ") + Error +
                             " (rebuild with the matching ompdp plugin)");
    return false;
  }
  M.getOrInsertNamedMetadata("ompdp.tagged");
  Table->setAlignment(Align(8));
  // The runtime writes the header's Hook and RuntimeTag fields.
  Table->setConstant(false);
  emitNote(M, Table);
  Tagger(M, *R, Table, Optimizing).run();
  return true;
}
