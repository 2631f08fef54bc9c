"""pycave GMM quickstart fitted on a float64 NumPy matrix: the float32 component parameters meet Double data.

Source: https://github.com/borchero/pycave/issues/9
Fitting `GMM(num_components=2, num_features=29, covariance='diag')` on the user's data failed in
`log_normal` with "expected scalar type Double but found Float": the data came from a float64
NumPy array while the GMM's means and covariances are float32. The fix given in the thread:
`trainDataTorch = torch.from_numpy(trainData).float()` before `gmm.fit(trainDataTorch)`.
Stand-in: a minimal diagonal GMM whose log-likelihood uses matrix products like pycave's.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import math
import numpy as np
import torch
import torch.nn as nn

class GMM(nn.Module):
    """Stand-in for pycave.bayes.GMM (diagonal covariance)."""
    def __init__(self, num_components, num_features, covariance='diag'):
        super().__init__()
        self.component_weights = nn.Parameter(torch.full((num_components,), 1.0 / num_components))
        self.means = nn.Parameter(torch.randn(num_components, num_features))
        self.covars = nn.Parameter(torch.ones(num_components, num_features))

    def log_normal(self, data):
        precisions = 1.0 / self.covars
        x = (data * data).mm(precisions.t())
        x = x - 2 * data.mm((self.means * precisions).t())
        x = x + (self.means * self.means * precisions).sum(-1)
        return -0.5 * (data.size(-1) * math.log(2 * math.pi) + self.covars.log().sum(-1) + x)

    def fit(self, data, max_iter=3):
        history = []
        with torch.no_grad():
            for _ in range(max_iter):
                log_probs = self.log_normal(data) + self.component_weights.log()
                resp = torch.softmax(log_probs, dim=1)
                nk = resp.sum(0) + 1e-6
                self.means.copy_(resp.t().mm(data) / nk.unsqueeze(1))
                history.append(torch.logsumexp(log_probs, 1).mean().item())
        return history

trainData = np.random.randn(200, 29)          # the user's float64 feature matrix
trainDataTorch = torch.from_numpy(trainData)
gmm = GMM(num_components=2, num_features=29, covariance='diag')
'''
CELL = '''
history = gmm.fit(trainDataTorch)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type")
CULPRITS = ["trainDataTorch"]
FIX = "namespace"
REFERENCE_FIX = '''
trainDataTorch = trainDataTorch.float()
'''
REFERENCE_EDIT = None
CLEAN = False
