"""ipex-llm `load_in_low_bit='bf16'` Llama: the fp32 causal mask upcasts the attention weights, and `native_sdp` multiplies them with bf16 values.

Source: https://github.com/intel/ipex-llm/pull/10609
"Fix dtype mismatch error when `load_in_low_bit='bf16'`", on CPU and GPU: "RuntimeError: expected m1 and m2
to have the same dtype, but got: float != c10::BFloat16". With the bf16 low-bit path only the linear
layers become `BF16Linear` (bf16 out), while the embedding and hence the causal attention mask stay
float32; in ipex-llm's `native_sdp` the scores `q @ k^T` (bf16) + mask (fp32) promote to fp32, and
`torch.matmul(attn_weights, value)` then meets the bf16 values. The merged fix casts the attention
weights to the value dtype after the softmax (`attn_weights = attn_weights.to(value.dtype)`).
Stand-ins: ipex-llm's `BF16Linear` and pre-fix `native_sdp`, a one-layer Llama whose attention forward
(ipex-llm's replacement) calls it, and the HF-style causal mask built in the embeddings' dtype.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

class BF16Linear(nn.Linear):
    def forward(self, x):
        return F.linear(x.to(torch.bfloat16), self.weight, self.bias)

def native_sdp(query, key, value, attention_mask, bsz, q_len, kv_seq_len, head_dim, num_heads):
    attn_weights = torch.matmul(query, key.transpose(2, 3)) / math.sqrt(head_dim)
    if attention_mask is not None:
        attn_weights = attn_weights + attention_mask
    attn_weights = nn.functional.softmax(attn_weights, dim=-1)
    attn_output = torch.matmul(attn_weights, value)
    return attn_output, attn_weights

class LlamaAttention(nn.Module):
    def __init__(self, hidden_size=64, num_heads=4):
        super().__init__()
        self.hidden_size, self.num_heads, self.head_dim = hidden_size, num_heads, hidden_size // num_heads
        self.q_proj = nn.Linear(hidden_size, hidden_size, bias=False)
        self.k_proj = nn.Linear(hidden_size, hidden_size, bias=False)
        self.v_proj = nn.Linear(hidden_size, hidden_size, bias=False)
        self.o_proj = nn.Linear(hidden_size, hidden_size, bias=False)

    def forward(self, hidden_states, attention_mask=None):   # ipex-llm llama_attention_forward
        bsz, q_len, _ = hidden_states.size()
        shape = (bsz, q_len, self.num_heads, self.head_dim)
        query_states = self.q_proj(hidden_states).view(shape).transpose(1, 2)
        key_states = self.k_proj(hidden_states).view(shape).transpose(1, 2)
        value_states = self.v_proj(hidden_states).view(shape).transpose(1, 2)
        attn_output, _ = native_sdp(query_states, key_states, value_states, attention_mask,
                                    bsz, q_len, q_len, self.head_dim, self.num_heads)
        attn_output = attn_output.transpose(1, 2).reshape(bsz, q_len, self.hidden_size)
        return self.o_proj(attn_output)

class LlamaForCausalLM(nn.Module):
    def __init__(self, vocab_size=128, hidden_size=64):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.self_attn = LlamaAttention(hidden_size)
        self.lm_head = nn.Linear(hidden_size, vocab_size, bias=False)

    def forward(self, input_ids):
        inputs_embeds = self.embed_tokens(input_ids)
        q_len = input_ids.shape[1]
        mask = torch.full((q_len, q_len), torch.finfo(inputs_embeds.dtype).min, dtype=inputs_embeds.dtype)
        causal_mask = torch.triu(mask, diagonal=1)[None, None]
        h = inputs_embeds + self.self_attn(inputs_embeds, attention_mask=causal_mask)
        return self.lm_head(h.to(self.lm_head.weight.dtype))

def convert_to_bf16_linear(model):   # optimize_model(..., low_bit="bf16"): linears only
    for name, child in model.named_children():
        if isinstance(child, nn.Linear):
            new = BF16Linear(child.in_features, child.out_features, bias=child.bias is not None,
                             dtype=torch.bfloat16)
            new.weight.data.copy_(child.weight.data)
            setattr(model, name, new)
        else:
            convert_to_bf16_linear(child)
    return model

model = LlamaForCausalLM().eval()                 # AutoModelForCausalLM.from_pretrained(..., load_in_low_bit="bf16")
model = convert_to_bf16_linear(model)
input_ids = torch.randint(0, 128, (1, 12))
'''
CELL = '''
with torch.inference_mode():
    logits = model(input_ids)
'''
EXPECT_ERROR = ("expected m1 and m2 to have the same dtype", "expected mat1 and mat2 to have the same dtype")
CULPRITS = ["native_sdp"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    attn_weights = nn.functional.softmax(attn_weights, dim=-1)\n",
                  "    attn_weights = nn.functional.softmax(attn_weights, dim=-1)\n"
                  "    attn_weights = attn_weights.to(value.dtype)\n")
CLEAN = False
