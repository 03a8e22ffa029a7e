//===- TagOffloadCalls.cpp - tag offload calls with their regions ---------===//
//
// Each __tgt_* call carries an ident_t whose string is ";file;function;line;
// column;;" of its directive (the plugin turns on location tracking so Clang
// fills it in). The plugin's table records the same presumed location for
// every region, so the pass finds the region of a call by that location and
// the call's kind. Before the call it inserts
//   __ompdp_tag(record, nargs, bases, ptrs, sizes, types, names)
// an internal helper that forwards to the hook the runtime wrote into the
// table header, or to the weak __ompdp_region_call when the runtime was
// preloaded before the table was registered, or does nothing. The map
// arguments of a kernel launch are read from its __tgt_kernel_arguments.
//
// The table is found by section, not by name (C++ mangles internal names).
// An ELF note pointing at it (PC-relative, so no dynamic relocation) lets the
// runtime find the tables of every loaded object via dl_iterate_phdr. The
// module is marked so that a second run (the offload driver compiles the
// host IR twice) changes nothing.
//
//===----------------------------------------------------------------------===//
#include "TagOffloadCalls.h"

#include "../clang-plugin/RegionTable.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;
using namespace ompdp;

namespace {

enum class CallKind { None, Kernel, Begin, End, Update };

CallKind classify(StringRef Name) {
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

bool compatible(CallKind C, uint32_t K) {
  switch (C) {
  case CallKind::Kernel:
    return K == CK_TARGET;
  case CallKind::Begin:
    return K == CK_TARGET_DATA || K == CK_TARGET_ENTER_DATA;
  case CallKind::End:
    return K == CK_TARGET_DATA || K == CK_TARGET_EXIT_DATA;
  case CallKind::Update:
    return K == CK_TARGET_UPDATE;
  default:
    return false;
  }
}

std::string locKey(StringRef File, uint64_t Line, uint64_t Col) {
  return (File + "\0" + Twine(Line) + ":" + Twine(Col)).str();
}

/// ";file;function;line;column;;" of the ident_t a call passes, as a key.
std::optional<std::string> identKey(Value *Ident) {
  auto *GV = dyn_cast<GlobalVariable>(Ident->stripPointerCasts());
  if (!GV || !GV->hasInitializer())
    return std::nullopt;
  auto *CS = dyn_cast<ConstantStruct>(GV->getInitializer());
  if (!CS || CS->getNumOperands() < 5)
    return std::nullopt;
  auto *SGV = dyn_cast<GlobalVariable>(CS->getOperand(4)->stripPointerCasts());
  if (!SGV || !SGV->hasInitializer())
    return std::nullopt;
  auto *CDA = dyn_cast<ConstantDataSequential>(SGV->getInitializer());
  if (!CDA || !CDA->isCString())
    return std::nullopt;
  StringRef S = CDA->getAsCString();
  if (!S.consume_front(";") || !S.consume_back(";;"))
    return std::nullopt;
  auto [Rest, ColS] = S.rsplit(';');
  auto [Rest2, LineS] = Rest.rsplit(';');
  auto [File, Func] = Rest2.rsplit(';');
  uint64_t Line, Col;
  if (LineS.getAsInteger(10, Line) || ColS.getAsInteger(10, Col) || !Line)
    return std::nullopt;
  return locKey(File, Line, Col);
}

GlobalVariable *findTable(Module &M) {
  for (GlobalVariable &GV : M.globals())
    if (GV.hasSection() && GV.getSection() == OMPDP_REGION_SECTION &&
        GV.hasInitializer())
      return &GV;
  return nullptr;
}

/// internal void __ompdp_tag(ptr rec, i32 n, ptr bases, ptr ptrs, ptr sizes,
///                           ptr types, ptr names)
Function *buildTagHelper(Module &M, GlobalVariable *Table) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  Type *I32 = Type::getInt32Ty(C);
  FunctionType *FT = FunctionType::get(Type::getVoidTy(C),
                                       {Ptr, I32, Ptr, Ptr, Ptr, Ptr, Ptr},
                                       false);
  Function *F = Function::Create(FT, GlobalValue::InternalLinkage,
                                 "__ompdp_tag", M);
  F->addFnAttr(Attribute::NoInline);
  F->addFnAttr(Attribute::NoUnwind);
  FunctionCallee Weak = M.getOrInsertFunction(OMPDP_REGION_HOOK_FN, FT);
  if (auto *WF = dyn_cast<Function>(Weak.getCallee()))
    WF->setLinkage(GlobalValue::ExternalWeakLinkage);

  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *CallSlot = BasicBlock::Create(C, "slot", F);
  BasicBlock *TryWeak = BasicBlock::Create(C, "tryweak", F);
  BasicBlock *CallWeak = BasicBlock::Create(C, "weak", F);
  BasicBlock *Ret = BasicBlock::Create(C, "ret", F);
  SmallVector<Value *, 7> Args;
  for (Argument &A : F->args())
    Args.push_back(&A);

  IRBuilder<> B(Entry);
  Value *SlotAddr = B.CreateConstInBoundsGEP1_64(
      Type::getInt8Ty(C), Table, offsetof(TableHeader, Hook));
  // Volatile: the slot is written by the runtime, never by this module, and
  // the optimizer must not fold the load to the initializer's zero.
  LoadInst *Hook = B.CreateAlignedLoad(Ptr, SlotAddr, Align(8), true, "hook");
  Hook->setAtomic(AtomicOrdering::Monotonic);
  B.CreateCondBr(B.CreateIsNull(Hook), TryWeak, CallSlot);

  B.SetInsertPoint(CallSlot);
  B.CreateCall(FT, Hook, Args);
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
      NoteTy, {ConstantInt::get(I32, sizeof(OMPDP_REGION_NOTE_NAME)),
               ConstantInt::get(I32, 8),
               ConstantInt::get(I32, OMPDP_REGION_NOTE_TYPE),
               ConstantDataArray::get(C, ArrayRef<uint8_t>(
                                             reinterpret_cast<const uint8_t *>(
                                                 Name),
                                             sizeof(Name))),
               Diff}));
  Note->setSection(OMPDP_REGION_NOTE_SECTION);
  Note->setAlignment(Align(8));
  appendToUsed(M, {Note});
}

} // namespace

