"""Empathy classifier: the empathy levels become an int32 label tensor on Windows and reach CrossEntropyLoss inside forward.

Source: https://github.com/behavioral-data/Empathy-Mental-Health/issues/16
Running `src/train.py` on Windows failed inside `BiEncoderAttentionWithRationaleClassification.forward`
at `loss_fct(logits_empathy.view(-1, self.empathy_num_labels), empathy_labels.view(-1))` with
"expected scalar type Long but found Int": the labels were built with
`torch.tensor(df.level.values.astype(int))`, and numpy's default int is 32-bit on Windows, so the
TensorDataset, every batch, and `b_empathy_labels` are int32. Stand-in: the bi-encoder reduced to
two embedding-bag encoders with the repo's loss computation; the int32 labels are made explicitly.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader, RandomSampler

class BiEncoderAttentionWithRationaleClassification(nn.Module):
    def __init__(self, vocab=1000, hidden=32, empathy_num_labels=3, rationale_num_labels=2):
        super().__init__()
        self.empathy_num_labels = empathy_num_labels
        self.rationale_num_labels = rationale_num_labels
        self.seeker_encoder = nn.EmbeddingBag(vocab, hidden)
        self.responder_encoder = nn.Embedding(vocab, hidden)
        self.empathy_classifier = nn.Linear(2 * hidden, empathy_num_labels)
        self.rationale_classifier = nn.Linear(hidden, rationale_num_labels)

    def forward(self, input_ids_SP, input_ids_RP, attention_mask_SP=None, attention_mask_RP=None,
                empathy_labels=None, rationale_labels=None, lambda_EI=1, lambda_RE=0.1):
        seeker = self.seeker_encoder(input_ids_SP)
        tokens_RP = self.responder_encoder(input_ids_RP)
        responder = (tokens_RP * attention_mask_RP.unsqueeze(-1)).mean(dim=1)
        logits_empathy = self.empathy_classifier(torch.cat([seeker, responder], dim=-1))
        logits_rationale = self.rationale_classifier(tokens_RP)
        loss_fct = nn.CrossEntropyLoss()
        loss_empathy = loss_fct(logits_empathy.view(-1, self.empathy_num_labels), empathy_labels.view(-1))
        loss_rationale = loss_fct(logits_rationale.view(-1, self.rationale_num_labels), rationale_labels.view(-1))
        loss = lambda_EI * loss_empathy + lambda_RE * loss_rationale
        return loss, loss_empathy, loss_rationale, logits_empathy, logits_rationale

n, seq = 64, 24
levels = np.random.randint(0, 3, size=n)
input_ids_SP = torch.randint(0, 1000, (n, seq))
input_ids_RP = torch.randint(0, 1000, (n, seq))
attention_masks_SP = torch.ones(n, seq)
attention_masks_RP = torch.ones(n, seq)
labels = torch.tensor(levels.astype(np.int32))            # df.level.values.astype(int) on Windows
rationales = torch.tensor([[int(i % 5 == 0) for i in range(seq)] for _ in range(n)])

train_dataset = TensorDataset(input_ids_SP, attention_masks_SP, input_ids_RP, attention_masks_RP,
                              labels, rationales)
train_dataloader = DataLoader(train_dataset, sampler=RandomSampler(train_dataset), batch_size=16)
model = BiEncoderAttentionWithRationaleClassification()
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5, eps=1e-8)
batch = next(iter(train_dataloader))
'''
CELL = '''
b_input_ids_SP, b_input_mask_SP, b_input_ids_RP, b_input_mask_RP, b_empathy_labels, b_rationales = batch
model.zero_grad()
loss, loss_empathy, loss_rationale, logits_empathy, logits_rationale = model(
    input_ids_SP=b_input_ids_SP, input_ids_RP=b_input_ids_RP,
    attention_mask_SP=b_input_mask_SP, attention_mask_RP=b_input_mask_RP,
    empathy_labels=b_empathy_labels, rationale_labels=b_rationales)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("expected scalar type Long but found Int",
                "expected target dtype to be Long or Byte, but got Int")
CULPRITS = ["batch[4]"]
FIX = "namespace"
REFERENCE_FIX = '''
batch[4] = batch[4].long()
'''
REFERENCE_EDIT = None
CLEAN = False
