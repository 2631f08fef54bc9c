"""SAELens `get_recons_loss` with the LLM on cuda:0 and the SAE on cuda:1: the mask is moved to `sae.device` once.

Source: https://github.com/decoderesearch/SAELens/blob/main/sae_lens/evals.py
Current `get_recons_loss` builds `mask` from `batch_tokens` on the LLM device and then does `mask =
mask.to(sae.device)`; the replacement hook moves each hooked activation to `sae.device`, runs the SAE there,
combines with `torch.where(mask[..., None], new_activations, activations)` and returns
`new_activations.to(original_device)`. Look-alike: a two-GPU layout (LLM cuda:0, SAE cuda:1) where every crossing
is explicit; it runs.
Stand-ins: a one-block hooked LM (`run_with_hooks`), a ReLU SAE, an identity activation scaler and
`get_recons_loss` (ce-loss path; `mask[..., None]` written `mask.unsqueeze(-1)`).
"""

SIM = "fake_cuda"
FAMILY = "clean"
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
    # The replacement hook moves activations to sae.device for the SAE forward pass;
    # mask is consumed alongside those activations in torch.where, so it must live there too.
    mask = mask.to(sae.device)

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
batch_tokens = torch.randint(0, 50, (4, 12), device="cuda:0")
'''
CELL = '''
metrics = get_recons_loss(sae, model, activation_scaler, batch_tokens, ignore_tokens=[0])
ce_delta = metrics["ce_loss_with_sae"] - metrics["ce_loss_without_sae"]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
