"""ART AutoAttack on a PyTorchClassifier: APGD's constructor probes the model with `np.ones(...)`, a float64 array.

Source: https://github.com/Trusted-AI/adversarial-robustness-toolbox/issues/497
"I encountered the error 'RuntimeError: Input type (torch.cuda.DoubleTensor) and weight type
(torch.cuda.FloatTensor) should be the same' when initiating an instance of AutoAttack ... It seems
like 'torch.from_numpy(...)' gives a DoubleTensor while my model was loaded with weights of type
FloatTensor." `AutoProjectedGradientDescent.__init__` checks that the estimator predicts logits with
`is_probability(estimator.predict(x=np.ones(shape=(1, *estimator.input_shape))))`; numpy's default
dtype is float64 and `PyTorchClassifier.predict` feeds `torch.from_numpy(...)` to the model (later
ART passes `dtype=np.float32`). Stand-in: minimal `PyTorchClassifier.predict`, `AutoAttack` /
`AutoProjectedGradientDescent` constructors down to that check, on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def is_probability(vector):
    is_sum_1 = np.isclose(np.sum(vector, axis=1), np.ones_like(np.sum(vector, axis=1)), rtol=1e-3)
    is_smaller_1 = np.amax(vector) <= 1.0
    is_larger_0 = np.amin(vector) >= 0.0
    return bool(np.all(is_sum_1) and is_smaller_1 and is_larger_0)

class PyTorchClassifier:
    def __init__(self, model, loss, input_shape, nb_classes, optimizer=None, clip_values=None, device_type="gpu"):
        self._model, self._loss, self._optimizer = model, loss, optimizer
        self.input_shape, self.nb_classes, self.clip_values = input_shape, nb_classes, clip_values
        self._device = torch.device("cpu")          # cuda:0 on the reporter's machine
        self._model.to(self._device)

    @property
    def model(self):
        return self._model

    def predict(self, x, batch_size=128):
        self._model.eval()
        results = []
        for begin in range(0, len(x), batch_size):
            with torch.no_grad():
                model_outputs = self._model(torch.from_numpy(x[begin:begin + batch_size]).to(self._device))
            results.append(model_outputs.detach().cpu().numpy())
        return np.concatenate(results)

class AutoProjectedGradientDescent:
    def __init__(self, estimator, norm=np.inf, eps=0.3, eps_step=0.1, max_iter=100, targeted=False,
                 nb_random_init=5, batch_size=32, loss_type="cross_entropy"):
        if loss_type == "cross_entropy":
            if is_probability(estimator.predict(x=np.ones(shape=(1, *estimator.input_shape)))):
                raise ValueError("If loss_type='cross_entropy' the estimator has to to predict logits.")
        self.estimator = estimator
        self.norm, self.eps, self.eps_step, self.max_iter = norm, eps, eps_step, max_iter
        self.targeted, self.nb_random_init, self.batch_size = targeted, nb_random_init, batch_size

class AutoAttack:
    def __init__(self, estimator, norm=np.inf, eps=0.3, eps_step=0.1, attacks=None, batch_size=32,
                 estimator_orig=None, targeted=False):
        if attacks is None:
            attacks = [
                AutoProjectedGradientDescent(estimator=estimator, norm=norm, eps=eps, eps_step=eps_step,
                                             max_iter=100, targeted=False, nb_random_init=5,
                                             batch_size=batch_size, loss_type="cross_entropy"),
                AutoProjectedGradientDescent(estimator=estimator, norm=norm, eps=eps, eps_step=eps_step,
                                             max_iter=100, targeted=False, nb_random_init=5,
                                             batch_size=batch_size, loss_type="difference_logits_ratio"),
            ]
        self.estimator, self.attacks = estimator, attacks

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.fc = nn.Linear(16 * 16, 10)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))

model = Net()
model.load_state_dict(Net().state_dict())      # the user's trained weights
classifier = PyTorchClassifier(model=model, loss=nn.CrossEntropyLoss(), input_shape=(3, 32, 32),
                               nb_classes=10, clip_values=(0.0, 1.0))
'''
CELL = '''
attack = AutoAttack(estimator=classifier, norm=np.inf, eps=8 / 255, eps_step=2 / 255, batch_size=64)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type")
CULPRITS = ["classifier"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("estimator.predict(x=np.ones(shape=(1, *estimator.input_shape)))",
                  "estimator.predict(x=np.ones(shape=(1, *estimator.input_shape), dtype=np.float32))")
CLEAN = False
