"""A model dispatched with accelerate hooks is called with cpu `input_ids`: the hook moves them to the execution device.

Source: https://github.com/huggingface/transformers/pull/19468
"Add warning in `generate` & `device_map=auto` & half precision models": sgugger notes the legitimate
set-up where the forward passes run on the GPU while the generation bookkeeping stays on the cpu,
"which is why Accelerate does not force the inputs to be on the same device as the model": the
`AlignDevicesHook(io_same_device=True)` moves the inputs to the module's execution device and the
outputs back to the inputs' device. Look-alike: cpu ids handed to a cuda model, that runs.
Stand-in: a tiny causal LM on cuda:0 with a pre/post hook pair standing in for `AlignDevicesHook`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class CausalLM(nn.Module):
    def __init__(self, vocab_size=64, hidden=32):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, hidden)
        self.mlp = nn.Linear(hidden, hidden)
        self.lm_head = nn.Linear(hidden, vocab_size, bias=False)

    def forward(self, input_ids):
        return self.lm_head(torch.tanh(self.mlp(self.wte(input_ids))))

def add_align_devices_hook(module, execution_device):
    state = {}
    def pre_forward(mod, args):
        state["input_device"] = args[0].device
        return tuple(a.to(execution_device) for a in args)
    def post_forward(mod, args, output):
        return output.to(state["input_device"])          # io_same_device=True
    module.register_forward_pre_hook(pre_forward)
    module.register_forward_hook(post_forward)
    return module

model = add_align_devices_hook(CausalLM().to("cuda:0"), "cuda:0")      # device_map={"": 0}
input_ids = torch.randint(0, 64, (1, 5))                               # left on the cpu
'''
CELL = '''
with torch.no_grad():
    for _ in range(4):
        next_token = model(input_ids)[:, -1, :].argmax(-1, keepdim=True)
        input_ids = torch.cat([input_ids, next_token], dim=-1)
print(input_ids.shape, input_ids.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
