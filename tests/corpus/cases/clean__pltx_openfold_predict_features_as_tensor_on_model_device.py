"""OpenFold `run_pretrained_openfold.py`: numpy features become tensors directly on `--model_device`, outputs are copied back to the CPU.

Source: https://github.com/aqlaboratory/openfold/blob/main/run_pretrained_openfold.py
After `feature_processor.process_features(...)` returns a dict of numpy arrays, the script builds
`processed_feature_dict = {k: torch.as_tensor(v, device=args.model_device) for k, v in ...}` so every
feature lands on the model's GPU, runs `run_model(model, processed_feature_dict, ...)` under
`torch.no_grad()`, then converts the whole output tree back with
`tensor_tree_map(lambda x: np.array(x.cpu()), out)`. Host arrays, GPU features and CPU copies of the
outputs, all deliberate; it runs.
Stand-ins: a two-feature AlphaFold-like model, `tensor_tree_map`; the last step stops at `.cpu()`
(the simulator's tensors cannot become numpy arrays).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

def tensor_tree_map(fn, tree):
    if isinstance(tree, dict):
        return {k: tensor_tree_map(fn, v) for k, v in tree.items()}
    return fn(tree)

class AlphaFold(nn.Module):
    def __init__(self, c_m=16, c_s=32):
        super().__init__()
        self.input_embedder = nn.Linear(22, c_m)
        self.single = nn.Linear(c_m, c_s)
        self.plddt = nn.Linear(c_s, 50)

    def forward(self, batch):
        m = self.input_embedder(batch["target_feat"])
        s = torch.relu(self.single(m)) * batch["seq_mask"].unsqueeze(-1)
        return {"sm": {"single": s}, "plddt": torch.softmax(self.plddt(s), dim=-1).sum(-1) * 100}

def run_model(model, batch, tag, output_dir):
    with torch.no_grad():
        out = model(batch)
    return out

model_device = "cuda:0"                        # args.model_device
model = AlphaFold().eval().to(model_device)

n_res = 48
feature_dict = {
    "target_feat": np.eye(22, dtype=np.float32)[np.random.randint(0, 20, n_res)],
    "seq_mask": np.ones(n_res, dtype=np.float32),
}
'''
CELL = '''
processed_feature_dict = {
    k: torch.as_tensor(v, device=model_device)
    for k, v in feature_dict.items()
}
out = run_model(model, processed_feature_dict, "T1050", "out/")
out = tensor_tree_map(lambda x: x.cpu(), out)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
