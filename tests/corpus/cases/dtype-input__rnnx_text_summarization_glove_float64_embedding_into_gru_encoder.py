"""The summarizer's GRU encoder is fed the output of an Embedding whose weight is the float64 GloVe matrix.

Source: https://github.com/Rhuax/text-summarization/issues/1
Running train.py failed in encoder.py `output,hidden=self.gru(output,hidden)` with "Input and
parameter tensors are not the same dtype, found input tensor with Double and parameter tensor
with Float". `filter_embedding` builds the GloVe matrix with `np.zeros` (float64) and returns
`torch.from_numpy(embeddings)`; `EncoderRNN` installs it as `self.embedding.weight`, so the
embedded tokens are double while the GRU is float32. The author: cast the input to the GRU; the
user's fix, `output=embedded.float()` in `EncoderRNN.forward`. Reduced: a tiny random "GloVe"
matrix, one encoder step; the repo's `.cuda()` calls are left out (one device, SIM cpu).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch.nn import Module, Embedding, GRU
from torch.autograd import Variable
from torch.nn import Parameter

def filter_embedding(n_words, embed_len=100):
    rng = np.random.RandomState(0)
    embeddings = np.zeros((n_words, embed_len))
    for i in range(n_words):
        embeddings[i] = rng.rand(embed_len)     # GloVe vector, or random for new words
    return torch.from_numpy(embeddings)

class EncoderRNN(Module):
    def __init__(self, input_size, hidden_size, pre_trained_embedding):
        super(EncoderRNN, self).__init__()
        self.hidden_size = hidden_size
        self.embedding = Embedding(input_size, pre_trained_embedding.size(1))
        self.embedding.weight = Parameter(pre_trained_embedding)
        self.gru = GRU(pre_trained_embedding.size(1), hidden_size)

    def forward(self, input, hidden):
        embedded = self.embedding(input)
        embedded = embedded.view(1, 1, -1)
        output = embedded
        output, hidden = self.gru(output, hidden)
        return output, hidden

    def initHidden(self):
        result = Variable(torch.zeros(1, 1, self.hidden_size))
        return result

n_words, hidden_size = 50, 256
filtered_embeddings = filter_embedding(n_words)
encoder1 = EncoderRNN(n_words, hidden_size, filtered_embeddings)
input_variable = torch.LongTensor([4, 17, 9, 1]).view(-1, 1)
'''
CELL = '''
encoder_hidden = encoder1.initHidden()
encoder_outputs = torch.zeros(100, encoder1.hidden_size)
for ei in range(input_variable.size()[0]):
    encoder_output, encoder_hidden = encoder1(input_variable[ei], encoder_hidden)
    encoder_outputs[ei] = encoder_output[0][0]
'''
EXPECT_ERROR = ("input dtype (torch.float64) does not match weight dtype (torch.float32)",
                "Input and parameter tensors are not the same dtype",
                "expected scalar type")
CULPRITS = ["encoder1"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        output = embedded\n", "        output = embedded.float()\n")
CLEAN = False
