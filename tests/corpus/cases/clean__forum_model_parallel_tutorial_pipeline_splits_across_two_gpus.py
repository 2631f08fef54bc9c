"""Look-alike: the model-parallel tutorial's pipelined model, seq1 on cuda:0 and seq2/fc on cuda:1.

Source: https://github.com/pytorch/tutorials/pull/436
The PR that added intermediate_source/model_parallel_tutorial.py: `ToyModel` puts `net1` on
cuda:0 and `net2` on cuda:1, moves the activation in `forward`, and trains against `labels` sent
`.to('cuda:1')`; `PipelineParallelResNet50` splits the batch into micro-batches, runs `seq1` on
cuda:0, moves each result `.to('cuda:1')` for `seq2` and `fc`, and concatenates the outputs on
cuda:1. Parameters on two GPUs and inputs on cuda:0 with labels on cuda:1 are deliberate. Stand-in:
small conv stacks for the two ResNet halves; forward and loss only (no backward in this simulation).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class ModelParallelNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.seq1 = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(16, 32, 3, stride=2, padding=1)).to('cuda:0')
        self.seq2 = nn.Sequential(nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.ReLU(),
                                  nn.AdaptiveAvgPool2d(1)).to('cuda:1')
        self.fc = nn.Linear(64, num_classes).to('cuda:1')

class PipelineParallelNet(ModelParallelNet):
    def __init__(self, split_size=4, *args, **kwargs):
        super(PipelineParallelNet, self).__init__(*args, **kwargs)
        self.split_size = split_size

    def forward(self, x):
        splits = iter(x.split(self.split_size, dim=0))
        s_next = next(splits)
        s_prev = self.seq1(s_next).to('cuda:1')
        ret = []

        for s_next in splits:
            # A. s_prev runs on cuda:1
            s_prev = self.seq2(s_prev)
            ret.append(self.fc(s_prev.view(s_prev.size(0), -1)))

            # B. s_next runs on cuda:0, which can run concurrently with A
            s_prev = self.seq1(s_next).to('cuda:1')

        s_prev = self.seq2(s_prev)
        ret.append(self.fc(s_prev.view(s_prev.size(0), -1)))

        return torch.cat(ret)

model = PipelineParallelNet()
loss_fn = nn.MSELoss()
inputs = torch.randn(12, 3, 32, 32)
labels = torch.randn(12, 10)
'''
CELL = '''
outputs = model(inputs.to('cuda:0'))
labels = labels.to(outputs.device)
loss = loss_fn(outputs, labels)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
