"""Look-alike: Real-Time-Voice-Cloning's GE2E speaker encoder runs on the GPU while its similarity scaling and loss live on a CPU `loss_device` by design.

Source: https://github.com/CorentinJ/Real-Time-Voice-Cloning (encoder/model.py, encoder/train.py)
`train()` sets `device = cuda` and `loss_device = torch.device("cpu")` ("FIXME: currently, the gradient
is None if loss_device is cuda"); `SpeakerEncoder.__init__` puts the LSTM/linear on `device` but
`similarity_weight`, `similarity_bias` and the CrossEntropyLoss on `loss_device`. Each step moves the
mel batch to `device` and the embeddings back with `embeds.view(...).to(loss_device)` before
`model.loss(...)`, whose similarity matrix and targets are built on `loss_device`.
Stand-in: small layer sizes; the EER computed with numpy/sklearn in `loss` is left out.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

mel_n_channels, model_hidden_size, model_embedding_size, model_num_layers = 10, 16, 8, 2
speakers_per_batch, utterances_per_speaker, partials_n_frames = 4, 3, 12

class SpeakerEncoder(nn.Module):
    def __init__(self, device, loss_device):
        super().__init__()
        self.loss_device = loss_device
        self.lstm = nn.LSTM(input_size=mel_n_channels, hidden_size=model_hidden_size,
                            num_layers=model_num_layers, batch_first=True).to(device)
        self.linear = nn.Linear(in_features=model_hidden_size, out_features=model_embedding_size).to(device)
        self.relu = torch.nn.ReLU().to(device)
        self.similarity_weight = nn.Parameter(torch.tensor([10.])).to(loss_device)
        self.similarity_bias = nn.Parameter(torch.tensor([-5.])).to(loss_device)
        self.loss_fn = nn.CrossEntropyLoss().to(loss_device)

    def forward(self, utterances, hidden_init=None):
        out, (hidden, cell) = self.lstm(utterances, hidden_init)
        embeds_raw = self.relu(self.linear(hidden[-1]))
        return embeds_raw / torch.norm(embeds_raw, dim=1, keepdim=True)

    def similarity_matrix(self, embeds):
        speakers_per_batch, utterances_per_speaker = embeds.shape[:2]
        centroids_incl = torch.mean(embeds, dim=1, keepdim=True)
        centroids_incl = centroids_incl.clone() / torch.norm(centroids_incl, dim=2, keepdim=True)
        centroids_excl = (torch.sum(embeds, dim=1, keepdim=True) - embeds)
        centroids_excl /= (utterances_per_speaker - 1)
        centroids_excl = centroids_excl.clone() / torch.norm(centroids_excl, dim=2, keepdim=True)
        sim_matrix = torch.zeros(speakers_per_batch, utterances_per_speaker,
                                 speakers_per_batch).to(self.loss_device)
        mask_matrix = 1 - np.eye(speakers_per_batch, dtype=int)
        for j in range(speakers_per_batch):
            mask = np.where(mask_matrix[j])[0]
            sim_matrix[mask, :, j] = (embeds[mask] * centroids_incl[j]).sum(dim=2)
            sim_matrix[j, :, j] = (embeds[j] * centroids_excl[j]).sum(dim=1)
        return sim_matrix * self.similarity_weight + self.similarity_bias

    def loss(self, embeds):
        speakers_per_batch, utterances_per_speaker = embeds.shape[:2]
        sim_matrix = self.similarity_matrix(embeds)
        sim_matrix = sim_matrix.reshape((speakers_per_batch * utterances_per_speaker, speakers_per_batch))
        ground_truth = np.repeat(np.arange(speakers_per_batch), utterances_per_speaker)
        target = torch.from_numpy(ground_truth).long().to(self.loss_device)
        return self.loss_fn(sim_matrix, target)

device = torch.device("cuda:0")        # "cuda" if torch.cuda.is_available() else "cpu"
# FIXME: currently, the gradient is None if loss_device is cuda
loss_device = torch.device("cpu")
model = SpeakerEncoder(device, loss_device)
speaker_batch_data = np.random.default_rng(0).standard_normal(
    (speakers_per_batch * utterances_per_speaker, partials_n_frames, mel_n_channels)).astype(np.float32)
'''
CELL = '''
inputs = torch.from_numpy(speaker_batch_data).to(device)
embeds = model(inputs)
embeds_loss = embeds.view((speakers_per_batch, utterances_per_speaker, -1)).to(loss_device)
loss = model.loss(embeds_loss)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
