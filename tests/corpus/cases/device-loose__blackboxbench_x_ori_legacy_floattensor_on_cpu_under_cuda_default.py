"""BlackboxBench attack_imagenet.py: `x_ori` is built with `torch.FloatTensor(...)`, which stays on the CPU although the default tensor type is CUDA.

Source: https://github.com/SCLBD/BlackboxBench/issues/7
Running a score-based attack failed in `early_stop_crit_fct` at `x_eval = torch.clamp(x_eval - x_ori,
-epsilon, epsilon) + x_ori` with "Expected all tensors to be on the same device, but found at least
two devices, cuda:0 and cpu!". The script calls `torch.set_default_tensor_type('torch.cuda.FloatTensor')`
so the attack's `xs_t = t(xs)` lands on the GPU, but the reference batch is made with the legacy
constructor `x_ori = torch.FloatTensor(x_batch.copy().transpose(0,3,1,2))`, which is always a CPU
tensor. Stand-in: the script's batch loop body and the two closures, `ScoreBlackBoxAttack.run`
reduced to its first early-stop check and one signed random step (its loop branches on device
tensors), a small CNN for `load_torch_models`; `set_default_tensor_type` is written
`set_default_device("cuda:0")`, `.cuda()` `.to("cuda:0")` (the simulator has no current device) and
`type(xs) is torch.Tensor` `isinstance` (the simulator's tensors are a subclass), `~` `torch.bitwise_not`.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def load_torch_models(model_name):
    model = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                          nn.Linear(16, 1000))
    return model.to("cuda:0").eval()             # .cuda().eval()

def t(xs):
    return torch.tensor(xs).permute(0, 1, 2, 3).contiguous()

class SignAttack:
    def __init__(self, epsilon, p="inf", lb=0.0, ub=1.0, batch_size=8, **kwargs):
        self.epsilon, self.p, self.lb, self.ub = epsilon, p, lb, ub

    def run(self, xs, loss_fct, early_stop_extra_fct):
        xs_t = t(xs)
        batch_size = xs.shape[0]
        num_loss_queries = torch.zeros(batch_size)
        dones_mask = early_stop_extra_fct(xs_t)
        correct_classified_mask = torch.bitwise_not(dones_mask)
        sugg_xs_t = torch.clamp(xs_t + self.epsilon * torch.sign(torch.randn_like(xs_t)), self.lb, self.ub)
        xs_t = sugg_xs_t * (1. - dones_mask.reshape(-1, 1, 1, 1).float()) + xs_t * dones_mask.reshape(-1, 1, 1, 1).float()
        losses = loss_fct(xs_t) * torch.bitwise_not(dones_mask)
        dones_mask = dones_mask | early_stop_extra_fct(xs_t)
        return {"total_loss": [losses], "success": [dones_mask * correct_classified_mask]}

def cw_loss(logit, label, target=False):
    _, argsort = logit.sort(dim=1, descending=True)
    gt_is_max = argsort[:, 0].eq(label)
    second_max_index = gt_is_max.long() * argsort[:, 1] + torch.bitwise_not(gt_is_max).long() * argsort[:, 0]
    gt_logit = logit.gather(1, label[:, None])[:, 0]
    second_max_logit = logit.gather(1, second_max_index[:, None])[:, 0]
    return second_max_logit - gt_logit

epsilon, target = 0.05, False
criterion = cw_loss
model = load_torch_models("Resnet50")
torch.set_default_device("cuda:0")              # torch.set_default_tensor_type('torch.cuda.FloatTensor')
attacker = SignAttack(epsilon=epsilon, p="inf", lb=0.0, ub=1.0, batch_size=8)

x_batch = np.random.rand(8, 64, 64, 3).astype(np.float32)      # dset.get_eval_data(bstart, bend), NHWC
y_batch = np.random.randint(0, 1000, size=8)
y_batch = torch.LongTensor(y_batch).to("cuda:0")               # .cuda()
x_ori = torch.FloatTensor(x_batch.copy().transpose(0, 3, 1, 2))

def loss_fct(xs, es=False):
    if isinstance(xs, torch.Tensor):         # type(xs) is torch.Tensor
        x_eval = xs.permute(0, 3, 1, 2)
    else:
        x_eval = torch.FloatTensor(xs.transpose(0, 3, 1, 2))
    x_eval = torch.clamp(x_eval - x_ori, -epsilon, epsilon) + x_ori
    x_eval = torch.clamp(x_eval, 0, 1)
    y_logit = model(x_eval)
    loss = criterion(y_logit, y_batch, target)
    return loss.detach()

def early_stop_crit_fct(xs):
    if isinstance(xs, torch.Tensor):         # type(xs) is torch.Tensor
        x_eval = xs.permute(0, 3, 1, 2)
    else:
        x_eval = torch.FloatTensor(xs.transpose(0, 3, 1, 2))
    x_eval = torch.clamp(x_eval - x_ori, -epsilon, epsilon) + x_ori
    x_eval = torch.clamp(x_eval, 0, 1)
    y_logit = model(x_eval)
    y_logit = y_logit.detach()
    correct = torch.argmax(y_logit, dim=1) == y_batch
    if target:
        return correct
    else:
        return torch.bitwise_not(correct)              # ~correct
'''
CELL = '''
with torch.no_grad():
    logs_dict = attacker.run(x_batch, loss_fct, early_stop_crit_fct)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["x_ori"]
FIX = "namespace"
REFERENCE_FIX = '''
x_ori = x_ori.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
