"""SparseML sequential distillation on two GPUs: student forced to cuda:0, teacher dispatched with device_map="auto".

Source: https://github.com/neuralmagic/sparseml/pull/2302
"A sequential distillation test was failing with a device mismatch error when running on multiple
GPUs. This was caused by the student model being forced to "cuda:0" while the teacher model was
defaulting to "auto" device mapping. The fix is to initialize both models with device_map="auto"":
the teacher's logits come out of its last block on the second GPU while the student's are on
cuda:0, so the output-distillation loss mixes devices. Stand-in: two GPT-shaped causal LMs, an
accelerate-like `dispatch_model` (placement plus input-aligning pre-hooks) and the KL distillation
loss of the distillation modifier.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn
from torch.nn import functional as F

class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.ln = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, h):
        return h + self.mlp(self.ln(h))

class CausalLM(nn.Module):
    def __init__(self, vocab=100, dim=32, n_layer=4):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(Block(dim) for _ in range(n_layer))
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        for block in self.layers:
            h = block(h)
        return self.lm_head(h)

def dispatch_model(model, device_map):
    """accelerate.dispatch_model: place each module, align its inputs with a pre-hook."""
    for name, dev in device_map.items():
        target = torch.device(f"cuda:{dev}")
        module = model.get_submodule(name).to(target)
        module.register_forward_pre_hook(lambda mod, args, target=target: tuple(a.to(target) for a in args))
    model.hf_device_map = dict(device_map)
    return model

def kd_loss(student_logits, teacher_logits, temperature=2.0):
    return F.kl_div(F.log_softmax(student_logits / temperature, dim=-1),
                    F.softmax(teacher_logits / temperature, dim=-1),
                    reduction="batchmean") * temperature ** 2

auto_map = {"embed_tokens": 0, "layers.0": 0, "layers.1": 0, "layers.2": 1, "layers.3": 1, "lm_head": 1}
# teacher: SparseAutoModelForCausalLM.from_pretrained(teacher_stub, device_map="auto")
teacher_model = dispatch_model(CausalLM(), auto_map).eval()
# student: SparseAutoModelForCausalLM.from_pretrained(model_stub, device_map="cuda:0")
student_model = CausalLM().to("cuda:0")
input_ids = torch.randint(0, 100, (2, 16)).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    teacher_logits = teacher_model(input_ids)
    student_logits = student_model(input_ids)
    loss = kd_loss(student_logits, teacher_logits)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["student_model"]
FIX = "namespace"
REFERENCE_FIX = '''
student_model = dispatch_model(student_model, teacher_model.hf_device_map)
'''
REFERENCE_EDIT = None
CLEAN = False
