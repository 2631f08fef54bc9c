"""Ludwig TabTransformerCombiner after the GPU fix: per-call index and empty tensors are made on `self.device`.

Source: https://github.com/ludwig-ai/ludwig/blob/master/ludwig/combiners/combiners.py (TabTransformerCombiner.forward) and ludwig/utils/torch_utils.py (LudwigModule.device)
The combiner builds tensors inside `forward` - the input-feature-name indices
`torch.arange(0, len(embeddable_encoder_outputs), device=self.device)` fed to an embedding, and the empty
`hidden = torch.empty([batch_size, 0], device=self.device)` when there are no category features -
where `LudwigModule.device` is read from a registered `device_tensor` buffer that follows `.to()`.
Look-alike: tensors created in forward, on the module's device; both branches run on the GPU.
Stand-ins: `LudwigModule`, a reduced `TabTransformerCombiner` (projectors, name embedding, transformer, layer norm, FC stack).
"""

SIM = "fake_cuda"
FAMILY = "clean"
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
        self.unembeddable_features = [n for n, (t, _) in input_features.items() if t in ("number", "binary")]
        self.embeddable_features = [n for n, (t, _) in input_features.items() if t not in ("number", "binary")]
        self.embed_i_f_name_layer = nn.Embedding(max(len(self.embeddable_features), 1), 4)
        self.projectors = nn.ModuleList([nn.Linear(input_features[n][1], hidden_size - 4) for n in self.embeddable_features])
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
            i_f_names_idcs = torch.reshape(torch.arange(0, len(embeddable_encoder_outputs), device=self.device), [-1, 1])
            embedded_i_f_names = self.embed_i_f_name_layer(i_f_names_idcs).squeeze(1)
            embedded_i_f_names = torch.tile(torch.unsqueeze(embedded_i_f_names, dim=0), [batch_size, 1, 1])
            hidden = torch.cat([hidden, embedded_i_f_names], -1)
            hidden = self.transformer_stack(hidden).mean(dim=1)
        else:
            # create empty tensor because there are no category features
            hidden = torch.empty([batch_size, 0], device=self.device)
        unembeddable_hidden = self.layer_norm(torch.cat(unembeddable_encoder_outputs, -1))
        hidden = torch.cat([hidden, unembeddable_hidden], -1)
        return {"combiner_output": self.fc_stack(hidden)}

DEVICE = "cuda:0"
BATCH_SIZE = 16
mixed = {"category_1": ("category", 6), "category_2": ("category", 6), "number_1": ("number", 1)}
numbers_only = {"number_1": ("number", 1), "binary_1": ("binary", 1)}
mixed_combiner = TabTransformerCombiner(mixed).to(DEVICE)
numbers_combiner = TabTransformerCombiner(numbers_only).to(DEVICE)
mixed_inputs = {n: {"encoder_output": torch.randn(BATCH_SIZE, s, device=DEVICE)} for n, (_, s) in mixed.items()}
numbers_inputs = {n: {"encoder_output": torch.randn(BATCH_SIZE, s, device=DEVICE)} for n, (_, s) in numbers_only.items()}
'''
CELL = '''
out_mixed = mixed_combiner(mixed_inputs)
out_numbers = numbers_combiner(numbers_inputs)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
