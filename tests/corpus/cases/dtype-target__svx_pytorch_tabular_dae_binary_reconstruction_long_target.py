"""pytorch_tabular DenoisingAutoEncoder pretraining: binary columns are reconstructed against a Long target in BCEWithLogitsLoss.

Source: https://github.com/pytorch-tabular/pytorch_tabular/issues/304
`ssl_tabular_model.pretrain(...)` of a DAE on data with two-valued categorical columns failed in the
loss. The user's minimal example reproduced it, and the maintainer found the cause:
`F.binary_cross_entropy_with_logits` "expects the input and target to be float", but the binary
columns reach `calculate_loss` as the Long category codes. The fix ("fixed bug for ssl with binary
dtype", #315) casts `out.original.float()` for the "binary" reconstruction loss.
Stand-in: DenoisingAutoEncoderModel of pytorch_tabular 1.0.2 reduced to its pretrain forward and
calculate_loss (Lightning `self.log` is a no-op), MixedEmbedding1dLayer keeping only the binary and
continuous paths, one-layer encoder/decoder instead of CategoryEmbedding backbones.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
from collections import OrderedDict, namedtuple

import numpy as np
import torch
import torch.nn as nn

class SwapNoiseCorrupter(nn.Module):
    def __init__(self, probas):
        super().__init__()
        self.probas = torch.from_numpy(np.array(probas))

    def forward(self, x):
        should_swap = torch.bernoulli(self.probas.to(x.device) * torch.ones(x.shape).to(x.device))
        corrupted_x = torch.where(should_swap == 1, x[torch.randperm(x.shape[0])], x)
        mask = (corrupted_x != x).float()
        return corrupted_x, mask

class MixedEmbedding1dLayer(nn.Module):
    """Stand-in: binary (cardinality 2) categoricals and continuous columns only."""
    def __init__(self, continuous_dim, categorical_embedding_dims):
        super().__init__()
        self.continuous_dim = continuous_dim
        self.categorical_embedding_dims = categorical_embedding_dims
        self._binary_feat_idx = [i for i, (card, _) in enumerate(categorical_embedding_dims) if card == 2]

    def forward(self, x):
        continuous_data, categorical_data = x["continuous"], x["categorical"]
        x_binary = torch.cat([categorical_data[:, i:i + 1] for i in self._binary_feat_idx], 1)
        return OrderedDict(binary=x_binary, categorical=None, _categorical_orig=None,
                           continuous=continuous_data, embedding=None)

class MultiTaskHead(nn.Module):
    def __init__(self, in_features, n_binary=0, n_numerical=0):
        super().__init__()
        self.binary_linear = nn.Linear(in_features, n_binary) if n_binary else None
        self.numerical_linear = nn.Linear(in_features, n_numerical) if n_numerical else None

    def forward(self, features):
        outputs = {}
        if self.binary_linear:
            outputs["binary"] = self.binary_linear(features)
        if self.numerical_linear:
            outputs["continuous"] = self.numerical_linear(features)
        return outputs

class DenoisingAutoEncoderModel(nn.Module):
    """Stand-in for pytorch_tabular.ssl_models.dae.DenoisingAutoEncoderModel (1.0.2)."""
    output_tuple = namedtuple("output_tuple", ["original", "reconstructed"])
    loss_weight_tuple = namedtuple("loss_weight_tuple", ["binary", "categorical", "continuous", "mask"])

    def __init__(self, continuous_dim, embedding_dims, hidden=32, noise=0.15):
        super().__init__()
        self.mode = "pretrain"
        self._embedding = MixedEmbedding1dLayer(continuous_dim, embedding_dims)
        n_in = len(self._embedding._binary_feat_idx) + continuous_dim
        self.swap_noise = SwapNoiseCorrupter([noise] * n_in)
        self.encoder = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU())
        self.decoder = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU())
        self.reconstruction = MultiTaskHead(hidden, n_binary=len(self._embedding._binary_feat_idx),
                                            n_numerical=continuous_dim)
        self.mask_reconstruction = nn.Linear(hidden, n_in)
        self.losses = {
            "binary": nn.BCEWithLogitsLoss(),
            "categorical": nn.CrossEntropyLoss(),
            "continuous": nn.MSELoss(),
            "mask": nn.BCEWithLogitsLoss(),
        }
        n_features = continuous_dim + len(embedding_dims)
        self.loss_weights = self.loss_weight_tuple(
            len(self._embedding._binary_feat_idx) / n_features, 0.0, continuous_dim / n_features, 2.0)

    def log(self, *args, **kwargs):
        pass

    def forward(self, x):
        x = self._embedding(x)
        pick_keys = ["binary", "categorical", "continuous", "embedding"]
        z_in = torch.cat([x[key] for key in pick_keys if x[key] is not None], 1)
        with torch.no_grad():
            z_in, mask = self.swap_noise(z_in)
        z_hat = self.decoder(self.encoder(z_in))
        reconstructed_in = self.reconstruction(z_hat)
        reconstructed_mask = self.mask_reconstruction(z_hat)
        output_dict = {"mask": self.output_tuple(mask, reconstructed_mask)}
        if "continuous" in reconstructed_in.keys():
            output_dict["continuous"] = self.output_tuple(x["continuous"], reconstructed_in["continuous"])
        if "binary" in reconstructed_in.keys():
            output_dict["binary"] = self.output_tuple(x["binary"], reconstructed_in["binary"])
        return output_dict

    def calculate_loss(self, output, tag):
        total_loss = 0
        for type_, out in output.items():
            if type_ == "categorical":
                loss = 0
                for i in range(out.original.size(-1)):
                    loss += self.losses[type_](out.reconstructed[i], out.original[:, i])
                loss *= getattr(self.loss_weights, type_)
            else:
                loss = self.losses[type_](out.reconstructed, out.original) * getattr(self.loss_weights, type_)
            self.log(f"{tag}_{type_}_loss", loss.item(), on_epoch=True, on_step=False)
            total_loss += loss
        self.log(f"{tag}_loss", total_loss, on_step=(tag == "train"))
        return total_loss

# a DataLoader batch from the TabularDatamodule: label-encoded categoricals (int64) + scaled numerics
torch.manual_seed(0)
batch = {
    "continuous": torch.randn(256, 6),
    "categorical": torch.randint(0, 2, (256, 3)),     # three yes/no columns, cardinality 2
}
dae = DenoisingAutoEncoderModel(continuous_dim=6, embedding_dims=[(2, 1), (2, 1), (2, 1)])
optimizer = torch.optim.Adam(dae.parameters(), lr=1e-3)
'''
CELL = '''
output = dae(batch)
loss = dae.calculate_loss(output, tag="train")
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Long"
CULPRITS = ["dae"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("loss = self.losses[type_](out.reconstructed, out.original) * getattr(self.loss_weights, type_)",
                  "loss = self.losses[type_](out.reconstructed, out.original.float() if type_ == \"binary\" else out.original) * getattr(self.loss_weights, type_)")
CLEAN = False