bool ompdp::tagOffloadCalls(Module &M) {
  if (M.getNamedMetadata("ompdp.tagged"))
    return false;
  GlobalVariable *Table = findTable(M);
  if (!Table)
    return false;
  auto *Init = dyn_cast<ConstantDataSequential>(Table->getInitializer());
  std::string Error;
  std::optional<TableReader> R;
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

  StringMap<SmallVector<uint32_t, 2>> ByLoc;
  for (uint32_t I = 0; I < R->numRegions(); ++I) {
    RegionRecord Rec = R->region(I);
    ByLoc[locKey(R->str(Rec.File), Rec.Line, Rec.Column)].push_back(I);
  }

  SmallVector<std::pair<CallBase *, uint32_t>, 16> Calls;
  for (Function &F : M) {
    for (Instruction &I : instructions(F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || !CB->getCalledFunction())
        continue;
      CallKind K = classify(CB->getCalledFunction()->getName());
      if (K == CallKind::None || CB->arg_size() < 6)
        continue;
      std::optional<std::string> Key = identKey(CB->getArgOperand(0));
      if (!Key)
        continue;
      auto It = ByLoc.find(*Key);
      if (It == ByLoc.end())
        continue;
      for (uint32_t Idx : It->second)
        if (compatible(K, R->region(Idx).Kind)) {
          Calls.push_back({CB, Idx});
          break;
        }
    }
  }

  M.getOrInsertNamedMetadata("ompdp.tagged");
  Table->setAlignment(Align(8));
  // The runtime writes the header's Hook and RuntimeTag fields.
  Table->setConstant(false);
  emitNote(M, Table);
  if (Calls.empty())
    return true;

  Function *Tag = buildTagHelper(M, Table);
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  Type *I8 = Type::getInt8Ty(C);
  Type *I32 = Type::getInt32Ty(C);
  for (auto [CB, Idx] : Calls) {
    IRBuilder<> B(CB);
    Value *Rec = B.CreateConstInBoundsGEP1_64(I8, Table, R->regionOffset(Idx));
    Value *N, *Bases, *Ptrs, *Sizes, *Types, *Names;
    if (classify(CB->getCalledFunction()->getName()) == CallKind::Kernel) {
      // struct __tgt_kernel_arguments (LLVM 19): Version, NumArgs,
      // ArgBasePtrs, ArgPtrs, ArgSizes, ArgTypes, ArgNames, ...
      Value *KA = CB->getArgOperand(5);
      auto Field = [&](unsigned Off, Type *Ty) -> Value * {
        return B.CreateAlignedLoad(
            Ty, B.CreateConstInBoundsGEP1_64(I8, KA, Off),
            Align(Ty == I32 ? 4 : 8));
      };
      N = Field(4, I32);
      Bases = Field(8, Ptr);
      Ptrs = Field(16, Ptr);
      Sizes = Field(24, Ptr);
      Types = Field(32, Ptr);
      Names = Field(40, Ptr);
    } else {
      N = CB->getArgOperand(2);
      Bases = CB->getArgOperand(3);
      Ptrs = CB->getArgOperand(4);
      Sizes = CB->getArgOperand(5);
      Types = CB->getArgOperand(6);
      Names = CB->getArgOperand(7);
    }
    CallInst *TagCall = B.CreateCall(Tag, {Rec, N, Bases, Ptrs, Sizes, Types, Names});
    if (CB->getDebugLoc())
      TagCall->setDebugLoc(CB->getDebugLoc());
  }
  return true;
}
