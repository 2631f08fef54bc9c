"""Coqui TTS ForwardTTS (multi-speaker, speaker embedding): the speaker-id tensor `g` reaches `emb_g` on the CPU.

Source: https://github.com/idiap/coqui-ai-TTS/pull/378
Training a multi-speaker ForwardTTS model with `use_speaker_embedding` on a GPU failed with "Expected
all tensors to be on the same device, cuda:0 and cpu": the speaker-id tensor `g` taken from the
batch's `aux_input` was still on the CPU while the model's `emb_g` embedding was on cuda. The merged
fix moves `g` to `x.device` in `_forward_encoder` before `self.emb_g(g)`: the line before it,
`g = g.type(torch.LongTensor)`, casts with a CPU tensor type and so also moves `g` to the CPU.
Stand-in: a small ForwardTTS with the same `_forward_encoder` structure (encoder, emb_g, duration
predictor) and a batch whose speaker ids come from the data loader on the CPU.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class ForwardTTS(nn.Module):
    def __init__(self, num_chars=40, hidden=32, num_speakers=4):
        super().__init__()
        self.emb = nn.Embedding(num_chars, hidden)
        self.encoder = nn.Linear(hidden, hidden)
        self.emb_g = nn.Embedding(num_speakers, hidden)
        self.duration_predictor = nn.Linear(hidden, 1)

    def _forward_encoder(self, x, x_mask, g=None):
        if hasattr(self, "emb_g"):
            g = g.type(torch.LongTensor)
            g = self.emb_g(g)
            g = g.unsqueeze(1)
        x_emb = self.emb(x)
        o_en = self.encoder(x_emb) * x_mask.unsqueeze(-1)
        if g is not None:
            o_en = o_en + g
        return o_en, x_mask, g, x_emb

    def forward(self, x, x_lengths, aux_input):
        x_mask = (torch.arange(x.shape[1], device=x.device)[None] < x_lengths[:, None]).float()
        o_en, x_mask, g, _ = self._forward_encoder(x, x_mask, aux_input["speaker_ids"])
        o_dr_log = self.duration_predictor(o_en).squeeze(-1)
        return {"durations_log": o_dr_log}

model = ForwardTTS().to("cuda:0")
text_input = torch.randint(0, 40, (2, 11)).to("cuda:0")
text_lengths = torch.tensor([11, 9]).to("cuda:0")
speaker_ids = torch.tensor([1, 3]).to("cuda:0")
aux_input = {"speaker_ids": speaker_ids}
'''
CELL = '''
outputs = model(text_input, text_lengths, aux_input)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            g = g.type(torch.LongTensor)\n",
                  "            g = g.type(torch.LongTensor).to(x.device)\n")
CLEAN = False
