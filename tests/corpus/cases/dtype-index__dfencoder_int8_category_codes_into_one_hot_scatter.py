"""dfencoder demo: pandas category codes (int8) used as the scatter index of the one-hot encoder.

Source: https://github.com/AlliedToasters/dfencoder/issues/15
`model.fit(X_train, epochs=10, val=X_val)` failed in `compute_baseline_performance` at
`pred = ohe(cd, dim, device=self.device) * 5` with "scatter(): Expected dtype int64 for index":
the categorical columns are encoded with pandas `.cat.codes`, which are int8, and `ohe` uses them
directly as the index of `scatter_`. The codes must be cast to int64 first. Stand-in: the codes as
the int8 NumPy arrays pandas returns (no pandas here), and dfencoder's `ohe`.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import numpy as np
import torch

def ohe(input_vector, dim, device="cpu"):
    """Does one-hot encoding of input vector."""
    batch_size = len(input_vector)
    nb_digits = dim
    y = input_vector.reshape(-1, 1)
    y_onehot = torch.FloatTensor(batch_size, nb_digits).to(device)
    y_onehot.zero_()
    y_onehot.scatter_(1, y, 1)
    return y_onehot

categorical_fts = {
    "workclass": {"cats": ["Private", "Self-emp", "Gov", "Never-worked"]},
    "education": {"cats": ["HS-grad", "Bachelors", "Masters", "Doctorate", "Some-college"]},
}
rng = np.random.default_rng(0)
# what df[col].cat.codes.values gives: int8
val_codes = {ft: rng.integers(0, len(f["cats"]), 256).astype(np.int8) for ft, f in categorical_fts.items()}
codes = [torch.tensor(val_codes[ft]) for ft in categorical_fts]
device = "cpu"
'''
CELL = '''
codes_pred = []
for i, cd in enumerate(codes):
    feature = list(categorical_fts.items())[i][1]
    dim = len(feature["cats"]) + 1
    pred = ohe(cd, dim, device=device) * 5
    codes_pred.append(pred)
'''
EXPECT_ERROR = ("scatter(): Expected dtype int64 for index", "scatter(): Expected dtype int32/int64 for index")
CULPRITS = ["codes"]
FIX = "namespace"
REFERENCE_FIX = '''
codes = [cd.long() for cd in codes]
'''
REFERENCE_EDIT = None
CLEAN = False
