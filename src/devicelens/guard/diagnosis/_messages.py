"""The device/dtype error messages PyTorch raises, as one table: family, culprit, fix.

Each row was written from the message template in PyTorch's own sources (the file is named in the
row's ``source``; current and older wordings both, since forum posts quote old releases); one
row, last among the devices, takes the words libraries use for their own device checks. A row
says which operand the message is about (``role``) and what the culprit must become (``want``);
the diagnosis turns that into names and a fix. The first row whose pattern matches wins.
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

Kind = Literal["device", "dtype", "index_dtype"]
# role: which operand the message is about.
#   mismatch: the odd one out against the expected device/dtype (the model decides)
#   index / target / mask / lengths / hidden / input / dest: that argument of the op
#   host: a tensor that must be copied to host memory; load: torch.load's storages
#   checked: the tensor a library's own check reads in the line that raises (its message quotes
#   that tensor's dtype: torchvision's "target labels must of int64 type, instead got ...")
# want: what the culprit must become. "": the expected device/dtype; "int64", "float", "bool",
#   "cpu_int64", "cpu" (host copy), "meta_none" (nothing can be done by moving), "gpu" (the
#   one GPU among the operands, whatever a model on the cpu says)
Role = Literal["mismatch", "index", "target", "mask", "lengths", "hidden", "input", "dest",
               "host", "load", "meta", "legacy", "checked"]

_DEV = r"(cuda:\d+|cuda|cpu|meta|mps|xpu:\d+|xpu|hpu:\d+|hpu)"


class Rule(NamedTuple):
    key: str
    kind: Kind
    role: Role
    want: str
    pattern: str
    source: str  # where PyTorch raises it (path in the pytorch repository)


RULES: tuple[Rule, ...] = (
    # --- devices -------------------------------------------------------------------------------
    Rule("same_device", "device", "mismatch", "",
         r"Expected all tensors to be on the same device",
         "aten/src/ATen/TensorIterator.cpp, aten/src/ATen/core/op_registration/adaption.cpp, "
         "torch/_subclasses/fake_tensor.py"),
    Rule("prims_device", "device", "mismatch", "",
         r"Tensor on device \S+ is not on the expected device " + _DEV,
         "torch/_prims_common/__init__.py (check_same_device)"),
    Rule("device_type", "device", "mismatch", "",
         r"Expected object of device type (\w+) but got device type (\w+)",
         "aten/src/ATen/Utils.h (checked_dense_tensor_unwrap, PyTorch <= 1.5)"),
    Rule("same_gpu", "device", "mismatch", "",
         r"to have the same device as tensor for argument",
         "aten/src/ATen/TensorUtils.cpp (checkSameGPU)"),
    Rule("device_type_check", "device", "mismatch", "",
         r"Expected tensor to have \w+ DeviceType, but got tensor with \w+ DeviceType",
         "aten/src/ATen/TensorUtils.cpp (checkDeviceType)"),
    Rule("expected_device", "device", "mismatch", "",
         r"expected device \S+ but got device \S+",
         "aten/src/ATen/native/cuda (older releases)"),
    Rule("conv_type_device", "device", "mismatch", "",
         r"Input type \(torch\.(?:cuda\.)?\w+\) and (?:weight|bias) type \(torch\.(?:cuda\.)?\w+\)"
         r" should be the same",
         "aten/src/ATen/native/Convolution.cpp (check_input_same_type_as_parameters)"),
    Rule("rnn_param_device", "device", "input", "",
         r"Input and parameter tensors are not at the same device",
         "aten/src/ATen/native/RNN.cpp"),
    Rule("rnn_hidden_device", "device", "hidden", "",
         r"Input and hidden tensors are not at the same device",
         "aten/src/ATen/native/RNN.cpp"),
    Rule("dataparallel", "device", "mismatch", "",
         r"on device " + _DEV + r" \(device_ids\[0\]\)",
         "torch/nn/parallel/data_parallel.py"),
    Rule("foreach", "device", "mismatch", "",
         r"Tensors of the same index must be on the same device",
         "aten/src/ATen/native/ForeachUtils.h"),
    Rule("gradient_device", "device", "mismatch", "",
         r"invalid gradient at index \d+ - expected device " + _DEV,
         "torch/csrc/autograd/engine.cpp (validate_outputs)"),
    Rule("indices_device", "device", "index", "",
         r"indices should be either on cpu or on the same device as the indexed tensor",
         "aten/src/ATen/native/IndexingUtils.h"),
    Rule("where_device", "device", "mismatch", "",
         r"expected condition, x and y to be on the same device",
         "aten/src/ATen/native/TensorCompare.cpp"),
    Rule("index_op_device", "device", "mismatch", "",
         r"self, index and source expected to be in the same device",
         "aten/src/ATen/native/TensorAdvancedIndexing.cpp"),
    Rule("sdpa_device", "device", "mismatch", "",
         r"Expected query, key, and value to have the same device type",
         "aten/src/ATen/native/transformers/sdp_utils_cpp.h"),
    Rule("lengths_cpu", "device", "lengths", "cpu_int64",
         r"'lengths' argument should be a 1D CPU int64 tensor",
         "aten/src/ATen/native/PackedSequence.cpp (checkLongTensor)"),
    Rule("fake_device", "device", "mismatch", "",
         r"Unhandled FakeTensor Device Propagation",
         "torch/_subclasses/fake_tensor.py"),
    # NB: a result that must land on another device than the op's (``cpu_scalar += cuda_t``):
    # on a GPU, TensorIterator's "Expected all tensors to be on the same device"
    Rule("fake_wrong_device", "device", "mismatch", "",
         r"FakeTensor is wrapped to wrong device, found " + _DEV + r", expected " + _DEV,
         "torch/_subclasses/fake_tensor.py (FakeTensorMode.wrap_meta_outputs_with_default_"
         "device_logic)"),
    Rule("out_device", "device", "mismatch", "",
         r"Expected out tensor to have device " + _DEV + r", but got " + _DEV + r" instead",
         "aten/src/ATen/RegisterCUDA.cpp (generated by torchgen/dest/register_dispatch_key.py: "
         "resize_out, an out= tensor's check)"),
    Rule("index_put_device", "device", "mismatch", "",
         r"Mismatching \S+ device between self \(" + _DEV + r"\) and values",
         "torch/_subclasses/fake_impls.py (index_put_impl: fake tensors, torch.compile)"),
    Rule("to_numpy", "device", "host", "cpu",
         r"can't convert \S+ device type tensor to numpy",
         "torch/csrc/utils/tensor_numpy.cpp"),
    Rule("deserialize", "device", "load", "cpu",
         r"Attempting to deserialize object on a CUDA device",
         "torch/serialization.py (validate_cuda_device)"),
    Rule("legacy_ctor", "device", "legacy", "",
         r"legacy constructor expects device type: cpu but device type: \S+ was passed",
         "torch/csrc/utils/tensor_new.cpp (check_legacy_ctor_device)"),
    Rule("legacy_ctor_data", "device", "legacy", "",
         r"expected TensorOptions\(dtype=\w+, device=cpu\b.*\(got TensorOptions\(dtype=\w+, "
         r"device=(?!cpu\b)",
         "torch/csrc/utils/tensor_new.cpp (legacy_new_from_sequence: a tensor on another device "
         "handed to torch.FloatTensor(...))"),
    Rule("meta_copy", "device", "meta", "",
         r"Cannot copy out of meta tensor; no data",
         "aten/src/ATen/native/Copy.cpp"),
    Rule("grad_device", "device", "mismatch", "",
         r"attempting to assign a gradient with device type '\w+' to a tensor with device "
         r"type|assigned grad has data located on a different device",
         "torch/csrc/autograd/python_variable.cpp (THPVariable_set_grad)"),
    Rule("same_device_type", "device", "mismatch", "",
         r"\b(?:must|to) have the same device type\b",
         "aten/src/ATen/native/Distance.cpp (cdist: \"X1 and X2 must have the same device "
         "type\"), aten/src/ATen/native/Cross.cpp (linalg_cross)"),
    # NB: last of the device rows: any other of PyTorch's many "... must be on the same device"
    # (stft's "input and window", an op's own words) is a device mismatch all the same
    Rule("any_same_device", "device", "mismatch", "",
         r"\b(?:on|at|in) the same device\b",
         "aten/src/ATen/native/SpectralOps.cpp (stft, istft) and other ops' own checks"),
    # NB: libraries check devices in their own words before torch does (PPQ's "Input tensors
    # do not share a same device", "tensors on different devices", "device mismatch"); the
    # tensors are the raising frame's, and the diagnosis reads them as it reads an op's
    Rule("library_device", "device", "mismatch", "",
         r"\bshare (?:a|the) (?:same )?device\b|\bon (?:two |several )?different devices\b"
         r"|\bdevices? (?:do not|don't|does not|doesn't) match\b|\bdevice mismatch\b",
         "libraries: their own checks (PPQ's ASSERT_ALL_TENSORS_AT_SAME_DEVICE, and the like)"),
    # NB: a CUDA extension's own argument check (the ``CHECK_CUDA(x)`` macro of PyTorch's
    # extension tutorial: "x must be a CUDA tensor"), raised before any kernel runs: the
    # operand on the cpu among ones on a GPU is the stray, a model's weight too
    Rule("library_cuda", "device", "mismatch", "gpu",
         r"\bmust be (?:an? )?(?:CUDA|cuda|GPU|gpu) tensor\b|\bis not an? (?:CUDA|cuda) tensor\b",
         "libraries: C++/CUDA extensions' CHECK_CUDA macro (PyTorch's custom extension tutorial)"),
    # NB: the same check on a kernel picked for the cpu by another operand there (torch_scatter
    # and torch_sparse: "index must be CPU tensor"; torch's own amp scaler): the named argument
    # is where the model is; the one on the cpu is the stray
    Rule("library_cpu", "device", "mismatch", "",
         r"\bmust be (?:an? )?(?:CPU|cpu) tensor\b",
         "libraries: C++ extensions' CHECK_CPU macro (torch_scatter, torch_sparse); and "
         "aten/src/ATen/native/cpu/AmpGradScalerKernels.cpp (_amp_update_scale_)"),
    # --- integer indices and targets --------------------------------------------------------------
    Rule("target_long", "index_dtype", "target", "int64",
         r"expected target dtype to be Long|expected scalar type Long but found|"
         r"Expected object of scalar type Long but got scalar type \w+ for argument #\d+ "
         r"'target'",
         "aten/src/ATen/native/LossNLL.cpp, aten/src/ATen/native/LossNLL2d.cpp"),
    Rule("library_detection_labels", "index_dtype", "checked", "int64",
         r"target labels must (?:be )?of int64 type",
         "libraries: torchvision/models/detection/roi_heads.py (RoIHeads.check_targets)"),
    Rule("library_detection_boxes", "dtype", "checked", "float",
         r"target boxes must (?:be )?of float type",
         "libraries: torchvision/models/detection/roi_heads.py (RoIHeads.check_targets)"),
    Rule("target_probs", "dtype", "target", "float",
         r"Expected floating point type for target with class probabilities",
         "aten/src/ATen/native/LossNLL.cpp (cross_entropy)"),
    Rule("embedding_indices", "index_dtype", "index", "int64",
         r"Expected tensor for argument #\d+ 'indices' to have (?:one of )?the following scalar",
         "aten/src/ATen/TensorUtils.cpp (checkScalarTypes), aten/src/ATen/native/Embedding.cpp"),
    Rule("index_dtype", "index_dtype", "index", "int64",
         r"Expected dtype int(?:32/int|32 or int)?64 for index",
         "aten/src/ATen/native/ScatterGatherChecks.h, "
         "aten/src/ATen/native/TensorAdvancedIndexing.cpp"),
    Rule("indices_long", "index_dtype", "index", "int64",
         r"tensors used as indices must be long",
         "aten/src/ATen/native/IndexingUtils.h"),
    # NB: a uint8 tensor in index position is read as a boolean mask (PyTorch's old byte
    # masks): integer indices of that dtype fail on the mask's shape; only uint8 operands are
    # blamed (a bool mask of the wrong shape is no dtype problem)
    Rule("byte_index", "index_dtype", "index", "int64",
         r"The shape of the mask \[\d+\] at index \d+ does not match the shape of the indexed",
         "aten/src/ATen/native/IndexingUtils.h (expandTensors: byte and bool indices are masks)"),
    Rule("bincount", "index_dtype", "index", "int64",
         r"bincount only supports 1-d non-negative integral inputs|\"bincount\w*\" not "
         r"implemented for '(?:Float|Double|Half|BFloat16)'",
         "aten/src/ATen/native/SummaryOps.cpp (_bincount_cpu), aten/src/ATen/native/cuda/"
         "SummaryOps.cu"),
    Rule("one_hot", "index_dtype", "index", "int64",
         r"one_hot is only applicable to index tensor",
         "aten/src/ATen/native/Onehot.cpp"),
    Rule("ctc_lengths", "index_dtype", "lengths", "int64",
         r"(?:input|target)_lengths must be integral",
         "aten/src/ATen/native/LossCTC.cpp (ctc_loss's checks of its lengths)"),
    # --- boolean masks ---------------------------------------------------------------------------
    Rule("masked_select_mask", "dtype", "mask", "bool",
         r"masked_select: expected BoolTensor for mask|masked_select\(\): expected the mask to "
         r"be bool",
         "aten/src/ATen/native/TensorAdvancedIndexing.cpp (masked_select_out), and its cuda and "
         "mps kernels"),
    Rule("masked_fill_mask", "dtype", "mask", "bool",
         r"masked_fill_? only supports boolean masks",
         "aten/src/ATen/native/TensorAdvancedIndexing.cpp"),
    Rule("where_condition", "dtype", "mask", "bool",
         r"where expected condition to be a boolean tensor",
         "aten/src/ATen/native/TensorCompare.cpp"),
    Rule("bitwise_float", "dtype", "mask", "bool",
         r"\"(?:bitwise|logical)_\w+\" not implemented for '(?:Float|Double|Half|BFloat16)'",
         "aten/src/ATen/native/cpu/BinaryOpsKernel.cpp (bitwise ops dispatch on integral and "
         "bool types only)"),
    Rule("sdpa_mask", "dtype", "mask", "bool",
         r"Expected attn_mask dtype to be bool or float or to match query dtype",
         "aten/src/ATen/native/transformers/sdp_utils_cpp.h"),
    # --- values of different dtypes ---------------------------------------------------------------
    Rule("mat_dtype", "dtype", "mismatch", "",
         r"(?:mat1|self) and mat2 must have the same dtype",
         "aten/src/ATen/native/LinearAlgebra.cpp (addmm)"),
    Rule("m1m2", "dtype", "mismatch", "",
         r"expected m1 and m2 to have the same dtype",
         "aten/src/ATen/native/LinearAlgebra.cpp, aten/src/ATen/native/cuda/Blas.cpp"),
    Rule("scalar_type", "dtype", "mismatch", "",
         r"expected scalar type \w+ but found \w+|Expected object of scalar type \w+ but got "
         r"scalar type \w+",
         "aten/src/ATen/templates/TensorBody.h (data_ptr checks), aten/src/ATen/Utils.h (old)"),
    Rule("found_dtype", "dtype", "mismatch", "",
         r"Found dtype \w+ but expected \w+",
         "aten/src/ATen/TensorIterator.cpp (compute_types, check_all_same_dtype)"),
    Rule("conv_dtype", "dtype", "input", "",
         r"Input type \([\w:.<> ]+\) and (?:bias|weight) type \([\w:.<> ]+\) should be",
         "aten/src/ATen/native/Convolution.cpp (check_input_same_type_as_parameters)"),
    Rule("rnn_dtype", "dtype", "input", "",
         r"RNN input dtype \(\S+\) does not match weight dtype|input must have the type",
         "torch/nn/modules/rnn.py"),
    Rule("dot_dtype", "dtype", "mismatch", "",
         r"expected both vectors to have same dtype",
         "aten/src/ATen/native/Blas.cpp"),
    Rule("bmm_dtype", "dtype", "mismatch", "",
         r"Input dtypes must be the same, got: input",
         "aten/src/ATen/native/LinearAlgebra.cpp (baddbmm)"),
    Rule("mixed_cpu", "dtype", "input", "",
         r"mixed dtype \(CPU\): (?:all inputs must share same datatype|expect parameter)",
         "aten/src/ATen/native/mixed_data_type.h"),
    Rule("sdpa_dtype", "dtype", "mismatch", "",
         r"Expected query, key, and value to have the same dtype",
         "aten/src/ATen/native/transformers/sdp_utils_cpp.h"),
    Rule("lerp_dtype", "dtype", "mismatch", "",
         r"expected dtype (?:c10::)?\w+ for `\w+` but got dtype (?:c10::)?\w+",
         "aten/src/ATen/native/Lerp.cpp"),
    Rule("same_scalar_type", "dtype", "mismatch", "",
         r"\(\w+\) and source \(\w+\) must have the same scalar type",
         "aten/src/ATen/native/TensorAdvancedIndexing.cpp (index_add)"),
    Rule("out_dtype", "dtype", "dest", "",
         r"Expected out tensor to have dtype (?:c10::)?\w+, but got",
         "aten/src/ATen/native/LinearAlgebra.cpp (out= checks)"),
    Rule("index_put_dtype", "dtype", "dest", "",
         r"Index put requires the source and destination dtypes match",
         "aten/src/ATen/native/TensorAdvancedIndexing.cpp"),
    Rule("scatter_src", "dtype", "mismatch", "",
         r"Expected self\.dtype to be equal to src\.dtype",
         "aten/src/ATen/native/ScatterGatherChecks.h"),
    Rule("close_dtype", "dtype", "mismatch", "",
         r"\b(?:Double|Float|Half|BFloat16|ComplexFloat|ComplexDouble|Long|Int|Short|Char|Byte"
         r"|Bool) did not match (?:Double|Float|Half|BFloat16|ComplexFloat|ComplexDouble|Long"
         r"|Int|Short|Char|Byte|Bool)\b",
         "aten/src/ATen/native/TensorCompare.cpp (isclose, allclose)"),
    Rule("cast", "dtype", "dest", "",
         r"result type \w+ can't be cast to the desired output type",
         "aten/src/ATen/TensorIterator.cpp (compute_types)"),
    Rule("not_implemented", "dtype", "mismatch", "float",
         r"\"\w+\" not implemented for '(?:Long|Int|Short|Char|Byte|Bool|Half)'",
         "aten/src/ATen/Dispatch.h (AT_DISPATCH error)"),
    Rule("mean_int", "dtype", "mismatch", "float",
         r"could not infer output dtype\. Input dtype must be either a floating point",
         "aten/src/ATen/native/ReduceOps.cpp"),
    Rule("gradient_dtype", "dtype", "mismatch", "",
         r"invalid gradient at index \d+ - expected (?:dtype|type)",
         "torch/csrc/autograd/engine.cpp (validate_outputs)"),
    Rule("grad_dtype", "dtype", "mismatch", "",
         r"attempting to assign a gradient with dtype '[\w:]+' to a tensor with (?:grad_)?dtype"
         r"|assigned grad has data of a different type",
         "torch/csrc/autograd/python_variable.cpp (THPVariable_set_grad; grad_dtype since 2.9)"),
    Rule("hook_dtype", "dtype", "mismatch", "",
         r"has changed the type of value",
         "torch/csrc/autograd/python_hook.cpp"),
    # NB: last of the dtype rows: any other "... to have the same dtype" (the linear solvers'
    # "Expected b and A to have the same dtype", lu_solve's "LU and B", an op's own words) is a
    # dtype mismatch all the same; its operands are the failing line's
    Rule("any_same_dtype", "dtype", "mismatch", "",
         r"\b(?:to have|must have|to be of|must be of|have) the same (?:dtype|scalar type|data "
         r"?type)\b|\bdtypes? (?:do not|don't|does not|doesn't) match\b|\bdtype mismatch\b",
         "aten/src/ATen/native/LinearAlgebraUtils.h (linearSolveCheckInputs), "
         "aten/src/ATen/native/BatchLinearAlgebra.cpp (linalg.solve, lu_solve), libraries"),
)

_COMPILED = tuple((r, re.compile(r.pattern)) for r in RULES)


class Match(NamedTuple):
    rule: Rule
    kind: Kind
    expected: str  # a device the message itself names as expected ('' when it names none)
    devices: tuple[str, ...]  # devices the message names


def match(text: str) -> Match | None:
    """The first table row whose pattern is in ``text``; ``None`` for other errors."""
    for rule, pat in _COMPILED:
        m = pat.search(text)
        if m is None:
            continue
        kind = rule.kind
        if rule.key == "conv_type_device" and _conv_same_device(m.group(0)):
            rule, kind = _CONV_DTYPE, "dtype"  # same device, different tensor types
        expected = ""
        if rule.key in ("dataparallel", "gradient_device", "out_device"):
            expected = m.group(1)  # NB: DataParallel, autograd and out= name the device needed
        elif rule.key == "fake_wrong_device":
            expected = m.group(2)
        return Match(rule, kind, expected, tuple(dict.fromkeys(re.findall(_DEV, text))))
    return None


_CONV_DTYPE = next(r for r in RULES if r.key == "conv_dtype")
#: operands of different dtypes, whatever the op: where a more specific row finds no culprit
GENERAL_DTYPE = next(r for r in RULES if r.key == "scalar_type")


def _conv_same_device(text: str) -> bool:
    found = re.findall(r"\((torch\.(?:cuda\.)?)\w+\)", text)
    return len(found) == 2 and found[0] == found[1]
