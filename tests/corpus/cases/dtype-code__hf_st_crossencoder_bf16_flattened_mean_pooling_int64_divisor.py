"""sentence-transformers CrossEncoder in bfloat16 with flash-attention: mean pooling's int64 length divisor upcasts the pooled vector to float32.

Source: https://github.com/huggingface/sentence-transformers/pull/3751
Loading a CrossEncoder with `model_kwargs={"attn_implementation": "flash_attention_2", "dtype": "bfloat16"}`
crashed in the scoring Dense head with "expected mat1 and mat2 to have the same dtype, but got: float != BFloat16".
The Transformer module emits flattened tokens with `cu_seq_lens_q`, and `Pooling._forward_flattened` divides the
bf16 sum by `torch.clamp(effective_lengths, min=1e-9)`: an int64 tensor clamped with a float bound becomes
float32, so bf16 / float32 gives a float32 sentence embedding. The fix casts the divisor to `mean_sum.dtype`.
Stand-ins: the Transformer (flattened output), Pooling (flattened mean path) and Dense modules, tiny sizes.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

class Transformer(nn.Module):
    def __init__(self, vocab_size=1000, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.layer = nn.Linear(hidden, hidden)

    def forward(self, features):
        mask = features["attention_mask"].bool()
        lengths = features["attention_mask"].sum(dim=1)
        tokens = features["input_ids"][mask]                       # flash-attention varlen: padding removed
        features["token_embeddings"] = torch.tanh(self.layer(self.embed(tokens)))
        features["cu_seq_lens_q"] = torch.cat([lengths.new_zeros(1), lengths.cumsum(0)]).to(torch.int32)
        return features

class Pooling(nn.Module):
    def __init__(self, pooling_mode="mean"):
        super().__init__()
        self.pooling_mode = pooling_mode

    def forward(self, features):
        if "cu_seq_lens_q" in features:
            return self._forward_flattened(features)
        raise NotImplementedError

    def _forward_flattened(self, features):
        embeddings = features["token_embeddings"]
        cu_seq_lens = features["cu_seq_lens_q"]
        num_seqs, hidden_dim, device = cu_seq_lens.numel() - 1, embeddings.size(-1), embeddings.device
        effective_lengths = (cu_seq_lens[1:] - cu_seq_lens[:-1]).long()
        seq_ids = torch.repeat_interleave(torch.arange(num_seqs, device=device), effective_lengths)
        mean_sum = torch.zeros(num_seqs, hidden_dim, device=device, dtype=embeddings.dtype)
        mean_sum.index_add_(0, seq_ids, embeddings)
        features["sentence_embedding"] = mean_sum / torch.clamp(effective_lengths.unsqueeze(-1), min=1e-9)
        return features

class Dense(nn.Module):
    def __init__(self, in_features=32, out_features=1):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
    def forward(self, features):
        features["scores"] = self.linear(features["sentence_embedding"])
        return features

class CrossEncoder(nn.Module):
    def __init__(self, model_name_or_path, model_kwargs=None):
        super().__init__()
        self.transformer, self.pooling, self.dense = Transformer(), Pooling("mean"), Dense()
        self.to((model_kwargs or {}).get("dtype", torch.float32))

    def predict(self, features):
        return self.dense(self.pooling(self.transformer(features)))["scores"]

model = CrossEncoder("cross-encoder/ms-marco-MiniLM-L6-v2",
                     model_kwargs={"attn_implementation": "flash_attention_2", "dtype": torch.bfloat16})
features = {"input_ids": torch.randint(1, 1000, (3, 12)),
            "attention_mask": torch.tensor([[1] * 12, [1] * 7 + [0] * 5, [1] * 9 + [0] * 3])}
'''
CELL = '''
scores = model.predict(features)
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["model.pooling"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.clamp(effective_lengths.unsqueeze(-1), min=1e-9)",
                  "torch.clamp(effective_lengths.unsqueeze(-1), min=1e-9).to(mean_sum.dtype)")
CLEAN = False
