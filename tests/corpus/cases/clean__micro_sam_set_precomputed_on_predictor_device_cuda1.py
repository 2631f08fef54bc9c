"""Look-alike: micro-sam on cuda:1 after the fix: precomputed embeddings come back from the CPU onto the predictor's device.

Source: https://github.com/computational-cell-analytics/micro-sam/pull/163
After the PR, `util.set_precomputed` uses the predictor's device instead of `"cuda"`, so a SAM
model on the second GPU gets its CPU-stored embeddings on cuda:1. The namespace still holds CPU
embeddings, a CPU image and a model on cuda:1 (not cuda:0): correct, no finding expected.
Stand-in: the same tiny SAM and util/AMG functions as the bug case, with the fixed device line.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class TinySam(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.image_encoder = nn.Conv2d(3, dim, 4, stride=4)
        self.prompt_encoder = nn.Linear(2, dim)
        self.mask_decoder = nn.Conv2d(dim, 1, 1)

class SamPredictor:
    def __init__(self, model):
        self.model = model
        self.device = next(model.parameters()).device
        self.features = None

    def predict_torch(self, point_coords):
        sparse = self.model.prompt_encoder(point_coords).mean(0)
        return self.model.mask_decoder(self.features * sparse.view(1, -1, 1, 1))

def get_sam_model(device):
    return SamPredictor(TinySam().to(device))

def precompute_image_embeddings(predictor, image):
    with torch.no_grad():
        features = predictor.model.image_encoder(image.to(predictor.device))
    return {"features": features.cpu(), "input_size": image.shape[-2:]}

def set_precomputed(predictor, image_embeddings):
    device = predictor.device
    features = image_embeddings["features"]
    predictor.features = torch.as_tensor(features).to(device)
    return predictor

class AutomaticMaskGenerator:
    def __init__(self, predictor):
        self.predictor = predictor

    def initialize(self, image, image_embeddings):
        set_precomputed(self.predictor, image_embeddings)
        points = torch.rand(8, 2, device=self.predictor.device)
        with torch.no_grad():
            self.masks = self.predictor.predict_torch(points)

image = torch.rand(1, 3, 64, 64)
predictor = get_sam_model(device="cuda:1")
amg = AutomaticMaskGenerator(predictor)
embeddings = precompute_image_embeddings(predictor, image)
'''
CELL = '''
amg.initialize(image, embeddings)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
