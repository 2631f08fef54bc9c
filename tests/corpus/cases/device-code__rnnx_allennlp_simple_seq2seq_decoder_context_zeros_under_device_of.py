"""AllenNLP's SimpleSeq2Seq makes the decoder LSTMCell's initial cell state inside `with torch.cuda.device_of(...)`, which leaves it on the CPU.

Source: https://github.com/allenai/allennlp/issues/431
"simple_seq2seq error, lstm hidden state is not moved to cuda": the simple_seq2seq fixture trained
on the CPU but failed with `cuda_device: 0`. `SimpleSeq2Seq.forward` built
`decoder_context = Variable(torch.zeros(1, self._decoder_output_dim))` under
`with torch.cuda.device_of(decoder_hidden)`, which only selects the current GPU, it does not make
`torch.zeros` a CUDA tensor. The fix (allenai/allennlp#433, "Remove with torch.cuda.device_of,
which doesn't do what we thought") allocates it with `encoder_outputs.data.new()...fill_(0)`.
Reduced: `SimpleSeq2Seq` is a stand-in (embedders, LSTM encoder, LSTMCell decoder, teacher
forcing on the targets); one source/target pair so the (1, dim) state has the batch size; SIM
meta stands for cuda.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable
from torch.nn.modules.rnn import LSTMCell
from torch.nn.modules.linear import Linear

class SimpleSeq2Seq(nn.Module):
    """Stand-in for allennlp.models.encoder_decoders.simple_seq2seq.SimpleSeq2Seq (Oct 2017)."""
    def __init__(self, source_vocab=30, target_vocab=25, embedding_dim=8, hidden_dim=16):
        super().__init__()
        self._source_embedder = nn.Embedding(source_vocab, embedding_dim)
        self._encoder = nn.LSTM(embedding_dim, hidden_dim, batch_first=True)
        self._target_embedder = nn.Embedding(target_vocab, embedding_dim)
        self._decoder_output_dim = hidden_dim
        self._decoder_cell = LSTMCell(embedding_dim, hidden_dim)
        self._output_projection_layer = Linear(hidden_dim, target_vocab)

    def _prepare_decode_step_input(self, input_indices):
        return self._target_embedder(input_indices)

    def forward(self, source_tokens, target_tokens=None):
        embedded_input = self._source_embedder(source_tokens["tokens"])
        batch_size, _, _ = embedded_input.size()
        encoder_outputs, _ = self._encoder(embedded_input)
        final_encoder_output = encoder_outputs[:, -1]  # (batch_size, encoder_output_dim)
        targets = target_tokens["tokens"]
        num_decoding_steps = targets.size()[1] - 1
        decoder_hidden = final_encoder_output
        with torch.cuda.device_of(decoder_hidden):
            decoder_context = Variable(torch.zeros(1, self._decoder_output_dim))
        step_logits = []
        for timestep in range(num_decoding_steps):
            input_choices = targets[:, timestep]
            decoder_input = self._prepare_decode_step_input(input_choices)
            decoder_hidden, decoder_context = self._decoder_cell(decoder_input,
                                                                 (decoder_hidden, decoder_context))
            output_projections = self._output_projection_layer(decoder_hidden)
            step_logits.append(output_projections.unsqueeze(1))
        return {"logits": torch.cat(step_logits, 1)}

cuda_device = torch.device("meta")    # trainer "cuda_device": 0 (SIM meta stands for cuda:0)
model = SimpleSeq2Seq().to(cuda_device)
source_tokens = {"tokens": torch.tensor([[2, 7, 9, 4, 3]]).to(cuda_device)}
target_tokens = {"tokens": torch.tensor([[2, 11, 5, 3]]).to(cuda_device)}
'''
CELL = '''
output_dict = model(source_tokens, target_tokens)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device",
                "Input and hidden tensors are not at the same device")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        with torch.cuda.device_of(decoder_hidden):\n"
    "            decoder_context = Variable(torch.zeros(1, self._decoder_output_dim))\n",
    "        decoder_context = Variable(encoder_outputs.data.new()\n"
    "                                   .resize_(batch_size, self._decoder_output_dim).fill_(0))\n",
)
CLEAN = False
