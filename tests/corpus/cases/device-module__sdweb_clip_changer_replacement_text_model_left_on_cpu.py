"""sdweb-clip-changer swaps in a new CLIPTextModel that stays on the CPU; the webui sends the prompt tokens to cuda.

Source: https://github.com/bbc-mc/sdweb-clip-changer/issues/2
"Device confusion": with Counterfeit V3.0 and openai/clip-vit-large-patch14-336 the extension logged
"CLIPTextModel was on cpu" / "CLIPTextModel applied", and the first txt2img failed with "Expected all
tensors to be on the same device, but found at least two devices, cpu and cuda:0" in the token
embedding. `apply_clip` (an `on_model_loaded` callback) replaces
`sd_model.cond_stage_model.transformer` with `CLIPTextModel.from_pretrained(...)` placed on the old
module's device at that moment (the CPU), while FrozenCLIPEmbedderWithCustomWords moves the tokens to
`devices.device` (cuda). Stand-in: a small CLIP text model, the webui's wrapper and the callback.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

device = torch.device("cuda:0")                          # modules.devices.device

class CLIPTextModel(nn.Module):
    def __init__(self, vocab=49408, dim=32, max_pos=77):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab, dim)
        self.position_embedding = nn.Embedding(max_pos, dim)
        self.layer = nn.TransformerEncoderLayer(dim, 4, 64, batch_first=True)
        self.final_layer_norm = nn.LayerNorm(dim)

    @classmethod
    def from_pretrained(cls, name):
        return cls()

    @property
    def device(self):
        return self.token_embedding.weight.device

    def forward(self, input_ids):
        pos = torch.arange(input_ids.shape[1], device=input_ids.device)
        h = self.token_embedding(input_ids) + self.position_embedding(pos)
        return self.final_layer_norm(self.layer(h))

class FrozenCLIPEmbedderWithCustomWords(nn.Module):
    def __init__(self):
        super().__init__()
        self.transformer = CLIPTextModel()

    def encode_with_transformers(self, tokens):
        return self.transformer(input_ids=tokens)

    def forward(self, remade_batch_tokens):
        tokens = torch.asarray(remade_batch_tokens).to(device)
        return self.encode_with_transformers(tokens)

class LatentDiffusion(nn.Module):
    def __init__(self):
        super().__init__()
        self.cond_stage_model = FrozenCLIPEmbedderWithCustomWords()
        self.diffusion_model = nn.Conv2d(4, 4, 3, padding=1)

    def get_learned_conditioning(self, c):
        return self.cond_stage_model(c)

def apply_clip(sd_model, _clip_text_model="openai/clip-vit-large-patch14-336"):
    print(f"  CLIPTextModel was on {sd_model.cond_stage_model.transformer.device}")
    sd_model.cond_stage_model.transformer = CLIPTextModel.from_pretrained(_clip_text_model).to(
        sd_model.cond_stage_model.transformer.device)
    sd_model.cond_stage_model.transformer.requires_grad_(False)
    print(f"  CLIPTextModel applied: {_clip_text_model}")
    sd_model.eval()
    return sd_model

sd_model = LatentDiffusion()                 # weights loaded on the CPU; on_model_loaded fires here
sd_model = apply_clip(sd_model)
sd_model.diffusion_model.to(device)          # the webui moves the UNet; the new text model stays behind
'''
CELL = '''
prompt_tokens = [[49406, 320, 1215, 49407] + [49407] * 73]
c = sd_model.get_learned_conditioning(prompt_tokens)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["sd_model.cond_stage_model.transformer"]
FIX = "namespace"
REFERENCE_FIX = '''
sd_model.cond_stage_model.transformer.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
