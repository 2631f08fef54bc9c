"""Transformers4Rec `MeanReciprocalRankAt` divides the cuda top-k labels by a rank vector made with `torch.arange(k)` on the CPU.

Source: https://github.com/NVIDIA-Merlin/Transformers4Rec/issues/509
"MeanReciprocalRankAt created on CPU": in `ranking_metric.py`, `_metric` computes
`(topk_labels[:, :k] / (torch.arange(k) + 1)).max(dim=1)`; `torch.arange(k)` has no device, so with
scores and labels on the GPU the division fails. The reporter's fix moves it:
`(torch.arange(k) + 1).to(device=scores.device)`. Stand-in: the metric class with `extract_topk`
(topk + gather), the labels one-hot over the item catalogue as the library builds them.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def extract_topk(ks, scores, labels):
    max_k = int(max(ks))
    topk_scores, topk_indices = torch.topk(scores, max_k)
    topk_labels = torch.gather(labels, 1, topk_indices)
    return topk_scores, topk_indices, topk_labels

class MeanReciprocalRankAt:
    def __init__(self, top_ks=(2, 5), labels_onehot=False):
        self.top_ks = list(top_ks)
        self.labels_onehot = labels_onehot

    def _metric(self, ks, scores, labels):
        topk_scores, _, topk_labels = extract_topk(ks, scores, labels)
        results = []
        for index, k in enumerate(ks):
            values, _ = (topk_labels.narrow(1, 0, k) / (torch.arange(k) + 1)).max(dim=1)
            results.append(values)
        return torch.stack(results, dim=1)

    def __call__(self, predictions, labels):
        return self._metric(self.top_ks, predictions, labels).mean(0)

device = torch.device("cuda:0")
mrr = MeanReciprocalRankAt(top_ks=[2, 5])
predictions = torch.randn(8, 30).to(device)                      # next-item scores over 30 items
labels = torch.nn.functional.one_hot(torch.randint(0, 30, (8,)), 30).float().to(device)
'''
CELL = '''
result = mrr(predictions, labels)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["mrr"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("(torch.arange(k) + 1)", "(torch.arange(k, device=scores.device) + 1)")
CLEAN = False
