"""Look-alike: dynamic int8 quantization done on a CPU copy of a GPU-trained LSTM model; int8 packed weights, float32 activations.

Source: https://github.com/pytorch/pytorch/issues/32680
`torch.quantization.quantize_dynamic` on a model that was on the GPU hit an internal assert; the
maintainer: the `convert` step inside `quantize_dynamic` is not supported on the GPU, "you will
need to move the model to CPU" first. The working pattern (as in the dynamic-quantization
tutorial): `quantized_model = quantize_dynamic(model.cpu(), {nn.LSTM, nn.Linear}, dtype=torch.qint8)`,
then evaluate it on CPU float inputs -- qint8 weights inside `DynamicQuantizedLinear` / quantized
LSTM, float32 hidden states and outputs, by design. Stand-in: a small word-level LSTM language
model (the tutorial's structure), random token ids; CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class LSTMModel(nn.Module):
    def __init__(self, ntoken=50, ninp=16, nhid=32, nlayers=2, dropout=0.0):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        self.nhid, self.nlayers = nhid, nlayers

    def forward(self, input, hidden):
        emb = self.encoder(input)
        output, hidden = self.rnn(emb, hidden)
        return self.decoder(output), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(self.nlayers, bsz, self.nhid), weight.new_zeros(self.nlayers, bsz, self.nhid))

model = LSTMModel().eval()          # trained on the GPU, then model.cpu()
quantized_model = torch.ao.quantization.quantize_dynamic(model.cpu(), {nn.LSTM, nn.Linear}, dtype=torch.qint8)
data = torch.randint(0, 50, (12, 4))
'''
CELL = '''
hidden = model.init_hidden(4)
with torch.no_grad():
    output, hidden = quantized_model(data, hidden)
print(output.dtype, type(quantized_model.decoder).__name__)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
