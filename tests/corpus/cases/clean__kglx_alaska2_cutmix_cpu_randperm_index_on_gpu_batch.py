"""Look-alike: ALASKA2 prize solution `CutmixCallback` discards `self.index.to(state.device)`, so the permutation stays a CPU LongTensor that then indexes the GPU images and targets.

Source: https://github.com/BloodAxe/Kaggle-2020-Alaska2/blob/3c1f5e8e564c9f04423beef69244fc74168f88ca/alaska2/cutmix.py
In the Kaggle ALASKA2 Image Steganalysis solution, `on_batch_start` does
`self.index = torch.randperm(n)` then `self.index.to(state.device)` without assigning the result,
and uses the CPU index in `input[self.index, :, bbx1:bbx2, bby1:bby2]` and in
`state.input[self.input_key][self.index]` for the mixed loss. It reads like a lost `.to()`, but
advanced indexing accepts CPU index tensors for tensors on any device, so the batch is mixed on
the GPU without complaint. Stand-in: catalyst's `RunnerState`/`CriterionCallback` reduced to the
attributes used (`input`, `output`, `device`, `loader_name`, `input_key`, `output_key`); `np.int`
written `int` (removed from NumPy); SIM meta ("meta" plays the GPU).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn


def rand_bbox(size, lam):
    W = size[2]
    H = size[3]

    ar = W / float(H)
    cut_rat = np.sqrt(1.0 - lam)
    cut_w = int(W * cut_rat * ar)
    cut_h = int(H * cut_rat / ar)

    # uniform
    cx = np.random.randint(W)
    cy = np.random.randint(H)

    bbx1 = np.clip(cx - cut_w // 2, 0, W)
    bby1 = np.clip(cy - cut_h // 2, 0, H)
    bbx2 = np.clip(cx + cut_w // 2, 0, W)
    bby2 = np.clip(cy + cut_h // 2, 0, H)

    return bbx1, bby1, bbx2, bby2


class RunnerState:
    """Stand-in for catalyst.dl.RunnerState (the fields the callback reads)."""
    def __init__(self, input, device, loader_name="train"):
        self.input = input
        self.output = {}
        self.device = device
        self.loader_name = loader_name


class CriterionCallback:
    """Stand-in for catalyst.dl.CriterionCallback."""
    def __init__(self, input_key="targets", output_key="logits", **kwargs):
        self.input_key = input_key
        self.output_key = output_key

    def _compute_loss(self, state, criterion):
        return criterion(state.output[self.output_key], state.input[self.input_key])


class CutmixCallback(CriterionCallback):
    def __init__(self, image_key: str = "features", alpha=1.0, p=0.5, on_train_only=True, **kwargs):
        assert alpha >= 0, "alpha must be>=0"

        super().__init__(**kwargs)

        self.on_train_only = on_train_only
        self.image_key = image_key
        self.alpha = alpha
        self.lam = 1
        self.index = None
        self.is_needed = True
        self.is_batch_needed = True
        self.p = p

    def on_loader_start(self, state: RunnerState):
        self.is_needed = not self.on_train_only or state.loader_name.startswith("train")

    def on_batch_start(self, state: RunnerState):
        if not self.is_needed:
            return

        self.is_batch_needed = np.random.random() < self.p

        if not self.is_batch_needed:
            return

        if self.alpha > 0:
            lam = np.random.beta(self.alpha, self.alpha)
        else:
            lam = 1

        self.index = torch.randperm(state.input[self.image_key].shape[0])
        self.index.to(state.device)

        input = state.input[self.image_key]
        bbx1, bby1, bbx2, bby2 = rand_bbox(input.size(), lam)
        self.lam = 1 - ((bbx2 - bbx1) * (bby2 - bby1) / (input.size()[-1] * input.size()[-2]))

        input[:, :, bbx1:bbx2, bby1:bby2] = input[self.index, :, bbx1:bbx2, bby1:bby2].clone()

    def _compute_loss(self, state: RunnerState, criterion):
        if not self.is_needed or not self.is_batch_needed:
            return super()._compute_loss(state, criterion)

        pred = state.output[self.output_key]
        y_a = state.input[self.input_key]
        y_b = state.input[self.input_key][self.index]

        loss = self.lam * criterion(pred, y_a) + (1 - self.lam) * criterion(pred, y_b)
        return loss


np.random.seed(0)
device = torch.device("meta")                   # torch.device("cuda")
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                      nn.Flatten(), nn.Linear(8, 4)).to(device)
criterion = nn.CrossEntropyLoss()
callback = CutmixCallback(image_key="features", input_key="targets", output_key="logits", p=1.0)
batch = {"features": torch.randn(8, 3, 32, 32), "targets": torch.randint(0, 4, (8,))}
state = RunnerState({k: v.to(device) for k, v in batch.items()}, device)   # catalyst moved the batch
callback.on_loader_start(state)
'''
CELL = '''
callback.on_batch_start(state)
state.output["logits"] = model(state.input["features"])
loss = callback._compute_loss(state, criterion)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
