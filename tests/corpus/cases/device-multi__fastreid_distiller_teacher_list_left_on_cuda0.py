"""fast-reid FastDistill on 4 GPUs: the teacher kept in a plain list stays on cuda:0 while each process's student moves to its own GPU.

Source: https://github.com/JDAI-CV/fast-reid/issues/690
"I find out that training images come from different cuda devices, but the teacher model always
come from device 0." `Distiller.__init__` builds the teacher with `build_model(cfg_t)` (its own
config's `MODEL.DEVICE`, i.e. the first GPU) and keeps it in `self.model_ts = [model_t]` on purpose
("not register teacher model as `nn.Module`"), so the trainer's `model.to(device)` never moves it.
The reporter added `model_t.to(self.device)` in forward. Stand-in: linear backbone/heads in place
of the ResNets; the process shown is rank 1 (cuda:1).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class Backbone(nn.Module):
    def __init__(self, in_dim=3 * 16 * 8, feat_dim=32):
        super().__init__()
        self.body = nn.Sequential(nn.Flatten(), nn.Linear(in_dim, feat_dim), nn.ReLU())

    def forward(self, images):
        return self.body(images)

class EmbeddingHead(nn.Module):
    def __init__(self, feat_dim=32, num_classes=10):
        super().__init__()
        self.bottleneck = nn.Linear(feat_dim, 16)
        self.classifier = nn.Linear(16, num_classes)

    def forward(self, features, targets=None):
        neck = self.bottleneck(features)
        return {"pred_class_logits": self.classifier(neck), "features": neck}

class Baseline(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.backbone = Backbone(feat_dim=cfg["FEAT_DIM"])
        self.heads = EmbeddingHead(feat_dim=cfg["FEAT_DIM"])
        self.register_buffer("pixel_mean", torch.tensor([123.675, 116.28, 103.53]).view(1, -1, 1, 1))
        self.register_buffer("pixel_std", torch.tensor([58.395, 57.12, 57.375]).view(1, -1, 1, 1))

    @property
    def device(self):
        return self.pixel_mean.device

    def preprocess_image(self, batched_inputs):
        images = batched_inputs["images"].to(self.device)
        return (images - self.pixel_mean) / self.pixel_std

    def losses(self, outputs, gt_labels):
        return {"loss_cls": F.cross_entropy(outputs["pred_class_logits"], gt_labels)}

def build_model(cfg):
    model = META_ARCH[cfg["META_ARCHITECTURE"]](cfg)
    model.to(torch.device(cfg["DEVICE"]))
    return model

class Distiller(Baseline):
    def __init__(self, cfg):
        super().__init__(cfg)
        model_t = build_model(cfg["KD"]["TEACHER"])
        for param in model_t.parameters():
            param.requires_grad_(False)
        # Not register teacher model as `nn.Module`, this is
        # make sure teacher model weights not saved
        self.model_ts = [model_t]

    def forward(self, batched_inputs):
        images = self.preprocess_image(batched_inputs)
        s_feat = self.backbone(images)
        targets = batched_inputs["targets"].to(self.device)
        s_outputs = self.heads(s_feat, targets)
        t_outputs = []
        with torch.no_grad():
            for model_t in self.model_ts:
                t_feat = model_t.backbone(images)
                t_outputs.append(model_t.heads(t_feat, targets))
        return self.losses(s_outputs, t_outputs, targets)

    def losses(self, s_outputs, t_outputs, gt_labels):
        loss_dict = super().losses(s_outputs, gt_labels)
        s_logits = s_outputs["pred_class_logits"]
        t_logits = t_outputs[0]["pred_class_logits"].detach()
        loss_dict["loss_jsdiv"] = F.kl_div(F.log_softmax(s_logits / 16, dim=1),
                                           F.softmax(t_logits / 16, dim=1), reduction="batchmean")
        return loss_dict

META_ARCH = {"Baseline": Baseline, "Distiller": Distiller}

# the teacher's own config.yaml (trained earlier) says MODEL.DEVICE "cuda", i.e. the first GPU
teacher_cfg = {"META_ARCHITECTURE": "Baseline", "FEAT_DIM": 32, "DEVICE": "cuda:0"}
# launch with --num-gpus 4: this is the process of rank 1
cfg = {"META_ARCHITECTURE": "Distiller", "FEAT_DIM": 32, "DEVICE": "cuda:1", "KD": {"TEACHER": teacher_cfg}}
model = build_model(cfg)
batched_inputs = {"images": torch.rand(4, 3, 16, 8) * 255, "targets": torch.randint(0, 10, (4,))}
'''
CELL = '''
loss_dict = model(batched_inputs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.model_ts"]
FIX = "namespace"
REFERENCE_FIX = '''
for model_t in model.model_ts:
    model_t.to(model.device)
'''
REFERENCE_EDIT = None
CLEAN = False
