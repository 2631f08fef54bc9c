"""Chronos `pipeline.embed()` on a cuda context: the EOS token column is built on the CPU and concatenated to cuda token ids.

Source: https://github.com/amazon-science/chronos-forecasting/pull/531
"Fix embed function" (for issue #522, embed failing on cuda tensors): with the model and the
context on the GPU (and the MeanScaleUniformBins boundaries moved to the model's device), the
tokenizer's `_append_eos_token` still builds `eos_tokens` / `eos_mask` with `torch.full(...)` and no
device and `torch.concat`s them with the cuda `token_ids`. The PR sets their device to that of
`token_ids` / `attention_mask`. Stand-in: ChronosPipeline reduced to MeanScaleUniformBins (boundaries
already on the model's device, as in the PR; bucketize written as a comparison) and a small encoder; the GPU is simulated with meta.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class MeanScaleUniformBins:
    def __init__(self, low_limit=-15.0, high_limit=15.0, n_tokens=64, eos_token_id=1):
        self.eos_token_id = eos_token_id
        self.centers = torch.linspace(low_limit, high_limit, n_tokens - 3)
        self.boundaries = torch.concat((torch.tensor([-1e20]),
                                        (self.centers[1:] + self.centers[:-1]) / 2,
                                        torch.tensor([1e20])))

    def _append_eos_token(self, token_ids, attention_mask):
        batch_size = token_ids.shape[0]
        eos_tokens = torch.full((batch_size, 1), fill_value=self.eos_token_id)
        token_ids = torch.concat((token_ids, eos_tokens), dim=1)
        eos_mask = torch.full((batch_size, 1), fill_value=True)
        attention_mask = torch.concat((attention_mask, eos_mask), dim=1)
        return token_ids, attention_mask

    def context_input_transform(self, context):
        attention_mask = ~torch.isnan(context)
        scale = (torch.abs(context) * attention_mask).sum(dim=-1) / attention_mask.sum(dim=-1)
        scale = torch.where(scale > 0, scale, torch.ones_like(scale))
        scaled = context / scale.unsqueeze(-1)
        # torch.bucketize(scaled, boundaries=self.boundaries, right=True), written with a comparison
        token_ids = (scaled.unsqueeze(-1) >= self.boundaries).sum(dim=-1) - 1 + 2
        token_ids, attention_mask = self._append_eos_token(token_ids, attention_mask)
        return token_ids, attention_mask, scale

class ChronosModel(nn.Module):
    def __init__(self, n_tokens=64, d_model=32):
        super().__init__()
        self.shared = nn.Embedding(n_tokens, d_model)
        self.encoder = nn.Linear(d_model, d_model)

    def encode(self, input_ids, attention_mask):
        h = self.encoder(self.shared(input_ids))
        return h * attention_mask.unsqueeze(-1)

class ChronosPipeline:
    def __init__(self, tokenizer, model):
        tokenizer.boundaries = tokenizer.boundaries.to(device=model.shared.weight.device)
        self.tokenizer, self.model = tokenizer, model

    @torch.no_grad()
    def embed(self, context):
        token_ids, attention_mask, tokenizer_state = self.tokenizer.context_input_transform(context)
        embeddings = self.model.encode(token_ids, attention_mask)
        return embeddings, tokenizer_state

device = torch.device("meta")                # the GPU (cuda:0), simulated with meta
model = ChronosModel().to(device)            # device_map="cuda"
pipeline = ChronosPipeline(MeanScaleUniformBins(), model)
context = torch.randn(4, 48).to(device)
'''
CELL = '''
embeddings, tokenizer_state = pipeline.embed(context)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["pipeline.tokenizer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        eos_tokens = torch.full((batch_size, 1), fill_value=self.eos_token_id)
        token_ids = torch.concat((token_ids, eos_tokens), dim=1)
        eos_mask = torch.full((batch_size, 1), fill_value=True)""",
                  """        eos_tokens = torch.full((batch_size, 1), fill_value=self.eos_token_id, device=token_ids.device)
        token_ids = torch.concat((token_ids, eos_tokens), dim=1)
        eos_mask = torch.full((batch_size, 1), fill_value=True, device=attention_mask.device)""")
CLEAN = False
