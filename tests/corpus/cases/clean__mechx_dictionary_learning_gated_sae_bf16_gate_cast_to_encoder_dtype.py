"""Look-alike: dictionary_learning `GatedAutoEncoder` in bfloat16; the boolean gate is cast with `.to(self.encoder.weight.dtype)`, and the evaluation upcasts to float32 on purpose.

Source: https://github.com/saprmarks/dictionary_learning/blob/60ec6bf5264944d64a4ca271f45a29ebfb9d4946/dictionary_learning/dictionary.py
`GatedAutoEncoder.encode` computes `f_gate = (pi_gate > 0).to(self.encoder.weight.dtype)` (it once was
`.float()`, which turned a bf16 SAE's features float32) and multiplies it with the ReLU magnitude path; the
SAE, its activations and its decoder stay bf16. The cell then measures reconstruction in float32
(`x_hat.float()`, `x.float()`), a deliberate mixed-precision step that never meets a bf16 weight. It runs.
Stand-in: only the LM activations (random bf16 tensor); the class is the library's, trimmed of
`normalize_decoder` and `scale_biases`.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch as t
from torch import nn
from torch.nn import init

class GatedAutoEncoder(nn.Module):
    """An autoencoder with separate gating and magnitude networks."""
    def __init__(self, activation_dim, dict_size, device=None):
        super().__init__()
        self.activation_dim = activation_dim
        self.dict_size = dict_size
        self.decoder_bias = nn.Parameter(t.empty(activation_dim, device=device))
        self.encoder = nn.Linear(activation_dim, dict_size, bias=False, device=device)
        self.r_mag = nn.Parameter(t.empty(dict_size, device=device))
        self.gate_bias = nn.Parameter(t.empty(dict_size, device=device))
        self.mag_bias = nn.Parameter(t.empty(dict_size, device=device))
        self.decoder = nn.Linear(dict_size, activation_dim, bias=False, device=device)
        self._reset_parameters()

    def _reset_parameters(self):
        init.zeros_(self.decoder_bias)
        init.zeros_(self.r_mag)
        init.zeros_(self.gate_bias)
        init.zeros_(self.mag_bias)
        dec_weight = t.randn_like(self.decoder.weight)
        dec_weight = dec_weight / dec_weight.norm(dim=0, keepdim=True)
        self.decoder.weight = nn.Parameter(dec_weight)
        self.encoder.weight = nn.Parameter(dec_weight.clone().T)

    def encode(self, x, return_gate=False):
        x_enc = self.encoder(x - self.decoder_bias)
        # gating network
        pi_gate = x_enc + self.gate_bias
        f_gate = (pi_gate > 0).to(self.encoder.weight.dtype)
        # magnitude network
        pi_mag = self.r_mag.exp() * x_enc + self.mag_bias
        f_mag = nn.ReLU()(pi_mag)
        f = f_gate * f_mag
        if return_gate:
            return f, nn.ReLU()(pi_gate)
        return f

    def decode(self, f):
        return self.decoder(f) + self.decoder_bias

    def forward(self, x, output_features=False):
        f = self.encode(x)
        x_hat = self.decode(f)
        if output_features:
            return x_hat, f
        return x_hat

dtype = t.bfloat16
ae = GatedAutoEncoder(activation_dim=64, dict_size=256).to(dtype=dtype)
x = t.randn(32, 64, dtype=dtype)
'''
CELL = '''
x_hat, f = ae(x, output_features=True)
l2_loss = t.linalg.norm(x_hat.float() - x.float(), dim=-1).mean()
total_variance = t.var(x.float(), dim=0).sum()
residual_variance = t.var(x.float() - x_hat.float(), dim=0).sum()
frac_variance_explained = 1 - residual_variance / total_variance
l0 = (f != 0).float().sum(dim=-1).mean()
l2_loss.backward()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
