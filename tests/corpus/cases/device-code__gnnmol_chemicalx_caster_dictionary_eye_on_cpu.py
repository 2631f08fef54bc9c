"""chemicalx CASTER example on a GPU: `forward` encodes `torch.eye(self.drug_channels)` made on the CPU.

Source: https://github.com/AstraZeneca/chemicalx/issues/96
Running `examples/caster_example.py` with a cuda device failed inside `CASTER.forward` at
`dictionary_features_latent = self.encoder(torch.eye(self.drug_channels))`: the pipeline moved the
model and the unpacked `drug_pair_features` to the GPU, but the identity "dictionary" basis is created
without a device on every call. The fix creates it on the device of the input. Stand-in: the CASTER
module with its encoder/decoder/dictionary-encoder/predictor reduced to small MLPs (same shapes and
forward), and one batch of drug-pair fingerprints.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class CASTER(nn.Module):
    def __init__(self, *, drug_channels=64, encoder_hidden_channels=32, encoder_output_channels=16,
                 hidden_channels=(24, 12), out_channels=1, lambda3=1e-5, magnifying_factor=100):
        super().__init__()
        self.drug_channels = drug_channels
        self.lambda3 = lambda3
        self.magnifying_factor = magnifying_factor
        self.encoder = nn.Sequential(nn.Linear(drug_channels, encoder_hidden_channels), nn.ReLU(True),
                                     nn.Linear(encoder_hidden_channels, encoder_output_channels))
        self.decoder = nn.Sequential(nn.Linear(encoder_output_channels, encoder_hidden_channels), nn.ReLU(True),
                                     nn.Linear(encoder_hidden_channels, drug_channels))
        self.dictionary_projection = nn.Linear(drug_channels, drug_channels)
        layers = [nn.Linear(drug_channels, hidden_channels[0]), nn.ReLU(True),
                  nn.Linear(hidden_channels[0], hidden_channels[1]), nn.ReLU(True),
                  nn.Linear(hidden_channels[1], out_channels), nn.Sigmoid()]
        self.predictor = nn.Sequential(*layers)

    def dictionary_encoder(self, drug_pair_features_latent, dictionary_features_latent):
        dictionary_features_latent_t = dictionary_features_latent.transpose(1, 2)     # B x E x D
        scores = torch.matmul(drug_pair_features_latent.unsqueeze(1), dictionary_features_latent_t)
        return self.dictionary_projection(scores.squeeze(1))

    def unpack(self, batch):
        return (batch["drug_pair_features"],)

    def forward(self, drug_pair_features):
        drug_pair_features_latent = self.encoder(drug_pair_features)
        dictionary_features_latent = self.encoder(torch.eye(self.drug_channels))
        dictionary_features_latent = dictionary_features_latent.mul(drug_pair_features[:, :, None])
        drug_pair_features_reconstructed = self.decoder(drug_pair_features_latent)
        reconstructed = torch.sigmoid(drug_pair_features_reconstructed)
        dictionary_encoded = self.dictionary_encoder(drug_pair_features_latent, dictionary_features_latent)
        prediction_scores = self.predictor(self.magnifying_factor * dictionary_encoded)
        return (prediction_scores, reconstructed, dictionary_encoded, dictionary_features_latent,
                drug_pair_features_latent, drug_pair_features)

device = torch.device("cuda:0")
model = CASTER(drug_channels=64)
model = model.to(device)
batch = {"drug_pair_features": (torch.rand(8, 64) > 0.7).float().to(device),   # pipeline moves the batch
         "labels": torch.randint(0, 2, (8, 1)).float().to(device)}
'''
CELL = '''
with torch.no_grad():
    prediction = model(*model.unpack(batch))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "self.encoder(torch.eye(self.drug_channels))",
    "self.encoder(torch.eye(self.drug_channels, device=drug_pair_features.device))",
)
CLEAN = False
