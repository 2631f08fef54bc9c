"""Look-alike: FastSpeech's training batch keeps the durations `D` as int32 next to int64 token ids.

Source: https://github.com/xcmyz/FastSpeech/issues/89
The issue quotes the repository's training code: `character = ...long().to(device)`,
`src_pos = ...long().to(device)`, `D = torch.from_numpy(data_of_batch["D"]).int().to(device)`.
The int32 `D` only drives the length regulator's `repeat_interleave`, which takes int32 repeats;
the ids that index the embeddings are int64. Mixed integer dtypes on purpose, nothing wrong.
The model is stood in for by its embeddings and a length regulator; run on the CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class FastSpeech(nn.Module):
    def __init__(self, n_src_vocab=300, n_position=201, d=64, n_mel=80):
        super().__init__()
        self.src_word_emb = nn.Embedding(n_src_vocab, d, padding_idx=0)
        self.position_enc = nn.Embedding(n_position, d, padding_idx=0)
        self.mel_linear = nn.Linear(d, n_mel)

    def length_regulator(self, x, duration):
        return torch.stack([torch.repeat_interleave(x[b], duration[b], dim=0) for b in range(x.shape[0])])

    def forward(self, src_seq, src_pos, length_target):
        enc = self.src_word_emb(src_seq) + self.position_enc(src_pos)
        return self.mel_linear(self.length_regulator(enc, length_target))

device = torch.device('cpu')
model = FastSpeech().to(device)
data_of_batch = {
    "text": np.array([[12, 45, 7, 88], [3, 19, 2, 5]]),
    "src_pos": np.array([[1, 2, 3, 4], [1, 2, 3, 4]]),
    "D": np.array([[2, 1, 3, 2], [1, 1, 4, 2]], dtype=np.int32),
}
character = torch.from_numpy(data_of_batch["text"]).long().to(device)
src_pos = torch.from_numpy(data_of_batch["src_pos"]).long().to(device)
D = torch.from_numpy(data_of_batch["D"]).int().to(device)
'''
CELL = '''
mel_output = model(character, src_pos, length_target=D)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
