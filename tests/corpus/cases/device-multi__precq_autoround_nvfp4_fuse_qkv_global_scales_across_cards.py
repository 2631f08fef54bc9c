"""AutoRound NVFP4: unifying the q/k/v global scales concatenates scales that live on different GPUs.

Source: https://github.com/intel/auto-round/pull/1143
"Fix device mismatch of nvfp fuse scale": for NVFP4 the fused-layer step
(`update_fused_layer_global_scales` in auto_round/data_type/utils.py) gives q_proj/k_proj/v_proj
one shared `weight_global_scale` (the minimum of the three) because runtimes fuse QKV into one
GEMM. With multi-card tuning the linear layers of a block are spread over GPUs, so each
projection's global scale sits on its own layer's device and `torch.cat` of the collected scales
fails. The fix takes `device = scales[0].device` and moves the scales there before reducing (and
writes the shared scale back on each projection's device).
Stand-ins: one Llama attention block whose q/k/v projections were dispatched over cuda:0/cuda:1,
NVFP4 global-scale computation (`448 * 6 / amax`), and the fused-scale helper with its
`_collect_scales` (as in the PR, before the device handling was added).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

FLOAT4_E2M1_MAX = 6.0
FLOAT8_E4M3_MAX = 448.0

class LlamaAttention(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.q_proj = nn.Linear(hidden, hidden, bias=False)
        self.k_proj = nn.Linear(hidden, hidden // 2, bias=False)
        self.v_proj = nn.Linear(hidden, hidden // 2, bias=False)
        self.o_proj = nn.Linear(hidden, hidden, bias=False)

def calculate_gparam(tensor):
    tensor_amax = tensor.abs().max().to(torch.float32)
    return FLOAT8_E4M3_MAX * FLOAT4_E2M1_MAX / tensor_amax

def _collect_scales(modules, global_scale_name):
    return [getattr(m, global_scale_name).reshape(1) for m in modules if hasattr(m, global_scale_name)]

def update_fused_layer_global_scales(submodule, base_name="weight"):
    global_scale_name = f"{base_name}_global_scale"
    if hasattr(submodule, "q_proj") and hasattr(submodule, "k_proj") and hasattr(submodule, "v_proj"):
        scales = _collect_scales([submodule.q_proj, submodule.k_proj, submodule.v_proj], global_scale_name)
        if not scales:
            return
        global_scale = torch.min(torch.cat(scales)).reshape([1])
        for proj in (submodule.q_proj, submodule.k_proj, submodule.v_proj):
            setattr(proj, global_scale_name, global_scale.clone().to(proj.weight.device))

class AutoRound:
    def __init__(self, model, scheme="NVFP4", device_map="0,1"):
        self.model, self.scheme = model, scheme
        # multi-card tuning: the linear layers of the block are spread over the cards
        placement = {"q_proj": "cuda:0", "k_proj": "cuda:1", "v_proj": "cuda:1", "o_proj": "cuda:0"}
        for name, dev in placement.items():
            getattr(model.self_attn, name).to(dev)

    def quantize(self):
        attn = self.model.self_attn
        for proj in (attn.q_proj, attn.k_proj, attn.v_proj, attn.o_proj):
            proj.weight_global_scale = calculate_gparam(proj.weight)   # on the layer's card
        update_fused_layer_global_scales(attn)
        return self.model

block = nn.Module()
block.self_attn = LlamaAttention()
autoround = AutoRound(block, scheme="NVFP4", device_map="0,1")
'''
CELL = '''
with torch.no_grad():
    model = autoround.quantize()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["scales"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("global_scale = torch.min(torch.cat(scales)).reshape([1])",
                  "device = scales[0].device\n        global_scale = torch.min(torch.cat([s.to(device) for s in scales])).reshape([1])")
CLEAN = False
