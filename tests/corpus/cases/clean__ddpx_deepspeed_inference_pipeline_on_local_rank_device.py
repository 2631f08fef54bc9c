"""Look-alike: DeepSpeed's stable-diffusion inference example puts the pipeline on `cuda:{LOCAL_RANK}` and every tensor it makes follows the pipeline's device, so the process of rank 1 runs entirely on cuda:1.

Source: https://github.com/deepspeedai/DeepSpeedExamples/blob/master/inference/huggingface/stable-diffusion/test-stable-diffusion.py
`local_rank = int(os.getenv("LOCAL_RANK", "0"))`, `device = torch.device(f"cuda:{local_rank}")`,
`pipe = StableDiffusionPipeline.from_pretrained(model, torch_dtype=torch.half)`, `pipe = pipe.to(device)`,
then `pipe = deepspeed.init_inference(pipe, mp_size=world_size, dtype=torch.half, ...)` and
`pipe(prompt, guidance_scale=7.5, ...)`. Nothing is on cuda:0 in a non-zero rank even though no
`torch.cuda.set_device` appears in the cell: the pipeline draws its latents on `self.device`.
Stand-ins: a tiny pipeline (token embedding "text encoder", linear "unet", latents drawn on the
pipeline's device) and `init_inference` returning an engine that calls the wrapped pipeline; process
with LOCAL_RANK=1.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class TinyStableDiffusionPipeline(nn.Module):
    def __init__(self, vocab=64, dim=16, latent=8):
        super().__init__()
        self.text_encoder = nn.Embedding(vocab, dim)
        self.unet = nn.Linear(latent + dim, latent)
        self.latent = latent
    @property
    def device(self):
        return next(self.parameters()).device
    def forward(self, prompt_ids, num_inference_steps=3, guidance_scale=7.5):
        cond = self.text_encoder(prompt_ids.to(self.device)).mean(dim=1)
        latents = torch.randn(prompt_ids.shape[0], self.latent, device=self.device)
        for _ in range(num_inference_steps):
            noise_pred = self.unet(torch.cat([latents, cond], dim=-1))
            latents = latents - 0.1 * guidance_scale * noise_pred
        return latents

class InferenceEngine(nn.Module):
    def __init__(self, module, mp_size=1, dtype=None):
        super().__init__()
        self.module = module
        self.mp_size = mp_size
    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

def init_inference(model, mp_size=1, dtype=None, **kwargs):
    return InferenceEngine(model, mp_size=mp_size, dtype=dtype)

env = {"LOCAL_RANK": "1", "WORLD_SIZE": "2"}   # os.environ of the second process (deepspeed launcher)
local_rank = int(env.get("LOCAL_RANK", "0"))
device = torch.device(f"cuda:{local_rank}")
world_size = int(env.get("WORLD_SIZE", "1"))

pipe = TinyStableDiffusionPipeline()
pipe = pipe.to(device)
pipe = init_inference(pipe, mp_size=world_size, dtype=torch.half, replace_with_kernel_inject=True)
prompt_ids = torch.randint(0, 64, (1, 6))      # tokenizer("a dog on a rocket")
'''
CELL = '''
with torch.no_grad():
    image_latents = pipe(prompt_ids, guidance_scale=7.5)
print(image_latents.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
