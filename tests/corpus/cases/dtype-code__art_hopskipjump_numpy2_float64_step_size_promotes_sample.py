"""ART HopSkipJump with NumPy 2: the float64 step size promotes the float32 candidate sample, and the PyTorch classifier gets a double input.

Source: https://github.com/Trusted-AI/adversarial-robustness-toolbox/issues/2475
Replacing `FastGradientMethod` by `HopSkipJump(classifier=classifier)` in `get_started_pytorch.py`
(ART 1.18.1, numpy 2.0.1, torch 2.4.0) failed: "`float32` inputs get transformed internally into
`float64` inputs which leads to `RuntimeError: Input type (double) and bias type (float) should be
the same`". In `_attack`, `epsilon = 2.0 * dist / np.sqrt(self.curr_iter + 1)` is a numpy float64
scalar, and under NumPy 2's promotion rules `potential_sample = current_sample + epsilon * update`
becomes float64; `PyTorchClassifier.predict` then runs the model on `torch.from_numpy(...)` of it.
The reporter's fix casts the sample back to float32. Stand-in: the classifier's `predict`, HopSkipJump
reduced to one iteration of the geometric step-size search (random-direction gradient estimate, the
search gives up after ten halvings), the example's MNIST CNN with random images, on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ART_NUMPY_DTYPE = np.float32

class PyTorchClassifier:
    def __init__(self, model, loss, optimizer, input_shape, nb_classes, clip_values=None):
        self._model, self._loss, self._optimizer = model, loss, optimizer
        self.input_shape, self.nb_classes, self.clip_values = input_shape, nb_classes, clip_values
        self._device = torch.device("cpu")
        self._model.to(self._device)

    def predict(self, x, batch_size=128):
        self._model.eval()
        results = []
        for begin in range(0, len(x), batch_size):
            with torch.no_grad():
                model_outputs = self._model(torch.from_numpy(x[begin:begin + batch_size]).to(self._device))
            results.append(model_outputs.detach().cpu().numpy())
        return np.concatenate(results)

class HopSkipJump:
    def __init__(self, classifier, batch_size=64, targeted=False, norm=2, max_iter=1, max_eval=100, init_eval=10):
        self.estimator = classifier
        self.batch_size, self.targeted, self.norm = batch_size, targeted, norm
        self.max_iter, self.max_eval, self.init_eval = max_iter, max_eval, init_eval
        self.curr_iter = 0

    def generate(self, x, y=None):
        clip_min, clip_max = self.estimator.clip_values
        preds = np.argmax(self.estimator.predict(x, batch_size=self.batch_size), axis=1)
        x_adv = x.astype(ART_NUMPY_DTYPE)
        for ind, val in enumerate(x_adv):
            initial_sample = np.random.uniform(clip_min, clip_max, size=val.shape).astype(val.dtype)
            x_adv[ind] = self._attack(initial_sample, val, preds[ind], clip_min, clip_max)
        return x_adv

    def _compute_distance(self, x_ori, x_pert):
        return np.linalg.norm(x_ori - x_pert)

    def _compute_update(self, current_sample, num_eval, delta, target, clip_min, clip_max):
        rnd_noise = np.random.randn(num_eval, *current_sample.shape).astype(ART_NUMPY_DTYPE)
        rnd_noise = rnd_noise / np.sqrt(np.sum(rnd_noise ** 2, axis=tuple(range(1, rnd_noise.ndim)), keepdims=True))
        update = np.mean(rnd_noise, axis=0)
        return update / np.linalg.norm(update)

    def _adversarial_satisfactory(self, samples, target, clip_min, clip_max):
        samples = np.clip(samples, clip_min, clip_max)
        preds = np.argmax(self.estimator.predict(samples, batch_size=self.batch_size), axis=1)
        return preds[0] != target

    def _attack(self, initial_sample, original_sample, target, clip_min, clip_max):
        current_sample = initial_sample
        for self.curr_iter in range(self.max_iter):
            delta = np.sqrt(np.prod(current_sample.shape)) * 0.01
            num_eval = min(int(self.init_eval * np.sqrt(self.curr_iter + 1)), self.max_eval)
            update = self._compute_update(current_sample, num_eval, delta, target, clip_min, clip_max)
            dist = self._compute_distance(current_sample, original_sample)
            epsilon = 2.0 * dist / np.sqrt(self.curr_iter + 1)
            success = False
            halvings = 0
            while not success and halvings < 10:
                epsilon /= 2.0
                potential_sample = current_sample + epsilon * update
                success = self._adversarial_satisfactory(samples=potential_sample[None], target=target,
                                                         clip_min=clip_min, clip_max=clip_max)
                halvings += 1
            current_sample = np.clip(potential_sample, clip_min, clip_max)
        return current_sample

class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv_1 = nn.Conv2d(in_channels=1, out_channels=4, kernel_size=5, stride=1)
        self.conv_2 = nn.Conv2d(in_channels=4, out_channels=10, kernel_size=5, stride=1)
        self.fc_1 = nn.Linear(in_features=4 * 4 * 10, out_features=100)
        self.fc_2 = nn.Linear(in_features=100, out_features=10)

    def forward(self, x):
        x = F.relu(self.conv_1(x))
        x = F.max_pool2d(x, 2, 2)
        x = F.relu(self.conv_2(x))
        x = F.max_pool2d(x, 2, 2)
        x = x.view(-1, 4 * 4 * 10)
        x = F.relu(self.fc_1(x))
        return self.fc_2(x)

model = Net()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
classifier = PyTorchClassifier(model=model, clip_values=(0.0, 1.0), loss=criterion, optimizer=optimizer,
                               input_shape=(1, 28, 28), nb_classes=10)
x_test = np.random.rand(4, 1, 28, 28).astype(np.float32)
predictions = classifier.predict(x_test)
'''
CELL = '''
attack = HopSkipJump(classifier=classifier)
x_test_adv = attack.generate(x=x_test)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type")
CULPRITS = ["attack"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("potential_sample = current_sample + epsilon * update",
                  "potential_sample = (current_sample + epsilon * update).astype(ART_NUMPY_DTYPE)")
CLEAN = False
