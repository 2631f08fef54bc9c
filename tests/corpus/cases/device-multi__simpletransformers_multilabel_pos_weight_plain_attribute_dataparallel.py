"""simpletransformers multi-label classification with `pos_weight` on several GPUs: the weight stays on cuda:0 in every replica.

Source: https://github.com/ThilinaRajapakse/simpletransformers/issues/665
"when set pos_weights for multilabel-classification, it can not train on multi-gpus": with
`n_gpu=3` and the user's `pos_weight`, training fails with "Expected all tensors to be on the same
device, but found at least two devices, cuda:0 and cuda:1" (same as #228); with `n_gpu=1`, or
without `pos_weight`, it trains. `BertForMultiLabelSequenceClassification` keeps
`self.pos_weight = pos_weight` as a plain attribute (a tensor moved to cuda:0), so DataParallel's
replicas share it instead of receiving a copy on their own GPU, and the replica on cuda:1 computes
`BCEWithLogitsLoss(pos_weight=self.pos_weight)` against its cuda:1 logits. Stand-in: a tiny BERT
classifier with the library's pos_weight handling, and DataParallel's scatter/replicate/gather
written out (shallow replicas whose parameters and buffers are copied to each GPU).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn
from torch.nn import BCEWithLogitsLoss

class BertForMultiLabelSequenceClassification(nn.Module):
    def __init__(self, vocab_size=500, hidden=32, num_labels=6, pos_weight=None):
        super().__init__()
        self.num_labels = num_labels
        self.embeddings = nn.Embedding(vocab_size, hidden)
        self.pooler = nn.Linear(hidden, hidden)
        self.classifier = nn.Linear(hidden, num_labels)
        self.pos_weight = pos_weight

    def forward(self, input_ids, labels=None):
        pooled = torch.tanh(self.pooler(self.embeddings(input_ids).mean(dim=1)))
        logits = self.classifier(pooled)
        outputs = (logits,)
        if labels is not None:
            loss_fct = BCEWithLogitsLoss(pos_weight=self.pos_weight)
            labels = labels.float()
            loss = loss_fct(logits.view(-1, self.num_labels), labels.view(-1, self.num_labels))
            outputs = (loss,) + outputs
        return outputs

def replicate(module, device):
    """torch.nn.parallel.replicate: shallow copy of the module, its parameters and buffers on `device`."""
    replica = module._replicate_for_data_parallel()
    for name, p in module._parameters.items():
        replica._parameters[name] = None if p is None else p.to(device)
    for name, b in module._buffers.items():
        replica._buffers[name] = None if b is None else b.to(device)
    for name, m in module._modules.items():
        replica._modules[name] = replicate(m, device)
    return replica

class DataParallel(nn.Module):
    def __init__(self, module, device_ids):
        super().__init__()
        self.module = module
        self.device_ids = device_ids

    def forward(self, **inputs):
        n = len(self.device_ids)
        chunks = {k: v.chunk(n) for k, v in inputs.items()}
        outputs = []
        for i, d in enumerate(self.device_ids):
            replica = replicate(self.module, torch.device("cuda", d))
            outputs.append(replica(**{k: c[i].to(torch.device("cuda", d)) for k, c in chunks.items()}))
        out0 = torch.device("cuda", self.device_ids[0])
        return tuple(torch.cat([o[j].reshape(-1, *o[j].shape[1:]).to(out0) if o[j].dim() else o[j].reshape(1).to(out0)
                                for o in outputs]) for j in range(len(outputs[0])))

class MultiLabelClassificationModel:
    def __init__(self, num_labels, pos_weight=None, args=None):
        self.args = args or {"n_gpu": 1}
        self.device = torch.device("cuda:0")
        self.model = BertForMultiLabelSequenceClassification(
            num_labels=num_labels, pos_weight=torch.Tensor(pos_weight).to(self.device))
        self.model.to(self.device)

    def train_model(self, train_batches):
        model = self.model
        if self.args["n_gpu"] > 1:
            model = DataParallel(model, device_ids=list(range(self.args["n_gpu"])))
        for input_ids, labels in train_batches:
            inputs = {"input_ids": input_ids.to(self.device), "labels": labels.to(self.device)}
            outputs = model(**inputs)
            loss = outputs[0]
            if self.args["n_gpu"] > 1:
                loss = loss.mean()
        return loss

clf = MultiLabelClassificationModel(num_labels=6, pos_weight=[1.0, 3.0, 2.0, 5.0, 1.5, 4.0], args={"n_gpu": 3})
train_batches = [(torch.randint(0, 500, (12, 24)), torch.randint(0, 2, (12, 6))) for _ in range(2)]
'''
CELL = '''
loss = clf.train_model(train_batches)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["clf.model.pos_weight"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "self.pos_weight = pos_weight",
    "self.register_buffer('pos_weight', pos_weight)",
)
CLEAN = False
