"""Look-alike: easyfsl's FewShotClassifier subtracts `feature_centering`, an int64 `torch.tensor(0)` plain attribute, from the float features of every image.

Source: https://github.com/sicara/easy-few-shot-learning/blob/master/easyfsl/methods/few_shot_classifier.py
Without a `feature_centering` argument, `FewShotClassifier.__init__` sets
`self.feature_centering = torch.tensor(0)`: an int64, 0-dim tensor kept as a plain attribute (not a
buffer), as are the `self.prototypes` / `self.support_features` placeholders `torch.tensor(())`.
`compute_features` returns `self.backbone(images) - self.feature_centering`; a 0-dim integer tensor
promotes to the features' float dtype (and, being a CPU scalar, is accepted next to GPU features), and
`process_support_set` replaces the placeholders with prototypes computed from the support features.
The episodic training loop from the `episodic_training.ipynb` notebook runs as written.
Stand-in: easyfsl's `FewShotClassifier` / `PrototypicalNetworks` / `compute_prototypes`, a small CNN
for `resnet12()`, one random 5-way 2-shot episode with 3 queries per class as `TaskSampler`'s
`episodic_collate_fn` returns it, the notebook's `training_epoch` body without tqdm. CPU: dtype
look-alike.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
from abc import abstractmethod
from statistics import mean
from typing import Optional
import torch
from torch import Tensor, nn
from torch.optim import SGD

def compute_prototypes(support_features: Tensor, support_labels: Tensor) -> Tensor:
    n_way = len(torch.unique(support_labels))
    return torch.cat(
        [
            support_features[torch.nonzero(support_labels == label)].mean(0)
            for label in range(n_way)
        ]
    )

class FewShotClassifier(nn.Module):
    def __init__(self, backbone: Optional[nn.Module] = None, use_softmax: bool = False,
                 feature_centering: Optional[Tensor] = None, feature_normalization: Optional[float] = None):
        super().__init__()
        self.backbone = backbone if backbone is not None else nn.Identity()
        self.use_softmax = use_softmax
        self.prototypes = torch.tensor(())
        self.support_features = torch.tensor(())
        self.support_labels = torch.tensor(())
        self.feature_centering = (
            feature_centering if feature_centering is not None else torch.tensor(0)
        )
        self.feature_normalization = feature_normalization

    @abstractmethod
    def forward(self, query_images: Tensor) -> Tensor:
        raise NotImplementedError

    def process_support_set(self, support_images: Tensor, support_labels: Tensor):
        self.compute_prototypes_and_store_support_set(support_images, support_labels)

    def compute_features(self, images: Tensor) -> Tensor:
        original_features = self.backbone(images)
        centered_features = original_features - self.feature_centering
        if self.feature_normalization is not None:
            return nn.functional.normalize(centered_features, p=self.feature_normalization, dim=1)
        return centered_features

    def softmax_if_specified(self, output: Tensor, temperature: float = 1.0) -> Tensor:
        return (temperature * output).softmax(-1) if self.use_softmax else output

    def l2_distance_to_prototypes(self, samples: Tensor) -> Tensor:
        return -torch.cdist(samples, self.prototypes)

    def compute_prototypes_and_store_support_set(self, support_images: Tensor, support_labels: Tensor):
        self.support_labels = support_labels
        self.support_features = self.compute_features(support_images)
        self.prototypes = compute_prototypes(self.support_features, support_labels)

class PrototypicalNetworks(FewShotClassifier):
    def forward(self, query_images: Tensor) -> Tensor:
        query_features = self.compute_features(query_images)
        scores = self.l2_distance_to_prototypes(query_features)
        return self.softmax_if_specified(scores)

def resnet12():                                   # stand-in backbone: features of shape (n, 64)
    return nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(16, 64, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())

def episodic_collate_fn(n_way, n_shot, n_query, true_class_ids):   # TaskSampler.episodic_collate_fn output
    support_images = torch.rand(n_way * n_shot, 3, 32, 32)
    support_labels = torch.arange(n_way).repeat_interleave(n_shot)
    query_images = torch.rand(n_way * n_query, 3, 32, 32)
    query_labels = torch.arange(n_way).repeat_interleave(n_query)
    return support_images, support_labels, query_images, query_labels, true_class_ids

n_way, n_shot, n_query = 5, 2, 3
DEVICE = "cpu"
LOSS_FUNCTION = nn.CrossEntropyLoss()
convolutional_network = resnet12()
few_shot_classifier = PrototypicalNetworks(convolutional_network).to(DEVICE)
train_optimizer = SGD(few_shot_classifier.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
episode = episodic_collate_fn(n_way, n_shot, n_query, true_class_ids=[12, 40, 7, 33, 58])
'''
CELL = '''
model, optimizer = few_shot_classifier, train_optimizer
all_loss = []
model.train()
support_images, support_labels, query_images, query_labels, _ = episode
optimizer.zero_grad()
model.process_support_set(
    support_images.to(DEVICE), support_labels.to(DEVICE)
)
classification_scores = model(query_images.to(DEVICE))

loss = LOSS_FUNCTION(classification_scores, query_labels.to(DEVICE))
loss.backward()
optimizer.step()

all_loss.append(loss.item())
average_loss = mean(all_loss)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
