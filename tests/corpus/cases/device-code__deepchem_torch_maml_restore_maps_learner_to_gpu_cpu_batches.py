"""DeepChem TorchMAML on a GPU machine: `restore()` maps the learner's weights to the GPU, but `SineLearner.get_batch` keeps making CPU batches.

Source: https://github.com/deepchem/deepchem/pull/4738
Running `test_maml_pytorch` on a CUDA GPU failed with "Expected all tensors to be on the same device":
"SineLearner.get_batch initialized data on CPU by default, causing a crash when interacting with model
weights that MAML had moved to GPU". `TorchMAML` picks `torch.device('cuda')` when available and
`restore()` reloads the learner with `torch.load(last_checkpoint, map_location=self.device)` and
`self.learner.__dict__ = data['model_state_dict']`, so after `maml.restore()` the weights are CUDA
tensors while `get_batch` builds `torch.tensor(np.random.uniform(...))` on the CPU. The PR creates the
batch on `self.w1.device`. Stand-in: `TorchMAML` (fit / restore / train_on_current_task /
predict_on_batch, a single checkpoint file) and the test's `SineLearner`, 20 meta steps instead of
9000, no `.numpy()` on the losses; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import os
import tempfile
import numpy as np
import torch
import torch.nn.functional as F

class TorchMAML(object):
    def __init__(self, learner, learning_rate=0.001, optimization_steps=1, meta_batch_size=10,
                 optimizer_lr=0.001, model_dir=None, device=None):
        self.learner = learner
        self.learning_rate = learning_rate
        self.optimization_steps = optimization_steps
        self.meta_batch_size = meta_batch_size
        self.model_dir = tempfile.mkdtemp() if model_dir is None else model_dir
        if device is None:
            device = torch.device("meta")      # torch.device('cuda') when torch.cuda.is_available()
        self.device = device
        for param in learner.parameters():
            param = param.to(device)
            param.requires_grad_()
        self._global_step = 0
        self._pytorch_optimizer = torch.optim.Adam(learner.parameters(), lr=optimizer_lr)
        self._pytorch_task_optimizer = torch.optim.SGD(learner.parameters(), lr=self.learning_rate)

    def fit(self, steps):
        learner = self.learner
        variables = learner.variables
        for i in range(steps):
            self._pytorch_optimizer.zero_grad()
            for j in range(self.meta_batch_size):
                learner.select_task()
                updated_variables = variables
                for k in range(self.optimization_steps):
                    loss, _ = self.learner.compute_model(learner.get_batch(), updated_variables, True)
                    gradients = torch.autograd.grad(loss, updated_variables, grad_outputs=torch.ones_like(loss),
                                                    create_graph=True, retain_graph=True)
                    updated_variables = [v if g is None else v - self.learning_rate * g
                                         for v, g in zip(updated_variables, gradients)]
                meta_loss, _ = self.learner.compute_model(learner.get_batch(), updated_variables, True)
                meta_gradients = torch.autograd.grad(meta_loss, variables, grad_outputs=torch.ones_like(meta_loss),
                                                     retain_graph=True)
                if j == 0:
                    summed_gradients = meta_gradients
                else:
                    summed_gradients = [s + g for s, g in zip(summed_gradients, meta_gradients)]
                for ind, param in enumerate(self.learner.parameters()):
                    param.grad = summed_gradients[ind]
            self._pytorch_optimizer.step()
            if i == steps - 1:
                self.save_checkpoint()

    def save_checkpoint(self):
        data = {"model_state_dict": self.learner.__dict__, "learning_rate": self.learning_rate,
                "optimizer_state_dict": self._pytorch_optimizer.state_dict(),
                "task_optimizer_state_dict": self._pytorch_task_optimizer.state_dict(),
                "global_step": self._global_step}
        torch.save(data, os.path.join(self.model_dir, "checkpoint1.pt"))

    def restore(self):
        last_checkpoint = os.path.join(self.model_dir, "checkpoint1.pt")
        data = torch.load(last_checkpoint, map_location=self.device)
        self.learner.__dict__ = data["model_state_dict"]
        self.learning_rate = data["learning_rate"]
        self._global_step = data["global_step"]

    def train_on_current_task(self, optimization_steps=1, restore=True):
        if restore:
            self.restore()
        variables = self.learner.variables
        self._pytorch_task_optimizer = torch.optim.SGD(self.learner.parameters(), lr=self.learning_rate)
        for i in range(optimization_steps):
            self._pytorch_task_optimizer.zero_grad()
            inputs = self.learner.get_batch()
            loss, _ = self.learner.compute_model(inputs, variables, True)
            loss.backward()
            self._pytorch_task_optimizer.step()

    def predict_on_batch(self, inputs):
        return self.learner.compute_model(inputs, self.learner.variables, False)

class SineLearner:
    def __init__(self):
        self.batch_size = 10
        self.w1 = torch.nn.Parameter(torch.tensor(np.random.normal(size=[1, 40], scale=1.0), requires_grad=True))
        self.w2 = torch.nn.Parameter(torch.tensor(np.random.normal(size=[40, 40], scale=np.sqrt(1 / 40)), requires_grad=True))
        self.w3 = torch.nn.Parameter(torch.tensor(np.random.normal(size=[40, 1], scale=np.sqrt(1 / 40)), requires_grad=True))
        self.b1 = torch.nn.Parameter(torch.tensor(np.zeros(40)), requires_grad=True)
        self.b2 = torch.nn.Parameter(torch.tensor(np.zeros(40)), requires_grad=True)
        self.b3 = torch.nn.Parameter(torch.tensor(np.zeros(1)), requires_grad=True)

    def compute_model(self, inputs, variables, training):
        x, y = inputs
        w1, w2, w3, b1, b2, b3 = variables
        dense1 = F.relu(torch.matmul(x, w1) + b1)
        dense2 = F.relu(torch.matmul(dense1, w2) + b2)
        output = torch.matmul(dense2, w3) + b3
        loss = torch.mean(torch.square(output - y))
        return loss, [output]

    @property
    def variables(self):
        return [self.w1, self.w2, self.w3, self.b1, self.b2, self.b3]

    def select_task(self):
        self.amplitude = 5.0 * np.random.random()
        self.phase = np.pi * np.random.random()

    def get_batch(self):
        x = torch.tensor(np.random.uniform(-5.0, 5.0, (self.batch_size, 1)))
        return [x, torch.tensor(self.amplitude * np.sin(x + self.phase))]

    def parameters(self):
        for key, value in self.__dict__.items():
            if isinstance(value, torch.nn.Parameter):
                yield value

learner = SineLearner()
maml = TorchMAML(learner, meta_batch_size=4, optimizer_lr=5e-3)
maml.fit(20)
'''
CELL = '''
learner.select_task()
maml.restore()
batch = learner.get_batch()
loss, outputs = maml.predict_on_batch(batch)
maml.train_on_current_task()
loss, outputs = maml.predict_on_batch(batch)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["learner"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "x = torch.tensor(np.random.uniform(-5.0, 5.0, (self.batch_size, 1)))\n"
    "        return [x, torch.tensor(self.amplitude * np.sin(x + self.phase))]",
    "x = np.random.uniform(-5.0, 5.0, (self.batch_size, 1))\n"
    "        return [torch.tensor(x, device=self.w1.device),\n"
    "                torch.tensor(self.amplitude * np.sin(x + self.phase), device=self.w1.device)]",
)
CLEAN = False
