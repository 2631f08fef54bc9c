"""quadra anomaly evaluation of a model trained in fp16: the float32 test batch meets the half model.

Source: https://github.com/orobix/quadra/pull/124
"Fix failing fp16 evaluation": for finetuning and anomaly tasks "the evaluation tasks don't work properly
when the model is trained with fp16 precision"; the anomaly task's `test()` moved each batch to the
device but kept the dataloader's float32, while the exported deployment model runs in float16. The fix
casts the batch to the model's dtype: `batch_images.to(self.device).to(self.deployment_model.model_dtype)`.
Stand-ins: a PaDiM-like deployment model wrapper with `model_dtype`, a list standing in for the test
dataloader, and the task's test loop; CPU (dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class FeatureModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.head = nn.Linear(8 * 16, 1)

    def forward(self, x):
        return self.head(self.backbone(x).flatten(1))

class DeploymentModel:
    def __init__(self, model, model_dtype):
        self.model = model.to(model_dtype).eval()
        self.model_dtype = model_dtype

    def __call__(self, x):
        return self.model(x)

class AnomalibEvaluation:
    def __init__(self, deployment_model, device="cpu"):
        self.deployment_model = deployment_model
        self.device = device

    def test(self, test_dataloader):
        anomaly_scores, image_labels = [], []
        with torch.no_grad():
            for batch_item in test_dataloader:
                batch_images = batch_item["image"]
                batch_labels = batch_item["label"]
                image_labels.extend(batch_labels.tolist())
                batch_images = batch_images.to(self.device)
                model_output = self.deployment_model(batch_images)
                anomaly_scores.append(model_output.float().squeeze(-1))
        return torch.cat(anomaly_scores), image_labels

test_dataloader = [{"image": torch.rand(2, 3, 16, 16), "label": torch.tensor([0, 1]),
                    "image_path": ["good/000.png", "crack/001.png"]} for _ in range(2)]
task = AnomalibEvaluation(DeploymentModel(FeatureModel(), torch.float16))
'''
CELL = '''
scores, labels = task.test(test_dataloader)
'''
EXPECT_ERROR = ("should be the same", "same dtype", "expected scalar type")
CULPRITS = ["task"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("batch_images = batch_images.to(self.device)",
                  "batch_images = batch_images.to(self.device).to(self.deployment_model.model_dtype)")
CLEAN = False
