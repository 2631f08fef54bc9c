"""FunASR `AutoModel.export(..., device="cpu")`: `_onnx` sends the dummy inputs to a hard-coded "cuda" while the model was moved to the CPU.

Source: https://github.com/modelscope/FunASR/pull/2265
"fix export error if using cpu device": "If using device="cpu" to export onnx, there will be error
like RuntimeError: Expected all tensors to be on the same device, but found at least two devices,
cuda:0 and cpu! (when checking argument for argument weight in method
wrapper_CUDA__native_layer_norm)". `AutoModel.export` moves the model to `cfg["device"]`, but
`funasr.utils.export_utils._onnx` did `dummy_input = (dummy_input[0].to("cuda"),
dummy_input[1].to("cuda"))`. The fix reads `device = kwargs.get("device", "cpu")` and moves the
dummy inputs there. Stand-ins: `AutoModel` (build + export), `export_utils.export`/`_onnx` without
file writing or quantization, `torch.onnx.export` replaced by the traced forward call it runs, a
reduced Paraformer export model (input scaling, the encoder's first LayerNorm, a Linear
encoder, CTC-style head); "cuda:0" for "cuda" (the simulator needs an index).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import os
import torch
from torch import nn

def onnx_export(model, args, f, **kwargs):
    """stand-in of torch.onnx.export: tracing runs the model on the dummy inputs"""
    with torch.no_grad():
        return model(*args)

class ParaformerExport(nn.Module):
    """reduced stand-in of FunASR's Paraformer export model"""
    def __init__(self, feats_dim=560, output_size=64, vocab_size=100):
        super().__init__()
        self._output_size = output_size
        self.norm = nn.LayerNorm(feats_dim)          # first LayerNorm of the SANM encoder
        self.encoder = nn.Sequential(nn.Linear(feats_dim, output_size), nn.ReLU())
        self.ctc_lo = nn.Linear(output_size, vocab_size)
        self.export_name = "model"

    def forward(self, speech, speech_lengths):
        xs_pad = speech * self._output_size ** 0.5
        xs_pad = self.encoder(self.norm(xs_pad))
        return torch.log_softmax(self.ctc_lo(xs_pad), dim=-1), speech_lengths

    def export(self, **kwargs):
        return self

    def export_dummy_inputs(self):
        speech = torch.randn(2, 30, 560)
        speech_lengths = torch.tensor([6, 30], dtype=torch.int32)
        return (speech, speech_lengths)

    def export_input_names(self):
        return ["speech", "speech_lengths"]

    def export_output_names(self):
        return ["logits", "token_num"]

    def export_dynamic_axes(self):
        return {"speech": {0: "batch_size", 1: "feats_length"}, "speech_lengths": {0: "batch_size"}}

def _onnx(model, data_in=None, quantize: bool = False, opset_version: int = 14, export_dir: str = None, **kwargs):

    dummy_input = model.export_dummy_inputs()
    dummy_input = (dummy_input[0].to("cuda:0"), dummy_input[1].to("cuda:0"))

    verbose = kwargs.get("verbose", False)

    if isinstance(model.export_name, str):
        export_name = model.export_name + ".onnx"
    else:
        export_name = model.export_name()
    model_path = os.path.join(export_dir, export_name)
    onnx_export(
        model,
        dummy_input,
        model_path,
        verbose=verbose,
        do_constant_folding=True,
        opset_version=opset_version,
        input_names=model.export_input_names(),
        output_names=model.export_output_names(),
        dynamic_axes=model.export_dynamic_axes(),
    )

def export(model, data_in=None, quantize: bool = False, opset_version: int = 14, type="onnx", **kwargs):
    model_scripts = model.export(**kwargs)
    export_dir = kwargs.get("output_dir", os.path.dirname(kwargs.get("init_param")))
    if not isinstance(model_scripts, (list, tuple)):
        model_scripts = (model_scripts,)
    for m in model_scripts:
        m.eval()
        if type == "onnx":
            _onnx(m, data_in=data_in, quantize=quantize, opset_version=opset_version, export_dir=export_dir, **kwargs)
    return export_dir

class AutoModel:
    """stand-in of funasr.AutoModel (build_model + export)"""
    def __init__(self, **kwargs):
        device = kwargs.get("device", "cuda:0")     # "cuda" when torch.cuda.is_available()
        kwargs["device"] = device
        kwargs["init_param"] = os.path.join(kwargs["model"], "model.pt")
        self.model = ParaformerExport().to(device)
        self.kwargs = kwargs

    def export(self, input=None, **cfg):
        device = cfg.get("device", "cpu")
        model = self.model.to(device=device)
        kwargs = dict(self.kwargs)
        kwargs.update(cfg)
        kwargs["device"] = device
        del kwargs["model"]
        model.eval()
        with torch.no_grad():
            export_dir = export(model=model, data_in=None, **kwargs)
        return export_dir

model = AutoModel(model="iic/speech_paraformer-large_asr_nat-zh-cn-16k-common-vocab8404-pytorch")
'''
CELL = '''
res = model.export(type="onnx", quantize=False, opset_version=13, device="cpu")  # fp32 onnx-cpu
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["_onnx"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    '    dummy_input = (dummy_input[0].to("cuda:0"), dummy_input[1].to("cuda:0"))\n',
    '    device = kwargs.get("device", "cpu")\n    dummy_input = (dummy_input[0].to(device), dummy_input[1].to(device))\n',
)
CLEAN = False
