"""Falcon for sequence classification with `device_map="auto"` over several GPUs: labels on cuda:0, pooled logits on the last GPU.

Source: https://github.com/huggingface/transformers/issues/24410
Fine-tuning a sequence classifier with the model spread over GPUs fails in the loss with "Expected all tensors to
be on the same device, but found at least two devices, cuda:0 and cuda:3!". The batch is sent to the first
device (`model.device`, where the embeddings are), while the score head sits on the last GPU; a commenter with
Falcon fixed it by adding `labels = labels.to(logits.device)` in FalconForSequenceClassification.forward
(later transformers versions do this). Stand-in: the embedding / blocks / score layout an hf_device_map gives,
the last-non-pad-token pooling (a gather here, for the fake-CUDA simulation) and the single_label_classification loss.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn
from torch.nn import CrossEntropyLoss

class FalconForSequenceClassification(nn.Module):
    def __init__(self, vocab_size=65024, hidden=32, num_labels=2, pad_token_id=11):
        super().__init__()
        self.num_labels, self.pad_token_id = num_labels, pad_token_id
        self.word_embeddings = nn.Embedding(vocab_size, hidden)
        self.h = nn.ModuleList([nn.Linear(hidden, hidden) for _ in range(4)])
        self.score = nn.Linear(hidden, num_labels, bias=False)

    def dispatch(self, device_map):
        self.hf_device_map = device_map
        for name, dev in device_map.items():
            self.get_submodule(name).to(dev)
        return self

    @property
    def device(self):
        return self.word_embeddings.weight.device

    def forward(self, input_ids, attention_mask=None, labels=None):
        hidden_states = self.word_embeddings(input_ids)
        for i, block in enumerate(self.h):
            hidden_states = torch.tanh(block(hidden_states.to(block.weight.device)))
        logits = self.score(hidden_states.to(self.score.weight.device))
        sequence_lengths = (torch.ne(input_ids, self.pad_token_id).sum(-1) - 1).to(logits.device)
        pooled_logits = logits.gather(1, sequence_lengths.view(-1, 1, 1).expand(-1, 1, logits.size(-1))).squeeze(1)
        loss = None
        if labels is not None:
            loss_fct = CrossEntropyLoss()
            loss = loss_fct(pooled_logits, labels)
        return SimpleNamespace(loss=loss, logits=pooled_logits)

device_map = {"word_embeddings": "cuda:0", "h.0": "cuda:0", "h.1": "cuda:1", "h.2": "cuda:2", "h.3": "cuda:3",
              "score": "cuda:3"}
model = FalconForSequenceClassification(num_labels=2).dispatch(device_map)   # from_pretrained(..., device_map="auto")
batch = {"input_ids": torch.randint(12, 65024, (4, 20)),
         "attention_mask": torch.ones(4, 20, dtype=torch.long),
         "labels": torch.tensor([0, 1, 1, 0])}
batch = {k: v.to(model.device) for k, v in batch.items()}
'''
CELL = '''
outputs = model(**batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["batch['labels']"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            loss = loss_fct(pooled_logits, labels)",
                  "            loss = loss_fct(pooled_logits, labels.to(pooled_logits.device))")
CLEAN = False
