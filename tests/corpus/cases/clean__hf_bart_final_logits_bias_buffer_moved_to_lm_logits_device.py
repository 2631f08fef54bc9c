"""Look-alike: BART for summarization split over two GPUs (PR #22591): the `final_logits_bias` buffer and the labels are moved to the lm_logits' GPU.

Source: https://github.com/huggingface/transformers/pull/22591
BartForConditionalGeneration registers `final_logits_bias` as a buffer on the model itself; with a device_map the
buffer stays with the top-level module on cuda:0 while `lm_head` is placed on cuda:1. The PR's forward does
`lm_logits = lm_logits + self.final_logits_bias.to(lm_logits.device)` and `labels = labels.to(lm_logits.device)`,
so the buffer, the labels and the logits sit on different GPUs on purpose and the loss is computed. Stand-in:
encoder / decoder / lm_head placed as an hf_device_map would.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.nn import CrossEntropyLoss

class BartForConditionalGeneration(nn.Module):
    def __init__(self, vocab_size=50265, d_model=32):
        super().__init__()
        self.vocab_size = vocab_size
        self.shared = nn.Embedding(vocab_size, d_model)
        self.encoder = nn.Linear(d_model, d_model)
        self.decoder = nn.Linear(d_model, d_model)
        self.lm_head = nn.Linear(d_model, vocab_size, bias=False)
        self.register_buffer("final_logits_bias", torch.zeros((1, vocab_size)))

    def dispatch(self, device_map):
        self.hf_device_map = device_map
        for name, dev in device_map.items():
            self.get_submodule(name).to(dev)
        self.final_logits_bias = self.final_logits_bias.to(device_map[""])
        return self

    def forward(self, input_ids, attention_mask=None, decoder_input_ids=None, labels=None):
        enc = torch.tanh(self.encoder(self.shared(input_ids))).mean(1, keepdim=True)
        dec_dev = self.decoder.weight.device
        hidden = torch.tanh(self.decoder(self.shared(decoder_input_ids).to(dec_dev) + enc.to(dec_dev)))
        lm_logits = self.lm_head(hidden.to(self.lm_head.weight.device))
        lm_logits = lm_logits + self.final_logits_bias.to(lm_logits.device)
        masked_lm_loss = None
        if labels is not None:
            labels = labels.to(lm_logits.device)
            loss_fct = CrossEntropyLoss()
            masked_lm_loss = loss_fct(lm_logits.view(-1, self.vocab_size), labels.view(-1))
        return masked_lm_loss, lm_logits

device_map = {"": "cuda:0", "shared": "cuda:0", "encoder": "cuda:0", "decoder": "cuda:1", "lm_head": "cuda:1"}
model = BartForConditionalGeneration().dispatch(device_map)
batch = {"input_ids": torch.randint(3, 50265, (2, 40)), "attention_mask": torch.ones(2, 40, dtype=torch.long),
         "decoder_input_ids": torch.randint(3, 50265, (2, 12)), "labels": torch.randint(3, 50265, (2, 12))}
batch = {k: v.to("cuda:0") for k, v in batch.items()}
'''
CELL = '''
loss, lm_logits = model(**batch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
