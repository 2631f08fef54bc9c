"""Captum TCAV on a CUDA model: the default CAV classifier's weights come back from sklearn on the CPU.

Source: https://github.com/meta-pytorch/captum/issues/719
"When using a model in the GPU ... and when using the default classifier for `TCAV()`, running
`tcav.compute_cavs()` throws a wrong-device error": `DefaultClassifier.train_and_eval` fits the
linear model through sklearn, and `sklearn_train_linear_model` builds its weights with
`torch.FloatTensor(sklearn_model.coef_)` (a CPU tensor), then `self.lm(x_test)` runs it on the layer
activations, which are on the GPU. The fix (meta-pytorch/captum#725) moves the weights and bias to
the model's device. Stand-in: TCAV / DefaultClassifier / the linear model reduced; sklearn's
SGDClassifier is replaced by a closed-form fit on CPU copies of the activations.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class Concept:
    def __init__(self, id, name, data_iter):
        self.id, self.name, self.data_iter = id, name, data_iter

class LinearModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = None
        self.device = "cpu"

    def _construct_model_params(self, weight_values, bias_values):
        self.linear = nn.Linear(weight_values.shape[1], weight_values.shape[0])
        self.linear.weight = nn.Parameter(weight_values)
        self.linear.bias = nn.Parameter(bias_values)

    def fit(self, x_train, y_train):
        """captum._utils.models.linear_model.train.sklearn_train_linear_model (reduced)."""
        x, y = x_train.cpu(), y_train.cpu()
        onehot = torch.stack([(y == c).float() for c in (0, 1)], dim=1)
        coef_ = (x.T @ onehot).T / x.shape[0]              # sklearn_model.coef_ (numpy in captum)
        intercept_ = onehot.mean(0)                        # sklearn_model.intercept_
        weight_values = torch.as_tensor(coef_, dtype=torch.float32)
        bias_values = torch.as_tensor(intercept_, dtype=torch.float32)
        self._construct_model_params(weight_values=weight_values, bias_values=bias_values)

    def forward(self, x):
        return self.linear(x)

class DefaultClassifier:
    def __init__(self):
        self.lm = LinearModel()

    def train_and_eval(self, inputs, labels, test_split_ratio=0.33):
        x, y = torch.cat(inputs), torch.cat(labels)
        device = x.device
        n_test = int(len(x) * test_split_ratio)
        x_train, x_test, y_train, y_test = x[n_test:], x[:n_test], y[n_test:], y[:n_test]
        self.lm.device = device
        self.lm.fit(x_train, y_train)
        predict = self.lm(x_test)
        score = predict.argmax(dim=1).cpu() == y_test.long().cpu()
        return {"accs": score.float().mean()}

class TCAV:
    def __init__(self, model, layers, classifier=None):
        self.model = model
        self.layers = layers
        self.classifier = DefaultClassifier() if classifier is None else classifier

    def _activations(self, layer_name, concept):
        layer = dict(self.model.named_modules())[layer_name]
        acts = []
        handle = layer.register_forward_hook(lambda m, i, o: acts.append(o.flatten(1)))
        with torch.no_grad():
            for batch in concept.data_iter:
                self.model(batch)
        handle.remove()
        return torch.cat(acts)

    def compute_cavs(self, experimental_sets):
        cavs = {}
        for concepts in experimental_sets:
            for layer in self.layers:
                inputs = [self._activations(layer, c) for c in concepts]
                labels = [torch.full((len(a),), c.id, device=a.device) for a, c in zip(inputs, concepts)]
                cavs[(tuple(c.name for c in concepts), layer)] = self.classifier.train_and_eval(inputs, labels)
        return cavs

DEVICE = "cuda:0"

class MyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 10, 10)
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.flatten = nn.Flatten()
        self.classifier = nn.Linear(10, 1)

    def forward(self, images):
        return self.classifier(self.flatten(self.pool(self.conv(images))))

def dummy_batches(device, n=3):
    return [torch.zeros(4, 3, 32, 32).to(device) for _ in range(n)]   # DataLoader(DummyDataset(device))

model = MyModel().to(DEVICE)
concept0 = Concept(0, "concept0", dummy_batches(DEVICE))
concept1 = Concept(1, "concept1", dummy_batches(DEVICE))
tcav = TCAV(model, layers=["pool"])
'''
CELL = '''
cavs = tcav.compute_cavs([[concept0, concept1]])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["tcav.classifier"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        self._construct_model_params(weight_values=weight_values, bias_values=bias_values)",
                  "        self._construct_model_params(weight_values=weight_values.to(self.device), bias_values=bias_values.to(self.device))")
CLEAN = False
