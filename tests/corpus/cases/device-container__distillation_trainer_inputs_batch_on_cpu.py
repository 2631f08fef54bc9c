"""The NLP-with-Transformers distillation trainer gets a batch dict that is still on the CPU.

Source: https://github.com/nlp-with-transformers/notebooks/pull/64
"Ensure tensors are on the same device": chapter 8's `DistillationTrainer.compute_loss(model,
inputs)` broke on a GPU ("found at least two devices, cuda:0 and cpu", issue #61, in the
student's embeddings) because `inputs` were not on the GPU; the merged fix adds
`inputs = inputs.to(device)` at the top of `compute_loss`. Stand-ins: tiny student and teacher
sequence classifiers and a collated batch dict; the cell calls `compute_loss` the way the
trainer's step does (why the reporter's Trainer left the batch on the CPU is not in the thread).
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn as nn
import torch.nn.functional as F

class SeqClassifier(nn.Module):
    """AutoModelForSequenceClassification stand-in."""

    def __init__(self, vocab=1000, dim=32, num_labels=151):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, dim)
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, input_ids, attention_mask, labels=None):
        h = self.embeddings(input_ids) * attention_mask.unsqueeze(-1)
        logits = self.classifier(h.sum(1) / attention_mask.sum(1, keepdim=True))
        loss = F.cross_entropy(logits, labels) if labels is not None else None
        return SimpleNamespace(loss=loss, logits=logits)

class DistillationTrainer:
    def __init__(self, model=None, args=None, teacher_model=None):
        self.model, self.args, self.teacher_model = model, args, teacher_model

    def compute_loss(self, model, inputs, return_outputs=False):
        outputs_stu = model(**inputs)
        loss_ce = outputs_stu.loss
        logits_stu = outputs_stu.logits
        with torch.no_grad():
            outputs_tea = self.teacher_model(**inputs)
            logits_tea = outputs_tea.logits
        loss_fct = nn.KLDivLoss(reduction="batchmean")
        loss_kd = self.args.temperature ** 2 * loss_fct(
            F.log_softmax(logits_stu / self.args.temperature, dim=-1),
            F.softmax(logits_tea / self.args.temperature, dim=-1))
        loss = self.args.alpha * loss_ce + (1. - self.args.alpha) * loss_kd
        return (loss, outputs_stu) if return_outputs else loss

device = torch.device("cuda:0")
student_training_args = SimpleNamespace(alpha=0.5, temperature=2.0)
teacher_model = SeqClassifier(dim=64).to(device)
student_model = SeqClassifier().to(device)
distilbert_trainer = DistillationTrainer(model=student_model, args=student_training_args,
                                         teacher_model=teacher_model)
inputs = {"input_ids": torch.randint(0, 1000, (8, 12)),
          "attention_mask": torch.ones(8, 12, dtype=torch.long),
          "labels": torch.randint(0, 151, (8,))}
'''
CELL = '''
loss = distilbert_trainer.compute_loss(student_model, inputs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["inputs"]
FIX = "namespace"
REFERENCE_FIX = '''
inputs = {k: v.to(device) for k, v in inputs.items()}
'''
REFERENCE_EDIT = None
CLEAN = False
