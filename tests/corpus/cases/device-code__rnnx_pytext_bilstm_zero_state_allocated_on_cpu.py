"""PyText's BiLSTM representation builds its zero (h0, c0) state with `torch.zeros(...)` and no device.

Source: https://github.com/facebookresearch/pytext/pull/297
"Fix BiLSTM forward crash when input embedding is on GPU": a change that sends an explicit zero
hidden state (so torch.jit tracing does not bake in the batch size) allocated the tensor on the
CPU, which broke with "Input and hidden tensors are not at the same device, found input tensor at
cuda:0 and hidden tensor at cpu" once the embedded tokens were on the GPU. The fix allocates the
state on the device the model runs on. Reduced: `BiLSTM` is a stand-in for
pytext.models.representations.bilstm.BiLSTM (config object, dropout, packed LSTM); SIM meta
stands for the GPU, and the reference edit puts the state on the tokens' device.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

class BiLSTM(nn.Module):
    """Stand-in for pytext.models.representations.bilstm.BiLSTM."""
    class Config:
        dropout = 0.4
        lstm_dim = 32
        num_layers = 1
        bidirectional = True
        bias = True

    def __init__(self, config, embed_dim, padding_value=0.0):
        super().__init__()
        self.config = config
        self.padding_value = padding_value
        self.dropout = nn.Dropout(config.dropout)
        self.lstm = nn.LSTM(embed_dim, config.lstm_dim, num_layers=config.num_layers,
                            bidirectional=config.bidirectional, bias=config.bias)
        self.representation_dim = config.lstm_dim * (2 if config.bidirectional else 1)

    def forward(self, embedded_tokens, seq_lengths, states=None):
        embedded_tokens = self.dropout(embedded_tokens)
        if states is not None:
            states = (states[0].transpose(0, 1).contiguous(),
                      states[1].transpose(0, 1).contiguous())
        else:
            # We need to send in a zero state that matches the batch size, because
            # torch.jit tracing currently traces this as constant
            state = torch.zeros(
                self.config.num_layers * (2 if self.config.bidirectional else 1),
                seq_lengths.size(0),  # batch size
                self.config.lstm_dim,
            )
            states = (state, state)
        rnn_input = pack_padded_sequence(embedded_tokens, seq_lengths, batch_first=True)
        rep, new_state = self.lstm(rnn_input, states)
        rep, _ = pad_packed_sequence(rep, padding_value=self.padding_value, batch_first=True,
                                     total_length=embedded_tokens.size(1))
        new_state = (new_state[0].transpose(0, 1), new_state[1].transpose(0, 1))
        return rep, new_state

device = torch.device("meta")   # the GPU (SIM meta: cpu and meta are the two devices)
representation = BiLSTM(BiLSTM.Config(), embed_dim=16).to(device)
embedded_tokens = torch.randn(4, 7, 16).to(device)   # output of the (GPU) word embedding
seq_lengths = torch.tensor([7, 6, 4, 2])              # lengths stay on the CPU for packing
'''
CELL = '''
rep, new_state = representation(embedded_tokens, seq_lengths)
'''
EXPECT_ERROR = ("Input and hidden tensors are not at the same device",
                "is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["representation"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("                self.config.lstm_dim,\n            )",
                  "                self.config.lstm_dim,\n                device=embedded_tokens.device,\n            )")
CLEAN = False
