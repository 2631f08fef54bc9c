"""Fine-tuning a QA transformer with BCEWithLogitsLoss on argmax'ed start/end positions cast to Long.

Source: https://github.com/pytorch/pytorch/issues/40357
"I'm trying to finetune a transformer model for question answering, and am using the
BCEWithLogitsLoss function ... I'm inputting matrices with the shape and dtype of [16, 2] and
Long": `start_scores = torch.argmax(pred[0], dim=1)`, `end_scores = torch.argmax(pred[1], dim=1)`,
`pred = torch.tensor(list(zip(start_scores, end_scores)))`, `pred = pred.to(device,
dtype=torch.long)`, then `loss_fn(pred, label)` failed (on CUDA: "_th_exp_out not supported on
CUDAType for Long"). ngimel: "BCEWithLogitsLoss expects both preds and labels to be floating point
(they are not labels, they are logits)". Stand-in: a linear span head in place of the transformer;
the step runs on the CPU, where the same Long inputs fail in log_sigmoid.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import torch
import torch.nn as nn

class QAModel(nn.Module):
    def __init__(self, hidden=16, seq_len=12):
        super().__init__()
        self.embed = nn.Embedding(100, hidden)
        self.qa_outputs = nn.Linear(hidden, 2)

    def forward(self, token_ids, attention_mask, token_type_ids):
        logits = self.qa_outputs(self.embed(token_ids))
        start_logits, end_logits = logits.split(1, dim=-1)
        return start_logits.squeeze(-1), end_logits.squeeze(-1)

def loss_fn(preds, labels):
    return torch.nn.BCEWithLogitsLoss()(preds, labels)

device = torch.device("cpu")          # cuda in the report
model = QAModel().to(device)
token_ids = torch.randint(0, 100, (16, 12), device=device)
attention_mask = torch.ones(16, 12, dtype=torch.long, device=device)
token_type_ids = torch.zeros(16, 12, dtype=torch.long, device=device)
label = torch.randint(0, 12, (16, 2), device=device)          # gold start/end positions

pred = model(token_ids=token_ids, attention_mask=attention_mask, token_type_ids=token_type_ids)
start_scores = torch.argmax(pred[0], dim=1)
end_scores = torch.argmax(pred[1], dim=1)
pred = torch.tensor(list(zip(start_scores, end_scores)))
pred = pred.to(device, dtype=torch.long)
'''
CELL = '''
batch_loss = loss_fn(pred, label)
'''
EXPECT_ERROR = ("not implemented for 'Long'",
                "result type Float can't be cast to the desired output type Long",
                "not supported on")
CULPRITS = ["pred", "label"]
FIX = "namespace"
REFERENCE_FIX = '''
pred = pred.float()
label = label.float()
'''
REFERENCE_EDIT = None
CLEAN = False
