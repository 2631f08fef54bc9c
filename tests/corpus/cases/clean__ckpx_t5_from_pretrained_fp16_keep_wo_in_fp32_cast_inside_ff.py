"""Look-alike: T5 loaded with `torch_dtype=torch.float16` keeps `wo` in fp32 (`_keep_in_fp32_modules`), and the feed-forward casts its input to `wo`'s dtype.

Source: https://github.com/huggingface/transformers/blob/main/src/transformers/models/t5/modeling_t5.py
`T5PreTrainedModel._keep_in_fp32_modules = ["wo"]`: `from_pretrained(..., torch_dtype=torch.float16)`
loads every weight in fp16 except the `wo` projections. `T5DenseActDense.forward` does
`if isinstance(self.wo.weight, torch.Tensor) and hidden_states.dtype != self.wo.weight.dtype and
self.wo.weight.dtype != torch.int8: hidden_states = hidden_states.to(self.wo.weight.dtype)`; the
residual add in `T5LayerFF` then promotes, and `T5LayerNorm` computes its variance in fp32 and casts
back to its half weight. fp16 and fp32 weights side by side on one GPU, by design: nothing to report.
Stand-ins: a one-block T5 encoder stack (self-attention left out) and a `from_pretrained` that casts
the freshly initialised weights the way the loader does (no download).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class T5LayerNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        if self.weight.dtype in [torch.float16, torch.bfloat16]:
            hidden_states = hidden_states.to(self.weight.dtype)
        return self.weight * hidden_states

class T5DenseActDense(nn.Module):
    def __init__(self, d_model=32, d_ff=64, dropout_rate=0.1):
        super().__init__()
        self.wi = nn.Linear(d_model, d_ff, bias=False)
        self.wo = nn.Linear(d_ff, d_model, bias=False)
        self.dropout = nn.Dropout(dropout_rate)
        self.act = nn.ReLU()

    def forward(self, hidden_states):
        hidden_states = self.wi(hidden_states)
        hidden_states = self.act(hidden_states)
        hidden_states = self.dropout(hidden_states)
        if (
            isinstance(self.wo.weight, torch.Tensor)
            and hidden_states.dtype != self.wo.weight.dtype
            and self.wo.weight.dtype != torch.int8
        ):
            hidden_states = hidden_states.to(self.wo.weight.dtype)
        hidden_states = self.wo(hidden_states)
        return hidden_states

class T5LayerFF(nn.Module):
    def __init__(self, d_model=32):
        super().__init__()
        self.DenseReluDense = T5DenseActDense(d_model)
        self.layer_norm = T5LayerNorm(d_model)
        self.dropout = nn.Dropout(0.1)

    def forward(self, hidden_states):
        forwarded_states = self.layer_norm(hidden_states)
        forwarded_states = self.DenseReluDense(forwarded_states)
        hidden_states = hidden_states + self.dropout(forwarded_states)
        return hidden_states

class T5EncoderModel(nn.Module):
    _keep_in_fp32_modules = ["wo"]

    def __init__(self, vocab_size=100, d_model=32):
        super().__init__()
        self.shared = nn.Embedding(vocab_size, d_model)
        self.block = nn.ModuleList([T5LayerFF(d_model)])
        self.final_layer_norm = T5LayerNorm(d_model)

    def forward(self, input_ids):
        hidden_states = self.shared(input_ids)
        for layer in self.block:
            hidden_states = layer(hidden_states)
        return self.final_layer_norm(hidden_states)

    @classmethod
    def from_pretrained(cls, name, torch_dtype=None):
        """PreTrainedModel.from_pretrained, reduced to its dtype handling."""
        model = cls()
        if torch_dtype is not None:
            model.to(torch_dtype)
            for name_, module in model.named_modules():
                if any(k in name_.split(".") for k in cls._keep_in_fp32_modules):
                    module.to(torch.float32)
        return model.eval()

model = T5EncoderModel.from_pretrained("google/t5-v1_1-small", torch_dtype=torch.float16).to("cuda:0")
input_ids = torch.randint(0, 100, (2, 12)).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    last_hidden_state = model(input_ids=input_ids)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
