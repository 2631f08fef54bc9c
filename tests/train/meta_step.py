"""One training step on a CPU-only machine, whose second device is ``meta``.

  device  the model is on meta, the batch left on the cpu
  dtype   both on the cpu, the batch float64 and the model float32
"""

import sys

import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        return self.fc(x).relu()


def main(bug):
    model = Net()
    if bug == "device":
        model = model.to("meta")
        batch = torch.randn(2, 8)
    else:
        batch = torch.randn(2, 8, dtype=torch.float64)
    out = model(batch)
    print("output", tuple(out.shape), out.device)


if __name__ == "__main__":
    main(sys.argv[1])
