"""pytorch-metric-learning InferenceModel.train_indexer on a GPU trunk: the dataset's batches are never moved to the model's device.

Source: https://github.com/KevinMusgrave/pytorch-metric-learning/issues/347
The user built `model = models.create_model(name="efnet_b7", embeddings=2560).to(device)`,
`InferenceModel(model, match_finder=MatchFinder(distance=CosineSimilarity(), threshold=0.7))` and
called `inference_model.train_indexer(data)` on an `ImageFolder`: "RuntimeError: Input type
(torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same"; moving the model to
the CPU made it run ("but very slow"). The maintainer: "The data is not being transferred to the
model's device. I will fix this" (1.0.0.dev0). Stand-in: InferenceModel's dataset path
(`train_indexer` -> `get_embeddings_from_tensor_or_dataset` -> `get_embeddings`), the faiss indexer
reduced to keeping the embedding tensor, a small CNN for the EfficientNet, random images for the
ImageFolder; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import Dataset, DataLoader

class CosineSimilarity:
    is_inverted = True

class MatchFinder:
    def __init__(self, distance=None, threshold=None):
        self.distance, self.threshold = distance, threshold

class FaissIndexer:
    def train_index(self, embeddings):
        self.embeddings = embeddings          # faiss.IndexFlatL2(d).add(embeddings.cpu().numpy())

class InferenceModel:
    def __init__(self, trunk, embedder=None, match_finder=None, normalize_embeddings=True, indexer=None, batch_size=64):
        self.trunk = trunk
        self.embedder = torch.nn.Identity() if embedder is None else embedder
        self.match_finder = MatchFinder(distance=CosineSimilarity(), threshold=0.9) if match_finder is None else match_finder
        self.indexer = FaissIndexer() if indexer is None else indexer
        self.normalize_embeddings = normalize_embeddings
        self.batch_size = batch_size

    def train_indexer(self, inputs):
        embeddings = self.get_embeddings_from_tensor_or_dataset(inputs, self.batch_size)
        self.indexer.train_index(embeddings)

    def get_embeddings_from_tensor_or_dataset(self, inputs, batch_size):
        if isinstance(inputs, list):
            inputs = torch.stack(inputs)
        embeddings = []
        if isinstance(inputs, torch.Tensor):
            for i in range(0, len(inputs), batch_size):
                embeddings.append(self.get_embeddings(inputs[i:i + batch_size], None)[0])
        elif isinstance(inputs, torch.utils.data.Dataset):
            dataloader = torch.utils.data.DataLoader(inputs, batch_size=batch_size)
            for inp, _ in dataloader:
                embeddings.append(self.get_embeddings(inp, None)[0])
        return torch.cat(embeddings)

    def get_embeddings(self, query, ref):
        if isinstance(query, list):
            query = torch.stack(query)
        self.trunk.eval()
        self.embedder.eval()
        with torch.no_grad():
            query_emb = self.embedder(self.trunk(query))
            ref_emb = query_emb if ref is None else self.embedder(self.trunk(ref))
        if self.normalize_embeddings:
            query_emb = F.normalize(query_emb, p=2, dim=1)
            ref_emb = F.normalize(ref_emb, p=2, dim=1)
        return query_emb, ref_emb

class ImageFolderLike(Dataset):
    def __init__(self, n=20, size=64):
        self.images = torch.rand(n, 3, size, size)
        self.targets = [i % 4 for i in range(n)]

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        return self.images[idx], self.targets[idx]

def create_model(name="efnet_b7", embeddings=2560):
    return nn.Sequential(nn.Conv2d(3, 16, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                         nn.Linear(16, embeddings))

device = torch.device("meta")   # the GPU, simulated with meta
model = create_model(name="efnet_b7", embeddings=256).to(device)
data = ImageFolderLike()
match_finder = MatchFinder(distance=CosineSimilarity(), threshold=0.7)
inference_model = InferenceModel(model, match_finder=match_finder)
'''
CELL = '''
inference_model.train_indexer(data)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same", "is not on the expected device")
CULPRITS = ["inference_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("query_emb = self.embedder(self.trunk(query))",
                  "query_emb = self.embedder(self.trunk(query.to(next(self.trunk.parameters()).device)))")
CLEAN = False
