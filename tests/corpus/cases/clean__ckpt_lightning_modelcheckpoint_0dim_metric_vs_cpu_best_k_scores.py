"""Lightning ModelCheckpoint after a resume with a 0-dim monitored metric: CPU best-k scores compared with a GPU scalar, which works.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/14446
The report: after resuming GPU training the restored `best_k_models` are CPU tensors while the
logged metric is on the GPU; "If logged metric has ndim = 0, e.g torch.tensor(1.0), there is no
error even though the tensors are in different devices" - only the ndim=1 metric crashed. This is
the working variant: `self.log("val_loss", loss)` with a 0-dim loss, and 0-dim restored scores
(a CPU 0-dim tensor is accepted as a scalar by `torch.lt`). Stand-in: the callback's
load_state_dict/check_monitor_top_k, without the Trainer.
"""

SIM = "fake_cuda"
FAMILY = "clean"
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
        return loss                       # self.log("val_loss", loss): a 0-dim tensor

# the first run's checkpoint, loaded by the Trainer with map_location="cpu"
ckpt = {"callbacks": {"ModelCheckpoint": {
    "monitor": "val_loss", "best_model_path": "checkpoints/epoch=1.ckpt",
    "kth_best_model_path": "checkpoints/epoch=2.ckpt",
    "best_k_models": {"checkpoints/epoch=1.ckpt": torch.tensor(0.41),
                      "checkpoints/epoch=2.ckpt": torch.tensor(0.47)}}}}

model = BoringModel().to("cuda:0")
checkpoint_callback = ModelCheckpoint(dirpath="checkpoints", monitor="val_loss", save_top_k=2)
checkpoint_callback.load_state_dict(ckpt["callbacks"]["ModelCheckpoint"])   # trainer.fit(model, ckpt_path=...)
batch = torch.randn(64, 32, device="cuda:0")
'''
CELL = '''
current = model.validation_step(batch)
should_save = checkpoint_callback.check_monitor_top_k(current)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
