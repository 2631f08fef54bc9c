"""Look-alike: M2M100 translation fine-tuning with the model split over two GPUs; accelerate-style hooks move each block's inputs and the forward moves the labels to the logits' GPU (PR #22850).

Source: https://github.com/huggingface/transformers/pull/22850
"move labels to the same device as logits for M2M100" (part of issue #22561, model parallelism): with
`device_map="auto"` the encoder sits on cuda:0 and the decoder and lm_head on cuda:1; accelerate's
AlignDevicesHook moves every dispatched module's inputs to that module's device, and after the PR the loss does
`labels = labels.to(lm_logits.device)`. The batch stays on cuda:0 while half the weights are on cuda:1, and the
step runs. Stand-ins: a pre-forward hook playing AlignDevicesHook, tiny encoder/decoder/lm_head.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.nn import CrossEntropyLoss

def add_align_devices_hook(module, device):
    def pre_forward(mod, args):
        return tuple(a.to(device) if isinstance(a, torch.Tensor) else a for a in args)
    module.to(device)
    module.register_forward_pre_hook(pre_forward)

class Encoder(nn.Module):
    def __init__(self, vocab_size, d):
        super().__init__()
        self.embed_tokens, self.layer = nn.Embedding(vocab_size, d), nn.Linear(d, d)
    def forward(self, input_ids):
        return torch.tanh(self.layer(self.embed_tokens(input_ids)))

class Decoder(nn.Module):
    def __init__(self, vocab_size, d):
        super().__init__()
        self.embed_tokens, self.layer = nn.Embedding(vocab_size, d), nn.Linear(d, d)
    def forward(self, decoder_input_ids, encoder_hidden_states):
        return torch.tanh(self.layer(self.embed_tokens(decoder_input_ids) + encoder_hidden_states.mean(1, keepdim=True)))

class M2M100ForConditionalGeneration(nn.Module):
    def __init__(self, vocab_size=128112, d_model=32):
        super().__init__()
        self.vocab_size = vocab_size
        self.encoder, self.decoder = Encoder(vocab_size, d_model), Decoder(vocab_size, d_model)
        self.lm_head = nn.Linear(d_model, vocab_size, bias=False)
    def forward(self, input_ids, decoder_input_ids, labels=None):
        encoder_hidden_states = self.encoder(input_ids)
        lm_logits = self.lm_head(self.decoder(decoder_input_ids, encoder_hidden_states))
        masked_lm_loss = None
        if labels is not None:
            labels = labels.to(lm_logits.device)
            loss_fct = CrossEntropyLoss()
            masked_lm_loss = loss_fct(lm_logits.view(-1, self.vocab_size), labels.view(-1))
        return masked_lm_loss, lm_logits

model = M2M100ForConditionalGeneration()
device_map = {"encoder": "cuda:0", "decoder": "cuda:1", "lm_head": "cuda:1"}
for name, dev in device_map.items():
    add_align_devices_hook(model.get_submodule(name), torch.device(dev))
batch = {"input_ids": torch.randint(4, 128112, (2, 20)), "decoder_input_ids": torch.randint(4, 128112, (2, 14)),
         "labels": torch.randint(4, 128112, (2, 14))}
batch = {k: v.to("cuda:0") for k, v in batch.items()}
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
