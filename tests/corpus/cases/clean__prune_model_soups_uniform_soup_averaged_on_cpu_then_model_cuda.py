"""Model soups: the uniform soup is averaged from CPU state dicts and loaded into a CPU model that is then sent to the GPU.

Source: https://github.com/mlfoundations/model-soups/blob/main/main.py
(with `get_model_from_sd` / `test_model_on_dataset` from utils.py). The CLIP base model is loaded with
`clip.load('ViT-B/32', 'cpu')`, every fine-tuned `state_dict` is averaged on the CPU
(`uniform_soup = {k: v * (1./NUM_MODELS) + uniform_soup[k] ...}`), `get_model_from_sd` builds a
`ModelWrapper` around the CPU base model, `load_state_dict`s the soup into it and only then calls
`model.cuda()`; evaluation moves each batch with `.cuda()`. Look-alike: the soup tensors stay on the CPU
while the model that received them runs on cuda:0; it runs.
Stand-in: a tiny CLIP-like image encoder, three "checkpoints" made in memory, and one evaluation batch
(the DataParallel wrap is left out; `.cuda()` written as `.to("cuda:0")`).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

class TinyCLIP(nn.Module):
    def __init__(self, dim=32, out_dim=16):
        super().__init__()
        self.visual = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, dim), nn.GELU(), nn.Linear(dim, out_dim))
        self.transformer = nn.Linear(out_dim, out_dim)          # text tower, removed by ModelWrapper

    def encode_image(self, images):
        return self.visual(images)

class ModelWrapper(torch.nn.Module):
    def __init__(self, model, feature_dim, num_classes, normalize=False, initial_weights=None):
        super(ModelWrapper, self).__init__()
        self.model = model
        self.classification_head = torch.nn.Linear(feature_dim, num_classes)
        self.normalize = normalize
        if initial_weights is None:
            initial_weights = torch.zeros_like(self.classification_head.weight)
            torch.nn.init.kaiming_uniform_(initial_weights, a=math.sqrt(5))
        self.classification_head.weight = torch.nn.Parameter(initial_weights.clone())
        self.classification_head.bias = torch.nn.Parameter(torch.zeros_like(self.classification_head.bias))
        if hasattr(self.model, 'transformer'):
            delattr(self.model, 'transformer')

    def forward(self, images, return_features=False):
        features = self.model.encode_image(images)
        if self.normalize:
            features = features / features.norm(dim=-1, keepdim=True)
        logits = self.classification_head(features)
        if return_features:
            return logits, features
        return logits

def get_model_from_sd(state_dict, base_model):
    feature_dim = state_dict['classification_head.weight'].shape[1]
    num_classes = state_dict['classification_head.weight'].shape[0]
    model = ModelWrapper(base_model, feature_dim, num_classes, normalize=True)
    for p in model.parameters():
        p.data = p.data.float()
    model.load_state_dict(state_dict)
    model = model.to("cuda:0")
    return model

base_model = TinyCLIP()                                    # clip.load('ViT-B/32', 'cpu', jit=False)
NUM_MODELS = 3
finetuned = []
for j in range(NUM_MODELS):                                # torch.load(model_path) for each ingredient
    m = ModelWrapper(TinyCLIP(), 16, 10, normalize=True)
    finetuned.append({k: v.clone() for k, v in m.state_dict().items()})
images, labels = torch.randn(8, 3, 8, 8), torch.randint(0, 10, (8,))   # a CPU loader batch
'''
CELL = '''
for j, state_dict in enumerate(finetuned):
    if j == 0:
        uniform_soup = {k: v * (1. / NUM_MODELS) for k, v in state_dict.items()}
    else:
        uniform_soup = {k: v * (1. / NUM_MODELS) + uniform_soup[k] for k, v in state_dict.items()}
model = get_model_from_sd(uniform_soup, base_model)
model.eval()
with torch.no_grad():
    inputs, y = images.to("cuda:0"), labels.to("cuda:0")
    logits = model(inputs)
    pred = logits.argmax(dim=1, keepdim=True)
    correct = pred.eq(y.view_as(pred)).sum()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
