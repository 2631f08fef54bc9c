"""Look-alike: a classifier restored from a CPU checkpoint, its network moved to the GPU inside `predict`.

Source: https://github.com/DashAISoftware/dashAI/pull/679
After the fix, DashAI's image classifiers still load with `map_location="cpu"`, and `predict`
now calls `self.model.to(self.device)` before sending the batches to the same device. The CPU
state dict (`saved_state`) and the CPU test batches stay in the namespace next to the GPU model:
both are correct. The classifier is stood in for by a small class with the same structure.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class MLP(nn.Module):
    def __init__(self, input_dim=3 * 32 * 32, hidden=128, num_classes=10):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(input_dim, hidden), nn.ReLU(),
                                 nn.Linear(hidden, num_classes))

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
        self.model.to(self.device)
        self.model.eval()
        probs = []
        with torch.no_grad():
            for images in loader:
                images = images.to(self.device)
                probs.append(torch.softmax(self.model(images), dim=1))
        return torch.cat(probs)

saved_state = MLP().state_dict()
classifier = MLPImageClassifier.load(saved_state)
test_loader = [torch.rand(4, 3, 32, 32) for _ in range(2)]
'''
CELL = '''
probs = classifier.predict(test_loader)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
