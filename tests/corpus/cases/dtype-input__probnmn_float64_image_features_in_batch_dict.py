"""ProbNMN module training: the batch dict's image features come out of the HDF5 reader as float64.

Source: https://github.com/kdexd/probnmn-clevr/issues/1
In the module-training phase, `output_dict = self._nmn(batch["image"], pg_output_dict["predictions"],
batch["answer"])` failed with "Input type (torch.cuda.DoubleTensor) and weight type
(torch.cuda.FloatTensor) should be the same"; the reporter printed "Batch['image'] type :
torch.cuda.DoubleTensor". The pre-extracted ResNet features are read from an HDF5 file as
float64 and collated as they are; converting `batch["image"]` to float32 removes the dtype error.
Stand-in: the reader as a float64 numpy array in a Dataset, the NMN reduced to its image stem and
a classifier over programs; CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

class ModuleTrainingDataset(Dataset):
    def __init__(self, n=8):
        self.features = np.random.randn(n, 64, 14, 14)          # h5py dataset, float64
        self.programs = np.random.randint(1, 20, (n, 10))
        self.answers = np.random.randint(0, 28, (n,))

    def __len__(self):
        return len(self.features)

    def __getitem__(self, index):
        return {"image": torch.tensor(self.features[index]),
                "program": torch.tensor(self.programs[index]).long(),
                "answer": torch.tensor(self.answers[index]).long()}

class NeuralModuleNetwork(nn.Module):
    def __init__(self, image_feature_size=64, module_channels=32, vocab=20, answers=28):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(image_feature_size, module_channels, 3, padding=1), nn.ReLU())
        self.program_embed = nn.Embedding(vocab, module_channels)
        self.classifier = nn.Linear(module_channels, answers)

    def forward(self, features, programs, answers):
        feat = self.stem(features).mean((2, 3)) + self.program_embed(programs).mean(1)
        logits = self.classifier(feat)
        return {"loss": nn.functional.cross_entropy(logits, answers), "predictions": logits.argmax(-1)}

loader = DataLoader(ModuleTrainingDataset(), batch_size=4)
nmn = NeuralModuleNetwork()
batch = next(iter(loader))
pg_output_dict = {"predictions": batch["program"]}
'''
CELL = '''
output_dict = nmn(batch["image"], pg_output_dict["predictions"], batch["answer"])
'''
EXPECT_ERROR = ("expected scalar type Double but found Float", "Input type", "should be the same")
CULPRITS = ["batch['image']"]
FIX = "namespace"
REFERENCE_FIX = '''
batch["image"] = batch["image"].float()
'''
REFERENCE_EDIT = None
CLEAN = False
