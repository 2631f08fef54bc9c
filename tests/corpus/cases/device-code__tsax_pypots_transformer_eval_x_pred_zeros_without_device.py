"""PyPOTS forecasting Transformer on CUDA: in eval mode the placeholder `X_pred` / `X_pred_missing_mask` are made on the CPU.

Source: https://github.com/WenjieDu/PyPOTS/issues/625
The maintainer's report: with the model on CUDA, `_Transformer.forward` builds the decoder
placeholders `X_pred` and `X_pred_missing_mask` with `torch.zeros(...)` / `torch.ones(...)` when
`self.training` is false, without a device, so prediction/validation fails with a device mismatch.
The fix creates both with `device=X.device`. Stand-ins: SaitsEmbedding (linear over [X, mask] plus
a learned positional table), one-layer encoder/decoder, and the `Transformer.predict` wrapper that
moves the test batch to `self.device` as PyPOTS does.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class SaitsEmbedding(nn.Module):
    def __init__(self, d_in, d_out, n_max_steps):
        super().__init__()
        self.embedding_layer = nn.Linear(d_in, d_out)
        self.position_table = nn.Parameter(torch.zeros(1, n_max_steps, d_out), requires_grad=False)

    def forward(self, X, missing_mask):
        X = torch.cat([X, missing_mask], dim=2)
        return self.embedding_layer(X) + self.position_table[:, : X.shape[1]]

class _Transformer(nn.Module):
    def __init__(self, n_steps, n_features, n_pred_steps, n_pred_features, d_model):
        super().__init__()
        self.n_steps, self.n_features = n_steps, n_features
        self.n_pred_steps, self.n_pred_features = n_pred_steps, n_pred_features
        self.encoder_saits_embedding = SaitsEmbedding(n_features * 2, d_model, n_steps)
        self.decoder_saits_embedding = SaitsEmbedding(n_features * 2, d_model, n_pred_steps)
        self.encoder = nn.Linear(d_model, d_model)
        self.decoder = nn.Linear(2 * d_model, d_model)
        self.output_projection = nn.Linear(d_model, n_pred_features)

    def forward(self, inputs):
        X, missing_mask = inputs["X"], inputs["missing_mask"]
        if self.training:
            X_pred, X_pred_missing_mask = inputs["X_pred"], inputs["X_pred_missing_mask"]
        else:
            batch_size = X.shape[0]
            X_pred, X_pred_missing_mask = (
                torch.zeros(batch_size, self.n_pred_steps, self.n_pred_features),
                torch.ones(batch_size, self.n_pred_steps, self.n_pred_features),
            )
        enc_output = torch.relu(self.encoder(self.encoder_saits_embedding(X, missing_mask)))
        input_X_pred = self.decoder_saits_embedding(X_pred, X_pred_missing_mask)
        context = enc_output.mean(1, keepdim=True).expand(-1, input_X_pred.shape[1], -1)
        dec_output = torch.relu(self.decoder(torch.cat([input_X_pred, context], dim=-1)))
        return {"forecasting": self.output_projection(dec_output)}

class Transformer:
    def __init__(self, n_steps, n_features, n_pred_steps, n_pred_features, d_model=16, device=None):
        self.device = torch.device(device)
        self.model = _Transformer(n_steps, n_features, n_pred_steps, n_pred_features, d_model)
        self.model.to(self.device)

    def predict(self, test_set):
        self.model.eval()
        X = test_set["X"]
        missing_mask = (~torch.isnan(X)).float()
        X = torch.nan_to_num(X)
        inputs = {"X": X.to(self.device), "missing_mask": missing_mask.to(self.device)}
        with torch.no_grad():
            results = self.model(inputs)
        return {"forecasting": results["forecasting"]}

transformer = Transformer(n_steps=24, n_features=5, n_pred_steps=6, n_pred_features=5, device="cuda:0")
test_set = {"X": torch.randn(8, 24, 5)}
'''
CELL = '''
results = transformer.predict(test_set)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["transformer.model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""                torch.zeros(batch_size, self.n_pred_steps, self.n_pred_features),
                torch.ones(batch_size, self.n_pred_steps, self.n_pred_features),""",
                  """                torch.zeros(batch_size, self.n_pred_steps, self.n_pred_features, device=X.device),
                torch.ones(batch_size, self.n_pred_steps, self.n_pred_features, device=X.device),""")
CLEAN = False
