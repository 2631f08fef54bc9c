"""torchsummary on a captioning decoder: the random dummy input it builds is float, the Embedding wants indices.

Source: https://github.com/sksq96/pytorch-summary/issues/64
`summary(decoder, input_size)` on a model whose forward starts with `embeddings =
self.embedding(encoded_captions)` failed with "Expected tensor for argument #1 'indices' to have
scalar type Long; but got torch.cuda.FloatTensor instead (while checking arguments for
embedding)": `summary` feeds `torch.rand(2, *in_size).type(dtype)` with a float dtype. The fix in
the fork linked from the issue lets the caller pass integer input dtypes, which this stand-in's
edit does for the one input. Stand-in: `summary` reduced to the dummy input and the forward call
(no hooks/printing); CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch
import torch.nn as nn

def summary(model, input_size, batch_size=-1, device="cpu"):
    dtype = torch.FloatTensor
    if isinstance(input_size, tuple):
        input_size = [input_size]
    x = [torch.rand(2, *in_size).type(dtype) for in_size in input_size]
    model.eval()
    with torch.no_grad():
        out = model(*x)
    return [tuple(out.shape)]

class DecoderWithAttention(nn.Module):
    def __init__(self, vocab_size=100, embed_dim=16, decoder_dim=32):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        self.decode_step = nn.LSTM(embed_dim, decoder_dim, batch_first=True)
        self.fc = nn.Linear(decoder_dim, vocab_size)

    def forward(self, encoded_captions):
        embeddings = self.embedding(encoded_captions)
        h, _ = self.decode_step(embeddings)
        return self.fc(h)

decoder = DecoderWithAttention()
'''
CELL = '''
shapes = summary(decoder, (20,))
'''
EXPECT_ERROR = ("Expected tensor for argument #1 'indices'", "scalar type")
CULPRITS = ["summary"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "    x = [torch.rand(2, *in_size).type(dtype) for in_size in input_size]",
    "    x = [torch.rand(2, *in_size).type(torch.LongTensor) for in_size in input_size]",
)
CLEAN = False
