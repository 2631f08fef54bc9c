"""DashAI image classifier loaded from disk: the network is rebuilt on the CPU, `predict` moves only the images.

Source: https://github.com/DashAISoftware/dashAI/pull/679
After training on a CUDA machine, predicting with a saved classifier in a fresh process failed
with "Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same":
`load()` rebuilds the network from `torch.load(..., map_location="cpu")`, while `predict` sends
each batch to `self.device` (cuda). The fix adds `self.model.to(self.device)` before the eval loop.
The MLP image classifier is stood in for by a small class with the same load/predict structure.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import io
import torch
import torch.nn as nn

class MLP(nn.Module):
    def __init__(self, input_dim=3 * 32 * 32, hidden_dims=(128,), num_classes=10):
        super().__init__()
        layers, d = [nn.Flatten()], input_dim
        for h in hidden_dims:
            layers += [nn.Linear(d, h), nn.ReLU()]
            d = h
        layers.append(nn.Linear(d, num_classes))
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)

class MLPImageClassifier:
    def __init__(self, device="cuda:0"):
        self.device = torch.device(device)
        self.model = None

    @classmethod
    def load(cls, state):
        obj = cls()
        obj.model = MLP()
        obj.model.load_state_dict(state)   # torch.load(filename, map_location="cpu")
        return obj

    def predict(self, loader):
        self.model.eval()
        probs = []
        with torch.no_grad():
            for images in loader:
                images = images.to(self.device)
                outputs = self.model(images)
                probs.append(torch.softmax(outputs, dim=1))
        return torch.cat(probs)

saved_state = MLP().state_dict()        # what training saved
classifier = MLPImageClassifier.load(saved_state)
test_loader = [torch.rand(4, 3, 32, 32) for _ in range(2)]
'''
CELL = '''
probs = classifier.predict(test_loader)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["classifier.model"]
FIX = "namespace"
REFERENCE_FIX = '''
classifier.model.to(classifier.device)
'''
REFERENCE_EDIT = None
CLEAN = False
