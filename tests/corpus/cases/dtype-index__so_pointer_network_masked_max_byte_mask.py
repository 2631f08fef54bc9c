"""Pointer network (sorting task): `masked_max` builds its fill mask with `(1.0 - mask).byte()`.

Source: https://github.com/ast0414/pointer-networks-pytorch/issues/1
"masked_fill_ function UserWarning fix": training the repository's PointerNet printed "masked_fill_
received a mask with dtype torch.uint8, this behavior is now deprecated, please use a mask with dtype
torch.bool instead", raised from `masked_max`, where `one_minus_mask = (1.0 - mask).byte()` is passed
to `vector.masked_fill(...)`; the fix (PR #2) makes `one_minus_mask` a bool tensor. In current
PyTorch the uint8 mask is an error. Stand-in: the model's encoder, attention and decoding loop as in
the repository (one LSTM layer), random sequences to sort.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch
import torch.nn as nn

def masked_log_softmax(vector, mask, dim=-1):
    if mask is not None:
        mask = mask.float()
        while mask.dim() < vector.dim():
            mask = mask.unsqueeze(1)
        vector = vector + (mask + 1e-45).log()
    return torch.nn.functional.log_softmax(vector, dim=dim)

def masked_max(vector, mask, dim, keepdim=False, min_val=-1e7):
    one_minus_mask = (1.0 - mask).byte()
    replaced_vector = vector.masked_fill(one_minus_mask, min_val)
    max_value, max_index = replaced_vector.max(dim=dim, keepdim=keepdim)
    return max_value, max_index

class Encoder(nn.Module):
    def __init__(self, embedding_dim, hidden_size, num_layers=1, batch_first=True, bidirectional=True):
        super(Encoder, self).__init__()
        self.batch_first = batch_first
        self.rnn = nn.LSTM(input_size=embedding_dim, hidden_size=hidden_size, num_layers=num_layers,
                           batch_first=batch_first, bidirectional=bidirectional)
    def forward(self, embedded_inputs, input_lengths):
        packed = nn.utils.rnn.pack_padded_sequence(embedded_inputs, input_lengths, batch_first=self.batch_first)
        outputs, hidden = self.rnn(packed)
        outputs, _ = nn.utils.rnn.pad_packed_sequence(outputs, batch_first=self.batch_first)
        return outputs, hidden

class Attention(nn.Module):
    def __init__(self, hidden_size):
        super(Attention, self).__init__()
        self.W1 = nn.Linear(hidden_size, hidden_size, bias=False)
        self.W2 = nn.Linear(hidden_size, hidden_size, bias=False)
        self.vt = nn.Linear(hidden_size, 1, bias=False)
    def forward(self, decoder_state, encoder_outputs, mask):
        encoder_transform = self.W1(encoder_outputs)
        decoder_transform = self.W2(decoder_state).unsqueeze(1)
        u_i = self.vt(torch.tanh(encoder_transform + decoder_transform)).squeeze(-1)
        return masked_log_softmax(u_i, mask, dim=-1)

class PointerNet(nn.Module):
    def __init__(self, input_dim, embedding_dim, hidden_size, bidirectional=True, batch_first=True):
        super(PointerNet, self).__init__()
        self.hidden_size = hidden_size
        self.bidirectional = bidirectional
        self.num_directions = 2 if bidirectional else 1
        self.num_layers = 1
        self.embedding = nn.Linear(in_features=input_dim, out_features=embedding_dim, bias=False)
        self.encoder = Encoder(embedding_dim=embedding_dim, hidden_size=hidden_size, num_layers=self.num_layers,
                               bidirectional=bidirectional, batch_first=batch_first)
        self.decoding_rnn = nn.LSTMCell(input_size=hidden_size, hidden_size=hidden_size)
        self.attn = Attention(hidden_size=hidden_size)

    def forward(self, input_seq, input_lengths):
        batch_size = input_seq.size(0)
        max_seq_len = input_seq.size(1)
        embedded = self.embedding(input_seq)
        encoder_outputs, encoder_hidden = self.encoder(embedded, input_lengths)
        if self.bidirectional:
            encoder_outputs = encoder_outputs[:, :, :self.hidden_size] + encoder_outputs[:, :, self.hidden_size:]
        encoder_h_n, encoder_c_n = encoder_hidden
        encoder_h_n = encoder_h_n.view(self.num_layers, self.num_directions, batch_size, self.hidden_size)
        encoder_c_n = encoder_c_n.view(self.num_layers, self.num_directions, batch_size, self.hidden_size)
        decoder_input = encoder_outputs.new_zeros(torch.Size((batch_size, self.hidden_size)))
        decoder_hidden = (encoder_h_n[-1, 0, :, :].squeeze(), encoder_c_n[-1, 0, :, :].squeeze())
        range_tensor = torch.arange(max_seq_len, device=input_lengths.device,
                                    dtype=input_lengths.dtype).expand(batch_size, max_seq_len, max_seq_len)
        each_len_tensor = input_lengths.view(-1, 1, 1).expand(batch_size, max_seq_len, max_seq_len)
        row_mask_tensor = (range_tensor < each_len_tensor)
        col_mask_tensor = row_mask_tensor.transpose(1, 2)
        mask_tensor = row_mask_tensor * col_mask_tensor
        pointer_log_scores, pointer_argmaxs = [], []
        for i in range(max_seq_len):
            sub_mask = mask_tensor[:, i, :].float()
            h_i, c_i = self.decoding_rnn(decoder_input, decoder_hidden)
            decoder_hidden = (h_i, c_i)
            log_pointer_score = self.attn(h_i, encoder_outputs, sub_mask)
            pointer_log_scores.append(log_pointer_score)
            _, masked_argmax = masked_max(log_pointer_score, sub_mask, dim=1, keepdim=True)
            pointer_argmaxs.append(masked_argmax)
            index_tensor = masked_argmax.unsqueeze(-1).expand(batch_size, 1, self.hidden_size)
            decoder_input = torch.gather(encoder_outputs, dim=1, index=index_tensor).squeeze(1)
        return torch.stack(pointer_log_scores, 1), torch.cat(pointer_argmaxs, 1), mask_tensor

model = PointerNet(input_dim=1, embedding_dim=16, hidden_size=32)
input_seq = torch.rand(4, 6, 1)
input_lengths = torch.tensor([6, 5, 5, 3])
'''
CELL = '''
log_pointer_scores, pointer_argmaxs, mask = model(input_seq, input_lengths)
'''
EXPECT_ERROR = "only supports boolean masks"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "one_minus_mask = (1.0 - mask).byte()",
    "one_minus_mask = (1.0 - mask).bool()",
)
CLEAN = False
