"""ConceptExpress training: the empty-prompt token ids come from the tokenizer on the CPU, the text encoder is on cuda.

Source: https://github.com/haoosz/ConceptExpress/issues/5
Running train.py raised "Expected all tensors to be on the same device ... cuda:0 and cpu! (when
checking argument for argument index in method wrapper__index_select)". At `global_step == 0` the
trainer tokenizes `[""] * bsz` (`return_tensors="pt"` gives CPU ids) and calls
`self.text_encoder(null_input_ids)`; the encoder was moved to the accelerator's device. The reporter's
fix appends `.to(latents.device)` to the ids (line 1198). Tokenizer, CLIP text encoder, VAE and UNet
are small stand-ins; `main()` is reduced to that first step.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
from torch import nn
from types import SimpleNamespace

class CLIPTokenizer:
    model_max_length = 8
    def __call__(self, texts, truncation=True, padding="max_length", max_length=8, return_tensors="pt"):
        ids = [[49406] + [49407] * (max_length - 1) for _ in texts]
        return SimpleNamespace(input_ids=torch.tensor(ids) % 1000)

class CLIPTextModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.token_embedding = nn.Embedding(1000, 32)
        self.proj = nn.Linear(32, 32)
    def forward(self, input_ids):
        return (self.proj(self.token_embedding(input_ids)),)

class AutoencoderKL(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 4, stride=4)
    def encode(self, x):
        mean = self.conv(x).narrow(1, 0, 4)
        return SimpleNamespace(latent_dist=SimpleNamespace(sample=lambda: mean))

class UNet2DConditionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
        self.ctx = nn.Linear(32, 4)
        self.time = nn.Embedding(1000, 4)
    def forward(self, sample, timestep, encoder_hidden_states):
        h = self.conv(sample) + self.ctx(encoder_hidden_states.mean(1)).unsqueeze(-1).unsqueeze(-1)
        return SimpleNamespace(sample=h + self.time(timestep).unsqueeze(-1).unsqueeze(-1))

class ConceptExpress:
    def __init__(self, device):
        self.tokenizer = CLIPTokenizer()
        self.text_encoder = CLIPTextModel().to(device)      # accelerator.prepare(...)
        self.unet = UNet2DConditionModel().to(device)
        self.weight_dtype = torch.float32
        self.vae = AutoencoderKL()
        self.vae.to(device, dtype=self.weight_dtype)

    def first_step(self, batch, global_step=0):
        if global_step == 0:
            with torch.no_grad():
                latents = self.vae.encode(batch["pixel_values"].to(dtype=self.weight_dtype)).latent_dist.sample()
                latents = latents * 0.18215
                noise = torch.randn_like(latents)
                bsz = latents.shape[0]
                timesteps = torch.LongTensor([0] * bsz).to(latents.device)
                null_input_ids = self.tokenizer(
                    [""] * bsz,
                    truncation=True,
                    padding="max_length",
                    max_length=self.tokenizer.model_max_length,
                    return_tensors="pt",
                ).input_ids
                encoder_hidden_states = self.text_encoder(null_input_ids)[0]
                model_pred = self.unet(latents, timesteps, encoder_hidden_states).sample
                return model_pred

device = torch.device("cuda:0")
trainer = ConceptExpress(device)
batch = {"pixel_values": torch.randn(2, 3, 32, 32).to(device)}
'''
CELL = '''
model_pred = trainer.first_step(batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["null_input_ids"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""                    return_tensors="pt",
                ).input_ids""", """                    return_tensors="pt",
                ).input_ids.to(latents.device)""")
CLEAN = False
