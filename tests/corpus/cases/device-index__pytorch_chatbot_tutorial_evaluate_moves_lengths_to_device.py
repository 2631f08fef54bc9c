"""Chatbot tutorial's `evaluate()` moves the sentence `lengths` to the GPU before the encoder packs them.

Source: https://github.com/pytorch/tutorials/issues/1300
After training the chatbot tutorial's model, talking to it failed with "'lengths' argument should
be a 1D CPU int64 tensor, but got 1D cuda:0 Long tensor": `evaluate()` did
`input_batch = input_batch.to(device)` and `lengths = lengths.to(device)`, and
`GreedySearchDecoder` hands the lengths to `EncoderRNN`, whose `pack_padded_sequence` wants them on
the CPU (fixed in pytorch/tutorials#1535). Stand-in: the tutorial's encoder, a decoder without
attention, and a toy vocabulary; `evaluate` returns token ids (no `.item()` on meta). Simulated with
meta as the accelerator.
"""

SIM = "meta"
FAMILY = "device-index"
SETUP = '''
import torch
import torch.nn as nn

device = torch.device("meta")
SOS_token, EOS_token, MAX_LENGTH = 1, 2, 10

class Voc:
    def __init__(self):
        self.word2index = {"hello": 3, "how": 4, "are": 5, "you": 6, "?": 7}
        self.num_words = 40

def indexesFromSentence(voc, sentence):
    return [voc.word2index.get(word, 8) for word in sentence.split(" ")] + [EOS_token]

class EncoderRNN(nn.Module):
    def __init__(self, hidden_size, embedding, n_layers=1):
        super().__init__()
        self.n_layers, self.hidden_size, self.embedding = n_layers, hidden_size, embedding
        self.gru = nn.GRU(hidden_size, hidden_size, n_layers, bidirectional=True)

    def forward(self, input_seq, input_lengths, hidden=None):
        embedded = self.embedding(input_seq)
        packed = nn.utils.rnn.pack_padded_sequence(embedded, input_lengths)
        outputs, hidden = self.gru(packed, hidden)
        outputs, _ = nn.utils.rnn.pad_packed_sequence(outputs)
        outputs = outputs[:, :, :self.hidden_size] + outputs[:, :, self.hidden_size:]
        return outputs, hidden

class DecoderRNN(nn.Module):
    def __init__(self, embedding, hidden_size, output_size, n_layers=1):
        super().__init__()
        self.embedding = embedding
        self.gru = nn.GRU(hidden_size, hidden_size, n_layers)
        self.out = nn.Linear(hidden_size, output_size)

    def forward(self, input_step, last_hidden, encoder_outputs):
        rnn_output, hidden = self.gru(self.embedding(input_step), last_hidden)
        context = encoder_outputs.mean(dim=0, keepdim=True)
        return torch.softmax(self.out((rnn_output + context).squeeze(0)), dim=1), hidden

class GreedySearchDecoder(nn.Module):
    def __init__(self, encoder, decoder):
        super().__init__()
        self.encoder, self.decoder = encoder, decoder

    def forward(self, input_seq, input_length, max_length):
        encoder_outputs, encoder_hidden = self.encoder(input_seq, input_length)
        decoder_hidden = encoder_hidden[:decoder.gru.num_layers]
        decoder_input = torch.ones(1, 1, device=device, dtype=torch.long) * SOS_token
        all_tokens = torch.zeros([0], device=device, dtype=torch.long)
        all_scores = torch.zeros([0], device=device)
        for _ in range(max_length):
            decoder_output, decoder_hidden = self.decoder(decoder_input, decoder_hidden, encoder_outputs)
            decoder_scores, decoder_input = torch.max(decoder_output, dim=1)
            all_tokens = torch.cat((all_tokens, decoder_input), dim=0)
            all_scores = torch.cat((all_scores, decoder_scores), dim=0)
            decoder_input = torch.unsqueeze(decoder_input, 0)
        return all_tokens, all_scores

def evaluate(searcher, voc, sentence, max_length=MAX_LENGTH):
    ### Format input sentence as a batch
    indexes_batch = [indexesFromSentence(voc, sentence)]
    lengths = torch.tensor([len(indexes) for indexes in indexes_batch])
    input_batch = torch.LongTensor(indexes_batch).transpose(0, 1)
    # Use appropriate device
    input_batch = input_batch.to(device)
    lengths = lengths.to(device)
    # Decode sentence with searcher
    tokens, scores = searcher(input_batch, lengths, max_length)
    return tokens

voc = Voc()
hidden_size = 32
embedding = nn.Embedding(voc.num_words, hidden_size)
encoder = EncoderRNN(hidden_size, embedding).to(device)
decoder = DecoderRNN(embedding, hidden_size, voc.num_words).to(device)
encoder.eval()
decoder.eval()
searcher = GreedySearchDecoder(encoder, decoder)
'''
CELL = '''
tokens = evaluate(searcher, voc, "hello how are you ?")
'''
EXPECT_ERROR = "'lengths' argument should be a 1D CPU int64 tensor"
CULPRITS = ["lengths"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    lengths = lengths.to(device)\n", "    lengths = lengths.to(\"cpu\")\n")
CLEAN = False
