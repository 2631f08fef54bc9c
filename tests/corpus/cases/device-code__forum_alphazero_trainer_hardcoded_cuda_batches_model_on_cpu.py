"""AlphaZeroSimple Trainer.train sends every batch `.cuda()` while the model lives on `model.device`.

Source: https://github.com/JoshVarty/AlphaZeroSimple/issues/7
".cuda() -> .to(self.model.device)", pointing at trainer.py L83-85: `boards =
boards.contiguous().cuda()`, `target_pis = target_pis.contiguous().cuda()`, `target_vs =
target_vs.contiguous().cuda()`. The Connect2Model is built with a `device` argument (main.py picks
it) and moves itself there, but the trainer hard-codes the GPU for the batches, so a model run on
the CPU gets CUDA boards. Stand-in: the repo's Connect2Model and Trainer.train/loss_pi/loss_v (one
epoch); self-play examples are random; the GPU that `.cuda()` picks is simulated by meta and the
model is on the CPU.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

class Connect2Model(nn.Module):
    def __init__(self, board_size, action_size, device):
        super(Connect2Model, self).__init__()
        self.device = device
        self.size = board_size
        self.action_size = action_size
        self.fc1 = nn.Linear(in_features=self.size, out_features=16)
        self.fc2 = nn.Linear(in_features=16, out_features=16)
        self.action_head = nn.Linear(in_features=16, out_features=self.action_size)
        self.value_head = nn.Linear(in_features=16, out_features=1)
        self.to(device)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        action_logits = self.action_head(x)
        value_logit = self.value_head(x)
        return F.softmax(action_logits, dim=1), torch.tanh(value_logit)

class Trainer:
    def __init__(self, game, model, args):
        self.game = game
        self.model = model
        self.args = args

    def train(self, examples):
        optimizer = optim.Adam(self.model.parameters(), lr=5e-4)
        pi_losses = []
        v_losses = []

        for epoch in range(self.args['epochs']):
            self.model.train()

            batch_idx = 0

            while batch_idx < int(len(examples) / self.args['batch_size']):
                sample_ids = np.random.randint(len(examples), size=self.args['batch_size'])
                boards, pis, vs = list(zip(*[examples[i] for i in sample_ids]))
                boards = torch.FloatTensor(np.array(boards).astype(np.float64))
                target_pis = torch.FloatTensor(np.array(pis))
                target_vs = torch.FloatTensor(np.array(vs).astype(np.float64))

                # predict
                boards = boards.contiguous().to("meta")            # .cuda()
                target_pis = target_pis.contiguous().to("meta")    # .cuda()
                target_vs = target_vs.contiguous().to("meta")      # .cuda()

                # compute output
                out_pi, out_v = self.model(boards)
                l_pi = self.loss_pi(target_pis, out_pi)
                l_v = self.loss_v(target_vs, out_v)
                total_loss = l_pi + l_v

                pi_losses.append(float(l_pi))
                v_losses.append(float(l_v))

                optimizer.zero_grad()
                total_loss.backward()
                optimizer.step()

                batch_idx += 1

    def loss_pi(self, targets, outputs):
        loss = -(targets * torch.log(outputs)).sum(dim=1)
        return loss.mean()

    def loss_v(self, targets, outputs):
        loss = torch.sum((targets-outputs.view(-1))**2)/targets.size()[0]
        return loss

args = {'batch_size': 8, 'epochs': 1}
device = torch.device('cpu')
model = Connect2Model(4, 4, device)
trainer = Trainer(None, model, args)
rng = np.random.RandomState(0)
examples = [(rng.choice([-1, 0, 1], 4), rng.dirichlet(np.ones(4)), float(rng.choice([-1, 1]))) for _ in range(32)]
'''
CELL = '''
trainer.train(examples)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device",
                "is not on the expected device")
CULPRITS = ["trainer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """                boards = boards.contiguous().to("meta")            # .cuda()
                target_pis = target_pis.contiguous().to("meta")    # .cuda()
                target_vs = target_vs.contiguous().to("meta")      # .cuda()
""",
    """                boards = boards.contiguous().to(self.model.device)
                target_pis = target_pis.contiguous().to(self.model.device)
                target_vs = target_vs.contiguous().to(self.model.device)
""",
)
CLEAN = False
