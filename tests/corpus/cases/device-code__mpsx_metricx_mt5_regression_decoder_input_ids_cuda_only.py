"""metricx-24: MT5ForRegression.forward builds `decoder_input_ids` on the CPU and only moves it when CUDA exists.

Source: https://github.com/google-research/metricx/issues/17
Running `metricx-24-hybrid` on Apple Silicon (model and batch on mps) failed inside the mT5
embedding ("Placeholder storage has not been allocated on MPS device!"): `forward` makes
`decoder_input_ids = torch.LongTensor([0]).repeat(batch_size).reshape(-1, 1)` and only moves it with
`if torch.cuda.is_available(): ... .to(torch.device("cuda"))`, so on mps it stays on the CPU. The
reporter's fix builds it with `device=input_ids.device`. Stand-in: mT5 reduced to a shared embedding,
one encoder layer, one decoder step and the regression head; cuda:0 stands in for mps (the simulation
has no CUDA, so `torch.cuda.is_available()` is False as on the reporter's Mac).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class MT5ForRegression(nn.Module):
    def __init__(self, vocab_size=250, d_model=32):
        super().__init__()
        self.shared = nn.Embedding(vocab_size, d_model)
        self.encoder = nn.TransformerEncoderLayer(d_model, 4, 64, batch_first=True)
        self.decoder_proj = nn.Linear(2 * d_model, d_model)
        self.lm_head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, input_ids, attention_mask=None):
        batch_size = input_ids.size(0)
        decoder_input_ids = torch.LongTensor([0]).repeat(batch_size).reshape(-1, 1)
        if torch.cuda.is_available():
            decoder_input_ids = decoder_input_ids.to(torch.device("cuda"))
        encoder_hidden = self.encoder(self.shared(input_ids))
        dec = self.shared(decoder_input_ids)
        dec = torch.tanh(self.decoder_proj(torch.cat([dec, encoder_hidden.mean(1, keepdim=True)], -1)))
        lm_logits = self.lm_head(dec)
        predictions = lm_logits[:, 0, 250089 % 250]
        return torch.clamp(predictions, 0, 25)

device = torch.device("cuda:0")      # the reporter's torch.device("mps")
model = MT5ForRegression().to(device)
model.eval()
input_ids = torch.randint(0, 250, (2, 16)).to(device)
attention_mask = torch.ones(2, 16, dtype=torch.long).to(device)
'''
CELL = '''
predictions = model(input_ids=input_ids, attention_mask=attention_mask)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("decoder_input_ids = torch.LongTensor([0]).repeat(batch_size).reshape(-1, 1)",
                  "decoder_input_ids = torch.zeros((batch_size, 1), dtype=torch.long, device=input_ids.device)")
CLEAN = False
