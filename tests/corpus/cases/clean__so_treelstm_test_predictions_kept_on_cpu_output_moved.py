"""TreeLSTM similarity trainer: test() keeps `predictions`/`indices` on the CPU and moves each output there.

Source: https://github.com/dasguptar/treelstm.pytorch/issues/18
"Why move output to cpu?": in `Trainer.test` the SICK relatedness scores are accumulated in
`predictions = torch.zeros(len(dataset), device='cpu')` with `indices = torch.arange(1, num_classes
+ 1, device='cpu')`, while inputs and targets go to `self.device`; each output is moved back with
`output.squeeze().to('cpu')` before `torch.dot(indices, torch.exp(output))`. The author: possibly
redundant caution, but correct. Look-alike: CPU tensors created on purpose next to a GPU model, the
output moved before it meets them. Stand-in: a bag-of-embeddings similarity model in place of the
Tree-LSTM; `loss.item()` summed as a tensor (the simulation cannot read values).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

def map_label_to_target(label, num_classes):
    target = torch.zeros(1, num_classes, dtype=torch.float, device='cpu')
    ceil = int(math.ceil(label))
    floor = int(math.floor(label))
    if ceil == floor:
        target[0, floor - 1] = 1
    else:
        target[0, floor - 1] = ceil - label
        target[0, ceil - 1] = label - floor
    return target

class SICKDataset:
    num_classes = 5
    def __init__(self, n=6, vocab=50):
        self.lsentences = [torch.randint(0, vocab, (7,)) for _ in range(n)]
        self.rsentences = [torch.randint(0, vocab, (9,)) for _ in range(n)]
        self.labels = [1.0, 2.4, 3.0, 4.6, 5.0, 3.2][:n]
    def __len__(self):
        return len(self.labels)
    def __getitem__(self, idx):
        return None, self.lsentences[idx], None, self.rsentences[idx], self.labels[idx]

class SimilarityModel(nn.Module):
    def __init__(self, vocab=50, dim=16, num_classes=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.wh = nn.Linear(2 * dim, dim)
        self.wp = nn.Linear(dim, num_classes)
    def forward(self, ltree, linput, rtree, rinput):
        lvec, rvec = self.emb(linput).mean(0, keepdim=True), self.emb(rinput).mean(0, keepdim=True)
        vec_dist = torch.cat((torch.mul(lvec, rvec), torch.abs(lvec - rvec)), 1)
        return F.log_softmax(self.wp(torch.sigmoid(self.wh(vec_dist))), dim=1)

class Trainer(object):
    def __init__(self, model, criterion, device):
        self.model, self.criterion, self.device, self.epoch = model, criterion, device, 0
    def test(self, dataset):
        self.model.eval()
        with torch.no_grad():
            total_loss = 0.0
            predictions = torch.zeros(len(dataset), dtype=torch.float, device='cpu')
            indices = torch.arange(1, dataset.num_classes + 1, dtype=torch.float, device='cpu')
            for idx in range(len(dataset)):
                ltree, linput, rtree, rinput, label = dataset[idx]
                target = map_label_to_target(label, dataset.num_classes)
                linput, rinput = linput.to(self.device), rinput.to(self.device)
                target = target.to(self.device)
                output = self.model(ltree, linput, rtree, rinput)
                loss = self.criterion(output, target)
                total_loss += loss.detach()
                output = output.squeeze().to('cpu')
                predictions[idx] = torch.dot(indices, torch.exp(output))
        return total_loss / len(dataset), predictions

device = torch.device("cuda:0")
model = SimilarityModel().to(device)
criterion = nn.KLDivLoss(reduction='batchmean').to(device)
trainer = Trainer(model, criterion, device)
test_dataset = SICKDataset()
'''
CELL = '''
test_loss, test_pred = trainer.test(test_dataset)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
