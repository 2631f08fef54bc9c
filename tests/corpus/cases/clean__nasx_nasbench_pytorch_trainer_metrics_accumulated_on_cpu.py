"""NASBench-PyTorch `train`: loss and accuracy counters live on the CPU on purpose; each batch's GPU values are copied down.

Source: https://github.com/romulus0914/NASBench-PyTorch/blob/master/nasbench_pytorch/trainer.py
After the device fixes (commit 08860e3), the trainer keeps its running metrics as CPU tensors
(`train_loss = torch.tensor(0.0)`, `correct = torch.tensor(0)`) while the NAS-Bench-101 network and
each batch are on the GPU, and adds `curr_loss.detach().cpu()` and
`predict.eq(targets.data).sum().detach().cpu()` to them. Look-alike: CPU accumulators next to a GPU
model, every GPU value moved to the CPU before it is accumulated.
Stand-ins: NAS-Bench-101's `ModelSpec`, ops, `Cell` (current release: `zeros_like(...)` on the cell's
`dev_param` device) and `Network` (one stack of two cells); random CIFAR-shaped batches; the epoch's
metric part without the optimizer step (no autograd on the simulated GPU) and in eval mode (no
BatchNorm running-stat update on the simulated GPU).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class ModelSpec:
    def __init__(self, matrix, ops):
        self.matrix = np.array(matrix)
        self.ops = ops

class ConvBnRelu(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size=1, stride=1, padding=0):
        super().__init__()
        self.conv_bn_relu = nn.Sequential(
            nn.Conv2d(in_channels, out_channels, kernel_size, stride, padding, bias=False),
            nn.BatchNorm2d(out_channels),
            nn.ReLU(inplace=False))
    def forward(self, x):
        return self.conv_bn_relu(x)

class Conv3x3BnRelu(ConvBnRelu):
    def __init__(self, in_channels, out_channels):
        super().__init__(in_channels, out_channels, 3, 1, 1)

class Conv1x1BnRelu(ConvBnRelu):
    def __init__(self, in_channels, out_channels):
        super().__init__(in_channels, out_channels, 1, 1, 0)

class MaxPool3x3(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.maxpool = nn.MaxPool2d(3, 1, 1)
    def forward(self, x):
        return self.maxpool(x)

OP_MAP = {'conv3x3-bn-relu': Conv3x3BnRelu, 'conv1x1-bn-relu': Conv1x1BnRelu, 'maxpool3x3': MaxPool3x3}

class Placeholder(nn.Module):
    def forward(self, x):
        return x

def Projection(in_channels, out_channels):
    return ConvBnRelu(in_channels, out_channels, 1)

def Truncate(inputs, channels):
    input_channels = inputs.size()[1]
    if input_channels < channels:
        raise ValueError('input channel < output channels for truncate')
    elif input_channels == channels:
        return inputs
    else:
        return inputs[:, :channels, :, :]

def ComputeVertexChannels(in_channels, out_channels, matrix):
    num_vertices = np.shape(matrix)[0]
    return [in_channels] + [out_channels] * (num_vertices - 1)

class Cell(nn.Module):
    def __init__(self, spec, in_channels, out_channels):
        super(Cell, self).__init__()
        self.dev_param = nn.Parameter(torch.empty(0))
        self.matrix = spec.matrix
        self.num_vertices = np.shape(self.matrix)[0]
        self.vertex_channels = ComputeVertexChannels(in_channels, out_channels, self.matrix)
        self.vertex_op = nn.ModuleList([Placeholder()])
        for t in range(1, self.num_vertices - 1):
            self.vertex_op.append(OP_MAP[spec.ops[t]](self.vertex_channels[t], self.vertex_channels[t]))
        self.input_op = nn.ModuleList([Placeholder()])
        for t in range(1, self.num_vertices):
            if self.matrix[0, t]:
                self.input_op.append(Projection(in_channels, self.vertex_channels[t]))
            else:
                self.input_op.append(Placeholder())
        self.last_inop = self.input_op[self.num_vertices - 1]

    def forward(self, x):
        tensors = [x]
        out_concat = []
        for t, (inmod, outmod) in enumerate(zip(self.input_op, self.vertex_op)):
            if 0 < t < (self.num_vertices - 1):
                fan_in = []
                for src in range(1, t):
                    if self.matrix[src, t]:
                        fan_in.append(Truncate(tensors[src], torch.tensor(self.vertex_channels[t])))
                if self.matrix[0, t]:
                    fan_in.append(inmod(x))
                vertex_input = torch.zeros_like(fan_in[0]).to(self.dev_param.device)
                for val in fan_in:
                    vertex_input += val
                vertex_output = outmod(vertex_input)
                tensors.append(vertex_output)
                if self.matrix[t, self.num_vertices - 1]:
                    out_concat.append(tensors[t])
        if len(out_concat) == 1:
            outputs = out_concat[0]
        else:
            outputs = torch.cat(out_concat, 1)
        if self.matrix[0, self.num_vertices - 1]:
            outputs += self.last_inop(tensors[0])
        return outputs

class Network(nn.Module):
    def __init__(self, spec, num_labels=10, in_channels=3, stem_out_channels=16, num_stacks=1,
                 num_modules_per_stack=2):
        super(Network, self).__init__()
        self.layers = nn.ModuleList([])
        out_channels = stem_out_channels
        self.layers.append(ConvBnRelu(in_channels, out_channels, 3, 1, 1))
        in_channels = out_channels
        for stack_num in range(num_stacks):
            for module_num in range(num_modules_per_stack):
                self.layers.append(Cell(spec, in_channels, out_channels))
                in_channels = out_channels
        self.classifier = nn.Linear(out_channels, num_labels)

    def forward(self, x):
        for _, layer in enumerate(self.layers):
            x = layer(x)
        out = torch.mean(x, (2, 3))
        return self.classifier(out)

matrix = [[0, 1, 1, 0, 0],
          [0, 0, 1, 0, 0],
          [0, 0, 0, 1, 0],
          [0, 0, 0, 0, 1],
          [0, 0, 0, 0, 0]]
ops = ['input', 'conv3x3-bn-relu', 'conv1x1-bn-relu', 'maxpool3x3', 'output']
spec = ModelSpec(matrix, ops)
device = torch.device("cuda:0")
net = Network(spec, num_labels=10, in_channels=3, stem_out_channels=16)
net = net.to(device)
loss = nn.CrossEntropyLoss()
train_loader = [(torch.randn(8, 3, 32, 32), torch.randint(0, 10, (8,))) for _ in range(2)]
'''
CELL = '''
net.eval()
train_loss = torch.tensor(0.0)
correct = torch.tensor(0)
total = 0
for batch_idx, (inputs, targets) in enumerate(train_loader):
    inputs, targets = inputs.to(device), targets.to(device)
    outputs = net(inputs)
    curr_loss = loss(outputs, targets)
    train_loss += curr_loss.detach().cpu()
    _, predict = torch.max(outputs.data, 1)
    total += targets.size(0)
    correct += predict.eq(targets.data).sum().detach().cpu()
last_loss = train_loss / (batch_idx + 1)
acc = correct / total
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
