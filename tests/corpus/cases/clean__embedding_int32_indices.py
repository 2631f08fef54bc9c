"""Look-alike: nn.Embedding looked up with int32 token ids.

Source: https://github.com/aioz-ai/MICCAI19-MedVQA/issues/10
"Expected tensor for argument #1 'indices' to have scalar type Long; but got CUDAIntTensor" was
the error on old PyTorch; embedding has accepted Int as well as Long indices for years ("one of
the following scalar types: Long, Int"). int32 ids are fine and must not be reported.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class QuestionEmbedding(nn.Module):
    def __init__(self, ntoken=100, emb_dim=16):
        super().__init__()
        self.emb = nn.Embedding(ntoken + 1, emb_dim, padding_idx=ntoken)
        self.rnn = nn.GRU(emb_dim, 32, batch_first=True)

    def forward(self, q):
        out, _ = self.rnn(self.emb(q))
        return out[:, -1]

w_emb = QuestionEmbedding()
q = torch.from_numpy(np.random.randint(0, 100, (4, 12)).astype(np.int32))
'''
CELL = '''
q_emb = w_emb(q)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
