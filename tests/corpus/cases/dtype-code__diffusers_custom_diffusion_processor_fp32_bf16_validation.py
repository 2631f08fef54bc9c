"""Custom Diffusion training in bf16: validation runs the fp32 custom-diffusion attention processors on bf16 states.

Source: https://github.com/huggingface/diffusers/issues/4139
"I see in lora, the dtype are explicitly upcast ... However, this is not done in custom diffusion.
The weights need to be FP32 for mixed precision training, and during validation custom diffusion
will throw an error about precision mismatch" ("expected BFloat16 but found Float" at
`key = self.to_k_custom_diffusion(encoder_hidden_states)`). The UNet is cast to the weight dtype;
the trainable processors stay float32 and are only covered by autocast during training. Stand-in:
a cross-attention block whose processor holds `to_k/to_v_custom_diffusion`, and the validation
pipeline call without autocast; run on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

class CustomDiffusionAttnProcessor(nn.Module):
    def __init__(self, hidden_size, cross_attention_dim):
        super().__init__()
        self.to_k_custom_diffusion = nn.Linear(cross_attention_dim, hidden_size, bias=False)
        self.to_v_custom_diffusion = nn.Linear(cross_attention_dim, hidden_size, bias=False)

    def __call__(self, attn, hidden_states, encoder_hidden_states):
        query = attn.to_q(hidden_states)
        key = self.to_k_custom_diffusion(encoder_hidden_states)
        value = self.to_v_custom_diffusion(encoder_hidden_states)
        probs = (query @ key.transpose(-1, -2) * attn.scale).softmax(-1)
        return attn.to_out(probs @ value)

class Attention(nn.Module):
    def __init__(self, hidden_size, cross_attention_dim):
        super().__init__()
        self.scale = hidden_size ** -0.5
        self.to_q = nn.Linear(hidden_size, hidden_size, bias=False)
        self.to_k = nn.Linear(cross_attention_dim, hidden_size, bias=False)
        self.to_v = nn.Linear(cross_attention_dim, hidden_size, bias=False)
        self.to_out = nn.Linear(hidden_size, hidden_size)
        self.processor = None

    def set_processor(self, processor):
        self.processor = processor

    def forward(self, hidden_states, encoder_hidden_states):
        return self.processor(self, hidden_states, encoder_hidden_states)

class UNet(nn.Module):
    def __init__(self, hidden_size=32, cross_attention_dim=24):
        super().__init__()
        self.conv_in = nn.Linear(4, hidden_size)
        self.attn2 = Attention(hidden_size, cross_attention_dim)
        self.conv_out = nn.Linear(hidden_size, 4)

    def forward(self, latents, encoder_hidden_states):
        h = self.conv_in(latents)
        h = h + self.attn2(h, encoder_hidden_states)
        return self.conv_out(h)

weight_dtype = torch.bfloat16                         # accelerator.mixed_precision == "bf16"
unet = UNet()
unet.to(dtype=weight_dtype)                           # frozen weights cast to weight_dtype
unet.attn2.set_processor(CustomDiffusionAttnProcessor(32, 24))   # trainable, stays float32
custom_diffusion_layers = nn.ModuleList([unet.attn2.processor])

# validation: pipeline(prompt) with unet=accelerator.unwrap_model(unet), no autocast
prompt_embeds = torch.randn(1, 6, 24, dtype=weight_dtype)
latents = torch.randn(1, 16, 4, dtype=weight_dtype)
'''
CELL = '''
with torch.no_grad():
    noise_pred = unet(latents, prompt_embeds)
'''
EXPECT_ERROR = ("must have the same dtype", "to have the same dtype")
CULPRITS = ["unet.attn2.processor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "key = self.to_k_custom_diffusion(encoder_hidden_states)\n        value = self.to_v_custom_diffusion(encoder_hidden_states)",
    "key = self.to_k_custom_diffusion(encoder_hidden_states.to(self.to_k_custom_diffusion.weight.dtype)).to(attn.to_q.weight.dtype)\n        value = self.to_v_custom_diffusion(encoder_hidden_states.to(self.to_v_custom_diffusion.weight.dtype)).to(attn.to_q.weight.dtype)",
)
CLEAN = False
