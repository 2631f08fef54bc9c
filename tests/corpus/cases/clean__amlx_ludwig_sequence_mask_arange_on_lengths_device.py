"""Ludwig `sequence_mask`: the comparison row vector is built on `lengths.device` inside a GPU encoder.

Source: https://github.com/ludwig-ai/ludwig/blob/master/ludwig/utils/torch_utils.py (sequence_length_2D, sequence_mask)
`sequence_length_2D` counts the non-padding tokens of a batch (on the batch's device) and
`sequence_mask(lengths, maxlen)` compares them with `torch.arange(0, maxlen, 1, device=lengths.device)`,
so a mask made inside `forward` of a model on the GPU is on the GPU too. Look-alike: an index vector
created per call inside a helper, which a reader may suspect of defaulting to the CPU; it does not.
Stand-ins: Ludwig's `sequence_length_2D`/`sequence_mask` and a small embed + masked-average sequence encoder.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from typing import Optional
import torch
from torch import nn

PADDING = 0

def sequence_length_2D(sequence: torch.Tensor) -> torch.Tensor:
    """Returns the number of non-padding elements per sequence in batch."""
    used = (sequence != PADDING).type(torch.int32)
    length = torch.sum(used, 1)
    return length

def sequence_mask(lengths: torch.Tensor, maxlen: Optional[int] = None, dtype: torch.dtype = torch.bool):
    if maxlen is None:
        maxlen = lengths.max()
    matrix = torch.unsqueeze(lengths, dim=-1)
    row_vector = torch.arange(0, maxlen, 1, device=lengths.device)
    mask = row_vector < matrix
    mask = mask.type(dtype)
    return mask

class EmbedAvgEncoder(nn.Module):
    def __init__(self, vocab_size=100, embedding_size=16, max_sequence_length=12):
        super().__init__()
        self.max_sequence_length = max_sequence_length
        self.embed = nn.Embedding(vocab_size, embedding_size, padding_idx=PADDING)
        self.fc = nn.Linear(embedding_size, 8)

    def forward(self, inputs):
        lengths = sequence_length_2D(inputs)
        mask = sequence_mask(lengths, self.max_sequence_length, dtype=torch.float32).unsqueeze(-1)
        embedded = self.embed(inputs) * mask
        avg = embedded.sum(1) / lengths.clamp(min=1).unsqueeze(-1)
        return {"encoder_output": self.fc(avg)}

DEVICE = "cuda:0"
encoder = EmbedAvgEncoder().to(DEVICE)
tokens = torch.randint(1, 100, (32, 12), device=DEVICE)
'''
CELL = '''
with torch.no_grad():
    encoder_output = encoder(tokens)["encoder_output"]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
