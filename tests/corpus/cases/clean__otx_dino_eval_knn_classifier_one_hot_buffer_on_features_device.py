"""DINO's weighted k-NN classifier: the one-hot retrieval buffer is created then moved to the features' device.

Source: https://github.com/facebookresearch/dino/blob/main/eval_knn.py
Look-alike: `knn_classifier` allocates `retrieval_one_hot = torch.zeros(k, num_classes).to(train_features.device)`
(made on the CPU, moved at once), transposes the train bank, scores each test chunk with `torch.mm`, takes
`topk`, gathers the neighbours' labels from `train_labels` (on the GPU too) and scatters them into the
buffer. `T` and `k` are Python numbers. Stand-ins: chunks taken with `narrow` instead of slicing,
`view` instead of `resize_` (the simulation cannot slice fake tensors); the accuracy is left as tensors.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F

@torch.no_grad()
def knn_classifier(train_features, train_labels, test_features, test_labels, k, T, num_classes=1000):
    top1, top5, total = 0.0, 0.0, 0
    train_features = train_features.t()
    num_test_images, num_chunks = test_labels.shape[0], 4
    imgs_per_chunk = num_test_images // num_chunks
    retrieval_one_hot = torch.zeros(k * imgs_per_chunk, num_classes).to(train_features.device)
    for idx in range(0, num_test_images, imgs_per_chunk):
        features = test_features.narrow(0, idx, imgs_per_chunk)
        targets = test_labels.narrow(0, idx, imgs_per_chunk)
        batch_size = targets.shape[0]

        similarity = torch.mm(features, train_features)
        distances, indices = similarity.topk(k, largest=True, sorted=True)
        candidates = train_labels.view(1, -1).expand(batch_size, -1)
        retrieved_neighbors = torch.gather(candidates, 1, indices)

        one_hot = retrieval_one_hot.view(batch_size * k, num_classes).zero_()
        one_hot.scatter_(1, retrieved_neighbors.view(-1, 1), 1)
        distances_transform = distances.clone().div_(T).exp_()
        probs = torch.sum(
            torch.mul(one_hot.view(batch_size, -1, num_classes), distances_transform.view(batch_size, -1, 1)), 1)
        _, predictions = probs.sort(1, True)

        correct = predictions.eq(targets.view(-1, 1))
        top1 = top1 + correct.narrow(1, 0, 1).sum()
        top5 = top5 + correct.narrow(1, 0, min(5, k)).sum()
        total += targets.size(0)
    return top1 * 100.0 / total, top5 * 100.0 / total

device = torch.device("cuda:0")
train_features = F.normalize(torch.randn(500, 64), dim=1).to(device)
test_features = F.normalize(torch.randn(80, 64), dim=1).to(device)
train_labels = torch.randint(0, 10, (500,)).to(device)
test_labels = torch.randint(0, 10, (80,)).to(device)
'''
CELL = '''
top1, top5 = knn_classifier(train_features, train_labels, test_features, test_labels, 20, 0.07, num_classes=10)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
