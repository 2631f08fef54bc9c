"""OpenMM-ML loads a local MACE model with `torch.load(modelPath, map_location=device)`; e3nn's code-generated submodules are unpickled separately and stay on the CPU.

Source: https://github.com/openmm/openmm-ml/pull/146
"fix mace on cuda device": `MACEPotentialImpl` loaded a local `.model` file with
`torch.load(self.modelPath, map_location=device)` only (the symptom users posted in openmm-ml issues
#142/#148: "Expected all tensors to be on the same device ... mat2 is on cpu" in the tensor product's
generated code). e3nn's
`CodeGenMixin.__getstate__` stores each generated `fx.GraphModule` as a separate `pickle.dumps` blob
and `__setstate__` restores it with `pickle.loads`, which `map_location` never reaches, so those
submodules (and their constant buffers) come back on the device they were saved from. The merged fix
appends `.to(device)`: `torch.load(self.modelPath, map_location=device).to(device)`.
Stand-ins: e3nn's `CodeGenMixin` (getstate/setstate kept) and a MACE-like model reduced to one
tensor product whose generated submodule holds a Wigner-3j-like buffer; meta plays the GPU.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import io
import pickle
import torch
from torch import fx

class CodeGenMixin:
    """e3nn.util.codegen.CodeGenMixin, reduced (fx path only)."""
    def _codegen_register(self, funcs):
        if not hasattr(self, "__codegen__"):
            self.__codegen__ = []
        self.__codegen__.extend(funcs.keys())
        for fname, graphmod in funcs.items():
            self.add_module(fname, graphmod)

    def __getstate__(self):
        out = self.__dict__.copy()
        out["_modules"] = out["_modules"].copy()
        codegen_state = {}
        for fname in getattr(self, "__codegen__", []):
            smod = getattr(self, fname)
            codegen_state[fname] = ("fx", pickle.dumps(smod))
            del out["_modules"][fname]
        out["__codegen__"] = codegen_state
        return out

    def __setstate__(self, d):
        d = d.copy()
        codegen_state = d.pop("__codegen__", None)
        self.__dict__.update(d)
        if codegen_state is not None:
            for fname, (buffer_type, buffer) in codegen_state.items():
                smod = pickle.loads(buffer)
                setattr(self, fname, smod)
            self.__codegen__ = list(codegen_state.keys())

class _TPMain(torch.nn.Module):
    """The code generated for a TensorProduct: contracts inputs with a constant w3j buffer."""
    def __init__(self, dim1, dim2, dim_out):
        super().__init__()
        self.register_buffer("w3j", torch.randn(dim1, dim2, dim_out))
    def forward(self, x1, x2, w):
        return torch.einsum("zi,zj,ijk->zk", x1, x2, self.w3j) * w

class TensorProduct(CodeGenMixin, torch.nn.Module):
    """e3nn.o3.TensorProduct, reduced."""
    def __init__(self, dim1, dim2, dim_out):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.randn(dim_out))
        self._codegen_register({"_compiled_main_left_right": fx.symbolic_trace(_TPMain(dim1, dim2, dim_out))})
    def forward(self, x, y):
        return self._compiled_main_left_right(x, y, self.weight)

class ScaleShiftMACE(torch.nn.Module):
    """mace.modules.ScaleShiftMACE, reduced to embedding + one conv tensor product."""
    def __init__(self):
        super().__init__()
        self.node_embedding = torch.nn.Linear(4, 16, bias=False)
        self.conv_tp = TensorProduct(16, 9, 16)
        self.readout = torch.nn.Linear(16, 1)
    def forward(self, node_attrs, edge_sh):
        h = self.node_embedding(node_attrs)
        return self.readout(self.conv_tp(h, edge_sh)).sum()

# a model trained and saved on the CPU (mace_run_train --device cpu), written to a .model file
_buf = io.BytesIO()
torch.save(ScaleShiftMACE(), _buf)
_buf.seek(0)
modelPath = _buf

device = torch.device("meta")   # the GPU in this simulation
model = torch.load(modelPath, map_location=device, weights_only=False)   # MACEPotentialImpl before #146

node_attrs = torch.zeros(6, 4, device=device)
edge_sh = torch.randn(6, 9, device=device)
'''
CELL = '''
energy = model(node_attrs, edge_sh)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["model.conv_tp._compiled_main_left_right"]
FIX = "namespace"
REFERENCE_FIX = '''
model = model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
