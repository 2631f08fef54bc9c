"""Look-alike: a training step under CPU autocast to bfloat16, logits in bf16 and int64 labels.

Source: https://github.com/pytorch/pytorch/issues/132613
Reporting an autocast problem in eval mode, the user noted that autocasting the same encoder to
bfloat16 "works in training time": float32 weights, float32 inputs, bf16 activations produced by
autocast, int64 class labels and a float32 loss. Mixed dtypes here are autocast's doing; nothing
to report. (A linear stand-in for the encoder.)
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

class PoseEncoder(nn.Module):
    def __init__(self, pose_dims=(10, 3), hidden_dim=32, num_classes=5):
        super().__init__()
        self.encoder = nn.Sequential(nn.Flatten(start_dim=2),
                                     nn.Linear(math.prod(pose_dims), hidden_dim, bias=False),
                                     nn.GELU(), nn.Linear(hidden_dim, hidden_dim))
        self.head = nn.Linear(hidden_dim, num_classes)

    def forward(self, batch):
        return self.head(self.encoder(batch).mean(1))

model = PoseEncoder()
model.train()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
batch = torch.randn(2, 6, 10, 3)
labels = torch.randint(0, 5, (2,))
'''
CELL = '''
with torch.autocast("cpu", dtype=torch.bfloat16):
    logits = model(batch)
    loss = nn.functional.cross_entropy(logits, labels)
loss.backward()
optimizer.step()
optimizer.zero_grad()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
