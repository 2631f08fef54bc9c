"""SparseML finetuning with a distillation teacher: `--precision float16` casts the student, not the teacher.

Source: https://github.com/neuralmagic/sparseml/pull/2008
"The `--precision` argument was being applied to the student model but not the teacher. This caused
a type mismatch error during training": "expected mat1 and mat2 to have the same dtype, but got:
c10::Half != float". The fix casts the teacher to the same dtype. Stand-in: a small causal LM
loaded twice (student cast to float16 per `--precision`, teacher left in float32) and the
distillation loss that runs the teacher on the student's (half) input embeddings; run on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class TinyLM(nn.Module):
    def __init__(self, vocab=64, dim=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids=None, inputs_embeds=None):
        h = self.embed_tokens(input_ids) if inputs_embeds is None else inputs_embeds
        return self.lm_head(h + self.mlp(h))

def initialize_model(precision):
    return TinyLM().to(precision)

precision = torch.float16                       # --precision float16
model = initialize_model(precision)             # student: torch_dtype=precision
teacher = TinyLM()                              # distill_teacher loaded without torch_dtype
teacher.eval()

def distill_loss(student, teacher, input_ids, temperature=2.0):
    embeds = student.embed_tokens(input_ids)
    student_logits = student(inputs_embeds=embeds)
    with torch.no_grad():
        teacher_logits = teacher(inputs_embeds=embeds)
    return F.kl_div(F.log_softmax(student_logits.float() / temperature, -1),
                    F.softmax(teacher_logits.float() / temperature, -1), reduction="batchmean")

input_ids = torch.randint(0, 64, (2, 8))
'''
CELL = '''
loss = distill_loss(model, teacher, input_ids)
'''
EXPECT_ERROR = ("must have the same dtype", "to have the same dtype")
CULPRITS = ["teacher"]
FIX = "namespace"
REFERENCE_FIX = '''
teacher = teacher.to(torch.float16)
'''
REFERENCE_EDIT = None
CLEAN = False
