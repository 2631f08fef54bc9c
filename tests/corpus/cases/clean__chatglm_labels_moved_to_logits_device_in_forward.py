"""Look-alike: a model split over two GPUs whose loss moves the cuda:0 labels to the logits' GPU itself.

Source: https://github.com/shuxueslpi/chatGLM-6B-QLoRA/issues/38
The fix adopted in the transformers modeling code for this report's failure: `labels =
labels.to(lm_logits.device)` inside `forward`. With it, a batch placed on the first GPU (where the
embedding lives) and an LM head on the second are a deliberate, working layout. Nothing to report.
Stand-in: the model split in two stages with an accelerate-style input hook.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.nn import CrossEntropyLoss

class ChatGLMForConditionalGeneration(nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.embedding = nn.Embedding(vocab, dim)
        self.encoder = nn.Sequential(nn.Linear(dim, dim), nn.GELU())
        self.output_layer = nn.Linear(dim, vocab, bias=False)
        self.hf_device_map = {"embedding": 0, "encoder": 0, "output_layer": 1}

    def forward(self, input_ids, labels=None):
        hidden_states = self.encoder(self.embedding(input_ids))
        lm_logits = self.output_layer(hidden_states)
        loss = None
        if labels is not None:
            labels = labels.to(lm_logits.device)
            loss_fct = CrossEntropyLoss(ignore_index=-100)
            loss = loss_fct(lm_logits.view(-1, lm_logits.size(-1)), labels.view(-1))
        return loss, lm_logits

def dispatch(model):
    for name, gpu in model.hf_device_map.items():
        sub = getattr(model, name).to(torch.device("cuda", gpu))
        sub.register_forward_pre_hook(
            lambda mod, args, dev=torch.device("cuda", gpu): tuple(a.to(dev) for a in args))
    return model

model = dispatch(ChatGLMForConditionalGeneration())
batch = {"input_ids": torch.randint(0, 100, (2, 12)).to("cuda:0"),
         "labels": torch.randint(0, 100, (2, 12)).to("cuda:0")}
'''
CELL = '''
loss, logits = model(input_ids=batch["input_ids"], labels=batch["labels"])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
