"""Look-alike: HF Trainer resume: AdamW state and LR-scheduler state `torch.load`ed with `map_location="cpu"`, optimizer built over the accelerator model.

Source: https://github.com/huggingface/transformers/pull/22159
To avoid CUDA OOM on resume, `Trainer._load_optimizer_and_scheduler` loads `optimizer.pt` with
`map_location="cpu"` and relies on `Optimizer.load_state_dict` to copy the moments to the
parameters' device ("it will be copied over to the proper device by PyTorch"). AdamW keeps its
`step` counters on the CPU by design, so after loading, the CPU `step` tensors, the CPU checkpoint
dict, and the scheduler's restored state sit beside moments on the accelerator, and training goes on.
Stand-in: the Trainer's load sequence with a small model, the linear warmup schedule as a
`LambdaLR`, the checkpoint written and read through an in-memory buffer; "meta" plays the accelerator.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import io
import torch
from torch import nn
from torch.optim.lr_scheduler import LambdaLR

def get_linear_schedule_with_warmup(optimizer, num_warmup_steps, num_training_steps, last_epoch=-1):
    def lr_lambda(current_step: int):
        if current_step < num_warmup_steps:
            return float(current_step) / float(max(1, num_warmup_steps))
        return max(0.0, float(num_training_steps - current_step) / float(max(1, num_training_steps - num_warmup_steps)))
    return LambdaLR(optimizer, lr_lambda, last_epoch)

def build_model():
    return nn.Sequential(nn.Embedding(500, 32), nn.Flatten(), nn.Linear(32 * 8, 2))

# the run that wrote checkpoint-2/ (optimizer.pt, scheduler.pt)
_prev = build_model()
_prev_opt = torch.optim.AdamW(_prev.parameters(), lr=5e-5, weight_decay=0.01)
_prev_sched = get_linear_schedule_with_warmup(_prev_opt, 10, 100)
for _ in range(2):
    nn.functional.cross_entropy(_prev(torch.randint(0, 500, (4, 8))), torch.randint(0, 2, (4,))).backward()
    _prev_opt.step(); _prev_sched.step(); _prev_opt.zero_grad()
_buf_opt, _buf_sched = io.BytesIO(), io.BytesIO()
torch.save(_prev_opt.state_dict(), _buf_opt); torch.save(_prev_sched.state_dict(), _buf_sched)
_buf_opt.seek(0); _buf_sched.seek(0)

device = torch.device("meta")
model = build_model().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5, weight_decay=0.01)
lr_scheduler = get_linear_schedule_with_warmup(optimizer, 10, 100)
# Trainer._load_optimizer_and_scheduler
optimizer_state = torch.load(_buf_opt, map_location="cpu")
optimizer.load_state_dict(optimizer_state)
lr_scheduler.load_state_dict(torch.load(_buf_sched, weights_only=True))
'''
CELL = '''
for step in range(3):
    input_ids = torch.randint(0, 500, (4, 8), device=device)
    labels = torch.randint(0, 2, (4,), device=device)
    loss = nn.functional.cross_entropy(model(input_ids), labels)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    lr_scheduler.step()
    optimizer.zero_grad()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
