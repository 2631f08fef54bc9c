"""An attention decoder builds its length mask with a hard-coded device="cpu".

Source: https://github.com/GRAAL-Research/deepparse/pull/298
Decoder._attention_mechanism_forward made `mask = torch.arange(longest)[None, :] <
torch.tensor(lengths, device="cpu")[:, None]` and masked the alignment scores, which follow the
model onto the GPU: attention models only worked on the CPU. Stand-in: the decoder's masking step
(written as masked_fill of the padding positions, the same device rule).
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
import torch.nn as nn

class AttentionDecoder(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(hidden, hidden) * 0.1)

    def forward(self, encoder_out, lengths):
        longest = encoder_out.shape[1]
        scores = (encoder_out @ self.weights).sum(-1)
        pad = torch.arange(longest).unsqueeze(0) >= torch.tensor(lengths, device="cpu").unsqueeze(1)
        scores = scores.masked_fill(pad, float("-inf"))
        return torch.softmax(scores, dim=-1)

decoder = AttentionDecoder().to("cuda:0")
encoder_out = torch.randn(3, 6, 16).to("cuda:0")
lengths = [6, 4, 2]
'''
CELL = '''
attention = decoder(encoder_out, lengths)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["decoder"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    'torch.arange(longest).unsqueeze(0) >= torch.tensor(lengths, device="cpu").unsqueeze(1)',
    "torch.arange(longest, device=self.weights.device).unsqueeze(0) "
    ">= torch.tensor(lengths).to(self.weights.device).unsqueeze(1)",
)
CLEAN = False
