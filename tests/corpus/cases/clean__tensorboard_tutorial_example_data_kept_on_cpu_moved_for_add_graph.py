"""Look-alike: the TensorBoard tutorial's example batch stays on the CPU; `add_graph` gets a moved copy.

Source: https://github.com/patrickloeber/pytorchTutorial/pull/13
The merged fix logs the graph with `example_data.reshape(-1, 28*28).to(device)`. `example_data`
itself stays on the CPU on purpose (it also feeds `torchvision.utils.make_grid` / `plt.imshow`),
next to a model on the GPU: two devices in the namespace, and nothing wrong. SummaryWriter is
stood in for by a stub whose add_graph runs the model on the example input.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class SummaryWriter:
    # stand-in for torch.utils.tensorboard.SummaryWriter: add_graph traces model(input_to_model)
    def __init__(self, log_dir=None):
        self.log_dir = log_dir
    def add_graph(self, model, input_to_model=None):
        return model(input_to_model)

writer = SummaryWriter('runs/mnist1')
device = torch.device('cuda:0')
input_size, hidden_size, num_classes, batch_size = 784, 500, 10, 64

example_data = torch.rand(batch_size, 1, 28, 28)          # first test batch, kept for make_grid
example_targets = torch.randint(0, 10, (batch_size,))

class NeuralNet(nn.Module):
    def __init__(self, input_size, hidden_size, num_classes):
        super(NeuralNet, self).__init__()
        self.l1 = nn.Linear(input_size, hidden_size)
        self.relu = nn.ReLU()
        self.l2 = nn.Linear(hidden_size, num_classes)

    def forward(self, x):
        return self.l2(self.relu(self.l1(x)))

model = NeuralNet(input_size, hidden_size, num_classes).to(device)
'''
CELL = '''
writer.add_graph(model, example_data.reshape(-1, 28*28).to(device))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
