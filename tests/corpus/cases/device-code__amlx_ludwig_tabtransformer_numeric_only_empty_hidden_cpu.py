"""Ludwig TabTransformerCombiner with only numerical/binary inputs: the empty `hidden` is created on the CPU.

Source: https://github.com/ludwig-ai/ludwig/pull/1603
Running the combiner tests on a GPU, `test_tabtransformer_combiner` failed for the feature lists that
have no category (embeddable) features: `forward` then builds `hidden = torch.empty([batch_size, 0])`
with no device and concatenates it with the layer-normed numerical encoder outputs, which are on the
GPU, so `torch.cat([hidden, unembeddable_hidden], -1)` mixes cpu and cuda:0. The fix in "Fix remaining
GPU tests" creates it with `device=self.device` (and likewise the feature-name index `torch.arange`).
Stand-ins: `LudwigModule` (its `device` comes from a registered `device_tensor` buffer) and a reduced
`TabTransformerCombiner` keeping the projector/transformer branch and the skipped-feature concat.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class LudwigModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("device_tensor", torch.zeros(0))

    @property
    def device(self):
        return self.device_tensor.device

class TabTransformerCombiner(LudwigModule):
    def __init__(self, input_features, hidden_size=16, output_size=8):
        super().__init__()
        self.unembeddable_features = [n for n, (t, _) in input_features.items() if t in ("numerical", "binary")]
        self.embeddable_features = [n for n, (t, _) in input_features.items() if t not in ("numerical", "binary")]
        self.projectors = nn.ModuleList([nn.Linear(input_features[n][1], hidden_size) for n in self.embeddable_features])
        self.transformer_stack = nn.TransformerEncoderLayer(hidden_size, nhead=2, dim_feedforward=32, batch_first=True)
        size = sum(input_features[n][1] for n in self.unembeddable_features)
        self.layer_norm = nn.LayerNorm(size)
        fc_input_size = hidden_size if self.embeddable_features else 0
        self.fc_stack = nn.Sequential(nn.Linear(fc_input_size + size, output_size), nn.ReLU())

    def forward(self, inputs):
        unembeddable_encoder_outputs = [inputs[k]["encoder_output"] for k in inputs if k in self.unembeddable_features]
        embeddable_encoder_outputs = [inputs[k]["encoder_output"] for k in inputs if k in self.embeddable_features]
        batch_size = (embeddable_encoder_outputs[0].shape[0] if len(embeddable_encoder_outputs) > 0
                      else unembeddable_encoder_outputs[0].shape[0])
        if len(embeddable_encoder_outputs) > 0:
            projected = [self.projectors[i](eo) for i, eo in enumerate(embeddable_encoder_outputs)]
            hidden = torch.stack(projected, dim=1)
            hidden = self.transformer_stack(hidden).mean(dim=1)
        else:
            # create empty tensor because there are no category features
            hidden = torch.empty([batch_size, 0])
        unembeddable_hidden = torch.cat(unembeddable_encoder_outputs, -1)
        unembeddable_hidden = self.layer_norm(unembeddable_hidden)
        hidden = torch.cat([hidden, unembeddable_hidden], -1)
        hidden = self.fc_stack(hidden)
        return {"combiner_output": hidden}

DEVICE = "cuda:0"
BATCH_SIZE = 16
feature_list = {"number_1": ("numerical", 1), "number_2": ("numerical", 1), "binary_1": ("binary", 1)}
combiner = TabTransformerCombiner(feature_list).to(DEVICE)
input_features = {name: {"encoder_output": torch.randn(BATCH_SIZE, size, device=DEVICE)}
                  for name, (_, size) in feature_list.items()}
'''
CELL = '''
combiner_output = combiner(input_features)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["combiner"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("hidden = torch.empty([batch_size, 0])", "hidden = torch.empty([batch_size, 0], device=self.device)")
CLEAN = False
