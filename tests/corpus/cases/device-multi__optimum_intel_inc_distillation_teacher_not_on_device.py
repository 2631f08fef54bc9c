"""optimum-intel INC distillation: the Trainer moves the student to the GPU, the teacher model stays on the CPU.

Source: https://github.com/huggingface/optimum-intel/pull/182
"Set the teacher model to the right device during INC distillation": `INCTrainer` runs the
distillation criterion's teacher forward on the training batch, which `_prepare_inputs` has put on
`args.device` together with the student, but the `teacher_model` passed to the distillation config
is never moved, so the teacher's embedding lookup mixes cuda:0 inputs with CPU weights. Stand-in: a
Trainer whose `_move_model_to_device` handles the student only, and the `compute_loss` that adds the
KD term from the teacher's logits.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class SeqClassifier(nn.Module):
    def __init__(self, vocab=100, dim=32, num_labels=2):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, dim)
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, input_ids, attention_mask=None, labels=None):
        logits = self.classifier(self.embeddings(input_ids).mean(1))
        return {"logits": logits, "loss": F.cross_entropy(logits, labels)}

class DistillationConfig:
    def __init__(self, teacher_model, temperature=2.0):
        self.teacher_model = teacher_model
        self.temperature = temperature

class INCTrainer:
    def __init__(self, model, distillation_config, device):
        self.device = device
        self.model = model.to(device)                  # Trainer._move_model_to_device
        self.distillation_config = distillation_config  # teacher kept as passed

    def _prepare_inputs(self, inputs):
        return {k: v.to(self.device) for k, v in inputs.items()}

    def compute_loss(self, model, inputs):
        outputs = model(**inputs)
        teacher = self.distillation_config.teacher_model
        with torch.no_grad():
            teacher_logits = teacher(**inputs)["logits"]
        t = self.distillation_config.temperature
        kd = F.kl_div(F.log_softmax(outputs["logits"] / t, -1), F.softmax(teacher_logits / t, -1),
                      reduction="batchmean")
        return outputs["loss"] + kd

teacher_model = SeqClassifier(dim=48)
teacher_model.eval()
student = SeqClassifier()
trainer = INCTrainer(student, DistillationConfig(teacher_model), torch.device("cuda:0"))
ids = torch.randint(0, 100, (4, 12))
inputs = trainer._prepare_inputs({"input_ids": ids, "attention_mask": torch.ones_like(ids),
                                  "labels": torch.randint(0, 2, (4,))})
'''
CELL = '''
with torch.no_grad():
    loss = trainer.compute_loss(trainer.model, inputs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["teacher_model"]
FIX = "namespace"
REFERENCE_FIX = '''
teacher_model.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
