"""Look-alike: ChronosBoltPipeline on the GPU takes a CPU context and moves it to the model's device inside `predict`.

Source: https://github.com/amazon-science/chronos-forecasting/blob/main/src/chronos/chronos_bolt.py
`ChronosBoltPipeline.predict` prepares the (CPU) context, then
`context_tensor = context_tensor.to(device=self.model.device, dtype=torch.float32)` before calling the
model; the quantile forecasts come back on the model's device. A CPU series held next to a cuda model
is the documented usage. Nothing to report. Stand-in: the pipeline with a small patch-embedding
model (instance scaling, patch embedding with the observed mask, quantile head; NaN handling left out).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class ChronosBoltModelForForecasting(nn.Module):
    def __init__(self, patch_size=8, d_model=32, prediction_length=16, num_quantiles=9):
        super().__init__()
        self.patch_size, self.prediction_length, self.num_quantiles = patch_size, prediction_length, num_quantiles
        self.input_patch_embedding = nn.Linear(2 * patch_size, d_model)
        self.output_patch_embedding = nn.Linear(d_model, num_quantiles * prediction_length)

    @property
    def device(self):
        return self.input_patch_embedding.weight.device

    def forward(self, context):
        mask = torch.ones_like(context)
        loc = context.mean(dim=-1, keepdim=True)
        scale = (context - loc).abs().mean(dim=-1, keepdim=True) + 1e-5
        x = (context - loc) / scale
        b, t = x.shape
        patches = torch.cat([x.reshape(b, t // self.patch_size, self.patch_size),
                             mask.reshape(b, t // self.patch_size, self.patch_size)], dim=-1)
        h = self.input_patch_embedding(patches).mean(dim=1)
        q = self.output_patch_embedding(h).view(b, self.num_quantiles, self.prediction_length)
        return q * scale.unsqueeze(-1) + loc.unsqueeze(-1)

class ChronosBoltPipeline:
    def __init__(self, model):
        self.model = model

    @torch.no_grad()
    def predict(self, context):
        context_tensor = torch.as_tensor(context)
        if context_tensor.ndim == 1:
            context_tensor = context_tensor.unsqueeze(0)
        context_tensor = context_tensor.to(device=self.model.device, dtype=torch.float32)
        return self.model(context_tensor)

pipeline = ChronosBoltPipeline(ChronosBoltModelForForecasting().to("cuda:0"))   # device_map="cuda"
context = torch.randn(3, 64)              # e.g. torch.tensor(df["#Passengers"]): on the CPU
'''
CELL = '''
quantiles = pipeline.predict(context)
print(quantiles.shape, quantiles.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
