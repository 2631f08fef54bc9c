"""Switch Transformers loaded in bfloat16: the Top-1 router casts the hidden states to its float32 `router_dtype` but its classifier weights are bf16.

Source: https://github.com/huggingface/transformers/issues/45072
Running a SwitchTransformers checkpoint loaded with `dtype=torch.bfloat16` failed with a dtype mismatch in
the router: `SwitchTransformersTop1Router.forward` does `hidden_states = hidden_states.to(self.dtype)`
(`router_dtype="float32"`) and then `self.classifier(hidden_states)`, but the MoE refactor had dropped the
`_cast_classifier()` call, so the classifier stayed bf16 with the rest of the model. The merged fix
(PR #45074) casts the hidden states to `classifier.weight.dtype` before the linear call.
Stand-in: the router (jitter off, argmax one-hot, no capacity), DenseActDense experts and the SparseMLP
of a single T5-style feed-forward block; the model is cast with `.to(torch.bfloat16)` as
`from_pretrained(..., dtype=torch.bfloat16)` does.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

config = SimpleNamespace(d_model=32, d_ff=64, num_experts=4, expert_capacity=64, router_bias=False,
                         router_jitter_noise=0.0, router_ignore_padding_tokens=False, router_dtype="float32",
                         vocab_size=100)

class SwitchTransformersTop1Router(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_experts = config.num_experts
        self.expert_capacity = config.expert_capacity
        self.classifier = nn.Linear(config.d_model, self.num_experts, bias=config.router_bias)
        self.jitter_noise = config.router_jitter_noise
        self.dtype = getattr(torch, config.router_dtype)

    def forward(self, hidden_states):
        self.input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(self.dtype)
        router_logits = self.classifier(hidden_states)
        router_probs = nn.functional.softmax(router_logits, dim=-1, dtype=self.dtype).to(self.input_dtype)
        expert_index = torch.argmax(router_probs, dim=-1)
        expert_index = nn.functional.one_hot(expert_index, num_classes=self.num_experts)
        router_max_probs = torch.max(router_probs, dim=-1).values.unsqueeze(-1)
        return router_max_probs, expert_index, router_logits

class SwitchTransformersDenseActDense(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.wi = nn.Linear(config.d_model, config.d_ff, bias=False)
        self.wo = nn.Linear(config.d_ff, config.d_model, bias=False)
        self.act = nn.ReLU()

    def forward(self, hidden_states):
        return self.wo(self.act(self.wi(hidden_states)))

class SwitchTransformersSparseMLP(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.router = SwitchTransformersTop1Router(config)
        self.experts = nn.ModuleList([SwitchTransformersDenseActDense(config) for _ in range(config.num_experts)])

    def forward(self, hidden_states):
        router_probs, router_mask, router_logits = self.router(hidden_states)
        next_states = hidden_states.clone()
        for idx, expert in enumerate(self.experts):
            token_indices = router_mask[:, :, idx].bool()
            next_states[token_indices] = expert(hidden_states[token_indices]).to(next_states.dtype)
        return router_probs * next_states

class SwitchTransformersEncoderModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.shared = nn.Embedding(config.vocab_size, config.d_model)
        self.layer_norm = nn.LayerNorm(config.d_model)
        self.mlp = SwitchTransformersSparseMLP(config)

    def forward(self, input_ids):
        hidden_states = self.shared(input_ids)
        return hidden_states + self.mlp(self.layer_norm(hidden_states))

model = SwitchTransformersEncoderModel(config).to(torch.bfloat16)   # from_pretrained(..., dtype=torch.bfloat16)
model.eval()
input_ids = torch.randint(0, config.vocab_size, (2, 7))
'''
CELL = '''
with torch.no_grad():
    last_hidden_state = model(input_ids)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected m1 and m2 to have the same dtype",
                "expected scalar type")
CULPRITS = ["model.mlp.router"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("router_logits = self.classifier(hidden_states)",
                  "router_logits = self.classifier(hidden_states.to(self.classifier.weight.dtype))")
CLEAN = False
