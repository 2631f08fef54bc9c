"""SD3 DreamBooth LoRA, SD3 loss weighting: GPU `indices` index the CPU `noise_scheduler_copy.timesteps`.

Source: https://github.com/huggingface/diffusers/pull/8528
Testing the new weighting schemes in `train_dreambooth_lora_sd3.py`, a reviewer hit
`timesteps = noise_scheduler_copy.timesteps[indices].to(device=model_input.device)` ->
"indices should be either on cpu or on the same device as the indexed tensor (cpu)": `u` was drawn
with `device=accelerator.device`, so `indices = (u * num_train_timesteps).long()` lived on the GPU while
the flow-matching scheduler keeps its `timesteps` on the CPU. The script ended up drawing `u` on the
CPU (indices on the CPU) and moving the looked-up timesteps to the latents' device. Stand-in: the
FlowMatchEulerDiscreteScheduler tables and the sampling lines; the lookup is written `index_select`.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import copy
import torch

class FlowMatchEulerDiscreteScheduler:
    def __init__(self, num_train_timesteps=1000, shift=3.0):
        self.config = type("Config", (), {"num_train_timesteps": num_train_timesteps})()
        timesteps = torch.linspace(1, num_train_timesteps, num_train_timesteps).flip(0)
        sigmas = timesteps / num_train_timesteps
        sigmas = shift * sigmas / (1 + (shift - 1) * sigmas)
        self.timesteps = sigmas * num_train_timesteps
        self.sigmas = sigmas

class Accelerator:
    device = torch.device("cuda:0")

class Args:
    weighting_scheme = "logit_normal"
    logit_mean = 0.0
    logit_std = 1.0

args = Args()
accelerator = Accelerator()
noise_scheduler = FlowMatchEulerDiscreteScheduler()
noise_scheduler_copy = copy.deepcopy(noise_scheduler)
model_input = torch.randn(2, 16, 8, 8).to(accelerator.device)   # vae latents
bsz = model_input.shape[0]
if args.weighting_scheme == "logit_normal":
    u = torch.normal(mean=args.logit_mean, std=args.logit_std, size=(bsz,), device=accelerator.device)
    u = torch.nn.functional.sigmoid(u)
indices = (u * noise_scheduler_copy.config.num_train_timesteps).long()
'''
CELL = '''
timesteps = noise_scheduler_copy.timesteps.index_select(0, indices).to(device=model_input.device)
'''
EXPECT_ERROR = ("indices should be either on cpu or on the same device", "Expected all tensors to be on the same device")
CULPRITS = ["indices"]
FIX = "namespace"
REFERENCE_FIX = '''
indices = indices.cpu()
'''
REFERENCE_EDIT = None
CLEAN = False
