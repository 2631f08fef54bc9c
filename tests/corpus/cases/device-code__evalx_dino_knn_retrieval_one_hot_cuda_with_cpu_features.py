"""DINO `eval_knn.py --use_cuda False`: `knn_classifier` still builds `retrieval_one_hot` on the GPU.

Source: https://github.com/facebookresearch/dino/issues/135
To avoid running out of GPU memory the user kept the extracted train/test features on the CPU
(`--use_cuda False`), but `knn_classifier` creates `retrieval_one_hot = torch.zeros(k, num_classes).cuda()`
and `retrieval_one_hot.scatter_(1, retrieved_neighbors.view(-1, 1), 1)` mixes cuda:0 and cpu. Fix from
the thread (merged): `torch.zeros(k, num_classes).to(train_features.device)`.
Stand-in: `knn_classifier` as in the repo (chunked similarity, top-k voting); `.cuda()` is written
`.to("cuda:0")` (the same device on the reporter's one-GPU machine); the `.item()` accumulation is kept
as tensors (the simulation cannot read values); small random features.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

@torch.no_grad()
def knn_classifier(train_features, train_labels, test_features, test_labels, k, T, num_classes=1000):
    top1, top5, total = 0.0, 0.0, 0
    train_features = train_features.t()
    num_test_images, num_chunks = test_labels.shape[0], 4
    imgs_per_chunk = num_test_images // num_chunks
    retrieval_one_hot = torch.zeros(k, num_classes).to("cuda:0")
    for idx in range(0, num_test_images, imgs_per_chunk):
        features = test_features[idx : min((idx + imgs_per_chunk), num_test_images), :]
        targets = test_labels[idx : min((idx + imgs_per_chunk), num_test_images)]
        batch_size = targets.shape[0]
        similarity = torch.mm(features, train_features)
        distances, indices = similarity.topk(k, largest=True, sorted=True)
        candidates = train_labels.view(1, -1).expand(batch_size, -1)
        retrieved_neighbors = torch.gather(candidates, 1, indices)
        retrieval_one_hot.resize_(batch_size * k, num_classes).zero_()
        retrieval_one_hot.scatter_(1, retrieved_neighbors.view(-1, 1), 1)
        distances_transform = distances.clone().div_(T).exp_()
        probs = torch.sum(
            torch.mul(retrieval_one_hot.view(batch_size, -1, num_classes), distances_transform.view(batch_size, -1, 1)),
            1,
        )
        _, predictions = probs.sort(1, True)
        correct = predictions.eq(targets.data.view(-1, 1))
        top1 = top1 + correct.narrow(1, 0, 1).sum()
        top5 = top5 + correct.narrow(1, 0, min(5, k)).sum()
        total += targets.size(0)
    return top1 * 100.0 / total, top5 * 100.0 / total

num_classes = 10
train_features = nn.functional.normalize(torch.randn(200, 64), dim=1)
test_features = nn.functional.normalize(torch.randn(40, 64), dim=1)
train_labels = torch.randint(0, num_classes, (200,))
test_labels = torch.randint(0, num_classes, (40,))
'''
CELL = '''
top1, top5 = knn_classifier(train_features, train_labels, test_features, test_labels, 20, 0.07, num_classes)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["retrieval_one_hot"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('retrieval_one_hot = torch.zeros(k, num_classes).to("cuda:0")',
                  'retrieval_one_hot = torch.zeros(k, num_classes).to(train_features.device)')
CLEAN = False
