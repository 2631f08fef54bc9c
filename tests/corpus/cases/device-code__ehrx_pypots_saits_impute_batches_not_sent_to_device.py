"""PyPOTS SAITS.impute on CUDA: the test batches from the DataLoader are fed to the model without moving them.

Source: https://github.com/WenjieDu/PyPOTS/pull/59
PR #59 fixes issue #57, "tensors not on the same device when running on CUDA device": in PyPOTS
0.0.10, `SAITS.impute()` (and Transformer's) built `inputs = {"X": data[1], "missing_mask": data[2]}`
straight from the CPU DataLoader batch and called `self.model.impute(inputs)` on the CUDA model,
while `fit` assembled its batches through `_assemble_input_for_training/validating`, which map every
tensor to `self.device`. The fix: `inputs = self._assemble_input_for_testing(data)` in `impute()`.
Stand-in: the SAITS wrapper (device, batch assembly, impute loop) with the two DMSA blocks reduced to
linear layers; the DataLoader over the test set is a list of (indices, X, missing_mask) batches,
and `impute` returns the tensor on the CPU instead of a numpy array.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn


class _SAITS(nn.Module):
    """Stand-in for pypots.imputation.saits._SAITS: a DMSA-like block per stage, linear here."""

    def __init__(self, d_time, d_feature, d_model):
        super().__init__()
        self.embedding_1 = nn.Linear(d_feature * 2, d_model)
        self.reduce_dim_z = nn.Linear(d_model, d_feature)
        self.embedding_2 = nn.Linear(d_feature * 2, d_model)
        self.reduce_dim_beta = nn.Linear(d_model, d_feature)
        self.weight_combine = nn.Linear(d_feature + d_time, d_feature)

    def impute(self, inputs):
        X, masks = inputs["X"], inputs["missing_mask"]
        enc_output = torch.relu(self.embedding_1(torch.cat([X, masks], dim=2)))
        X_tilde_1 = self.reduce_dim_z(enc_output)
        X_prime = masks * X + (1 - masks) * X_tilde_1
        enc_output = torch.relu(self.embedding_2(torch.cat([X_prime, masks], dim=2)))
        X_tilde_2 = self.reduce_dim_beta(enc_output)
        attn = torch.softmax(enc_output @ enc_output.transpose(1, 2), dim=-1)     # (B, T, T)
        combining_weights = torch.sigmoid(self.weight_combine(torch.cat([masks, attn], dim=2)))
        X_tilde_3 = (1 - combining_weights) * X_tilde_2 + combining_weights * X_tilde_1
        return masks * X + (1 - masks) * X_tilde_3


class SAITS:
    """Stand-in for pypots.imputation.SAITS (0.0.10): BaseNNImputer with device and batch assembly."""

    def __init__(self, n_steps, n_features, d_model=64, batch_size=32, device=None):
        self.n_steps, self.n_features, self.batch_size = n_steps, n_features, batch_size
        self.device = torch.device(device)
        self.model = _SAITS(n_steps, n_features, d_model).to(self.device)

    def _assemble_input_for_validating(self, data):
        indices, X, missing_mask = map(lambda x: x.to(self.device), data)
        return {"indices": indices, "X": X, "missing_mask": missing_mask}

    def _assemble_input_for_testing(self, data):
        return self._assemble_input_for_validating(data)

    def _test_loader(self, X):
        # DataLoader(BaseDataset(X), batch_size=self.batch_size, shuffle=False)
        missing_mask = (~torch.isnan(X)).float()
        X = torch.nan_to_num(X)
        indices = torch.arange(len(X))
        return list(zip(indices.split(self.batch_size), X.split(self.batch_size),
                        missing_mask.split(self.batch_size)))

    def impute(self, X):
        self.model.eval()  # set the model as eval status to freeze it.
        test_loader = self._test_loader(X)
        imputation_collector = []

        with torch.no_grad():
            for idx, data in enumerate(test_loader):
                inputs = {"X": data[1], "missing_mask": data[2]}
                imputed_data = self.model.impute(inputs)
                imputation_collector.append(imputed_data)

        imputation_collector = torch.cat(imputation_collector)
        return imputation_collector.cpu()


# PhysioNet-2012-like test set: 48 hourly steps of 37 variables, ~80% missing
test_X = torch.randn(100, 48, 37)
test_X = torch.where(torch.rand(100, 48, 37) < 0.8, torch.full_like(test_X, float("nan")), test_X)
saits = SAITS(n_steps=48, n_features=37, d_model=64, batch_size=32, device="cuda:0")
'''
CELL = '''
imputation = saits.impute(test_X)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["saits"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('                inputs = {"X": data[1], "missing_mask": data[2]}\n',
                  '                inputs = self._assemble_input_for_testing(data)\n')
CLEAN = False
