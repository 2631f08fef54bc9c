"""AutoGAN search on GPU 1: the RL rewards are sent with `.cuda()` (GPU 0) while the controller's entropies live on cuda:1.

Source: https://github.com/VITA-Group/AutoGAN/issues/11
After the first search epoch `train_controller` failed at
`cur_batch_rewards = cur_batch_rewards.unsqueeze(-1) + args.entropy_coeff * entropies` with "expected
device cuda:0 but got device cuda:1" (the log shows `arch: tensor([...], device='cuda:1')`). The
rewards are built with `torch.tensor(cur_batch_rewards, requires_grad=False).cuda()`, i.e. on the
current device, GPU 0, while the controller and its sampled entropies are on the GPU the user chose;
the maintainers' workaround was a single visible GPU (`CUDA_VISIBLE_DEVICES`). The edit makes the
rewards follow the entropies. Controller (an LSTM in AutoGAN) and the Inception-score call are small
stand-ins; `.cuda()` is written `.to("cuda:0")` for the simulator.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from types import SimpleNamespace

class Controller(nn.Module):
    def __init__(self, hid_size=16, tokens=(3, 3, 2, 2)):
        super().__init__()
        self.tokens = tokens
        self.encoder = nn.Linear(hid_size, hid_size)
        self.decoders = nn.ModuleList([nn.Linear(hid_size, t) for t in tokens])
        self.hid_size = hid_size
        self.cur_stage = 0

    def sample(self, batch_size, prev_hiddens=None, prev_archs=None):
        dev = self.encoder.weight.device
        hx = torch.tanh(self.encoder(torch.zeros(batch_size, self.hid_size, device=dev)))
        entropies, selected_log_probs, archs = [], [], []
        for decoder in self.decoders:
            logit = decoder(hx)
            prob = F.softmax(logit, dim=-1)
            log_prob = F.log_softmax(logit, dim=-1)
            entropies.append(-(log_prob * prob).sum(1, keepdim=True))
            action = prob.argmax(1, keepdim=True)
            archs.append(action)
            selected_log_probs.append(log_prob.gather(1, action))
        archs = torch.cat(archs, -1)
        return archs, torch.cat(selected_log_probs, -1), torch.cat(entropies, -1)

def get_is(args, gen_net, num_img):
    return 1.72        # Inception score of the sampled architecture (a Python float)

args = SimpleNamespace(ctrl_step=1, ctrl_sample_batch=1, entropy_coeff=1e-3, baseline_decay=0.9, rl_num_eval_img=10)
gpu = torch.device("cuda:1")                 # the GPU given on the command line
controller = Controller().to(gpu)
gen_net = nn.Identity()

def train_controller(args, controller, gen_net, prev_hiddens=None, prev_archs=None):
    baseline = None
    controller.train()
    gen_net.eval()
    for step in range(args.ctrl_step):
        archs, selected_log_probs, entropies = controller.sample(
            args.ctrl_sample_batch, prev_hiddens=prev_hiddens, prev_archs=prev_archs)
        cur_batch_rewards = []
        for arch in archs:
            is_score = get_is(args, gen_net, args.rl_num_eval_img)
            cur_batch_rewards.append(is_score)
        cur_batch_rewards = torch.tensor(cur_batch_rewards, requires_grad=False).to("cuda:0")   # .cuda()
        cur_batch_rewards = cur_batch_rewards.unsqueeze(-1) + args.entropy_coeff * entropies  # bs * 1
        if baseline is None:
            baseline = cur_batch_rewards
        else:
            baseline = args.baseline_decay * baseline.detach() + (1 - args.baseline_decay) * cur_batch_rewards
        adv = cur_batch_rewards - baseline
        # policy loss
        loss = -selected_log_probs * adv
        loss = loss.sum()
        # (ctrl_optimizer.zero_grad(); loss.backward(); ctrl_optimizer.step() -- left out: no autograd
        #  on simulated cuda tensors)
    return loss
'''
CELL = '''
ctrl_loss = train_controller(args, controller, gen_net)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["cur_batch_rewards"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('.to("cuda:0")   # .cuda()', '.to(entropies.device)')
CLEAN = False
