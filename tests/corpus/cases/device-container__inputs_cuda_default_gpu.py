"""Model on a chosen GPU, batch moved with `inputs.cuda()`: the batch lands on cuda:0.

Source: https://github.com/thunlp/OpenPrompt/pull/161
`prompt_model = prompt_model.cuda(2)` put the model on a chosen GPU while the tutorial's
`inputs = inputs.cuda()` moved every tensor of the `InputFeatures` batch to the current device,
cuda:0. Stand-ins: a dict batch with the same `.cuda()`, a small prompt model; cuda:1 plays the
chosen GPU.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

class InputFeatures(dict):
    # like OpenPrompt's InputFeatures.cuda(): every tensor to the current device (cuda:0)
    def cuda(self):
        return InputFeatures({k: v.to("cuda:0") if torch.is_tensor(v) else v
                              for k, v in self.items()})

    def to(self, device):
        return InputFeatures({k: v.to(device) if torch.is_tensor(v) else v
                              for k, v in self.items()})

class PromptForClassification(nn.Module):
    def __init__(self, vocab=50, dim=16, classes=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, batch):
        h = self.embed(batch["input_ids"]) * batch["attention_mask"].unsqueeze(-1)
        return self.head(h.mean(1))

prompt_model = PromptForClassification().to("cuda:1")
inputs = InputFeatures(input_ids=torch.randint(0, 50, (4, 12)),
                       attention_mask=torch.ones(4, 12),
                       label=torch.randint(0, 2, (4,)))
inputs = inputs.cuda()
'''
CELL = '''
logits = prompt_model(inputs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["inputs"]
FIX = "namespace"
REFERENCE_FIX = '''
inputs = inputs.to("cuda:1")
'''
REFERENCE_EDIT = None
CLEAN = False
