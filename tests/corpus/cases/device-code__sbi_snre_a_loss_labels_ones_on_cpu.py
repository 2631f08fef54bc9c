"""sbi `SNRE_A` on the GPU: `_loss` builds the classification labels with `ones(2 * batch_size)` on the CPU next to the classifier's GPU output.

Source: https://github.com/sbi-dev/sbi/issues/441
"Training SNRE_A on GPU fails": with `device="gpu"` training raised "RuntimeError: Expected all
tensors to be on the same device, but found at least two devices, cuda:0 and cpu!". The reporter:
"The origin of the issue is in `SNRE_A._loss` which instantiates `labels` without moving it to the
device. Adding `labels = labels.to(self._device)` ... fixes the issue." Stand-in: SNRE_A's
`_classifier_logits`/`_loss` as in sbi 0.14 (pairs of joint and marginal atoms, BCE on the sigmoid),
the training loop reduced to one pass, a small MLP classifier; the "GPU" is meta.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn, ones, eye

def repeat_rows(x, num_reps):
    shape = x.shape
    x = x.unsqueeze(1).expand(shape[0], num_reps, *shape[1:])
    return x.reshape(shape[0] * num_reps, *shape[1:])

class SNRE_A:
    def __init__(self, prior, classifier="mlp", device="cpu"):
        self._prior, self._device = prior, device
        self._neural_net = None
    def append_simulations(self, theta, x):
        self._theta, self._x = theta, x
        return self
    def _classifier_logits(self, theta, x, num_atoms):
        batch_size = theta.shape[0]
        repeated_x = repeat_rows(x, num_atoms)
        probs = ones(batch_size, batch_size) * (1 - eye(batch_size)) / (batch_size - 1)
        choices = torch.multinomial(probs, num_samples=num_atoms - 1, replacement=False)
        contrasting_theta = theta[choices]
        atomic_theta = torch.cat((theta[:, None, :], contrasting_theta), dim=1).reshape(batch_size * num_atoms, -1)
        theta_and_x = torch.cat((atomic_theta, repeated_x), dim=1)
        return self._neural_net(theta_and_x)
    def _loss(self, theta, x, num_atoms):
        assert num_atoms == 2, "SNRE_A supports only two atoms"
        batch_size = theta.shape[0]
        logits = self._classifier_logits(theta, x, num_atoms)
        likelihood = torch.sigmoid(logits).squeeze()
        labels = ones(2 * batch_size)  # two atoms
        labels[1::2] = 0.0
        return nn.BCELoss()(likelihood, labels)
    def train(self, training_batch_size=50, learning_rate=5e-4, max_num_epochs=1):
        if self._neural_net is None:
            d = self._theta.shape[1] + self._x.shape[1]
            self._neural_net = nn.Sequential(nn.Linear(d, 50), nn.ReLU(), nn.Linear(50, 50), nn.ReLU(), nn.Linear(50, 1))
        self._neural_net.to(self._device)
        optimizer = torch.optim.Adam(self._neural_net.parameters(), lr=learning_rate)
        for epoch in range(max_num_epochs):
            for i in range(0, len(self._theta), training_batch_size):
                theta_batch = self._theta[i:i + training_batch_size].to(self._device)
                x_batch = self._x[i:i + training_batch_size].to(self._device)
                optimizer.zero_grad()
                loss = torch.mean(self._loss(theta_batch, x_batch, num_atoms=2))
                loss.backward()
                optimizer.step()
        return self._neural_net

num_dim = 3
prior = torch.distributions.Independent(torch.distributions.Uniform(-2 * torch.ones(num_dim), 2 * torch.ones(num_dim)), 1)
theta = prior.sample((200,))
x = theta + 1.0 + 0.1 * torch.randn_like(theta)
inference = SNRE_A(prior, device="meta")         # device="gpu"/"cuda" in the report
'''
CELL = '''
ratio_estimator = inference.append_simulations(theta, x).train()
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["inference"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("labels = ones(2 * batch_size)  # two atoms", "labels = ones(2 * batch_size, device=self._device)  # two atoms")
CLEAN = False
