"""Look-alike: Whisper split over two GPUs with the PR #22779 fix; `labels` arrive on the first GPU and are moved to the logits' GPU.

Source: https://github.com/huggingface/transformers/pull/22779
With `device_map="auto"` the encoder sits on cuda:0 and the decoder / `proj_out` on cuda:1; the
batch is sent to `model.device` (cuda:0). After the PR the forward does
`labels = labels.to(lm_logits.device)` before the loss, so a model spread over two GPUs and labels
on the other one run as intended. Stand-in: the modules placed as accelerate's hf_device_map would.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.nn import CrossEntropyLoss

class WhisperForConditionalGeneration(nn.Module):
    def __init__(self, n_mels=80, d_model=64, vocab_size=512):
        super().__init__()
        self.vocab_size = vocab_size
        self.encoder = nn.Linear(n_mels, d_model)
        self.embed_tokens = nn.Embedding(vocab_size, d_model)
        self.decoder = nn.Linear(d_model, d_model)
        self.proj_out = nn.Linear(d_model, vocab_size, bias=False)

    def dispatch(self, device_map):
        self.hf_device_map = device_map
        for name, dev in device_map.items():
            getattr(self, name).to(dev)
        return self

    @property
    def device(self):
        return torch.device(self.hf_device_map["encoder"])

    def forward(self, input_features, decoder_input_ids, labels=None):
        enc = self.encoder(input_features.transpose(1, 2)).mean(dim=1, keepdim=True)
        dec_dev = self.hf_device_map["decoder"]
        hidden = self.embed_tokens(decoder_input_ids.to(dec_dev)) + enc.to(dec_dev)
        lm_logits = self.proj_out(torch.tanh(self.decoder(hidden)))
        loss = None
        if labels is not None:
            loss_fct = CrossEntropyLoss()
            labels = labels.to(lm_logits.device)
            loss = loss_fct(lm_logits.view(-1, self.vocab_size), labels.reshape(-1))
        return loss, lm_logits

device_map = {"encoder": "cuda:0", "embed_tokens": "cuda:1", "decoder": "cuda:1", "proj_out": "cuda:1"}
model = WhisperForConditionalGeneration().dispatch(device_map)
batch = {"input_features": torch.randn(2, 80, 300),
         "decoder_input_ids": torch.randint(0, 512, (2, 12)),
         "labels": torch.randint(0, 512, (2, 12))}
batch = {k: v.to(model.device) for k, v in batch.items()}
'''
CELL = '''
loss, logits = model(**batch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
