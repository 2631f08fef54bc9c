"""Video + label network: random integer labels are fed straight into the label branch's Linear layer.

Source: https://github.com/pytorch/pytorch/issues/118280
"Error message reported is reverse RuntimeError: expected scalar type Long but found Float": the
user's VestibularNetwork concatenates a video branch with `self.label_block(labels)`, and the test
call `model(random_video_frames, random_labels)` passed integer labels from `torch.randint`, which
the float Linear layer cannot multiply (current PyTorch: "mat1 and mat2 must have the same dtype").
The labels must be cast to float before they enter the layer.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class VestibularNetwork(nn.Module):
    def __init__(self, num_labels=3, hidden=16, n_out=4):
        super().__init__()
        self.video_block = nn.Sequential(nn.Conv3d(3, 4, 3, padding=1), nn.ReLU(),
                                         nn.AdaptiveAvgPool3d(1), nn.Flatten(), nn.Linear(4, hidden))
        self.label_block = nn.Sequential(nn.Linear(num_labels, hidden), nn.ReLU())
        self.head = nn.Linear(2 * hidden, n_out)

    def forward(self, video_frames, labels):
        video_x = self.video_block(video_frames)
        label_x = self.label_block(labels)
        return self.head(torch.cat((video_x, label_x), dim=1))

model = VestibularNetwork()
model.eval()
random_video_frames = torch.randn(2, 3, 8, 16, 16)
random_labels = torch.randint(0, 2, (2, 3))
'''
CELL = '''
with torch.inference_mode():
    pred = model(random_video_frames, random_labels)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected scalar type")
CULPRITS = ["random_labels"]
FIX = "namespace"
REFERENCE_FIX = '''
random_labels = random_labels.float()
'''
REFERENCE_EDIT = None
CLEAN = False
