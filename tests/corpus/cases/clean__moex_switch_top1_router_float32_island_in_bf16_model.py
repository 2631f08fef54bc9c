"""Look-alike: a bfloat16 Switch Transformers model whose Top-1 router runs in float32 on purpose (`router_dtype="float32"`).

Source: https://github.com/huggingface/transformers/blob/v4.40.0/src/transformers/models/switch_transformers/modeling_switch_transformers.py
`SwitchTransformersTop1Router.forward` records `self.input_dtype`, casts the hidden states to
`self.dtype` (float32), calls `self._cast_classifier()` so the classifier follows, computes the softmax in
float32 and casts the probabilities back with `.to(self.input_dtype)`; the SparseMLP writes the experts'
outputs back with `.to(next_states.dtype)`. A float32 router inside a bf16 model, every boundary cast.
Stand-in: router without jitter and capacity, DenseActDense experts, one T5-style feed-forward block.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

config = SimpleNamespace(d_model=32, d_ff=64, num_experts=4, router_bias=False, router_dtype="float32", vocab_size=100)

class SwitchTransformersTop1Router(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_experts = config.num_experts
        self.classifier = nn.Linear(config.d_model, self.num_experts, bias=config.router_bias)
        self.dtype = getattr(torch, config.router_dtype)

    def _cast_classifier(self):
        if not (hasattr(self.classifier, "SCB") or hasattr(self.classifier, "CB")):
            self.classifier = self.classifier.to(self.dtype)

    def _compute_router_probabilities(self, hidden_states):
        self.input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(self.dtype)
        self._cast_classifier()
        router_logits = self.classifier(hidden_states)
        router_probabilities = nn.functional.softmax(router_logits, dim=-1, dtype=self.dtype).to(self.input_dtype)
        return router_probabilities, router_logits

    def forward(self, hidden_states):
        router_probs, router_logits = self._compute_router_probabilities(hidden_states)
        expert_index = torch.argmax(router_probs, dim=-1)
        expert_index = nn.functional.one_hot(expert_index, num_classes=self.num_experts)
        router_probs = torch.max(router_probs, dim=-1).values.unsqueeze(-1)
        return expert_index, router_probs, router_logits

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
        self.experts = nn.ModuleDict({f"expert_{i}": SwitchTransformersDenseActDense(config) for i in range(config.num_experts)})

    def forward(self, hidden_states):
        router_mask, router_probs, router_logits = self.router(hidden_states)
        expert_index = torch.argmax(router_mask, dim=-1)
        next_states = hidden_states.clone()
        for idx, expert in enumerate(self.experts.values()):
            token_indices = router_mask[:, :, idx].bool()
            next_states[token_indices] = expert(hidden_states[token_indices]).to(next_states.dtype)
        hidden_states = router_probs * next_states
        return hidden_states, (router_logits, expert_index)

class SwitchTransformersEncoderModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.shared = nn.Embedding(config.vocab_size, config.d_model)
        self.layer_norm = nn.LayerNorm(config.d_model)
        self.mlp = SwitchTransformersSparseMLP(config)

    def forward(self, input_ids):
        hidden_states = self.shared(input_ids)
        out, (router_logits, expert_index) = self.mlp(self.layer_norm(hidden_states))
        return hidden_states + out, router_logits

model = SwitchTransformersEncoderModel(config).to(torch.bfloat16)   # from_pretrained(..., torch_dtype=torch.bfloat16)
model.eval()
input_ids = torch.randint(0, config.vocab_size, (2, 7))
'''
CELL = '''
with torch.no_grad():
    last_hidden_state, router_logits = model(input_ids)
print(last_hidden_state.dtype, router_logits.dtype, model.mlp.router.classifier.weight.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
