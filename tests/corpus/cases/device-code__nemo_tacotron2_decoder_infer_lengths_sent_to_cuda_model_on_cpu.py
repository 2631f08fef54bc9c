"""NeMo Tacotron2 moved to the CPU on a GPU machine: Decoder.infer still sends its step counters to CUDA.

Source: https://github.com/NVIDIA-NeMo/Speech/pull/7444
The documented snippet works on the GPU, but with `Tacotron2Model.from_pretrained("tts_en_tacotron2")
.to("cpu")` `generate_spectrogram` fails with "Expected all tensors to be on the same device, but
found at least two devices, cuda:0 and cpu!": `Decoder.infer` creates `mel_lengths` and
`not_finished` and moves them with `.cuda()` whenever `torch.cuda.is_available()`, not when the
inputs are on the GPU; the PR checks the memory's device instead. Stand-in: the decoder's inference
loop with linear prenet/attention/gate; "meta" plays the GPU, so the CPU model computes for real
and `torch.cuda.is_available()` (true on the reporter's machine) is written as `gpu_available()`.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def gpu_available():
    return True      # torch.cuda.is_available() on the reporter's GPU machine

class Decoder(nn.Module):
    def __init__(self, n_mel_channels=80, encoder_embedding_dim=64, max_decoder_steps=20, gate_threshold=0.5):
        super().__init__()
        self.n_mel_channels = n_mel_channels
        self.max_decoder_steps = max_decoder_steps
        self.gate_threshold = gate_threshold
        self.prenet = nn.Sequential(nn.Linear(n_mel_channels, 64), nn.ReLU())
        self.attention = nn.Linear(64 + encoder_embedding_dim, encoder_embedding_dim)
        self.linear_projection = nn.Linear(64 + encoder_embedding_dim, n_mel_channels)
        self.gate_layer = nn.Linear(64 + encoder_embedding_dim, 1)

    def get_go_frame(self, memory):
        return memory.new_zeros(memory.size(0), self.n_mel_channels)

    def decode(self, decoder_input, memory):
        p = self.prenet(decoder_input)
        context = torch.tanh(self.attention(torch.cat([p, memory.mean(dim=1)], dim=-1)))
        h = torch.cat([p, context], dim=-1)
        return self.linear_projection(h), self.gate_layer(h)

    def infer(self, memory, memory_lengths):
        decoder_input = self.get_go_frame(memory)
        mel_lengths = torch.zeros([memory.size(0)], dtype=torch.int32)
        not_finished = torch.ones([memory.size(0)], dtype=torch.int32)
        if gpu_available():
            mel_lengths = mel_lengths.to("meta")        # .cuda()
            not_finished = not_finished.to("meta")      # .cuda()
        mel_outputs, gate_outputs = [], []
        while True:
            mel_output, gate_output = self.decode(decoder_input, memory)
            mel_outputs.append(mel_output)
            gate_outputs.append(gate_output)
            dec = torch.le(torch.sigmoid(gate_output.data), self.gate_threshold).to(torch.int32).squeeze(1)
            not_finished = not_finished * dec
            mel_lengths += not_finished
            if torch.sum(not_finished) == 0:
                break
            if len(mel_outputs) == self.max_decoder_steps:
                break
            decoder_input = mel_output
        return torch.stack(mel_outputs, dim=2), torch.stack(gate_outputs, dim=1), mel_lengths

class Tacotron2Model(nn.Module):
    def __init__(self, n_symbols=148, encoder_embedding_dim=64):
        super().__init__()
        self.text_embedding = nn.Embedding(n_symbols, encoder_embedding_dim)
        self.encoder = nn.Linear(encoder_embedding_dim, encoder_embedding_dim)
        self.decoder = Decoder(encoder_embedding_dim=encoder_embedding_dim)

    def parse(self, text):
        return torch.tensor([[min(ord(c), 147) for c in text.lower()]])

    @torch.no_grad()
    def generate_spectrogram(self, tokens):
        memory = self.encoder(self.text_embedding(tokens))
        token_len = torch.tensor([tokens.size(1)] * tokens.size(0))
        mel, gates, mel_lengths = self.decoder.infer(memory=memory, memory_lengths=token_len)
        return mel

spec_generator = Tacotron2Model().to("cpu")     # from_pretrained("tts_en_tacotron2").to("cpu")
parsed = spec_generator.parse("You can type your sentence here to get nemo to produce speech.")
'''
CELL = '''
spectrogram = spec_generator.generate_spectrogram(tokens=parsed)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["spec_generator.decoder"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        if gpu_available():\n", "        if memory.device.type != \"cpu\":\n")
CLEAN = False
