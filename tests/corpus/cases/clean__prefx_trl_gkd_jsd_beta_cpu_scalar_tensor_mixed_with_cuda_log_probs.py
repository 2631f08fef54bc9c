"""Look-alike: TRL GKDTrainer.generalized_jsd_loss builds `beta` as a CPU 0-dim tensor and mixes it with GPU log-probs.

Source: https://github.com/huggingface/trl/blob/v0.13.0/trl/trainer/gkd_trainer.py
(the version before `device=student_log_probs.device` and `torch.log1p(-beta)` were added)
`beta = torch.tensor(beta, dtype=student_log_probs.dtype)` has no `device=`, so it lives on the CPU,
then `student_log_probs + torch.log(1 - beta)`, `teacher_log_probs + torch.log(beta)` and
`beta * kl_teacher + (1 - beta) * kl_student` combine it with CUDA tensors. A 0-dim CPU tensor is
promoted like a Python scalar, so this runs (later TRL versions added `device=` anyway).
The student/teacher logits come from the trainer's models on the GPU; the staticmethod is kept as is
(labels=None path, "batchmean" reduction).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class GKDTrainer:
    @staticmethod
    def generalized_jsd_loss(
        student_logits, teacher_logits, labels=None, beta=0.5, temperature=1.0, reduction="batchmean"
    ):
        # Apply temperature scaling
        student_logits = student_logits / temperature
        teacher_logits = teacher_logits / temperature

        # Compute log probabilities for student and probabilities for teacher
        student_log_probs = F.log_softmax(student_logits, dim=-1)
        teacher_log_probs = F.log_softmax(teacher_logits, dim=-1)

        if beta == 0:
            jsd = F.kl_div(student_log_probs, teacher_log_probs, reduction="none", log_target=True)
        elif beta == 1:
            jsd = F.kl_div(teacher_log_probs, student_log_probs, reduction="none", log_target=True)
        else:
            # Compute the log of the mixture distribution
            beta = torch.tensor(beta, dtype=student_log_probs.dtype)
            mixture_log_probs = torch.logsumexp(
                torch.stack([student_log_probs + torch.log(1 - beta), teacher_log_probs + torch.log(beta)]),
                dim=0,
            )
            kl_teacher = F.kl_div(mixture_log_probs, teacher_log_probs, reduction="none", log_target=True)
            kl_student = F.kl_div(mixture_log_probs, student_log_probs, reduction="none", log_target=True)
            jsd = beta * kl_teacher + (1 - beta) * kl_student

        # Masking
        if labels is not None:
            mask = labels != -100
            jsd = jsd[mask]

        # Apply reduction
        if reduction == "batchmean":
            return jsd.sum() / mask.sum() if labels is not None else jsd.sum() / (jsd.size(0) * jsd.size(1))
        elif reduction == "sum":
            return jsd.sum()
        elif reduction == "mean":
            return jsd.mean()
        else:
            return jsd

class TinyLM(nn.Module):
    def __init__(self, vocab=32, hidden=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.lm_head = nn.Linear(hidden, vocab)
    def forward(self, input_ids):
        return self.lm_head(torch.tanh(self.embed(input_ids)))

device = torch.device("cuda:0")
model = TinyLM().to(device)
teacher_model = TinyLM().to(device)
inputs = {"input_ids": torch.randint(0, 32, (2, 10), device=device)}
lmbda, beta, temperature = 0.5, 0.5, 0.9
'''
CELL = '''
with torch.no_grad():
    student_logits = model(inputs["input_ids"])
    teacher_logits = teacher_model(inputs["input_ids"])
    loss = GKDTrainer.generalized_jsd_loss(
        student_logits=student_logits[:, :-1, :],
        teacher_logits=teacher_logits[:, :-1, :],
        beta=beta,
        temperature=temperature,
    )
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
