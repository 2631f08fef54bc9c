"""ART PyTorchClassifier with device_type="cpu" on a GPU machine: the default standardisation preprocessor is built for the GPU.

Source: https://github.com/Trusted-AI/adversarial-robustness-toolbox/issues/1221
Running `get_started_pytorch.py` with `PyTorchClassifier(..., device_type="cpu")` on a machine with a
GPU raised "Expected all tensors to be on the same device" while applying the default preprocessing.
`PyTorchEstimator.__init__` creates `StandardisationMeanStdPyTorch(mean, std)` without passing
`device_type`, so the preprocessor keeps its default "gpu" and makes its mean/std tensors on
cuda:0, while the classifier puts the input on the CPU. The reporter's fix: pass `device_type`
through (ART 1.7.1). Stand-in: the estimator, the preprocessor and `predict` reduced to the
tensor path (no numpy round trip), a small MNIST CNN instead of the example's.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class StandardisationMeanStdPyTorch:
    def __init__(self, mean=0.0, std=1.0, apply_fit=True, apply_predict=True, device_type="gpu"):
        self.mean = np.asarray(mean, dtype=np.float32)
        self.std = np.asarray(std, dtype=np.float32)
        self.apply_fit, self.apply_predict = apply_fit, apply_predict
        if device_type == "cpu":   # the real code also checks torch.cuda.is_available()
            self._device = torch.device("cpu")
        else:
            self._device = torch.device("cuda:0")

    @property
    def device(self):
        return self._device

    def forward(self, x, y=None):
        x_norm = x - torch.tensor(self.mean, device=self.device, dtype=torch.float32)
        x_norm = x_norm / torch.tensor(self.std, device=self.device, dtype=torch.float32)
        return x_norm, y

class PyTorchClassifier:
    def __init__(self, model, loss, optimizer, input_shape, nb_classes, clip_values=None,
                 preprocessing=(0.0, 1.0), device_type="gpu"):
        self._model, self._loss, self._optimizer = model, loss, optimizer
        self.input_shape, self.nb_classes, self.clip_values = input_shape, nb_classes, clip_values
        if device_type == "cpu":
            self._device = torch.device("cpu")
        else:
            self._device = torch.device("cuda:0")
        mean, std = preprocessing
        self.preprocessing_operations = [StandardisationMeanStdPyTorch(mean=mean, std=std)]
        self._model.to(self._device)

    def _apply_preprocessing(self, x, y, fit):
        x = torch.tensor(x, device=self._device)
        for preprocess in self.preprocessing_operations:
            if (fit and preprocess.apply_fit) or (not fit and preprocess.apply_predict):
                x, y = preprocess.forward(x, y)
        return x, y

    def predict(self, x, batch_size=128):
        x_preprocessed, _ = self._apply_preprocessing(x, y=None, fit=False)
        self._model.eval()
        results = []
        for begin in range(0, len(x_preprocessed), batch_size):
            model_outputs = self._model(x_preprocessed[begin:begin + batch_size])
            results.append(model_outputs.detach().cpu())
        return torch.cat(results)

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
                               input_shape=(1, 28, 28), nb_classes=10, device_type="cpu")
x_test = np.random.rand(32, 1, 28, 28).astype(np.float32)
'''
CELL = '''
predictions = classifier.predict(x_test)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["classifier.preprocessing_operations[0]"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("StandardisationMeanStdPyTorch(mean=mean, std=std)",
                  "StandardisationMeanStdPyTorch(mean=mean, std=std, device_type=device_type)")
CLEAN = False
