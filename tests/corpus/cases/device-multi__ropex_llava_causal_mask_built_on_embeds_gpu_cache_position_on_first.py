"""A VLM split over two GPUs: the 4D causal mask is built on the text embeddings' GPU while `cache_position` stays on the first one.

Source: https://github.com/huggingface/transformers/pull/37612
"[causal mask] fix preparation with multi-gpu" (fixes issue #37606): the failure "happens when
`cache_position` and `inputs_embeds` are in different devices", which only affects multimodal
models "when multimodal encoder size is big and is allocated to the first device, so
`embed_tokens` gets allocated to the next device"; it is "triggered whenever a batched input is
used, where `causal_mask` has to be built instead of being `None`". `generate` creates
`cache_position` on the device of `input_ids` (cuda:0) while `_update_causal_mask` builds the mask
on `inputs_embeds.device` (cuda:1) and compares it with `cache_position`. The fix builds the mask
on `cache_position.device`. Stand-in: a Llava-shaped model (vision tower + projector on cuda:0,
Llama text model on cuda:1) with Llama's `_update_causal_mask` /
`_prepare_4d_causal_attention_mask_with_cache_position` of that time, SDPA attention, accelerate's
device-map hooks as forward pre-hooks moving a module's inputs to its device, and
`generate`'s first step (`_get_initial_cache_position` on `input_ids.device`).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

def _move(x, device):
    return x.to(device) if isinstance(x, torch.Tensor) else x

def add_hook_to_module(module):                      # accelerate's AlignDevicesHook, io moves only
    def pre_hook(mod, args, kwargs):
        device = next(mod.parameters()).device
        return tuple(_move(a, device) for a in args), {k: _move(v, device) for k, v in kwargs.items()}
    module.register_forward_pre_hook(pre_hook, with_kwargs=True)

class LlamaDecoderLayer(nn.Module):
    def __init__(self, hidden=32, heads=4):
        super().__init__()
        self.heads = heads
        self.input_layernorm = nn.LayerNorm(hidden)
        self.qkv = nn.Linear(hidden, 3 * hidden, bias=False)
        self.o_proj = nn.Linear(hidden, hidden, bias=False)

    def forward(self, hidden_states, attention_mask=None):
        b, n, d = hidden_states.shape
        q, k, v = self.qkv(self.input_layernorm(hidden_states)).chunk(3, dim=-1)
        q, k, v = (t.view(b, n, self.heads, d // self.heads).transpose(1, 2) for t in (q, k, v))
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=attention_mask)
        return hidden_states + self.o_proj(out.transpose(1, 2).reshape(b, n, d))

class LlamaModel(nn.Module):
    def __init__(self, vocab=100, hidden=32, n_layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.layers = nn.ModuleList([LlamaDecoderLayer(hidden) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(hidden)

    def forward(self, inputs_embeds, attention_mask=None, cache_position=None):
        if cache_position is None:
            cache_position = torch.arange(inputs_embeds.shape[1], device=inputs_embeds.device)
        causal_mask = self._update_causal_mask(attention_mask, inputs_embeds, cache_position)
        hidden_states = inputs_embeds
        for decoder_layer in self.layers:
            hidden_states = decoder_layer(hidden_states, attention_mask=causal_mask)
        return self.norm(hidden_states)

    def _update_causal_mask(self, attention_mask, input_tensor, cache_position):
        if attention_mask is None:
            return None                              # SDPA's is_causal path
        dtype, device = input_tensor.dtype, input_tensor.device
        sequence_length = input_tensor.shape[1]
        target_length = attention_mask.shape[-1]
        causal_mask = self._prepare_4d_causal_attention_mask_with_cache_position(
            attention_mask, sequence_length=sequence_length, target_length=target_length,
            dtype=dtype, device=device, cache_position=cache_position,
            batch_size=input_tensor.shape[0])
        return causal_mask

    @staticmethod
    def _prepare_4d_causal_attention_mask_with_cache_position(attention_mask, sequence_length,
                                                              target_length, dtype, device,
                                                              cache_position, batch_size):
        min_dtype = torch.finfo(dtype).min
        causal_mask = torch.full((sequence_length, target_length), fill_value=min_dtype,
                                 dtype=dtype, device=device)
        if sequence_length != 1:
            causal_mask = torch.triu(causal_mask, diagonal=1)
        causal_mask *= torch.arange(target_length, device=device) > cache_position.reshape(-1, 1)
        causal_mask = causal_mask[None, None, :, :].expand(batch_size, 1, -1, -1)
        padding_mask = attention_mask[:, None, None, :].to(causal_mask.device) == 0
        causal_mask = causal_mask.masked_fill(padding_mask, min_dtype)
        return causal_mask

class LlamaForCausalLM(nn.Module):
    def __init__(self, vocab=100, hidden=32):
        super().__init__()
        self.model = LlamaModel(vocab, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    def forward(self, inputs_embeds, attention_mask=None, cache_position=None):
        hidden_states = self.model(inputs_embeds, attention_mask=attention_mask,
                                   cache_position=cache_position)
        return self.lm_head(hidden_states)

class LlavaForConditionalGeneration(nn.Module):
    def __init__(self, vocab=100, hidden=32, vision_hidden=48, image_token_index=99):
        super().__init__()
        self.image_token_index = image_token_index
        self.vision_tower = nn.Sequential(nn.Flatten(2), nn.Linear(16, vision_hidden))
        self.multi_modal_projector = nn.Linear(vision_hidden, hidden)
        self.language_model = LlamaForCausalLM(vocab, hidden)

    def forward(self, input_ids, pixel_values, attention_mask=None, cache_position=None):
        inputs_embeds = self.language_model.model.embed_tokens(input_ids)
        image_features = self.multi_modal_projector(self.vision_tower(pixel_values))   # (b, 1, hidden)
        special_image_mask = (input_ids == self.image_token_index).unsqueeze(-1).to(inputs_embeds.device)
        inputs_embeds = torch.where(special_image_mask, image_features.to(inputs_embeds.device), inputs_embeds)
        return self.language_model(inputs_embeds, attention_mask=attention_mask,
                                   cache_position=cache_position)

    @torch.no_grad()
    def generate(self, input_ids, pixel_values, attention_mask=None, max_new_tokens=1):
        cache_position = torch.arange(input_ids.shape[1], device=input_ids.device)   # _get_initial_cache_position
        logits = self(input_ids, pixel_values, attention_mask=attention_mask, cache_position=cache_position)
        return logits.argmax(-1)

model = LlavaForConditionalGeneration()
model.eval()
# device_map="auto": the big vision tower fills cuda:0, the text model goes to cuda:1
model.vision_tower.to("cuda:0"); model.multi_modal_projector.to("cuda:0")
model.language_model.to("cuda:1")
for m in (model.vision_tower, model.multi_modal_projector, model.language_model.model.embed_tokens,
          *model.language_model.model.layers, model.language_model.model.norm, model.language_model.lm_head):
    add_hook_to_module(m)

# processor(images=[img1, img2], text=[prompt1, prompt2], padding=True).to("cuda:0")
inputs = {
    "input_ids": torch.cat([torch.full((2, 1), 99), torch.randint(0, 99, (2, 5))], dim=1).to("cuda:0"),
    "attention_mask": torch.tensor([[1, 1, 1, 1, 1, 1], [0, 0, 1, 1, 1, 1]]).to("cuda:0"),
    "pixel_values": torch.randn(2, 1, 4, 4).to("cuda:0"),
}
'''
CELL = '''
with torch.no_grad():
    output_ids = model.generate(**inputs, max_new_tokens=1)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.language_model.model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("dtype, device = input_tensor.dtype, input_tensor.device",
                  "dtype, device = input_tensor.dtype, cache_position.device")
CLEAN = False
