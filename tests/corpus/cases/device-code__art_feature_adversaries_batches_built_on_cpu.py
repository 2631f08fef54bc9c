"""ART FeatureAdversariesPyTorch on a GPU classifier: `generate` builds the source and guide batches on the CPU.

Source: https://github.com/Trusted-AI/adversarial-robustness-toolbox/issues/2009
The user made a `PyTorchClassifier(..., device_type='gpu')` and ran
`FeatureAdversariesPyTorch(classifier, layer=-1, delta=8/255, optimizer=None, step_size=1/255,
max_iter=500).generate(data, guide)`; it failed with a device mismatch. `generate` made
`source_batch = torch.tensor(x[begin:end])` and `guide_batch = torch.tensor(y[begin:end])` without
moving them; `_generate_batch` moves only its copy `adv`, so the guide reaches the model on the CPU
and the soft constraint subtracts the CPU source from the on-device `adv` (fixed in #2021 with
`.to(self.estimator.device)`). Stand-in: a minimal classifier with `get_activations`, the attack's
PGD branch, `generate` returning tensors instead of numpy; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class PyTorchClassifier:
    def __init__(self, model, loss, optimizer, input_shape, nb_classes, clip_values=None, device_type="gpu"):
        self._model, self._loss, self._optimizer = model, loss, optimizer
        self.input_shape, self.nb_classes, self.clip_values = input_shape, nb_classes, clip_values
        self._device = torch.device("meta") if device_type == "gpu" else torch.device("cpu")  # cuda:0 on a GPU
        self._model.to(self._device)

    @property
    def device(self):
        return self._device

    @property
    def model(self):
        return self._model

    def get_activations(self, x, layer, batch_size=128, framework=False):
        layers = list(self._model.children())
        out = x
        for module in layers[: (layer % len(layers)) + 1]:
            out = module(out)
        return out

class FeatureAdversariesPyTorch:
    def __init__(self, estimator, delta, optimizer=None, optimizer_kwargs=None, lambda_=0.0, layer=-1,
                 max_iter=100, batch_size=32, step_size=None, random_start=False):
        self.estimator = estimator
        self.delta, self.optimizer, self.lambda_ = delta, optimizer, lambda_
        self.layer = layer if isinstance(layer, tuple) else (layer,)
        self.max_iter, self.batch_size, self.step_size = max_iter, batch_size, step_size
        self.random_start = random_start

    def _generate_batch(self, x, y):
        def loss_fn(source_orig, source_adv, guide):
            representation_loss = torch.zeros(size=(source_orig.shape[0],)).to(self.estimator.device)
            for layer_i in self.layer:
                adv_representation = self.estimator.get_activations(source_adv, layer_i, self.batch_size, True)
                guide_representation = self.estimator.get_activations(guide, layer_i, self.batch_size, True)
                dim = tuple(range(1, len(source_adv.shape)))
                soft_constraint = torch.amax(torch.abs(source_adv - source_orig), dim=dim)
                dim = tuple(range(1, len(adv_representation.shape)))
                representation_loss += torch.sum(torch.square(adv_representation - guide_representation), dim=dim)
            return torch.mean(representation_loss + self.lambda_ * soft_constraint)

        self.estimator.model.eval()
        adv = x.clone().detach().to(self.estimator.device)
        adv.requires_grad = True
        for _ in range(self.max_iter):
            loss = loss_fn(x, adv, y)
            loss.backward()
            adv.data = adv - adv.grad.detach().sign() * self.step_size
            perturbation = torch.clamp(adv.detach() - x.detach(), -self.delta, self.delta)
            adv.data = x.detach() + perturbation
            if self.estimator.clip_values is not None:
                adv.data = torch.clamp(adv.detach(), *self.estimator.clip_values)
            adv.grad.zero_()
        return adv.detach()

    def generate(self, x, y=None):
        nb_samples = x.shape[0]
        x_adversarial = []
        nb_batches = int(np.ceil(nb_samples / float(self.batch_size)))
        for m in range(nb_batches):
            begin, end = m * self.batch_size, min((m + 1) * self.batch_size, nb_samples)
            source_batch = torch.tensor(x[begin:end])
            guide_batch = torch.tensor(y[begin:end])
            x_adversarial.append(self._generate_batch(source_batch, guide_batch))
        return torch.cat(x_adversarial)

model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten(),
                      nn.Linear(16 * 16, 10))
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
classifier = PyTorchClassifier(model=model, clip_values=(0, 1), loss=criterion, optimizer=optimizer,
                               input_shape=(3, 32, 32), nb_classes=10, device_type='gpu')
attack = FeatureAdversariesPyTorch(classifier, layer=-1, delta=8/255, optimizer=None, step_size=1/255, max_iter=5)
data = np.random.rand(8, 3, 32, 32).astype(np.float32)
guide = np.random.rand(8, 3, 32, 32).astype(np.float32)
'''
CELL = '''
x_test_adv = attack.generate(data, guide)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["attack"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "source_batch = torch.tensor(x[begin:end])\n            guide_batch = torch.tensor(y[begin:end])",
    "source_batch = torch.tensor(x[begin:end]).to(self.estimator.device)\n"
    "            guide_batch = torch.tensor(y[begin:end]).to(self.estimator.device)",
)
CLEAN = False
