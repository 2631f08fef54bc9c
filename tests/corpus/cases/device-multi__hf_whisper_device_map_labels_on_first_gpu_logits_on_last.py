"""Whisper fine-tuning with the model split over two GPUs: `labels` stay on the first GPU, `proj_out` logits come out on the last.

Source: https://github.com/huggingface/transformers/pull/22779
Fine-tuning `WhisperForConditionalGeneration` loaded with `device_map="auto"` across two GPUs (issue
#22561): the batch is sent to `model.device` (the first GPU, where the encoder sits) while the
decoder and `proj_out` run on the second, so `CrossEntropyLoss()(lm_logits.view(-1, vocab),
labels.reshape(-1))` gets tensors on cuda:1 and cuda:0. The PR moves `labels` to
`lm_logits.device` inside the model's forward, as was done for other models. Stand-in: encoder /
decoder / proj_out placed as accelerate's hf_device_map would, the hooks by explicit moves.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
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
            loss = loss_fct(lm_logits.view(-1, self.vocab_size), labels.reshape(-1))
        return loss, lm_logits

device_map = {"encoder": "cuda:0", "embed_tokens": "cuda:1", "decoder": "cuda:1", "proj_out": "cuda:1"}
model = WhisperForConditionalGeneration().dispatch(device_map)     # from_pretrained(..., device_map="auto")
batch = {"input_features": torch.randn(2, 80, 300),
         "decoder_input_ids": torch.randint(0, 512, (2, 12)),
         "labels": torch.randint(0, 512, (2, 12))}
batch = {k: v.to(model.device) for k, v in batch.items()}
'''
CELL = '''
loss, logits = model(**batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["batch['labels']"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "            loss_fct = CrossEntropyLoss()\n",
    "            loss_fct = CrossEntropyLoss()\n            labels = labels.to(lm_logits.device)\n",
)
CLEAN = False
