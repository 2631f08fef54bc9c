"""etna DeepAR on cuda without categorical features: `DeepARNet.step` stands in `torch.Tensor()` (a CPU tensor) for the missing embeddings and concatenates it with the cuda real-valued inputs before the Gaussian head.

Source: https://github.com/etna-team/etna/issues/611
"DL models fail when running on cuda without categorical features ... Reason: we doesn't set device
for empty tensor here" (deepar.py line 205, `torch.Tensor()` when `self.embedding is None`). The fix
(#615) builds `torch.zeros((encoder_real.shape[0], encoder_real.shape[1], 0),
device=encoder_real.device)` (and the same for the decoder) so the concatenation stays on cuda.
Stand-in: `DeepARNet.step` of etna 2.x from the batch unpacking to the Gaussian
negative log-likelihood; `projection` (loc / softplus scale heads), the LSTM and `GaussianLoss`
reduced to their computation (`torch.distributions.Normal` NLL, theoretical-mean "sample");
`DeepBaseNet`/Lightning plumbing left out; the in-place rescaling of column 0 by `weights` written
as a `torch.cat` (same values); distribution argument validation off.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
from torch.distributions import Normal
torch.distributions.Distribution.set_default_validate_args(False)   # no value-reading checks in the simulation

class GaussianLoss(nn.Module):
    """Stand-in for etna.models.nn.deepar.loss.GaussianLoss."""
    def scale_params(self, loc, scale, weights):
        return loc * weights[:, None, None], scale * weights[:, None, None].abs()

    def forward(self, inputs, loc, scale, weights):
        loc, scale = self.scale_params(loc, scale, weights)
        return -Normal(loc=loc, scale=scale).log_prob(inputs).mean()

    def sample(self, loc, scale, weights, theoretical_mean):
        loc, scale = self.scale_params(loc, scale, weights)
        return loc if theoretical_mean else Normal(loc=loc, scale=scale).sample()

class DeepARNet(nn.Module):
    def __init__(self, input_size, num_layers=2, hidden_size=16, embedding=None):
        super().__init__()
        self.embedding = embedding
        self.rnn = nn.LSTM(num_layers=num_layers, hidden_size=hidden_size, input_size=input_size, batch_first=True)
        self.projection = nn.ModuleDict(
            {"loc": nn.Linear(hidden_size, 1), "scale": nn.Sequential(nn.Linear(hidden_size, 1), nn.Softplus())})
        self.loss = GaussianLoss()

    def get_distribution_params(self, output):
        return self.projection["loc"](output), self.projection["scale"](output)

    def step(self, batch, *args, **kwargs):
        encoder_real = batch["encoder_real"].float()
        decoder_real = batch["decoder_real"].float()
        encoder_categorical = batch["encoder_categorical"]
        decoder_categorical = batch["decoder_categorical"]
        encoder_target = batch["encoder_target"].float()
        decoder_target = batch["decoder_target"].float()
        weights = batch["weight"]

        encoder_real = torch.cat([(encoder_real[:, :, :1] / weights[:, None, None]), encoder_real[:, :, 1:]], dim=2)
        decoder_real = torch.cat([(decoder_real[:, :, :1] / weights[:, None, None]), decoder_real[:, :, 1:]], dim=2)

        encoder_embeddings = self.embedding(encoder_categorical) if self.embedding is not None else torch.Tensor()
        decoder_embeddings = self.embedding(decoder_categorical) if self.embedding is not None else torch.Tensor()

        encoder_values = torch.concat((encoder_real, encoder_embeddings), dim=2)
        decoder_values = torch.concat((decoder_real, decoder_embeddings), dim=2)

        target = torch.cat((encoder_target, decoder_target), dim=1)
        output, (_, _) = self.rnn(torch.cat((encoder_values, decoder_values), dim=1))
        loc, scale = self.get_distribution_params(output)
        target_prediction = self.loss.sample(loc=loc, scale=scale, weights=weights, theoretical_mean=True)
        loss = self.loss(inputs=target, loc=loc, scale=scale, weights=weights)
        return loss, target, target_prediction

device = torch.device("cuda:0")
net = DeepARNet(input_size=2).to(device)      # lag feature + one real regressor, no categorical features
B, enc, dec = 16, 13, 7
batch = {
    "encoder_real": torch.randn(B, enc, 2, device=device),
    "decoder_real": torch.randn(B, dec, 2, device=device),
    "encoder_categorical": {},
    "decoder_categorical": {},
    "encoder_target": torch.randn(B, enc, 1, device=device),
    "decoder_target": torch.randn(B, dec, 1, device=device),
    "weight": torch.rand(B, device=device) + 0.5,
}
'''
CELL = '''
loss, target, target_prediction = net.step(batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["net"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        encoder_embeddings = self.embedding(encoder_categorical) if self.embedding is not None else torch.Tensor()
        decoder_embeddings = self.embedding(decoder_categorical) if self.embedding is not None else torch.Tensor()""",
                  """        encoder_embeddings = (
            self.embedding(encoder_categorical)
            if self.embedding is not None
            else torch.zeros((encoder_real.shape[0], encoder_real.shape[1], 0), device=encoder_real.device)
        )
        decoder_embeddings = (
            self.embedding(decoder_categorical)
            if self.embedding is not None
            else torch.zeros((decoder_real.shape[0], decoder_real.shape[1], 0), device=decoder_real.device)
        )""")
CLEAN = False
