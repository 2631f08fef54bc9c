"""EQUINE's EquineProtonet with `use_temperature=True` on a GPU: the `temperature` buffer stays on the CPU and `predict` divides GPU distances by it.

Source: https://github.com/mit-ll-responsible-ai/equine/issues/170
`Equine.__init__` calls `self.to(device)`, but `EquineProtonet.__init__` registers the `temperature`
buffer *after* that call (and only the inner `Protonet` gets `device=`), so `model.temperature` is on
the CPU when the model was built for an accelerator. `train_model` succeeds (its temperature
calibration does `.to(self.device)`), then `predict(X)` raises "Expected all tensors to be on the same
device, but found at least two devices, mps:0 and cpu!" at `dists = dists / self.temperature`. The report
traces it to the buffer registered after the move (`model.temperature.device` prints 'cpu'); the
remedy is to have the buffer on the model's device (register it before moving, or move it).
Stand-in: EQUINE's `Equine` / `Protonet` / `EquineProtonet` reduced to the prototype path with a
diagonal covariance; `train_model` keeps only its temperature reset and final `update_support` (no
gradient episodes: the GPU is simulated), `predict` leaves out the KDE out-of-distribution scores.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
from collections import OrderedDict
from dataclasses import dataclass
from enum import Enum
from typing import Optional
import torch

class CovType(Enum):
    UNIT = "unit"
    DIAGONAL = "diag"
    FULL = "full"

PRED_COV_TYPE = CovType.DIAGONAL
COV_REG_TYPE = "epsilon"
DEFAULT_EPSILON = 1e-5

@dataclass
class EquineOutput:
    classes: torch.Tensor
    ood_scores: Optional[torch.Tensor]
    embeddings: torch.Tensor

class Equine(torch.nn.Module):
    def __init__(self, embedding_model, head_layers=1, device="cpu", feature_names=None, label_names=None):
        super().__init__()
        self.embedding_model = embedding_model
        self.head_layers = head_layers
        self.device = device
        self.to(device)
        self.embedding_model.to(device)
        self.feature_names = feature_names
        self.label_names = label_names
        self.support = OrderedDict()
        self.support_embeddings = OrderedDict()
        self.prototypes = torch.Tensor()

class Protonet(torch.nn.Module):
    def __init__(self, embedding_model, emb_out_dim, cov_type, cov_reg_type, epsilon, device="cpu"):
        super().__init__()
        self.embedding_model = embedding_model
        self.cov_type = cov_type
        self.cov_reg_type = cov_reg_type
        self.epsilon = epsilon
        self.emb_out_dim = emb_out_dim
        self.to(device)
        self.device = device
        self.support = OrderedDict()
        self.support_embeddings = OrderedDict()
        self.model_head = torch.nn.Identity()
        self.model_head.to(device)

    def compute_embeddings(self, X):
        model_embeddings = self.embedding_model(X.to(self.device))
        return self.model_head(model_embeddings)

    def compute_prototypes(self):
        proto_list = [torch.mean(self.support_embeddings[label], dim=0) for label in self.support_embeddings]
        return torch.stack(proto_list)

    def compute_covariance(self, cov_type):
        class_cov_dict = OrderedDict()
        for label in self.support_embeddings.keys():
            class_cov_dict[label] = torch.var(self.support_embeddings[label], dim=0)
        regularization = self.epsilon * torch.ones(self.emb_out_dim).to(self.device)
        for label in class_cov_dict.keys():
            class_cov_dict[label] = class_cov_dict[label].to(self.device) + regularization
        return torch.stack(list(class_cov_dict.values()))

    def compute_distance(self, X_embed, mu, cov):
        _queries = torch.unsqueeze(X_embed, 1)
        diff = torch.sub(mu, _queries)
        sq_diff = diff ** 2
        div = torch.div(sq_diff.to(self.device), cov.to(self.device))
        dist = torch.nan_to_num(div)
        dist = torch.sum(dist, dim=2)
        dist = dist.squeeze(dim=1)
        return torch.sqrt(dist + self.epsilon)

    def compute_classes(self, distances):
        return torch.nn.functional.softmax(torch.neg(distances), dim=-1)

    def forward(self, X):
        X_embed = self.compute_embeddings(X)
        distances = self.compute_distance(X_embed, self.prototypes, self.covariance)
        return self.compute_classes(distances), distances

    def update_support(self, support):
        self.support = support
        support_embs = OrderedDict()
        for label in support:
            support_embs[label] = self.compute_embeddings(support[label])
        self.support_embeddings = support_embs
        self.prototypes = self.compute_prototypes()
        self.covariance = self.compute_covariance(cov_type=PRED_COV_TYPE if not self.training else self.cov_type)

class EquineProtonet(Equine):
    def __init__(self, embedding_model, emb_out_dim, cov_type=CovType.UNIT, relative_mahal=True,
                 use_temperature=False, init_temperature=1.0, device="cpu", feature_names=None, label_names=None):
        super().__init__(embedding_model, device=device, feature_names=feature_names, label_names=label_names)
        self.cov_type = cov_type
        self.cov_reg_type = COV_REG_TYPE
        self.relative_mahal = relative_mahal
        self.emb_out_dim = emb_out_dim
        self.epsilon = DEFAULT_EPSILON
        self.use_temperature = use_temperature
        self.init_temperature = init_temperature
        self.register_buffer("temperature", torch.Tensor(self.init_temperature * torch.ones(1)))
        self.model = Protonet(embedding_model, self.emb_out_dim, self.cov_type, self.cov_reg_type, self.epsilon, device=device)

    def forward(self, X):
        preds, _ = self.model(X)
        return preds

    def train_model(self, support):
        self.train()
        if self.use_temperature:
            self.temperature = torch.Tensor(self.init_temperature * torch.ones(1)).type_as(self.temperature)
        # ... episodic training on GPU tensors ...
        self.eval()
        self.model.update_support(support)

    def predict(self, X):
        X_embed = self.model.compute_embeddings(X)
        if X_embed.shape == torch.Size([self.model.emb_out_dim]):
            X_embed = X_embed.unsqueeze(dim=0)
        preds, dists = self.model(X)
        if self.use_temperature:
            dists = dists / self.temperature
            preds = torch.softmax(torch.negative(dists), dim=1)
        return EquineOutput(classes=preds, ood_scores=None, embeddings=X_embed)

embedding_model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))
model = EquineProtonet(embedding_model, emb_out_dim=4, cov_type=CovType.DIAGONAL, use_temperature=True, device="cuda:0")
full_support = OrderedDict((label, torch.randn(6, 8)) for label in range(3))
model.train_model(full_support)
X = torch.randn(10, 8)
'''
CELL = '''
output = model.predict(X)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.temperature"]
FIX = "namespace"
REFERENCE_FIX = '''
model.temperature = model.temperature.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
