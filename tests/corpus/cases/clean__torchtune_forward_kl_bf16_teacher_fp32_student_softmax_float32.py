"""Look-alike: knowledge distillation with a bf16 teacher and an fp32 student; the KL loss computes both softmaxes in float32.

Source: https://github.com/meta-pytorch/torchtune/pull/1698
torchtune's `ForwardKLLoss` (KD recipe and tutorial): `teacher_prob = F.softmax(teacher_logits,
dim=-1, dtype=torch.float32)`, `student_logprob = F.log_softmax(student_logits, dim=-1,
dtype=torch.float32)`, then `prod_probs = teacher_prob * student_logprob` masked by the labels'
`ignore_index`. Teacher and student logits may have different dtypes (a frozen bf16 teacher, a
student trained in fp32); the `dtype=` arguments make the loss well-typed. Run on the CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class ForwardKLLoss(nn.Module):
    def __init__(self, ignore_index=-100):
        super().__init__()
        self.ignore_index = ignore_index

    def forward(self, student_logits, teacher_logits, labels, normalize=True):
        teacher_prob = F.softmax(teacher_logits, dim=-1, dtype=torch.float32)
        inf_mask = torch.isinf(student_logits)
        student_logprob = F.log_softmax(student_logits, dim=-1, dtype=torch.float32)
        prod_probs = torch.masked_fill(teacher_prob * student_logprob, inf_mask, 0)
        x = torch.sum(prod_probs, dim=-1).view(-1)
        mask = (labels != self.ignore_index).int()
        if not normalize:
            return -torch.sum(x * mask.view(-1), dim=0)
        return -torch.sum(x * mask.view(-1), dim=0) / torch.sum(mask.view(-1), dim=0)

class TinyLM(nn.Module):
    def __init__(self, vocab=64, dim=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tokens):
        return self.out(torch.tanh(self.tok(tokens)))

teacher_model = TinyLM(dim=48).to(torch.bfloat16).eval()
model = TinyLM()
kd_loss_fn = ForwardKLLoss()
tokens = torch.randint(0, 64, (2, 8))
labels = tokens.clone()
labels[:, :2] = -100
'''
CELL = '''
with torch.no_grad():
    teacher_logits = teacher_model(tokens)
logits = model(tokens)
kd_loss = kd_loss_fn(logits, teacher_logits, labels)
kd_loss.backward()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
