"""mt-dnn: resuming from a saved checkpoint restores the BertAdam state into the CPU network, which is moved to the GPU only afterwards.

Source: https://github.com/namisan/mt-dnn/issues/53
"I want to resume the training procedure with the checkpoint in `checkpoints/model_*.pt`" - the
first `model.update(...)` failed in `module/bert_optim.py`'s step at `exp_avg.mul_(beta1).add_(1 -
beta1, grad)` with "Expected object of type torch.FloatTensor but found type torch.cuda.FloatTensor"
("The error says ... One is on CPU and the other one on GPU"). MTDNNModel restores the network and
the optimizer state from the checkpoint while the network is still on the CPU, and moves the network
with `.cuda()` afterwards; the optimizer's exp_avg/exp_avg_sq stay on the CPU. Stand-in: the
optimizer reduced to BertAdam's moment updates; grads set by hand instead of backward.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
import torch.nn as nn
from torch.optim import Optimizer

class BertAdam(Optimizer):                     # module/bert_optim.py, warmup schedule left out
    def __init__(self, params, lr, b1=0.9, b2=0.999, e=1e-6, weight_decay=0.01):
        super().__init__(params, dict(lr=lr, b1=b1, b2=b2, e=e, weight_decay=weight_decay))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = p.grad
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = 0
                    state["next_m"] = torch.zeros_like(p)
                    state["next_v"] = torch.zeros_like(p)
                next_m, next_v = state["next_m"], state["next_v"]
                beta1, beta2 = group["b1"], group["b2"]
                next_m.mul_(beta1).add_(grad, alpha=1 - beta1)
                next_v.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                update = next_m / (next_v.sqrt() + group["e"]) + group["weight_decay"] * p
                p.add_(-group["lr"] * update)
                state["step"] += 1

class SANBertNetwork(nn.Module):
    def __init__(self, hidden=32, n_labels=3):
        super().__init__()
        self.bert = nn.Sequential(nn.Embedding(100, hidden), nn.Linear(hidden, hidden), nn.Tanh())
        self.scoring_list = nn.ModuleList([nn.Linear(hidden, n_labels)])

    def forward(self, input_ids, task_id=0):
        return self.scoring_list[task_id](self.bert(input_ids)[:, 0])

class MTDNNModel:
    def __init__(self, opt, state_dict=None):
        self.network = SANBertNetwork()
        if state_dict:
            self.network.load_state_dict(state_dict["state"], strict=False)
        self.optimizer = BertAdam(self.network.parameters(), lr=opt["learning_rate"])
        if state_dict and "optimizer" in state_dict:
            self.optimizer.load_state_dict(state_dict["optimizer"])
        if opt["cuda"]:
            self.network.to("cuda:0")      # self.network.cuda()

# checkpoints/model_2.pt from the interrupted run
_prev = SANBertNetwork()
_prev_opt = BertAdam(_prev.parameters(), lr=5e-5)
for _p in _prev.parameters():
    _p.grad = torch.ones_like(_p)
_prev_opt.step()
state_dict = {"state": _prev.state_dict(), "optimizer": _prev_opt.state_dict(), "config": {}}

opt = {"learning_rate": 5e-5, "cuda": True}
model = MTDNNModel(opt, state_dict=state_dict)
# stand-in for the loss.backward() inside model.update(batch_meta, batch_data)
for p in model.network.parameters():
    p.grad = torch.ones_like(p)
'''
CELL = '''
model.optimizer.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
for _state in model.optimizer.state.values():
    for _k, _v in _state.items():
        if torch.is_tensor(_v):
            _state[_k] = _v.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
