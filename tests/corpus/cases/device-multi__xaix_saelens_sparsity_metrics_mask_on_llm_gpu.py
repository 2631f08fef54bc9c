"""SAELens sparsity/density evals with the LLM and the SAE on different GPUs: the token mask stays on the LLM's GPU.

Source: https://github.com/decoderesearch/SAELens/pull/676
"Two more cross-device bugs in `sae_lens/evals.py` that surface when the LLM and SAE live on different GPUs": in
`get_sparsity_and_variance_metrics`, `mask` is built from `batch_tokens` (LLM device) and multiplied with
`sae_feature_activations` (SAE device, after `sae.encode`), and `total_tokens` accumulates `mask.sum()` on the LLM
device before dividing `total_feature_acts` (SAE device). The merged fix moves the mask to the activations' device
for the product and accumulates `mask.sum().to(sae.device)`.
Stand-ins: a one-block hooked LM with `run_with_cache`, a ReLU SAE with a `cfg`, an activation store handing out
token batches on the LLM device, and the feature-density part of `get_sparsity_and_variance_metrics`.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn
from types import SimpleNamespace

class TinyHookedLM(nn.Module):
    def __init__(self, d_vocab=50, d_model=16):
        super().__init__()
        self.embed = nn.Embedding(d_vocab, d_model)
        self.mlp = nn.Linear(d_model, d_model)
        self.unembed = nn.Linear(d_model, d_vocab)
    def run_with_cache(self, tokens, names_filter=None, prepend_bos=False):
        resid = self.mlp(self.embed(tokens))
        return self.unembed(resid), {"blocks.0.hook_resid_post": resid}

class SAE(nn.Module):
    def __init__(self, d_in=16, d_sae=64):
        super().__init__()
        self.cfg = SimpleNamespace(d_in=d_in, d_sae=d_sae, hook_name="blocks.0.hook_resid_post")
        self.W_enc = nn.Parameter(torch.randn(d_in, d_sae) * 0.1)
        self.b_enc = nn.Parameter(torch.zeros(d_sae))
        self.W_dec = nn.Parameter(torch.randn(d_sae, d_in) * 0.1)
        self.b_dec = nn.Parameter(torch.zeros(d_in))
    @property
    def device(self):
        return self.W_enc.device
    def encode(self, x):
        return torch.relu((x - self.b_dec) @ self.W_enc + self.b_enc)
    def decode(self, f):
        return f @ self.W_dec + self.b_dec

class ActivationsStore:
    def __init__(self, device, context_size=12):
        self.device = device
        self.context_size = context_size
    def get_batch_tokens(self, batch_size):
        return torch.randint(0, 50, (batch_size, self.context_size), device=self.device)

def get_sparsity_and_variance_metrics(sae, model, activation_store, n_batches, eval_batch_size_prompts, ignore_tokens=None):
    hook_name = sae.cfg.hook_name
    total_feature_acts = torch.zeros(sae.cfg.d_sae, device=sae.device)
    total_feature_prompts = torch.zeros(sae.cfg.d_sae, device=sae.device)
    total_tokens = 0
    for _ in range(n_batches):
        batch_tokens = activation_store.get_batch_tokens(eval_batch_size_prompts)
        if ignore_tokens:
            mask = torch.logical_not(torch.any(torch.stack([batch_tokens == token for token in ignore_tokens], dim=0), dim=0))
        else:
            mask = torch.ones_like(batch_tokens, dtype=torch.bool)
        _, cache = model.run_with_cache(batch_tokens, prepend_bos=False, names_filter=[hook_name])
        original_act = cache[hook_name]
        sae_feature_activations = sae.encode(original_act.to(sae.device))
        sae_out = sae.decode(sae_feature_activations).to(original_act.device)
        del cache
        masked_sae_feature_activations = sae_feature_activations * mask.unsqueeze(-1)
        sae_feature_activations_bool = (masked_sae_feature_activations > 0).float()
        total_feature_acts += sae_feature_activations_bool.sum(dim=1).sum(dim=0)
        total_feature_prompts += (sae_feature_activations_bool.sum(dim=1) > 0).sum(dim=0)
        total_tokens += mask.sum()
    feature_density = total_feature_acts / total_tokens
    consistent_activation_heuristic = total_feature_acts / total_feature_prompts
    return {"feature_density": feature_density, "consistent_activation_heuristic": consistent_activation_heuristic}

model = TinyHookedLM().to("cuda:0")              # llm_device="cuda:0"
sae = SAE().to("cuda:1")                         # device="cuda:1"
activation_store = ActivationsStore(device=torch.device("cuda:0"))
'''
CELL = '''
feature_metrics = get_sparsity_and_variance_metrics(sae, model, activation_store, n_batches=2,
                                                    eval_batch_size_prompts=4, ignore_tokens=[0])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["get_sparsity_and_variance_metrics"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        masked_sae_feature_activations = sae_feature_activations * mask.unsqueeze(-1)
        sae_feature_activations_bool = (masked_sae_feature_activations > 0).float()
        total_feature_acts += sae_feature_activations_bool.sum(dim=1).sum(dim=0)
        total_feature_prompts += (sae_feature_activations_bool.sum(dim=1) > 0).sum(dim=0)
        total_tokens += mask.sum()
""", """        masked_sae_feature_activations = sae_feature_activations * mask.unsqueeze(-1).to(sae_feature_activations.device)
        sae_feature_activations_bool = (masked_sae_feature_activations > 0).float()
        total_feature_acts += sae_feature_activations_bool.sum(dim=1).sum(dim=0)
        total_feature_prompts += (sae_feature_activations_bool.sum(dim=1) > 0).sum(dim=0)
        total_tokens += mask.sum().to(sae.device)
""")
CLEAN = False
