"""Lightning ModelCheckpoint after a resume: the restored best-k scores are CPU tensors, the new monitored metric a GPU tensor.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/14446
Training on the GPU, stopping, and resuming with `ckpt_path=` crashed at the end of the first
resumed epoch in `ModelCheckpoint.check_monitor_top_k`: `monitor_op(current,
self.best_k_models[self.kth_best_model_path])` found cuda:0 and cpu. The callback state comes back
from the checkpoint on the CPU, the logged metric (a one-element tensor, ndim=1) lives on the GPU; a
0-dim metric would have slipped through. Stand-in: the callback's state_dict/load_state_dict and
check_monitor_top_k, without the Trainer.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class ModelCheckpoint:
    mode_dict = {"min": torch.lt, "max": torch.gt}

    def __init__(self, dirpath="checkpoints", monitor="val_loss", save_top_k=2, mode="min"):
        self.dirpath, self.monitor, self.save_top_k, self.mode = dirpath, monitor, save_top_k, mode
        self.best_k_models = {}
        self.kth_best_model_path = ""
        self.best_model_path = ""

    @property
    def monitor_op(self):
        return self.mode_dict[self.mode]

    def state_dict(self):
        return {"monitor": self.monitor, "best_model_path": self.best_model_path,
                "kth_best_model_path": self.kth_best_model_path, "best_k_models": self.best_k_models}

    def load_state_dict(self, state_dict):
        self.best_model_path = state_dict["best_model_path"]
        self.kth_best_model_path = state_dict["kth_best_model_path"]
        self.best_k_models = state_dict["best_k_models"]

    def check_monitor_top_k(self, current):
        if len(self.best_k_models) < self.save_top_k:
            return True
        should_update_best_and_save = self.monitor_op(current, self.best_k_models[self.kth_best_model_path])
        return should_update_best_and_save

class BoringModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.Linear(32, 2)

    def validation_step(self, batch):
        loss = self.layer(batch).sum()
        return loss.unsqueeze(0)          # self.log("val_loss", ...) with a tensor of ndim=1

# the first run's checkpoint, loaded by the Trainer with map_location="cpu"
ckpt = {"callbacks": {"ModelCheckpoint": {
    "monitor": "val_loss", "best_model_path": "checkpoints/epoch=1.ckpt",
    "kth_best_model_path": "checkpoints/epoch=2.ckpt",
    "best_k_models": {"checkpoints/epoch=1.ckpt": torch.tensor([0.41]),
                      "checkpoints/epoch=2.ckpt": torch.tensor([0.47])}}}}

model = BoringModel().to("cuda:0")
checkpoint_callback = ModelCheckpoint(dirpath="checkpoints", monitor="val_loss", save_top_k=2)
checkpoint_callback.load_state_dict(ckpt["callbacks"]["ModelCheckpoint"])   # trainer.fit(model, ckpt_path=...)
batch = torch.randn(64, 32, device="cuda:0")
'''
CELL = '''
current = model.validation_step(batch)
should_save = checkpoint_callback.check_monitor_top_k(current)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["checkpoint_callback.best_k_models"]
FIX = "namespace"
REFERENCE_FIX = '''
checkpoint_callback.best_k_models = {k: v.to("cuda:0") for k, v in checkpoint_callback.best_k_models.items()}
'''
REFERENCE_EDIT = None
CLEAN = False
