"""SAELens evals with the LLM on cuda:0 and the SAE on cuda:1: `get_recons_loss` keeps `mask` on the LLM's GPU.

Source: https://github.com/decoderesearch/SAELens/pull/675
With `llm_device="cuda:0"` and `device="cuda:1"`, `get_recons_loss` builds `mask` from `batch_tokens` (LLM device);
the replacement hook moves the hooked activations to `sae.device` for the SAE forward pass, so
`torch.where(mask[..., None], new_activations, activations)` mixes cuda:0 and cuda:1 ("Expected all tensors to be on
the same device, but found at least two devices, cuda:0 and cuda:1!"), first seen at the first eval interval.
The merged fix moves `mask` to `sae.device` once, right after it is built.
Stand-ins: a one-block HookedTransformer-like LM with a hook point (`run_with_hooks`), a ReLU SAE, an identity
activation scaler and `get_recons_loss` (ce-loss path only; `mask[..., None]` written `mask.unsqueeze(-1)`).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class HookPoint(nn.Module):
    def __init__(self):
        super().__init__()
        self.fwd_hooks = []
    def forward(self, x):
        for hook in self.fwd_hooks:
            out = hook(x, hook=self)
            if out is not None:
                x = out
        return x

class TinyHookedLM(nn.Module):
    def __init__(self, d_vocab=50, d_model=16):
        super().__init__()
        self.embed = nn.Embedding(d_vocab, d_model)
        self.mlp = nn.Linear(d_model, d_model)
        self.hook_resid = HookPoint()
        self.unembed = nn.Linear(d_model, d_vocab)
    def forward(self, tokens, return_type="loss", loss_per_token=True):
        x = self.hook_resid(self.mlp(self.embed(tokens)))
        logits = self.unembed(x)
        loss = F.cross_entropy(logits[:, :-1].flatten(0, 1), tokens.narrow(1, 1, tokens.shape[1] - 1).flatten(), reduction="none")
        return logits, loss
    def run_with_hooks(self, tokens, return_type="loss", loss_per_token=True, fwd_hooks=()):
        for _, fn in fwd_hooks:
            self.hook_resid.fwd_hooks.append(fn)
        try:
            return self(tokens, return_type=return_type, loss_per_token=loss_per_token)[1]
        finally:
            self.hook_resid.fwd_hooks.clear()

class SAE(nn.Module):
    def __init__(self, d_in=16, d_sae=64):
        super().__init__()
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

class ActivationScaler:
    scaling_factor = None
    def scale(self, acts):
        return acts if self.scaling_factor is None else acts * self.scaling_factor
    def unscale(self, acts):
        return acts if self.scaling_factor is None else acts / self.scaling_factor

@torch.no_grad()
def get_recons_loss(sae, model, activation_scaler, batch_tokens, ignore_tokens=None, hook_name="hook_resid"):
    original_logits, original_ce_loss = model(batch_tokens, return_type="both", loss_per_token=True)

    if ignore_tokens:
        mask = torch.logical_not(torch.any(torch.stack([batch_tokens == token for token in ignore_tokens], dim=0), dim=0))
    else:
        mask = torch.ones_like(batch_tokens, dtype=torch.bool)

    def standard_replacement_hook(activations, hook):
        original_device = activations.device
        activations = activations.to(sae.device)
        scaled_activations = activation_scaler.scale(activations)
        new_activations = sae.decode(sae.encode(scaled_activations)).to(activations.dtype)
        new_activations = activation_scaler.unscale(new_activations)
        new_activations = torch.where(mask.unsqueeze(-1), new_activations, activations)
        return new_activations.to(original_device)

    recons_ce_loss = model.run_with_hooks(batch_tokens, return_type="loss", loss_per_token=True,
                                          fwd_hooks=[(hook_name, standard_replacement_hook)])
    return {"ce_loss_without_sae": original_ce_loss, "ce_loss_with_sae": recons_ce_loss}

model = TinyHookedLM().to("cuda:0")        # llm_device="cuda:0"
sae = SAE().to("cuda:1")                   # device="cuda:1"
activation_scaler = ActivationScaler()
batch_tokens = torch.randint(0, 50, (4, 12), device="cuda:0")   # activation_store.get_batch_tokens(): LLM device
'''
CELL = '''
metrics = get_recons_loss(sae, model, activation_scaler, batch_tokens, ignore_tokens=[0])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["get_recons_loss"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        mask = torch.ones_like(batch_tokens, dtype=torch.bool)
""", """        mask = torch.ones_like(batch_tokens, dtype=torch.bool)
    mask = mask.to(sae.device)
""")
CLEAN = False
