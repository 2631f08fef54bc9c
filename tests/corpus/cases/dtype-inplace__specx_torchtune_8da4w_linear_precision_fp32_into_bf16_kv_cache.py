"""torchtune generation with an 8da4w-quantized Llama in bf16: the quantized k/v projections still compute in float32 and write into the bf16 KV cache.

Source: https://github.com/meta-pytorch/torchtune/issues/1349
Running the generate recipe on a Llama 3.1 8B quantized with `Int8DynActInt4WeightQuantizer`
(`dtype: bf16`, `enable_kv_cache: true`) failed in `KVCache.update` at `k_out[:, :, input_pos] = k_val`
with "Index put requires the source and destination dtypes match, got BFloat16 for the destination
and Float for the source". The reporter found the cause: the linear layers are replaced by torchao's
`Int8DynActInt4WeightLinear`, whose `precision` argument (default float32) decides the dtype of the
computation and is not touched by `model.to(dtype)` (`model.layers[0].attn.q_proj.precision` ->
`torch.float32`), so k/v come out float32 while the cache buffers are bf16. The fix is to make the
quantized linears compute in the model dtype.
Stand-ins: torchao's `Int8DynActInt4WeightLinear` (group-wise dequantize in `self.precision`, no
activation fake-quant) and torchtune's `KVCache` / self-attention with one layer.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class Int8DynActInt4WeightLinear(nn.Module):
    def __init__(self, in_features, out_features, bias=False, groupsize=32,
                 precision=torch.float32, scales_precision=torch.float32):
        super().__init__()
        self.in_features, self.out_features, self.groupsize = in_features, out_features, groupsize
        self.precision = precision
        self.register_buffer("weight", torch.randint(-8, 8, (out_features, in_features), dtype=torch.int8))
        self.register_buffer("scales", torch.rand(out_features, in_features // groupsize, dtype=scales_precision) / 50)
        self.register_buffer("zeros", torch.zeros(out_features, in_features // groupsize, dtype=scales_precision))

    def forward(self, input):
        input = input.to(self.precision)
        scales = self.scales.repeat_interleave(self.groupsize, dim=1)
        zeros = self.zeros.repeat_interleave(self.groupsize, dim=1)
        w_dq = ((self.weight.to(self.precision) - zeros.to(self.precision)) * scales.to(self.precision))
        return F.linear(input, w_dq)

class KVCache(nn.Module):
    def __init__(self, batch_size, max_seq_len, num_heads, head_dim, dtype):
        super().__init__()
        cache_shape = (batch_size, num_heads, max_seq_len, head_dim)
        self.register_buffer("k_cache", torch.zeros(cache_shape, dtype=dtype), persistent=False)
        self.register_buffer("v_cache", torch.zeros(cache_shape, dtype=dtype), persistent=False)

    def update(self, input_pos, k_val, v_val):
        k_out = self.k_cache
        v_out = self.v_cache
        k_out[:, :, input_pos] = k_val
        v_out[:, :, input_pos] = v_val
        return k_out, v_out

class CausalSelfAttention(nn.Module):
    def __init__(self, embed_dim=64, num_heads=4, max_seq_len=32):
        super().__init__()
        self.num_heads, self.head_dim = num_heads, embed_dim // num_heads
        self.q_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.k_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.v_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.output_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.kv_cache = None

    def forward(self, x, input_pos):
        b, s, _ = x.shape
        q = self.q_proj(x).view(b, s, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(b, s, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(b, s, self.num_heads, self.head_dim).transpose(1, 2)
        if self.kv_cache is not None:
            k, v = self.kv_cache.update(input_pos, k, v)
        out = F.scaled_dot_product_attention(q, k[:, :, : s], v[:, :, : s], is_causal=True)
        return self.output_proj(out.transpose(1, 2).reshape(b, s, -1))

class TransformerSelfAttentionLayer(nn.Module):
    def __init__(self, embed_dim=64):
        super().__init__()
        self.attn = CausalSelfAttention(embed_dim)

    def forward(self, x, input_pos):
        return x + self.attn(x, input_pos)

class TransformerDecoder(nn.Module):
    def __init__(self, vocab_size=128, embed_dim=64, num_layers=1, max_seq_len=32):
        super().__init__()
        self.max_seq_len = max_seq_len
        self.tok_embeddings = nn.Embedding(vocab_size, embed_dim)
        self.layers = nn.ModuleList([TransformerSelfAttentionLayer(embed_dim) for _ in range(num_layers)])
        self.output = nn.Linear(embed_dim, vocab_size, bias=False)

    def setup_caches(self, batch_size, dtype):
        for layer in self.layers:
            attn = layer.attn
            attn.kv_cache = KVCache(batch_size, self.max_seq_len, attn.num_heads, attn.head_dim, dtype)

    def forward(self, tokens, input_pos):
        h = self.tok_embeddings(tokens)
        for layer in self.layers:
            h = layer(h, input_pos)
        return self.output(h.to(self.output.weight.dtype))

class Int8DynActInt4WeightQuantizer:
    def __init__(self, groupsize=32, precision=torch.float32, scales_precision=torch.float32):
        self.groupsize, self.precision, self.scales_precision = groupsize, precision, scales_precision

    def quantize(self, model):
        for layer in model.layers:
            for name in ("q_proj", "k_proj", "v_proj", "output_proj"):
                lin = getattr(layer.attn, name)
                setattr(layer.attn, name, Int8DynActInt4WeightLinear(
                    lin.in_features, lin.out_features, groupsize=self.groupsize,
                    precision=self.precision, scales_precision=self.scales_precision))
        return model

# recipes/generate.py _setup_model: build, quantize, load the 8da4w checkpoint, cast to cfg.dtype
dtype = torch.bfloat16
model = TransformerDecoder()
quantizer = Int8DynActInt4WeightQuantizer(groupsize=32)
model = quantizer.quantize(model)
model = model.to(dtype=dtype)
model.setup_caches(batch_size=1, dtype=dtype)
prompt = torch.randint(0, 128, (1, 8))
input_pos = torch.arange(0, 8)
'''
CELL = '''
with torch.no_grad():
    logits = model(prompt, input_pos=input_pos)
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["model.layers[0].attn.k_proj"]
FIX = "namespace"
REFERENCE_FIX = '''
for m in model.modules():
    if isinstance(m, Int8DynActInt4WeightLinear):
        m.precision = dtype
'''
REFERENCE_EDIT = None
CLEAN = False
