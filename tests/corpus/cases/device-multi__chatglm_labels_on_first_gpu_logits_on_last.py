"""ChatGLM QLoRA on two GPUs (device_map="auto"): the LM head's logits on cuda:1, the labels on cuda:0.

Source: https://github.com/shuxueslpi/chatGLM-6B-QLoRA/issues/38
Training ChatGLM2-6B spread over two GPUs failed inside the model's own `forward` at
`loss = loss_fct(shift_logits.view(-1, ...), shift_labels.view(-1))` with "Expected all tensors to be
on the same device, but found at least two devices, cuda:1 and cuda:0! (when checking argument for
argument target in method wrapper_CUDA_nll_loss_forward)": the batch (labels included) went to the
first GPU, the last layers and `lm_head` to the second. The remote modeling code never moves `labels`
to the logits' device. Stand-in: the model split in two stages with an accelerate-style input hook;
the label shift is left out.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
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
            loss_fct = CrossEntropyLoss(ignore_index=-100)
            loss = loss_fct(lm_logits.view(-1, lm_logits.size(-1)), labels.view(-1))
        return loss, lm_logits

def dispatch(model):
    """Stand-in for accelerate's dispatch_model: place each stage, move its inputs with a hook."""
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
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["batch['labels']"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("labels.view(-1))", "labels.view(-1).to(lm_logits.device))")
CLEAN = False
