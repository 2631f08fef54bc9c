"""Wav2Vec2 CTC evaluated under DeepSpeed fp16: the float32 `input_values` meet fp16 conv weights.

Source: https://github.com/huggingface/transformers/issues/11446
"[wav2vec] deepspeed eval bug": fine-tuning `run_common_voice.py` with `--deepspeed ds_config.json
--do_eval` fails in evaluation with the conv dtype error. stas00: "The NLP models get `long` inputs
which get converted to the same dtype as the embedding weights, which under deepspeed/fp16 are
`float16`. This model however receives inputs that are `float32` and it doesn't check whether the
model weights are fp16 or not. Hence the error." The fix (PR #11638, "Addressing the need in
#11446") makes the Trainer convert float inputs to the DeepSpeed dtype before the forward. Stand-in:
`Wav2Vec2ForCTC` reduced to two `Wav2Vec2LayerNormConvLayer`s, the feature projection, a Linear
encoder and the CTC head; the DeepSpeed engine's fp16 weights written `.half()`; the collator's
batch a dict of CPU tensors (SIM "cpu": dtype only).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class Wav2Vec2LayerNormConvLayer(nn.Module):
    def __init__(self, in_dim, out_dim, kernel, stride):
        super().__init__()
        self.conv = nn.Conv1d(in_dim, out_dim, kernel_size=kernel, stride=stride, bias=True)
        self.layer_norm = nn.LayerNorm(out_dim, elementwise_affine=True)
        self.activation = nn.GELU()

    def forward(self, hidden_states):
        hidden_states = self.conv(hidden_states)
        hidden_states = hidden_states.transpose(-2, -1)
        hidden_states = self.layer_norm(hidden_states)
        hidden_states = hidden_states.transpose(-2, -1)
        return self.activation(hidden_states)

class Wav2Vec2FeatureExtractor(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_layers = nn.ModuleList([Wav2Vec2LayerNormConvLayer(1, 32, 10, 5),
                                          Wav2Vec2LayerNormConvLayer(32, 32, 3, 2)])

    def forward(self, input_values):
        hidden_states = input_values[:, None]
        for conv_layer in self.conv_layers:
            hidden_states = conv_layer(hidden_states)
        return hidden_states

class Wav2Vec2ForCTC(nn.Module):
    """stand-in of transformers' Wav2Vec2ForCTC (transformers 4.5), reduced"""
    def __init__(self, vocab_size=32):
        super().__init__()
        self.feature_extractor = Wav2Vec2FeatureExtractor()
        self.feature_projection = nn.Sequential(nn.LayerNorm(32), nn.Linear(32, 64))
        self.encoder = nn.Sequential(nn.Linear(64, 64), nn.GELU())
        self.lm_head = nn.Linear(64, vocab_size)

    def forward(self, input_values, attention_mask=None, labels=None):
        extract_features = self.feature_extractor(input_values).transpose(1, 2)
        hidden_states = self.encoder(self.feature_projection(extract_features))
        return {"logits": self.lm_head(hidden_states)}

model = Wav2Vec2ForCTC()
model = model.half().eval()          # the DeepSpeed fp16 engine keeps the weights in float16

# DataCollatorCTCWithPadding output: padded float32 input_values
batch = {
    "input_values": torch.randn(2, 1600),
    "attention_mask": torch.ones(2, 1600, dtype=torch.long),
}
'''
CELL = '''
with torch.no_grad():
    outputs = model(input_values=batch["input_values"], attention_mask=batch["attention_mask"])
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "Input type")
CULPRITS = ["batch['input_values']"]
FIX = "namespace"
REFERENCE_FIX = '''
batch["input_values"] = batch["input_values"].to(dtype=torch.float16)
'''
REFERENCE_EDIT = None
CLEAN = False
