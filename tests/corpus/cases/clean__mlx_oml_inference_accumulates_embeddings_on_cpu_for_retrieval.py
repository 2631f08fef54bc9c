"""Look-alike: OML `inference()` runs the extractor on the GPU but returns the embeddings on the CPU for retrieval.

Source: https://github.com/OML-Team/open-metric-learning/blob/main/oml/inference/abstract.py
In OML 3.x `inference(model, dataset, batch_size)` moves each batch to `get_device(model)`
(`model_(batch_[dataset.input_tensors_key].to(device))`) and, with the default
`accumulate_on_cpu=True`, does `out = out.cpu()` before collecting the outputs. The README's
retrieval snippet then calls `RetrievalResults.from_embeddings(embeddings, dataset)`, whose k-NN runs
on those CPU embeddings with the dataset's CPU query/gallery ids and labels. The extractor lives on
cuda while the embeddings and everything after them are CPU tensors, on purpose. It runs.
Stand-ins: `inference`/`_inference` without DataLoader/DDP/id-dedup (slices the dataset), a tiny
ViT-like extractor, a query/gallery labeled dataset, and `batched_knn` as cdist + topk.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def get_device(model):
    return next(model.parameters()).device

class ImageQueryGalleryLabeledDataset:
    input_tensors_key = "input_tensors"
    index_key = "idx"

    def __init__(self, images, labels, query_ids, gallery_ids):
        self.images, self.labels = images, labels
        self.query_ids, self.gallery_ids = query_ids, gallery_ids   # from the is_query / is_gallery columns

    def __len__(self):
        return len(self.images)

    def batch(self, start, stop):
        return {self.input_tensors_key: self.images[start:stop], self.index_key: torch.arange(start, stop)}

    def get_labels(self):
        return self.labels

    def get_query_ids(self):
        return self.query_ids

    def get_gallery_ids(self):
        return self.gallery_ids

@torch.no_grad()
def _inference(model, apply_model, dataset, batch_size, accumulate_on_cpu=True):
    outputs_list = []
    model.eval()
    for start in range(0, len(dataset), batch_size):
        batch = dataset.batch(start, min(start + batch_size, len(dataset)))
        out = apply_model(model, batch)
        if accumulate_on_cpu:
            out = out.cpu()
        outputs_list.append(out)
    return torch.cat(outputs_list).detach()

@torch.no_grad()
def inference(model, dataset, batch_size, num_workers=0, verbose=False, use_fp16=False, accumulate_on_cpu=True):
    device = get_device(model)

    def apply(model_, batch_):
        return model_(batch_[dataset.input_tensors_key].to(device))

    return _inference(model=model, apply_model=apply, dataset=dataset, batch_size=batch_size,
                      accumulate_on_cpu=accumulate_on_cpu)

class RetrievalResults:
    def __init__(self, distances, retrieved_ids, gt_ids):
        self.distances, self.retrieved_ids, self.gt_ids = distances, retrieved_ids, gt_ids

    @classmethod
    def from_embeddings(cls, embeddings, dataset, n_items=5):
        ids_query, ids_gallery = dataset.get_query_ids(), dataset.get_gallery_ids()
        labels = dataset.get_labels()
        distances = torch.cdist(embeddings[ids_query], embeddings[ids_gallery])
        distances, retrieved = torch.topk(distances, min(n_items, len(ids_gallery)), largest=False, dim=1)
        gt_mask = labels[ids_query][:, None] == labels[ids_gallery][None, :]
        return cls(distances=distances, retrieved_ids=retrieved, gt_ids=gt_mask)

class ViTExtractor(nn.Module):
    """Stand-in for oml.models.ViTExtractor (patch embedding + mean token)."""
    def __init__(self, dim=48):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, kernel_size=8, stride=8)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        tokens = self.patch_embed(x).flatten(2).transpose(1, 2)
        return self.norm(tokens.mean(1))

device = "cuda:0"
extractor = ViTExtractor().to(device)
n = 24
dataset = ImageQueryGalleryLabeledDataset(
    images=torch.randn(n, 3, 32, 32),
    labels=torch.arange(n) % 6,
    query_ids=torch.arange(0, 8),
    gallery_ids=torch.arange(8, n),
)
'''
CELL = '''
embeddings = inference(extractor, dataset, batch_size=8)
rr = RetrievalResults.from_embeddings(embeddings, dataset, n_items=5)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
