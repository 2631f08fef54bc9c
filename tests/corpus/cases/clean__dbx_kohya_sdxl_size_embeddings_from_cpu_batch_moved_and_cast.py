"""Look-alike: sd-scripts SDXL LoRA training builds the size-conditioning vector from the batch's CPU size tensors, then moves and casts it before concatenating with the GPU pooled text embedding.

Source: https://github.com/kohya-ss/sd-scripts/blob/main/sdxl_train_network.py (with library/sdxl_train_util.py)
The dataset's collate puts `original_sizes_hw`, `crop_top_lefts` and `target_sizes_hw` in the batch as CPU
`LongTensor`s that are never moved. `SdxlNetworkTrainer.call_unet` passes them to
`sdxl_train_util.get_size_embeddings(orig_size, crop_size, target_size, accelerator.device)`, which computes
the sinusoidal embeddings on the CPU (`timestep_embedding` puts its frequencies on the input's device) and
returns `torch.cat([...]).to(device)`; the caller casts with `.to(weight_dtype)` and concatenates with the bf16
GPU `pool2`. CPU size tensors in the batch are by design.
Stand-ins: the SDXL U-Net reduced to a conv plus a `label_emb`-like linear for the 2816-wide vector, text
conditionings made directly on the device, and an Accelerator with `device`; the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
from types import SimpleNamespace
import torch
import torch.nn as nn

def timestep_embedding(timesteps, dim, max_period=10000):   # library/sdxl_train_util.py
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(start=0, end=half, dtype=torch.float32) / half).to(
        device=timesteps.device
    )
    args = timesteps[:, None].float() * freqs[None]
    embedding = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
    if dim % 2:
        embedding = torch.cat([embedding, torch.zeros_like(embedding[:, :1])], dim=-1)
    return embedding

def get_timestep_embedding(x, outdim):
    assert len(x.shape) == 2
    b, dims = x.shape[0], x.shape[1]
    x = torch.flatten(x)
    emb = timestep_embedding(x, outdim)
    emb = torch.reshape(emb, (b, dims * outdim))
    return emb

def get_size_embeddings(orig_size, crop_size, target_size, device):
    emb1 = get_timestep_embedding(orig_size, 256)
    emb2 = get_timestep_embedding(crop_size, 256)
    emb3 = get_timestep_embedding(target_size, 256)
    vector = torch.cat([emb1, emb2, emb3], dim=1).to(device)
    return vector

class SdxlUNet2DConditionModel(nn.Module):           # library/sdxl_original_unet.py (stand-in)
    def __init__(self):
        super().__init__()
        self.conv_in = nn.Conv2d(4, 4, 3, padding=1)
        self.label_emb = nn.Linear(2816, 4)
        self.ctx = nn.Linear(2048, 4)
    def forward(self, x, timesteps=None, context=None, y=None):
        return self.conv_in(x) + (self.label_emb(y) + self.ctx(context.mean(1)))[:, :, None, None]

weight_dtype = torch.bfloat16
accelerator = SimpleNamespace(device=torch.device("cuda:0"))
unet = SdxlUNet2DConditionModel().to(accelerator.device, dtype=weight_dtype)

# collate_fn of the dataset: sizes as CPU LongTensors
original_sizes_hw = [(1024, 768), (896, 1152)]
crop_top_lefts = [(0, 0), (32, 0)]
target_sizes_hw = [(1024, 768), (896, 1152)]
batch = {
    "original_sizes_hw": torch.stack([torch.LongTensor(x) for x in original_sizes_hw]),
    "crop_top_lefts": torch.stack([torch.LongTensor(x) for x in crop_top_lefts]),
    "target_sizes_hw": torch.stack([torch.LongTensor(x) for x in target_sizes_hw]),
}
encoder_hidden_states1 = torch.randn(2, 77, 768, device=accelerator.device, dtype=weight_dtype)
encoder_hidden_states2 = torch.randn(2, 77, 1280, device=accelerator.device, dtype=weight_dtype)
pool2 = torch.randn(2, 1280, device=accelerator.device, dtype=weight_dtype)
text_conds = (encoder_hidden_states1, encoder_hidden_states2, pool2)
noisy_latents = torch.randn(2, 4, 16, 16, device=accelerator.device)
timesteps = torch.randint(0, 1000, (2,), device=accelerator.device)
'''
CELL = '''
noisy_latents = noisy_latents.to(weight_dtype)
orig_size = batch["original_sizes_hw"]
crop_size = batch["crop_top_lefts"]
target_size = batch["target_sizes_hw"]
embs = get_size_embeddings(orig_size, crop_size, target_size, accelerator.device).to(weight_dtype)

encoder_hidden_states1, encoder_hidden_states2, pool2 = text_conds
vector_embedding = torch.cat([pool2, embs], dim=1).to(weight_dtype)
text_embedding = torch.cat([encoder_hidden_states1, encoder_hidden_states2], dim=2).to(weight_dtype)
noise_pred = unet(noisy_latents, timesteps, text_embedding, vector_embedding)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
