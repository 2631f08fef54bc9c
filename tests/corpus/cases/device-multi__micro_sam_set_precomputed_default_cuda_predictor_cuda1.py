"""micro-sam on the second GPU: precomputed image embeddings are put on the default CUDA device, the predictor is on cuda:1.

Source: https://github.com/computational-cell-analytics/micro-sam/pull/163
"micro-sam was not working when using a cuda device greater than 0":
`predictor = util.get_sam_model(device="cuda:1")`, `embeddings =
util.precompute_image_embeddings(predictor, image)`, `amg.initialize(image, embeddings)` failed with
a device mismatch. `util.set_precomputed` did `device = "cuda" if torch.cuda.is_available() else
"cpu"; predictor.features = torch.from_numpy(features).to(device)`, i.e. the current device cuda:0,
while the SAM model sits on cuda:1. The PR uses the predictor's device. Stand-in: a tiny SAM
(image encoder, prompt encoder, mask decoder) and the util/AMG functions reduced to the calls on
that path; the embeddings are kept as a CPU tensor instead of a numpy array, and "cuda" is written
as the device it resolves to, cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
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
    device = "cuda:0"   # util.set_precomputed: "cuda" if torch.cuda.is_available() else "cpu"
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
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["predictor.features"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    '    device = "cuda:0"   # util.set_precomputed: "cuda" if torch.cuda.is_available() else "cpu"',
    '    device = predictor.device',
)
CLEAN = False
