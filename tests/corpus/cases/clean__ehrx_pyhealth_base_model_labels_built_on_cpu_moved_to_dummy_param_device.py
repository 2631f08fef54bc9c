"""PyHealth model on the GPU: visit codes and labels arrive as Python lists, and the model tensorizes and moves them itself.

Source: https://github.com/sunlabuiuc/PyHealth/blob/master/pyhealth/models/base_model.py
PyHealth's `BaseModel` keeps `self._dummy_param = nn.Parameter(torch.empty(0))` only to answer its
`device` property. Models such as `RNN` turn the batch's code lists into
`torch.tensor(x, dtype=torch.long, device=self.device)`, and `prepare_labels` builds the labels on the
CPU (`torch.FloatTensor(labels).unsqueeze(-1)`) and ends with `labels.to(self.device)`. The batch the
user passes is plain Python data; the loss meets everything on the model's device.
Look-alike: CPU-built label tensors and a batch never moved by the user, moved by the model.
Stand-in: BaseModel's device/label plumbing, a minimal Tokenizer, and an RNN-like model whose GRU
over visits is replaced by a masked mean (packing needs real lengths the CPU simulation lacks).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F


class Tokenizer:
    def __init__(self, tokens, special_tokens=None):
        self.vocab = {t: i for i, t in enumerate((special_tokens or []) + sorted(set(tokens)))}

    def get_vocabulary_size(self):
        return len(self.vocab)

    def get_padding_index(self):
        return self.vocab.get("<pad>", 0)

    def convert_tokens_to_indices(self, tokens):
        return [self.vocab.get(t, self.vocab.get("<unk>", 0)) for t in tokens]

    def batch_encode_3d(self, batch, max_visits=8, max_codes=6):
        out = []
        for visits in batch:
            rows = [self.convert_tokens_to_indices(v)[:max_codes] for v in visits[:max_visits]]
            rows = [r + [0] * (max_codes - len(r)) for r in rows]
            rows += [[0] * max_codes] * (max_visits - len(rows))
            out.append(rows)
        return out


class BaseModel(nn.Module):
    """Stand-in for pyhealth.models.BaseModel (device property, prepare_labels)."""

    def __init__(self, feature_keys, label_key, mode):
        super().__init__()
        self.feature_keys, self.label_key, self.mode = feature_keys, label_key, mode
        # used to query the device of the model
        self._dummy_param = nn.Parameter(torch.empty(0))

    @property
    def device(self):
        """Gets the device of the model."""
        return self._dummy_param.device

    def prepare_labels(self, labels, label_tokenizer):
        if self.mode in ["binary"]:
            labels = label_tokenizer.convert_tokens_to_indices(labels)
            labels = torch.FloatTensor(labels).unsqueeze(-1)
        else:
            raise NotImplementedError
        labels = labels.to(self.device)
        return labels


class RNN(BaseModel):
    """Stand-in for pyhealth.models.RNN (binary mortality prediction)."""

    def __init__(self, vocabularies, feature_keys, label_key, mode="binary", embedding_dim=32):
        super().__init__(feature_keys, label_key, mode)
        self.feat_tokenizers = {k: Tokenizer(vocabularies[k], ["<pad>", "<unk>"]) for k in feature_keys}
        self.label_tokenizer = Tokenizer([0, 1])
        self.embeddings = nn.ModuleDict({
            k: nn.Embedding(t.get_vocabulary_size(), embedding_dim, padding_idx=t.get_padding_index())
            for k, t in self.feat_tokenizers.items()})
        self.fc = nn.Linear(len(feature_keys) * embedding_dim, 1)

    def forward(self, **kwargs):
        patient_emb = []
        for feature_key in self.feature_keys:
            x = self.feat_tokenizers[feature_key].batch_encode_3d(kwargs[feature_key])
            x = torch.tensor(x, dtype=torch.long, device=self.device)
            x = self.embeddings[feature_key](x)
            x = torch.sum(x, dim=2)                      # (patient, visit, embedding_dim)
            mask = torch.any(x != 0, dim=2)
            m = mask.unsqueeze(-1).float()
            patient_emb.append((x * m).sum(1) / m.sum(1).clamp(min=1))
        logits = self.fc(torch.cat(patient_emb, dim=1))
        y_true = self.prepare_labels(kwargs[self.label_key], self.label_tokenizer)
        loss = F.binary_cross_entropy_with_logits(logits, y_true)
        return {"loss": loss, "y_prob": torch.sigmoid(logits), "y_true": y_true}


vocabularies = {
    "conditions": [f"ICD9_{i}" for i in range(40)],
    "procedures": [f"PROC_{i}" for i in range(20)],
}
model = RNN(vocabularies, feature_keys=["conditions", "procedures"], label_key="label").to("cuda:0")

# one collated batch from pyhealth's get_dataloader: lists of visits of codes, labels as ints
batch = {
    "conditions": [[["ICD9_1", "ICD9_7"], ["ICD9_3"]], [["ICD9_12", "ICD9_5", "ICD9_33"]], [["ICD9_2"]]],
    "procedures": [[["PROC_4"], ["PROC_1", "PROC_9"]], [["PROC_0"]], [["PROC_11"]]],
    "label": [1, 0, 1],
}
'''
CELL = '''
output = model(**batch)
loss = output["loss"]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
