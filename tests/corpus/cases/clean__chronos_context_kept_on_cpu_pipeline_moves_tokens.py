"""Look-alike: Chronos-style pipeline on the GPU fed a CPU context: tokenized on the CPU, then moved.

Source: https://github.com/amazon-science/chronos-forecasting/issues/208
What the maintainer prescribes: the context passed to the pipeline lives on the CPU; its tokenizer's
bin boundaries are CPU tensors on purpose, and the pipeline moves the token ids to the model's GPU.
A CPU series next to a GPU model is the intended layout here. Nothing to report. Stand-in:
ChronosPipeline reduced to the tokenizer and a small token model.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class MeanScaleUniformBins:
    def __init__(self, low_limit=-15.0, high_limit=15.0, n_tokens=64):
        self.centers = torch.linspace(low_limit, high_limit, n_tokens - 1)
        self.boundaries = torch.concat((torch.tensor([-1e20]),
                                        (self.centers[1:] + self.centers[:-1]) / 2,
                                        torch.tensor([1e20])))

    def context_input_transform(self, context):
        scale = torch.nansum(torch.abs(context), dim=-1) / context.shape[-1]
        scaled_context = context / scale.unsqueeze(dim=-1)
        token_ids = torch.bucketize(scaled_context, boundaries=self.boundaries, right=True)
        return token_ids, scale

class ChronosPipeline:
    def __init__(self, model, tokenizer):
        self.model, self.tokenizer = model, tokenizer

    @property
    def device(self):
        return next(self.model.parameters()).device

    def predict(self, context, prediction_length=10):
        if context.ndim == 1:
            context = context.unsqueeze(0)
        token_ids, scale = self.tokenizer.context_input_transform(context)
        logits = self.model(token_ids.to(self.device))
        return logits.argmax(-1).narrow(-1, 0, prediction_length)

device = torch.device("cuda:0")
pipeline = ChronosPipeline(nn.Sequential(nn.Embedding(64, 32), nn.Linear(32, 64)).to(device),
                           MeanScaleUniformBins())
context = torch.tensor([float(v) for v in range(1, 49)])
'''
CELL = '''
forecast = pipeline.predict(context, 10)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
