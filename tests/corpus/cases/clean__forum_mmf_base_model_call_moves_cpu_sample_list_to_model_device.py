"""Look-alike: MMF's BaseModel.__call__ moves a CPU SampleList to the model's device before forward.

Source: https://github.com/facebookresearch/mmf/pull/456
"[feat] Synchronize device for batch based on model": "In case the user is using custom dataset
and forgot to move it to proper device, this change will make sure that the batch is
automatically moved to proper device ... Inside BaseModel's forward". BaseModel.__call__ reads
`model_device = next(self.parameters()).device`, calls `sample_list = to_device(sample_list,
model_device)` and only then runs forward and the losses. A CPU batch handed to a GPU model is
therefore fine here. Stand-in: SampleList as a dict with `.to()`, `to_device` without its
cuda-availability warning branch, a bag-of-words classifier as the child model; the GPU is fake cuda.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import collections
import torch
import torch.nn as nn
import torch.nn.functional as F

class SampleList(collections.OrderedDict):
    def to(self, device, non_blocking=True):
        sample_list = self.__class__()
        for key, value in self.items():
            if hasattr(value, "to"):
                value = value.to(device, non_blocking=non_blocking)
            sample_list[key] = value
        return sample_list

def to_device(sample_list, device="cuda"):
    if isinstance(device, str):
        device = torch.device(device)
    sample_list = sample_list.to(device)
    return sample_list

class BaseModel(nn.Module):
    def __call__(self, sample_list, *args, **kwargs):
        # Move to proper device i.e. same as the model before passing
        model_device = next(self.parameters()).device
        sample_list = to_device(sample_list, model_device)

        model_output = super().__call__(sample_list, *args, **kwargs)
        model_output["losses"] = {"ce": F.cross_entropy(model_output["scores"], sample_list["targets"])}
        return model_output

class TextClassifier(BaseModel):
    def __init__(self, vocab=200, dim=32, num_labels=3):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab, dim)
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, sample_list):
        return {"scores": self.classifier(self.embedding(sample_list["text"]))}

model = TextClassifier().to("cuda:0")
sample_list = SampleList(text=torch.randint(0, 200, (4, 9)), targets=torch.randint(0, 3, (4,)))
'''
CELL = '''
model_output = model(sample_list)
loss = sum(model_output["losses"].values())
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
