"""Look-alike: accelerate's `cpu_offload_with_hook` chain (what diffusers' enable_model_cpu_offload builds): the models sit on the CPU and each is moved to cuda:0 only when called, the previous one sent back.

Source: https://github.com/huggingface/accelerate/blob/main/src/accelerate/big_modeling.py
`cpu_offload_with_hook(model, execution_device, prev_module_hook=None)` attaches a `CpuOffload` hook and
returns a `UserCpuOffloadHook`. `CpuOffload.pre_forward` offloads the previous model in the chain
(`self.prev_module_hook.offload()`), moves its own model to the execution device and sends the inputs
there (`send_to_device(args, self.execution_device)`); `offload()` moves the model back to the CPU. The
CPU token ids, a text encoder on the CPU until it runs, a denoiser called with cuda:0 embeddings while the
encoder goes back to RAM: each op sees one device. Stand-ins: the hook classes in a few lines, a small text
encoder and denoiser.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def send_to_device(obj, device):
    if isinstance(obj, torch.Tensor):
        return obj.to(device)
    if isinstance(obj, (list, tuple)):
        return type(obj)(send_to_device(o, device) for o in obj)
    if isinstance(obj, dict):
        return {k: send_to_device(v, device) for k, v in obj.items()}
    return obj

class CpuOffload:
    def __init__(self, execution_device=None, prev_module_hook=None):
        self.execution_device = execution_device
        self.prev_module_hook = prev_module_hook
    def init_hook(self, module):
        return module.to("cpu")
    def pre_forward(self, module, args, kwargs):
        if self.prev_module_hook is not None:
            self.prev_module_hook.offload()
        module.to(self.execution_device)
        return send_to_device(args, self.execution_device), send_to_device(kwargs, self.execution_device)

class UserCpuOffloadHook:
    def __init__(self, model, hook):
        self.model = model
        self.hook = hook
    def offload(self):
        self.hook.init_hook(self.model)
    def remove(self):
        pass

def cpu_offload_with_hook(model, execution_device=None, prev_module_hook=None):
    hook = CpuOffload(execution_device=execution_device, prev_module_hook=prev_module_hook)
    hook.init_hook(model)
    model.register_forward_pre_hook(hook.pre_forward, with_kwargs=True)
    user_hook = UserCpuOffloadHook(model, hook)
    return model, user_hook

class TextEncoder(nn.Module):
    def __init__(self, vocab=100, d=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.proj = nn.Linear(d, d)
    def forward(self, input_ids):
        return self.proj(self.embed(input_ids))

class Denoiser(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 64), nn.SiLU(), nn.Linear(64, d))
    def forward(self, latents, encoder_hidden_states):
        return self.net(latents + encoder_hidden_states.mean(dim=1, keepdim=True))

text_encoder, unet = TextEncoder(), Denoiser()
# enable_model_cpu_offload(): chain the hooks in execution order
hook = None
for cpu_offloaded_model in [text_encoder, unet]:
    _, hook = cpu_offload_with_hook(cpu_offloaded_model, torch.device("cuda:0"), prev_module_hook=hook)
final_offload_hook = hook
input_ids = torch.randint(0, 100, (1, 7))
latents = torch.randn(1, 4, 32)
'''
CELL = '''
with torch.no_grad():
    prompt_embeds = text_encoder(input_ids)
    noise_pred = unet(latents, prompt_embeds)
final_offload_hook.offload()
print(prompt_embeds.device, noise_pred.device, next(text_encoder.parameters()).device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
