"""Lightning + DeepSpeed bf16: the batch arrives in bfloat16 while the TransformerEncoder weights are float32.

Source: https://github.com/deepspeedai/DeepSpeed/issues/7573
With `bf16: enabled` the inputs reaching the LightningModule were bfloat16, but the model's
`nn.TransformerEncoder` weights were still float32 ("They still appear to be float32"), and the
first projection raised "expected mat1 and mat2 to have the same dtype, but got: float !=
c10::BFloat16". Reduced to the mismatch itself: a bf16 batch and a float32 model, no autocast;
run on the CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class SeqClassifier(nn.Module):
    def __init__(self, input_dim=16, num_heads=2, num_classes=3):
        super().__init__()
        self.input_proj = nn.Linear(input_dim, input_dim)
        self.transformer_encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(d_model=input_dim, nhead=num_heads, dim_feedforward=32,
                                       batch_first=True),
            num_layers=1)
        self.head = nn.Linear(input_dim, num_classes)

    def forward(self, x):
        return self.head(self.transformer_encoder(self.input_proj(x)).mean(1))

model = SeqClassifier()
model.train()
features = torch.randn(4, 5, 16).to(torch.bfloat16)   # the bf16 batch the engine hands over
labels = torch.randint(0, 3, (4,))
'''
CELL = '''
logits = model(features)
loss = nn.functional.cross_entropy(logits.float(), labels)
'''
EXPECT_ERROR = ("must have the same dtype", "to have the same dtype", "expected scalar type")
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to(torch.bfloat16)
'''
REFERENCE_EDIT = None
CLEAN = False
