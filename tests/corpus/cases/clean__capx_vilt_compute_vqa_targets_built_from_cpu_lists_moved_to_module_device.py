"""ViLT `compute_vqa`: the soft VQA targets are made on the CPU, moved to `pl_module.device`, then filled from the batch's Python label/score lists.

Source: https://github.com/dandelin/ViLT/blob/master/vilt/modules/objectives.py (compute_vqa).
`vqa_targets = torch.zeros(len(vqa_logits), config["vqav2_label_size"]).to(pl_module.device)`; the
collated `batch["vqa_labels"]` / `batch["vqa_scores"]` stay plain Python lists on the host and are
written into the device tensor element by element (`vqa_targets[i, l] = s`), then
`F.binary_cross_entropy_with_logits(vqa_logits, vqa_targets) * vqa_targets.shape[1]`. A training
step runs. Stand-in: a LightningModule-like `ViLTransformerSS` with a `device` property and
`hparams.config`, whose `infer` is a toy text+image encoder with ViLT's pooler and
`vqa_classifier`; the metric logging at the end of `compute_vqa` is left out; the GPU is meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from types import SimpleNamespace

class ViLTransformerSS(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.hparams = SimpleNamespace(config=config)
        hs = config["hidden_size"]
        self.text_embeddings = nn.Embedding(config["vocab_size"], hs)
        self.patch_embed = nn.Conv2d(3, hs, 16, stride=16)
        self.encoder = nn.Sequential(nn.Linear(hs, hs), nn.GELU(), nn.Linear(hs, hs))
        self.pooler = nn.Sequential(nn.Linear(hs, hs), nn.Tanh())
        self.vqa_classifier = nn.Sequential(nn.Linear(hs, hs * 2), nn.LayerNorm(hs * 2), nn.GELU(),
                                            nn.Linear(hs * 2, config["vqav2_label_size"]))

    @property
    def device(self):                     # pytorch_lightning.LightningModule.device
        return next(self.parameters()).device

    def infer(self, batch, mask_text=False, mask_image=False):
        text_embeds = self.text_embeddings(batch["text_ids"])
        image_embeds = self.patch_embed(batch["image"][0]).flatten(2).transpose(1, 2)
        x = self.encoder(torch.cat([text_embeds, image_embeds], dim=1))
        return {"cls_feats": self.pooler(x[:, 0])}

def compute_vqa(pl_module, batch):
    infer = pl_module.infer(batch, mask_text=False, mask_image=False)
    vqa_logits = pl_module.vqa_classifier(infer["cls_feats"])
    vqa_targets = torch.zeros(
        len(vqa_logits), pl_module.hparams.config["vqav2_label_size"]
    ).to(pl_module.device)

    vqa_labels = batch["vqa_labels"]
    vqa_scores = batch["vqa_scores"]

    for i, (_label, _score) in enumerate(zip(vqa_labels, vqa_scores)):
        for l, s in zip(_label, _score):
            vqa_targets[i, l] = s

    vqa_loss = (
        F.binary_cross_entropy_with_logits(vqa_logits, vqa_targets)
        * vqa_targets.shape[1]
    )

    ret = {
        "vqa_loss": vqa_loss,
        "vqa_logits": vqa_logits,
        "vqa_targets": vqa_targets,
        "vqa_labels": vqa_labels,
        "vqa_scores": vqa_scores,
    }
    return ret

config = {"hidden_size": 32, "vocab_size": 100, "vqav2_label_size": 12}
device = torch.device("meta")              # the Trainer puts the module on the GPU
model = ViLTransformerSS(config).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)

# a collated VQAv2 batch after the Trainer's transfer_batch_to_device: tensors moved, lists untouched
batch = {
    "text_ids": torch.randint(0, 100, (2, 8)).to(device),
    "image": [torch.rand(2, 3, 64, 64).to(device)],
    "vqa_labels": [[3, 7], [1]],
    "vqa_scores": [[1.0, 0.3], [0.9]],
}
'''
CELL = '''
model.train()
ret = compute_vqa(model, batch)
ret["vqa_loss"].backward()
optimizer.step()
optimizer.zero_grad()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
