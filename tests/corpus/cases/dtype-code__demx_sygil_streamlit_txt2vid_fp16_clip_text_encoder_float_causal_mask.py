"""Sygil (hlky) Streamlit WebUI txt2vid: the diffusers pipeline is loaded with `torch_dtype=torch.float16`, and the CLIP text encoder of the time builds a float32 causal mask.

Source: https://github.com/Sygil-Dev/sygil-webui/issues/1047
"Streamlit txt2vid fails with RuntimeError: expected scalar type Half but found Float" at
`cond_embeddings = st.session_state["pipe"].text_encoder(text_input.input_ids.to(torch_device))[0]`, inside
transformers' `modeling_clip.py`. The fix merged the next day (commit 92b3159, "half precision streamlit txt2vid:
`RuntimeError: expected scalar type Half but found Float` with both `torch_dtype=torch.float16` and
`revision="fp16"`") comments out `torch_dtype=torch.float16 if not defaults.general.no_half else None` in
`StableDiffusionPipeline.from_pretrained`, so the text encoder stays float32. In transformers 4.21,
`CLIPTextTransformer._build_causal_attention_mask(bsz, seq_len)` makes the mask with `torch.empty(...)`
(float32); added to the half attention scores it promotes them to float32, and `torch.bmm(attn_probs,
value_states)` then meets the half values. Stand-ins: CLIPTextModel (one layer, as in 4.21),
StableDiffusionPipeline.from_pretrained reduced to the text encoder and a tokenizer, `st` (streamlit) reduced to
`session_state`; half CLIP kernels run on the CPU here (torch_device = "cpu"), where the bmm message reads
"expected m1 and m2 to have the same dtype, but got: float != c10::Half".
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import types
import torch
import torch.nn as nn

st = types.SimpleNamespace(session_state={})          # streamlit, reduced
defaults = types.SimpleNamespace(general=types.SimpleNamespace(no_half=False, gpu=0))

class CLIPAttention(nn.Module):
    def __init__(self, embed_dim=32, num_heads=4):
        super().__init__()
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.scale = self.head_dim ** -0.5
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

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
        attn_output = attn_output.reshape(bsz, tgt_len, embed_dim)
        return self.out_proj(attn_output)

class CLIPEncoderLayer(nn.Module):
    def __init__(self, embed_dim=32):
        super().__init__()
        self.self_attn = CLIPAttention(embed_dim)
        self.layer_norm1 = nn.LayerNorm(embed_dim)
        self.mlp = nn.Sequential(nn.Linear(embed_dim, 4 * embed_dim), nn.GELU(), nn.Linear(4 * embed_dim, embed_dim))
        self.layer_norm2 = nn.LayerNorm(embed_dim)
    def forward(self, hidden_states, causal_attention_mask):
        residual = hidden_states
        hidden_states = self.self_attn(self.layer_norm1(hidden_states), causal_attention_mask)
        hidden_states = residual + hidden_states
        return hidden_states + self.mlp(self.layer_norm2(hidden_states))

class CLIPTextTransformer(nn.Module):
    """transformers 4.21 modeling_clip.CLIPTextTransformer, reduced to one layer."""
    def __init__(self, vocab_size=100, embed_dim=32, max_position_embeddings=77):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab_size, embed_dim)
        self.position_embedding = nn.Embedding(max_position_embeddings, embed_dim)
        self.register_buffer("position_ids", torch.arange(max_position_embeddings).expand((1, -1)))
        self.layers = nn.ModuleList([CLIPEncoderLayer(embed_dim)])
        self.final_layer_norm = nn.LayerNorm(embed_dim)

    def forward(self, input_ids):
        bsz, seq_len = input_ids.size()
        position_ids = self.position_ids[:, :seq_len]
        hidden_states = self.token_embedding(input_ids) + self.position_embedding(position_ids)
        causal_attention_mask = self._build_causal_attention_mask(bsz, seq_len).to(hidden_states.device)
        for layer in self.layers:
            hidden_states = layer(hidden_states, causal_attention_mask)
        return self.final_layer_norm(hidden_states)

    def _build_causal_attention_mask(self, bsz, seq_len):
        # lazily create causal attention mask, with full attention between the vision tokens
        mask = torch.empty(bsz, seq_len, seq_len)
        mask.fill_(torch.tensor(float("-inf")))
        mask.triu_(1)  # zero out the lower diagonal
        mask = mask.unsqueeze(1)  # expand mask
        return mask

class CLIPTextModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.text_model = CLIPTextTransformer()
    def forward(self, input_ids):
        return (self.text_model(input_ids),)

class CLIPTokenizer:
    model_max_length = 77
    def __call__(self, prompts, padding="max_length", max_length=77, truncation=True, return_tensors="pt"):
        ids = torch.zeros(len(prompts), max_length, dtype=torch.long)
        for i, p in enumerate(prompts):
            toks = [49406 % 100] + [hash(w) % 100 for w in p.split()][: max_length - 2] + [49407 % 100]
            ids[i, : len(toks)] = torch.tensor(toks)
        return types.SimpleNamespace(input_ids=ids)

class StableDiffusionPipeline:
    """diffusers 0.3 StableDiffusionPipeline, reduced to its text side."""
    def __init__(self, text_encoder, tokenizer):
        self.text_encoder = text_encoder
        self.tokenizer = tokenizer
    @classmethod
    def from_pretrained(cls, weights_path, use_local_file=True, use_auth_token=True, torch_dtype=None, revision=None):
        text_encoder = CLIPTextModel()
        if torch_dtype is not None:
            text_encoder = text_encoder.to(torch_dtype)
        return cls(text_encoder, CLIPTokenizer())

torch_device = "cpu"
weights_path = "CompVis/stable-diffusion-v1-4"
st.session_state["weights_path"] = weights_path
st.session_state["pipe"] = StableDiffusionPipeline.from_pretrained(
                weights_path,
                use_local_file=True,
                use_auth_token=True,
                torch_dtype=torch.float16 if not defaults.general.no_half else None,
                revision="fp16" if not defaults.general.no_half else None
        )
st.session_state["pipe"].text_encoder.to(torch_device)
prompts = ["blueberry spaghetti", "strawberry spaghetti"]
'''
CELL = '''
with torch.no_grad():
    # get the conditional text embeddings based on the prompt
    text_input = st.session_state["pipe"].tokenizer(prompts, padding="max_length", max_length=st.session_state["pipe"].tokenizer.model_max_length, truncation=True, return_tensors="pt")
    cond_embeddings = st.session_state["pipe"].text_encoder(text_input.input_ids.to(torch_device))[0] # shape [1, 77, 768]
'''
EXPECT_ERROR = ("expected scalar type Half but found Float", "expected scalar type Float but found Half",
                "expected m1 and m2 to have the same dtype")
CULPRITS = ["st.session_state['pipe'].text_encoder"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "                torch_dtype=torch.float16 if not defaults.general.no_half else None,\n",
    "                #torch_dtype=torch.float16 if not defaults.general.no_half else None,\n",
)
CLEAN = False
