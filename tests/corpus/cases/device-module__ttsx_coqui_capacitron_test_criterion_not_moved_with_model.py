"""Coqui TTS TacotronCapacitronTrainTest on a GPU: `model.get_criterion()` stays on the CPU while the model is on cuda.

Source: https://github.com/coqui-ai/TTS/issues/2184
Running `tests.tts_tests.test_tacotron2_model.TacotronCapacitronTrainTest` with CUDA failed in
`model.train_step(batch, criterion)` -> `TacotronLoss.forward` -> `self.criterion_st(...)` with
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!";
the reporter had checked that every input to the criterion was on cuda. The criterion itself was not:
`BCELossMasked` holds `pos_weight` as an `nn.Parameter`, and the test built the loss with
`criterion = model.get_criterion()` after `Tacotron2(config).to(device)`. The maintainers' fix
(commit "Fix capacitron test when cuda is enabled") is `criterion = model.get_criterion().to(device)`.
Stand-in: a reduced Tacotron2 (embedding, decoder and stopnet linears) with `get_criterion` and
`train_step`, BCELossMasked and the L1/stopnet part of TacotronLoss.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn
from torch.nn import functional

def sequence_mask(sequence_length, max_len=None):
    if max_len is None:
        max_len = sequence_length.max()
    seq_range = torch.arange(max_len, dtype=sequence_length.dtype, device=sequence_length.device)
    return seq_range.unsqueeze(0) < sequence_length.unsqueeze(1)

class BCELossMasked(nn.Module):
    def __init__(self, pos_weight=None):
        super().__init__()
        self.pos_weight = nn.Parameter(torch.tensor([pos_weight]), requires_grad=False)

    def forward(self, x, target, length):
        mask = sequence_mask(sequence_length=length, max_len=target.size(1)).float()
        num_items = mask.sum()
        loss = functional.binary_cross_entropy_with_logits(x * mask, target * mask,
                                                          pos_weight=self.pos_weight, reduction="sum")
        return loss / num_items

class TacotronLoss(nn.Module):
    def __init__(self, stopnet_pos_weight=10.0):
        super().__init__()
        self.criterion = nn.L1Loss()
        self.criterion_st = BCELossMasked(pos_weight=stopnet_pos_weight)

    def forward(self, postnet_output, decoder_output, mel_input, stopnet_output, stopnet_target,
                stop_target_length):
        decoder_loss = self.criterion(decoder_output, mel_input)
        postnet_loss = self.criterion(postnet_output, mel_input)
        stop_loss = self.criterion_st(stopnet_output, stopnet_target, stop_target_length)
        return {"loss": decoder_loss + postnet_loss + stop_loss, "stopnet_loss": stop_loss}

class Tacotron2(nn.Module):
    def __init__(self, num_chars=24, hidden=16, out_channels=8):
        super().__init__()
        self.embedding = nn.Embedding(num_chars, hidden)
        self.decoder = nn.Linear(hidden, out_channels)
        self.postnet = nn.Linear(out_channels, out_channels)
        self.stopnet = nn.Linear(out_channels, 1)

    def forward(self, text_input):
        h = self.embedding(text_input)
        decoder_outputs = self.decoder(h)
        postnet_outputs = decoder_outputs + self.postnet(decoder_outputs)
        return {"model_outputs": postnet_outputs, "decoder_outputs": decoder_outputs,
                "stop_tokens": self.stopnet(decoder_outputs).squeeze(-1)}

    def get_criterion(self):
        return TacotronLoss(stopnet_pos_weight=10.0)

    def train_step(self, batch, criterion):
        outputs = self.forward(batch["text_input"])
        loss_dict = criterion(outputs["model_outputs"].float(), outputs["decoder_outputs"].float(),
                              batch["mel_input"].float(), outputs["stop_tokens"].float(),
                              batch["stop_targets"].float(), batch["mel_lengths"])
        return outputs, loss_dict

device = torch.device("cuda:0")
batch = {
    "text_input": torch.randint(0, 24, (8, 12)).to(device),
    "mel_input": torch.rand(8, 12, 8).to(device),
    "mel_lengths": torch.randint(6, 12, (8,)).long().to(device),
    "stop_targets": torch.zeros(8, 12).to(device),
}

model = Tacotron2().to(device)
criterion = model.get_criterion()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
'''
CELL = '''
model.train()
_, loss_dict = model.train_step(batch, criterion)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["criterion"]
FIX = "namespace"
REFERENCE_FIX = '''
criterion = criterion.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
