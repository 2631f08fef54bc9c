"""Look-alike: wekws keeps keyword labels and lengths int32 in `padding`; `cross_entropy` casts the target to int64 itself.

Source: https://github.com/wenet-e2e/wekws/blob/main/wekws/model/loss.py
In the current repository `wekws/dataset/processor.py:padding` still packs `padded_labels`,
`feats_lengths` and `label_lengths` as `torch.int32`, and `Executor.train` passes them on unchanged;
`cross_entropy` calls `F.cross_entropy(logits, target.type(torch.int64))` and `acc_frame` compares
against `target.long()`. The int32 tensors in the batch are by design. Stand-in: `padding`,
`acc_frame`, `cross_entropy`, `criterion`, `Executor.train` as in the repository; a small GRU
keyword classifier for MDTC; random fbank features; CPU only.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import logging
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import clip_grad_norm_
from torch.nn.utils.rnn import pad_sequence

torch.manual_seed(0)

def padding(data):
    """ Padding the data into training data

        Args:
            data: Iterable[List[{key, feat, label}]]

        Returns:
            Iterable[Tuple(keys, feats, labels, feats lengths, label lengths)]
    """
    for sample in data:
        assert isinstance(sample, list)
        feats_length = torch.tensor([x['feat'].size(0) for x in sample],
                                    dtype=torch.int32)
        order = torch.argsort(feats_length, descending=True)
        feats_lengths = torch.tensor(
            [sample[i]['feat'].size(0) for i in order], dtype=torch.int32)
        sorted_feats = [sample[i]['feat'] for i in order]
        sorted_keys = [sample[i]['key'] for i in order]
        padded_feats = pad_sequence(sorted_feats,
                                    batch_first=True,
                                    padding_value=0)

        if isinstance(sample[0]['label'], int):
            padded_labels = torch.tensor([sample[i]['label'] for i in order],
                                         dtype=torch.int32)
            label_lengths = torch.tensor([1 for i in order],
                                         dtype=torch.int32)
        else:
            sorted_labels = [
                torch.tensor(sample[i]['label'], dtype=torch.int32) for i in order
            ]
            label_lengths = torch.tensor([len(sample[i]['label']) for i in order],
                                         dtype=torch.int32)
            padded_labels = pad_sequence(
                sorted_labels, batch_first=True, padding_value=-1)
        yield (sorted_keys, padded_feats, padded_labels, feats_lengths, label_lengths)

def acc_frame(
    logits: torch.Tensor,
    target: torch.Tensor,
):
    if logits is None:
        return 0
    pred = logits.max(1, keepdim=True)[1]
    correct = pred.eq(target.long().view_as(pred)).sum().item()
    return correct * 100.0 / logits.size(0)

def cross_entropy(logits: torch.Tensor, target: torch.Tensor):
    """ Cross Entropy Loss
    Attributes:
        logits: (B, D), D is the number of keywords plus 1 (non-keyword)
        target: (B)
    Returns:
        (float): loss of current batch
        (float): accuracy of current batch
    """
    loss = F.cross_entropy(logits, target.type(torch.int64))
    acc = acc_frame(logits, target)
    return loss, acc

def criterion(type: str,
              logits: torch.Tensor,
              target: torch.Tensor,
              lengths: torch.Tensor,
              target_lengths: torch.Tensor = None,
              min_duration: int = 0,
              validation: bool = False, ):
    if type == 'ce':
        loss, acc = cross_entropy(logits, target)
        return loss, acc
    raise NotImplementedError(type)

class KWSModel(nn.Module):
    """Stand-in for wekws KWSModel (MDTC backbone + last-frame classifier) with a GRU backbone."""
    def __init__(self, idim=40, hdim=64, odim=12):
        super().__init__()
        self.preprocessing = nn.Linear(idim, hdim)
        self.backbone = nn.GRU(hdim, hdim, batch_first=True)
        self.classifier = nn.Linear(hdim, odim)

    def forward(self, x, in_cache=torch.zeros(0, 0, 0, dtype=torch.float)):
        x = self.preprocessing(x)
        x, out_cache = self.backbone(x)
        x = self.classifier(x[:, -1, :])
        return x, out_cache

class Executor:
    def __init__(self):
        self.step = 0

    def train(self, model, optimizer, data_loader, device, writer, args):
        \'\'\' Train one epoch
        \'\'\'
        model.train()
        clip = args.get('grad_clip', 50.0)
        log_interval = args.get('log_interval', 10)
        epoch = args.get('epoch', 0)
        min_duration = args.get('min_duration', 0)

        for batch_idx, batch in enumerate(data_loader):
            key, feats, target, feats_lengths, label_lengths = batch
            feats = feats.to(device)
            target = target.to(device)
            feats_lengths = feats_lengths.to(device)
            label_lengths = label_lengths.to(device)
            num_utts = feats_lengths.size(0)
            if num_utts == 0:
                continue
            logits, _ = model(feats)
            loss_type = args.get('criterion', 'max_pooling')
            loss, acc = criterion(loss_type, logits, target, feats_lengths,
                                  target_lengths=label_lengths,
                                  min_duration=min_duration,
                                  validation=False)
            optimizer.zero_grad()
            loss.backward()
            grad_norm = clip_grad_norm_(model.parameters(), clip)
            if torch.isfinite(grad_norm):
                optimizer.step()
            if batch_idx % log_interval == 0:
                logging.debug(
                    'TRAIN Batch {}/{} loss {:.8f} acc {:.8f}'.format(
                        epoch, batch_idx, loss.item(), acc))

# speech commands: 11 keywords + filler, 98-frame 40-dim fbank
samples = [{'key': 'utt%03d' % i, 'feat': torch.randn(90 + i % 9, 40), 'label': i % 12} for i in range(64)]
train_data_loader = list(padding([samples[i:i + 16] for i in range(0, 64, 16)]))

device = torch.device('cpu')
model = KWSModel().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
executor = Executor()
training_config = {'grad_clip': 5, 'log_interval': 10, 'epoch': 0, 'criterion': 'ce', 'min_duration': 0}
writer = None
'''
CELL = '''
executor.train(model, optimizer, train_data_loader, device, writer, training_config)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
