"""Open3D-ML SemanticSegmentation.run_inference: filter_valid_label moves the labels to the device but not the predicted scores.

Source: https://github.com/isl-org/Open3D-ML/pull/502
"filter_valid_label: force scores tensor onto the selected device". Running
`pipeline.run_inference(test_instance)` on a GPU crashed in
`ml3d/torch/modules/losses/semseg_loss.py` `filter_valid_label` at
`torch.gather(valid_scores, 0, valid_idx.unsqueeze(-1).expand(-1, num_classes))` with "Expected all
tensors to be on the same device, but found at least two devices, cuda:0 and cpu!": run_inference
hands it `torch.tensor(inference_result['predict_scores'])` (the accumulated probabilities, a CPU
copy), while `valid_labels` and `valid_idx` are put on `device`. The PR moves the scores to `device`
inside filter_valid_label. Stand-ins: RandLANet reduced to a per-point MLP, the pipeline's sampler /
test-probability accumulation to one forward pass whose probabilities are copied to the CPU (numpy
in the library), SemSegMetric to a pixel accuracy; `torch.where(~ignored)[0]` (data-dependent shape,
not runnable in the simulation) to an arange over all points, still moved to `device`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def filter_valid_label(scores, labels, num_classes, ignored_label_inds, device):
    """filter out invalid points"""
    valid_scores = scores.reshape(-1, num_classes)
    valid_labels = labels.reshape(-1).to(device)

    ignored_bool = torch.zeros_like(valid_labels, dtype=torch.bool)
    for ign_label in ignored_label_inds:
        ignored_bool = torch.logical_or(ignored_bool, torch.eq(valid_labels, ign_label))

    # library: torch.where(torch.logical_not(ignored_bool))[0].to(device); nonzero has a
    # data-dependent shape the simulation cannot run, so the stand-in keeps every point
    valid_idx = torch.arange(valid_labels.shape[0]).to(device)

    valid_scores = torch.gather(valid_scores, 0,
                                valid_idx.unsqueeze(-1).expand(-1, num_classes))
    valid_labels = torch.gather(valid_labels, 0, valid_idx)

    # Reduce label values in the range of logit shape
    reducing_list = torch.arange(0, num_classes, dtype=torch.int64)
    inserted_value = torch.zeros([1], dtype=torch.int64)
    for ign_label in ignored_label_inds:
        reducing_list = torch.cat([reducing_list[:ign_label], inserted_value,
                                   reducing_list[ign_label:]], 0)
    valid_labels = torch.gather(reducing_list.to(device), 0, valid_labels)

    valid_labels = valid_labels.unsqueeze(0)
    valid_scores = valid_scores.unsqueeze(0).transpose(-2, -1)
    return valid_scores, valid_labels

class SemSegMetric(object):
    """Stand-in: keeps the last batch's accuracy."""
    def __init__(self):
        self.acc = None

    def update(self, scores, labels):
        pred = scores.argmax(dim=1)
        self.acc = (pred == labels).float().mean()

class RandLANet(nn.Module):
    """Stand-in: the point network reduced to a per-point MLP on xyz + features."""
    def __init__(self, num_classes=6, ignored_label_inds=[0], in_channels=6):
        super().__init__()
        self.cfg = type("cfg", (), dict(num_classes=num_classes, ignored_label_inds=ignored_label_inds))()
        self.fc0 = nn.Linear(in_channels, 16)
        self.fc1 = nn.Linear(16, num_classes)

    def forward(self, inputs):
        return self.fc1(torch.relu(self.fc0(inputs["features"])))

class SemanticSegmentation(object):
    """Stand-in for ml3d.torch.pipelines.SemanticSegmentation (inference path only)."""
    def __init__(self, model, device="cuda"):
        self.model = model
        self.device = torch.device(device)

    def run_inference(self, data):
        model = self.model
        device = self.device
        model.to(device)
        model.device = device
        model.eval()
        with torch.no_grad():
            inputs = {"features": data["feat"].to(device)}
            results = model(inputs)
            probs = torch.softmax(results, dim=-1)
        # update_tests(): the accumulated probabilities are kept on the host
        self.ori_test_probs = [probs.cpu()]
        pred_labels = probs.argmax(dim=-1)
        inference_result = {
            'predict_labels': pred_labels,
            'predict_scores': self.ori_test_probs.pop()
        }
        metric = SemSegMetric()
        valid_scores, valid_labels = filter_valid_label(
            inference_result['predict_scores'],        # torch.tensor(numpy probs)
            data['label'], model.cfg.num_classes,
            model.cfg.ignored_label_inds, device)
        metric.update(valid_scores, valid_labels)
        return inference_result

model = RandLANet(num_classes=6, ignored_label_inds=[0])
pipeline = SemanticSegmentation(model=model, device="cuda:0")

rng = np.random.default_rng(0)
test_instance = {
    "point": torch.from_numpy(rng.standard_normal((512, 3)).astype(np.float32)),
    "feat": torch.from_numpy(rng.standard_normal((512, 6)).astype(np.float32)),
    "label": torch.from_numpy(rng.integers(0, 6, 512)),
}
'''
CELL = '''
result = pipeline.run_inference(test_instance)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["filter_valid_label"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    valid_scores = scores.reshape(-1, num_classes)\n",
                  "    valid_scores = scores.reshape(-1, num_classes).to(device)\n")
CLEAN = False
