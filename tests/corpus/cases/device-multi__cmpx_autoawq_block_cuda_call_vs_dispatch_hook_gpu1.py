"""AutoAWQ on a model dispatched over two GPUs: the quantizer's `.cuda()` pulls a block that lives on GPU 1 onto GPU 0, while the block's accelerate hook keeps sending its inputs to GPU 1.

Source: https://github.com/casper-hansen/AutoAWQ/issues/194
"Bug report: tensor on different gpu when use default device_map": "in quantizer.py, the .cuda() method
use gpu 0, when a block is placed on other gpu, like gpu 1, this will lead to the error ... the block's
parameters are moved to gpu 0, (but the input tensor seems to be still on gpu 1) ... it is because the
parameter of layernorm (in this block) is on gpu 0, but the input tensor is on gpu 1". The quantizer
later stopped calling `.cuda()` on blocks that are already on a GPU: it keeps the block's own device
(`common_device = next(self.modules[i].parameters()).device`) and only moves CPU blocks.
Stand-in: a 2-block model dispatched as `device_map="auto"` would (block 1 on cuda:1 with an
`AlignDevicesHook`-style pre-hook to its execution device), the quantizer's per-block loop; `.cuda()`
is written `.to("cuda:0")` (the current device).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn

def add_hook_to_module(module, execution_device):
    def pre_forward(mod, args, kwargs):
        move = lambda t: t.to(execution_device) if isinstance(t, torch.Tensor) else t
        return tuple(move(a) for a in args), {k: move(v) for k, v in kwargs.items()}
    module.register_forward_pre_hook(pre_forward, with_kwargs=True)

class LlamaDecoderLayer(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.input_layernorm = nn.LayerNorm(d)
        self.mlp = nn.Linear(d, d)

    def forward(self, hidden_states):
        return (hidden_states + self.mlp(self.input_layernorm(hidden_states)),)

class LlamaForCausalLM(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.model = nn.Module()
        self.model.layers = nn.ModuleList([LlamaDecoderLayer(d), LlamaDecoderLayer(d)])

# AutoAWQForCausalLM.from_pretrained(model_path, device_map="auto"): block 0 on GPU 0, block 1 on GPU 1
model = LlamaForCausalLM()
model.model.layers[0].to("cuda:0"); add_hook_to_module(model.model.layers[0], "cuda:0")
model.model.layers[1].to("cuda:1"); add_hook_to_module(model.model.layers[1], "cuda:1")

class AwqQuantizer:
    def __init__(self, model, inps):
        self.model = model
        self.modules = model.model.layers
        self.inps = inps

    def _get_input_feat(self, layer, inps):
        inps = inps.to(next(layer.parameters()).device)
        return layer(inps)[0]

    def quantize(self):
        for i in range(len(self.modules)):
            self.modules[i] = self.modules[i].to("cuda:0")          # .cuda()
            common_device = next(self.modules[i].parameters()).device
            self.inps = self._get_input_feat(self.modules[i], self.inps)
        return self.inps

inps = torch.randn(2, 16, 32, device="cuda:0")                      # block-0 inputs captured by init_quant
quantizer = AwqQuantizer(model, inps)
'''
CELL = '''
with torch.no_grad():
    out = quantizer.quantize()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.model.layers"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('            self.modules[i] = self.modules[i].to("cuda:0")          # .cuda()\n',
                  '            if next(self.modules[i].parameters()).device.type == "cpu":\n'
                  '                self.modules[i] = self.modules[i].to("cuda:0")\n')
CLEAN = False
