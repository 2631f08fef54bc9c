"""Flux DreamBooth with `--train_text_encoder`: `encode_prompt` builds `text_ids` with `device=None`, on the CPU.

Source: https://github.com/huggingface/diffusers/pull/9275
Training Flux DreamBooth with the text encoder trained, the transformer failed because "the text_ids
were still on CPU": in `encode_prompt`, `text_ids = torch.zeros(batch_size, prompt_embeds.shape[1],
3).to(device=device, dtype=dtype)` ran with the default `device=None` (the embeddings themselves are
made on the text encoders' devices), so `.to(device=None)` left `text_ids` on the CPU. The PR gives
`text_ids` the proper device. Stand-in: encode_prompt with CLIP/T5 stand-ins and a Flux transformer
reduced to its position-id concat and embedders; the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class TextEncoder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.embed = nn.Embedding(1000, dim)
    @property
    def device(self):
        return self.embed.weight.device
    @property
    def dtype(self):
        return self.embed.weight.dtype
    def forward(self, ids):
        return self.embed(ids)

def _encode_prompt_with_clip(text_encoder, text_input_ids, device=None):
    prompt_embeds = text_encoder(text_input_ids.to(device))
    return prompt_embeds.mean(1)                                # pooled output

def _encode_prompt_with_t5(text_encoder, text_input_ids, device=None):
    return text_encoder(text_input_ids.to(device))

def encode_prompt(text_encoders, tokenizers, prompt, max_sequence_length, device=None, text_input_ids_list=None):
    dtype = text_encoders[0].dtype
    pooled_prompt_embeds = _encode_prompt_with_clip(
        text_encoders[0], text_input_ids_list[0],
        device=device if device is not None else text_encoders[0].device)
    prompt_embeds = _encode_prompt_with_t5(
        text_encoders[1], text_input_ids_list[1],
        device=device if device is not None else text_encoders[1].device)
    batch_size = prompt_embeds.shape[0]
    text_ids = torch.zeros(batch_size, prompt_embeds.shape[1], 3).to(device=device, dtype=dtype)
    return prompt_embeds, pooled_prompt_embeds, text_ids

class FluxTransformer2DModel(nn.Module):
    def __init__(self, dim=32, joint_dim=32, pooled_dim=16):
        super().__init__()
        self.x_embedder = nn.Linear(16, dim)
        self.context_embedder = nn.Linear(joint_dim, dim)
        self.time_text_embed = nn.Linear(pooled_dim, dim)
        self.pos_embed = nn.Linear(3, dim)
        self.proj_out = nn.Linear(dim, 16)

    def forward(self, hidden_states, timestep, pooled_projections, encoder_hidden_states, txt_ids, img_ids):
        hidden_states = self.x_embedder(hidden_states)
        temb = self.time_text_embed(pooled_projections)
        encoder_hidden_states = self.context_embedder(encoder_hidden_states)
        ids = torch.cat((txt_ids, img_ids), dim=1)
        image_rotary_emb = self.pos_embed(ids)
        h = torch.cat([encoder_hidden_states, hidden_states], dim=1) + image_rotary_emb + temb[:, None]
        return self.proj_out(h[:, encoder_hidden_states.shape[1]:])

class Accelerator:
    device = torch.device("cuda:0")

accelerator = Accelerator()
text_encoder_one = TextEncoder(16).to(accelerator.device)      # CLIP, trained
text_encoder_two = TextEncoder(32).to(accelerator.device)      # T5
transformer = FluxTransformer2DModel().to(accelerator.device)
tokens_one = torch.randint(0, 1000, (1, 77))
tokens_two = torch.randint(0, 1000, (1, 64))
prompt_embeds, pooled_prompt_embeds, text_ids = encode_prompt(
    text_encoders=[text_encoder_one, text_encoder_two], tokenizers=[None, None], prompt="a photo of sks dog",
    max_sequence_length=64, text_input_ids_list=[tokens_one, tokens_two])
packed_noisy_model_input = torch.randn(1, 16, 16).to(accelerator.device)
latent_image_ids = torch.zeros(1, 16, 3).to(accelerator.device)
timesteps = torch.tensor([500.]).to(accelerator.device)
'''
CELL = '''
model_pred = transformer(
    hidden_states=packed_noisy_model_input,
    timestep=timesteps / 1000,
    pooled_projections=pooled_prompt_embeds,
    encoder_hidden_states=prompt_embeds,
    txt_ids=text_ids,
    img_ids=latent_image_ids,
)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["text_ids"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("text_ids = torch.zeros(batch_size, prompt_embeds.shape[1], 3).to(device=device, dtype=dtype)",
                  "text_ids = torch.zeros(batch_size, prompt_embeds.shape[1], 3).to(device=prompt_embeds.device, dtype=dtype)")
CLEAN = False
