"""FastSpeech inference/export: the phoneme ids and positions are cast with `.float()` before the embeddings.

Source: https://github.com/xcmyz/FastSpeech/issues/89
Preparing the model for ONNX export the user wrote
`sequence = torch.autograd.Variable(torch.from_numpy(text)).cuda().float()` and the same for
`src_pos`, and got "Expected tensor for argument #1 'indices' to have scalar type Long; but got
torch.cuda.FloatTensor instead (while checking arguments for embedding)": the encoder looks both
up in `nn.Embedding` tables, which need integer indices (the training code uses `.long()`).
The FastSpeech encoder is stood in for by its two embeddings and one layer; run on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class Encoder(nn.Module):
    def __init__(self, n_src_vocab=300, len_max_seq=200, d_word_vec=64):
        super().__init__()
        n_position = len_max_seq + 1
        self.src_word_emb = nn.Embedding(n_src_vocab, d_word_vec, padding_idx=0)
        self.position_enc = nn.Embedding(n_position, d_word_vec, padding_idx=0)
        self.layer = nn.Linear(d_word_vec, d_word_vec)

    def forward(self, src_seq, src_pos):
        enc_output = self.src_word_emb(src_seq) + self.position_enc(src_pos)
        return self.layer(enc_output)

class FastSpeech(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()

    def forward(self, src_seq, src_pos, alpha=1.0):
        return self.encoder(src_seq, src_pos)

model = FastSpeech().eval()
text = np.array([[12, 45, 7, 88, 3, 19, 2]])
src_pos = np.array([[i + 1 for i in range(text.shape[1])]])
sequence = torch.autograd.Variable(torch.from_numpy(text)).float()
src_pos = torch.autograd.Variable(torch.from_numpy(src_pos)).float()
'''
CELL = '''
with torch.no_grad():
    encoder_output = model(sequence, src_pos, alpha=1.0)
'''
EXPECT_ERROR = "Expected tensor for argument #1 'indices' to have one of the following scalar types"
CULPRITS = ["sequence", "src_pos"]
FIX = "namespace"
REFERENCE_FIX = '''
sequence = sequence.long()
src_pos = src_pos.long()
'''
REFERENCE_EDIT = None
CLEAN = False
