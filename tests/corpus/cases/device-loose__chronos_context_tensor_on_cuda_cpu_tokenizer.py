"""Chronos forecasting with the context tensor created on the GPU: the pipeline's tokenizer runs on the CPU.

Source: https://github.com/amazon-science/chronos-forecasting/issues/208
"Two devices bug": `context_tensor = torch.tensor(df[TARGET].tolist(), dtype=torch.float32,
device=device)` then `model.predict(context_tensor, ...)` raised "Expected all tensors to be on the
same device ... (when checking argument for argument boundaries in method
wrapper_CUDA_Tensor_bucketize)". The maintainer: the input passed to Chronos must live on the CPU;
the pipeline's mean-scaling tokenizer keeps its bin boundaries on the CPU and moves the token ids to
the model itself. Stand-in: ChronosPipeline reduced to the tokenizer and a small token model.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class MeanScaleUniformBins:
    """Stand-in for chronos' tokenizer: CPU-side mean scaling + bucketize into bins."""
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
model = ChronosPipeline(nn.Sequential(nn.Embedding(64, 32), nn.Linear(32, 64)).to(device),
                        MeanScaleUniformBins())
series = [float(v) for v in range(1, 49)]                 # df[TARGET].tolist()
context_tensor = torch.tensor(series, dtype=torch.float32, device=device)
'''
CELL = '''
forecast = model.predict(context_tensor, 10)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["context_tensor"]
FIX = "namespace"
REFERENCE_FIX = '''
context_tensor = context_tensor.cpu()
'''
REFERENCE_EDIT = None
CLEAN = False
