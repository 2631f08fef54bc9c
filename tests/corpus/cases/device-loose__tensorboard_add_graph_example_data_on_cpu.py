"""TensorBoard tutorial: `writer.add_graph(model, example_data...)` with the model already on the GPU.

Source: https://github.com/patrickloeber/pytorchTutorial/pull/13
In the course's 16_tensorboard.py the network is built with `.to(device)` and then logged with
`writer.add_graph(model, example_data.reshape(-1, 28*28))`, where `example_data` is the first
test batch straight from the DataLoader, still on the CPU; on a GPU machine the traced forward
fails. The PR: "model was on graphic card and example_data was on cpu", move it with
`.to(device)`. SummaryWriter is stood in for by a stub whose add_graph runs the model on the
example input (what the tracer does); the MNIST batch by a random tensor.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
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

input_size = 784
hidden_size = 500
num_classes = 10
batch_size = 64

# examples = iter(test_loader); example_data, example_targets = next(examples)
example_data = torch.rand(batch_size, 1, 28, 28)
example_targets = torch.randint(0, 10, (batch_size,))

class NeuralNet(nn.Module):
    def __init__(self, input_size, hidden_size, num_classes):
        super(NeuralNet, self).__init__()
        self.input_size = input_size
        self.l1 = nn.Linear(input_size, hidden_size)
        self.relu = nn.ReLU()
        self.l2 = nn.Linear(hidden_size, num_classes)

    def forward(self, x):
        out = self.l1(x)
        out = self.relu(out)
        out = self.l2(out)
        return out

model = NeuralNet(input_size, hidden_size, num_classes).to(device)
criterion = nn.CrossEntropyLoss()
'''
CELL = '''
writer.add_graph(model, example_data.reshape(-1, 28*28))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["example_data"]
FIX = "namespace"
REFERENCE_FIX = '''
example_data = example_data.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
