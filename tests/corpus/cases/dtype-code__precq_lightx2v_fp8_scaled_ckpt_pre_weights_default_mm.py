"""LightX2V Qwen-Image-Edit with an FP8-scaled DiT checkpoint: the pre-weights' matmul layers are hard-wired to the "Default" (bf16) scheme and get float8 weights.

Source: https://github.com/ModelTC/LightX2V/issues/1439
With `dit_quantized: True`, `dit_quant_scheme: fp8-sgl` and `qwen_image_edit_2509_fp8_e4m3fn_scaled.safetensors`,
inference failed at the first DiT step in `pre_infer` -> `weights.img_in.apply(...)` ->
`torch.addmm(bias, input_tensor, weight, out=...)`: "self and mat2 must have the same dtype, but got
BFloat16 and Float8_e4m3fn". The root cause given in the fix (PR #1470, "Fix pre-weights ignoring
dit_quant_scheme"): the pre-weights class registers its matmul layers (`img_in`, `txt_in`, ...) with
`MM_WEIGHT_REGISTER["Default"]`, while the transformer/post weights resolve `config["dit_quant_scheme"]`;
so the float8 checkpoint tensors land in the plain bf16 `addmm` path. The fix registers every
matmul layer through the configured scheme.
Stand-ins: the MM-weight registry with a Default and an fp8 (dequantize-then-addmm) class, pre /
transformer weight containers loaded from a small fp8 state dict with per-channel scales, and the
pre-infer + one block; CPU (dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch

class MMWeight:                                   # "Default"
    def __init__(self, weight_name, bias_name):
        self.weight_name, self.bias_name = weight_name, bias_name

    def load(self, weight_dict):
        self.weight = weight_dict[self.weight_name].t()
        self.bias = weight_dict[self.bias_name]

    def apply(self, input_tensor):
        shape = (input_tensor.shape[0], self.weight.shape[1])
        output_tensor = torch.empty(shape, dtype=input_tensor.dtype, device=input_tensor.device)
        return torch.addmm(self.bias, input_tensor, self.weight, out=output_tensor)

class MMWeightWfp8channelAfp8channeldynamicSgl(MMWeight):   # "fp8-sgl"
    def load(self, weight_dict):
        self.weight = weight_dict[self.weight_name].t()
        self.weight_scale = weight_dict[self.weight_name.replace("weight", "weight_scale")]
        self.bias = weight_dict[self.bias_name]

    def apply(self, input_tensor):
        w = self.weight.to(input_tensor.dtype) * self.weight_scale.t().to(input_tensor.dtype)  # sgl fp8 gemm
        return torch.addmm(self.bias, input_tensor, w)

MM_WEIGHT_REGISTER = {"Default": MMWeight, "fp8-sgl": MMWeightWfp8channelAfp8channeldynamicSgl}

class QwenImagePreWeights:
    def __init__(self, config):
        self.config = config
        for name in ("img_in", "txt_in"):
            setattr(self, name, MM_WEIGHT_REGISTER["Default"](f"{name}.weight", f"{name}.bias"))

    def load(self, weight_dict):
        self.img_in.load(weight_dict)
        self.txt_in.load(weight_dict)

class QwenImageTransformerWeights:
    def __init__(self, config):
        self.mm_type = config["dit_quant_scheme"] if config["dit_quantized"] else "Default"
        self.proj = MM_WEIGHT_REGISTER[self.mm_type]("blocks.0.proj.weight", "blocks.0.proj.bias")

    def load(self, weight_dict):
        self.proj.load(weight_dict)

class QwenImageTransformerModel:
    def __init__(self, config, weight_dict):
        self.pre_weights = QwenImagePreWeights(config)
        self.transformer_weights = QwenImageTransformerWeights(config)
        self.pre_weights.load(weight_dict)
        self.transformer_weights.load(weight_dict)

    @torch.no_grad()
    def infer(self, hidden_states, encoder_hidden_states):
        hidden_states = self.pre_weights.img_in.apply(hidden_states.squeeze(0))
        encoder_hidden_states = self.pre_weights.txt_in.apply(encoder_hidden_states.squeeze(0))
        return self.transformer_weights.proj.apply(hidden_states + encoder_hidden_states.mean(0))

def load_fp8_scaled_checkpoint(dims):
    sd = {}
    for name, (din, dout) in dims.items():
        w = torch.randn(dout, din)
        scale = w.abs().amax(1, keepdim=True) / 448.0
        sd[f"{name}.weight"] = (w / scale).to(torch.float8_e4m3fn)
        sd[f"{name}.weight_scale"] = scale.to(torch.float32)
        sd[f"{name}.bias"] = torch.zeros(dout, dtype=torch.bfloat16)
    return sd

config = {"dit_quantized": True, "dit_quant_scheme": "fp8-sgl", "use_bfloat16": True, "infer_steps": 8}
weight_dict = load_fp8_scaled_checkpoint({"img_in": (64, 32), "txt_in": (48, 32), "blocks.0.proj": (32, 64)})
model = QwenImageTransformerModel(config, weight_dict)
latents = torch.randn(1, 16, 64, dtype=torch.bfloat16)
prompt_embeds = torch.randn(1, 7, 48, dtype=torch.bfloat16)
'''
CELL = '''
noise_pred = model.infer(latents, prompt_embeds)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type")
CULPRITS = ["model.pre_weights"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('MM_WEIGHT_REGISTER["Default"](f"{name}.weight"',
                  'MM_WEIGHT_REGISTER[config["dit_quant_scheme"] if config["dit_quantized"] else "Default"](f"{name}.weight"')
CLEAN = False
