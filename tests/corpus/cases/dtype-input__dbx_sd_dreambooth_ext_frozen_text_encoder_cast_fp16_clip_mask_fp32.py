"""sd_dreambooth_extension DreamBooth with fp16 and a frozen text encoder: the encoder is cast to half and CLIP's fp32 causal mask meets it.

Source: https://github.com/d8ahazard/sd_dreambooth_extension/pull/70
"RuntimeError: expected scalar type Half but found Float" occurred with fp16 mixed precision and the text
encoder not trained (reported in #37 with "Don't cache latents" checked). `train_dreambooth.py` cast the
frozen encoder with `text_encoder.to(accelerator.device, dtype=weight_dtype)` and then ran it outside
accelerate's autocast (`encode_hidden_state(text_encoder, batch["input_ids"])`). The merged fix keeps the
encoder in full precision: `text_encoder.to(accelerator.device)`. The half encoder breaks because the
CLIP text transformer of that time builds its causal attention mask with `torch.empty(bsz, seq_len, seq_len)`
(float32), so the attention probabilities are promoted to float32 and meet the half value states in `bmm`.
Stand-ins: transformers' CLIPTextModel of late 2022 (embeddings, one encoder layer with the float32 causal
mask, final layer norm), an Accelerator with only `device`, and the script's args; the loop is cut to the
text-conditioning step. On the CPU PyTorch words the error "expected scalar type Float but found Half".
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn as nn

class CLIPTextEmbeddings(nn.Module):
    def __init__(self, vocab=100, dim=32, max_pos=8):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab, dim)
        self.position_embedding = nn.Embedding(max_pos, dim)
        self.register_buffer("position_ids", torch.arange(max_pos).expand((1, -1)))
    def forward(self, input_ids):
        seq_length = input_ids.shape[-1]
        position_ids = self.position_ids[:, :seq_length]
        return self.token_embedding(input_ids) + self.position_embedding(position_ids)

class CLIPAttention(nn.Module):
    def __init__(self, dim=32, num_heads=4):
        super().__init__()
        self.num_heads, self.head_dim = num_heads, dim // num_heads
        self.scale = self.head_dim ** -0.5
        self.k_proj, self.v_proj = nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.q_proj, self.out_proj = nn.Linear(dim, dim), nn.Linear(dim, dim)
    def _shape(self, tensor, seq_len, bsz):
        return tensor.view(bsz, seq_len, self.num_heads, self.head_dim).transpose(1, 2).contiguous()
    def forward(self, hidden_states, causal_attention_mask=None):
        bsz, tgt_len, embed_dim = hidden_states.size()
        query_states = self.q_proj(hidden_states) * self.scale
        key_states = self._shape(self.k_proj(hidden_states), -1, bsz)
        value_states = self._shape(self.v_proj(hidden_states), -1, bsz)
        proj_shape = (bsz * self.num_heads, -1, self.head_dim)
        query_states = self._shape(query_states, tgt_len, bsz).view(*proj_shape)
        key_states = key_states.view(*proj_shape)
        value_states = value_states.view(*proj_shape)
        src_len = key_states.size(1)
        attn_weights = torch.bmm(query_states, key_states.transpose(1, 2))
        if causal_attention_mask is not None:
            attn_weights = attn_weights.view(bsz, self.num_heads, tgt_len, src_len) + causal_attention_mask
            attn_weights = attn_weights.view(bsz * self.num_heads, tgt_len, src_len)
        attn_weights = nn.functional.softmax(attn_weights, dim=-1)
        attn_output = torch.bmm(attn_weights, value_states)
        attn_output = attn_output.view(bsz, self.num_heads, tgt_len, self.head_dim).transpose(1, 2)
        return self.out_proj(attn_output.reshape(bsz, tgt_len, embed_dim))

class CLIPEncoderLayer(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.self_attn = CLIPAttention(dim)
        self.layer_norm1, self.layer_norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
    def forward(self, hidden_states, causal_attention_mask):
        hidden_states = hidden_states + self.self_attn(self.layer_norm1(hidden_states), causal_attention_mask)
        return hidden_states + self.mlp(self.layer_norm2(hidden_states))

class CLIPTextTransformer(nn.Module):               # transformers ~4.24 (stand-in)
    def __init__(self, dim=32):
        super().__init__()
        self.embeddings = CLIPTextEmbeddings(dim=dim)
        self.layers = nn.ModuleList([CLIPEncoderLayer(dim)])
        self.final_layer_norm = nn.LayerNorm(dim)
    def forward(self, input_ids):
        bsz, seq_len = input_ids.size()
        hidden_states = self.embeddings(input_ids)
        causal_attention_mask = self._build_causal_attention_mask(bsz, seq_len).to(hidden_states.device)
        for layer in self.layers:
            hidden_states = layer(hidden_states, causal_attention_mask)
        return (self.final_layer_norm(hidden_states),)
    def _build_causal_attention_mask(self, bsz, seq_len):
        mask = torch.empty(bsz, seq_len, seq_len)
        mask.fill_(torch.tensor(float("-inf")))
        mask.triu_(1)
        mask = mask.unsqueeze(1)
        return mask

class CLIPTextModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.text_model = CLIPTextTransformer()
    @classmethod
    def from_pretrained(cls, path, subfolder=None):
        return cls()
    def forward(self, input_ids):
        return self.text_model(input_ids)

shared = SimpleNamespace(opts=SimpleNamespace(CLIP_stop_at_last_layers=1))

def encode_hidden_state(text_encoder, input_ids):
    clip_skip = shared.opts.CLIP_stop_at_last_layers
    if clip_skip <= 1:
        return text_encoder(input_ids)[0]
    enc_out = text_encoder(input_ids, output_hidden_states=True, return_dict=True)
    return text_encoder.text_model.final_layer_norm(enc_out["hidden_states"][-clip_skip])

args = SimpleNamespace(mixed_precision="fp16", train_text_encoder=False, not_cache_latents=True,
                       working_dir="models/dreambooth/my_model/working")
accelerator = SimpleNamespace(device=torch.device("cpu"))
text_encoder = CLIPTextModel.from_pretrained(args.working_dir, subfolder="text_encoder")
if not args.train_text_encoder:
    text_encoder.requires_grad_(False)

weight_dtype = torch.float32
if args.mixed_precision == "fp16":
    weight_dtype = torch.float16
elif args.mixed_precision == "bf16":
    weight_dtype = torch.bfloat16

if not args.train_text_encoder:
    text_encoder.to(accelerator.device, dtype=weight_dtype)

batch = {"input_ids": torch.randint(0, 100, (2, 8))}
'''
CELL = '''
with torch.no_grad():
    encoder_hidden_states = encode_hidden_state(text_encoder, batch["input_ids"])
'''
EXPECT_ERROR = ("expected scalar type", "same dtype")
CULPRITS = ["text_encoder"]
FIX = "namespace"
REFERENCE_FIX = '''
text_encoder.to(accelerator.device, dtype=torch.float32)   # the merged fix: keep the frozen encoder in fp32
'''
REFERENCE_EDIT = None
CLEAN = False
