"""rxn_yield_context quick-use code: the evaluator turns the reaction fingerprint into a CPU tensor for a cuda model.

Source: https://github.com/Lung-Yi/rxn_yield_context/issues/3
Running the README's "fast use" sample (reaction-condition prediction from a reaction SMILES) on a GPU
failed with "Expected all tensors to be on the same device ... cuda:0 and cpu! (... mat1 in method
wrapper_CUDA_addmm)". The evaluator moves the multitask model to `self.device` but builds the input
fingerprint tensor without it; the reporter's fix, adopted by the author, adds `.to(self.device)` at
that line of evaluation_utils.py. Stand-in: a hashed reactant/product fingerprint instead of RDKit
Morgan bits, and a two-layer multitask candidate-ranking model.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

def create_rxn_Morgan2FP_separately(rsmi, psmi, rxnfpsize=64, pfpsize=64):
    rfp = np.zeros(rxnfpsize, dtype=np.float32)
    pfp = np.zeros(pfpsize, dtype=np.float32)
    for ch in rsmi:
        rfp[hash(ch) % rxnfpsize] = 1.0
    for ch in psmi:
        pfp[hash(ch) % pfpsize] = 1.0
    return np.concatenate([pfp, pfp - rfp])

class Multitask_Multilabel(nn.Module):
    def __init__(self, fp_dim=128, hidden=64, n_solvent=20, n_reagent=30):
        super().__init__()
        self.ffn = nn.Sequential(nn.Linear(fp_dim, hidden), nn.ReLU())
        self.solvent = nn.Linear(hidden, n_solvent)
        self.reagent = nn.Linear(hidden, n_reagent)
    def forward(self, x):
        h = self.ffn(x)
        return torch.sigmoid(self.solvent(h)), torch.sigmoid(self.reagent(h))

class MultiTask_Evaluator:
    def __init__(self, multitask_model, device):
        self.device = device
        self.model = multitask_model.to(device)
        self.model.eval()

    def make_input_rxn_condition(self, rxn_smiles, topk=3):
        rsmi, psmi = rxn_smiles.split(">>")
        rxn_fp = create_rxn_Morgan2FP_separately(rsmi, psmi)
        rxn_fp = torch.Tensor(rxn_fp).unsqueeze(0)
        solvent_prob, reagent_prob = self.model(rxn_fp)
        return solvent_prob.topk(topk).indices, reagent_prob.topk(topk).indices

device = torch.device("cuda:0")
MT_Evaluator = MultiTask_Evaluator(Multitask_Multilabel(), device)
rxn_smiles = "CC(=O)Cl.OCc1ccccc1>>CC(=O)OCc1ccccc1"
'''
CELL = '''
with torch.no_grad():
    solvents, reagents = MT_Evaluator.make_input_rxn_condition(rxn_smiles)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["rxn_fp"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("rxn_fp = torch.Tensor(rxn_fp).unsqueeze(0)", "rxn_fp = torch.Tensor(rxn_fp).unsqueeze(0).to(self.device)")
CLEAN = False
