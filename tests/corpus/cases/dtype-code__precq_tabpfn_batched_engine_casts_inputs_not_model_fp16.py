"""TabPFN `predict_proba_batched` with `inference_precision=torch.float16`: the batched engine casts the inputs to fp16 but leaves the model in float32.

Source: https://github.com/PriorLabs/TabPFN/pull/1083
"Fix fp16 inference in InferenceEngineBatchedNoPreprocessing": the batched (no-preprocessing)
engine cast only the inputs to `force_inference_dtype`, leaving the model in fp32, so with
`inference_precision=torch.float16` an fp16 activation met an fp32 weight in the
feature-embedding Linear: "mat1 and mat2 must have the same dtype, but got Half and Float".
`predict_proba` was fine because its engines cast the model via `ModelCache.set_dtype`. The fix
casts the model to `force_inference_dtype` alongside the inputs in `iter_outputs`.
Stand-ins: a tiny TabPFN-like transformer (feature encoder Linear, one attention block, decoder),
the classifier with `fit` / `predict_proba_batched`, and the batched engine's `iter_outputs`
(ensembling and preprocessing left out); CPU (dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

class PerFeatureTransformer(nn.Module):
    def __init__(self, n_features=10, emsize=32, n_out=2):
        super().__init__()
        self.encoder = nn.Linear(n_features, emsize)
        self.y_encoder = nn.Linear(1, emsize)
        self.attn = nn.MultiheadAttention(emsize, 4, batch_first=True)
        self.decoder = nn.Sequential(nn.Linear(emsize, emsize), nn.GELU(), nn.Linear(emsize, n_out))

    def forward(self, X, y, single_eval_pos):
        h = self.encoder(X)
        h_train = h[:, :single_eval_pos] + self.y_encoder(y.unsqueeze(-1))
        h_test = h[:, single_eval_pos:]
        out = self.attn(h_test, h_train, h_train, need_weights=False)[0]
        return self.decoder(out)

class InferenceEngineBatchedNoPreprocessing:
    def __init__(self, X_train, y_train, model, force_inference_dtype=None):
        self.X_train, self.y_train, self.model = X_train, y_train, model
        self.force_inference_dtype = force_inference_dtype

    def iter_outputs(self, X, device, autocast=False):
        self.model = self.model.to(device)
        batched_X = torch.cat([self.X_train, X], dim=0).unsqueeze(0).to(device)
        batched_y = self.y_train.unsqueeze(0).to(device)
        if self.force_inference_dtype is not None:
            batched_X = batched_X.type(self.force_inference_dtype)
            batched_y = batched_y.type(self.force_inference_dtype)
        with torch.autocast(device.type, enabled=autocast):
            output = self.model(batched_X, batched_y, single_eval_pos=self.X_train.shape[0])
        yield output

class TabPFNClassifier:
    def __init__(self, n_estimators=4, inference_precision=torch.float32, device="cpu"):
        self.n_estimators = n_estimators
        self.inference_precision = inference_precision
        self.device = torch.device(device)

    def fit(self, X, y):
        self.model_ = PerFeatureTransformer(n_features=X.shape[1])
        self.executor_ = InferenceEngineBatchedNoPreprocessing(
            torch.as_tensor(X, dtype=torch.float32), torch.as_tensor(y, dtype=torch.float32),
            self.model_, force_inference_dtype=self.inference_precision)
        return self

    @torch.no_grad()
    def predict_proba_batched(self, X):
        X = torch.as_tensor(X, dtype=torch.float32)
        outputs = [out.float().softmax(-1) for out in self.executor_.iter_outputs(X, self.device)]
        return torch.stack(outputs).mean(0)[0].numpy()

rng = np.random.default_rng(42)
X, y = rng.normal(size=(100, 10)), rng.integers(0, 2, 100)
classifier = TabPFNClassifier(n_estimators=4, inference_precision=torch.float16)
classifier.fit(X[:80], y[:80])
'''
CELL = '''
proba = classifier.predict_proba_batched(X[80:])
'''
EXPECT_ERROR = ("same dtype", "expected scalar type")
CULPRITS = ["classifier.executor_.model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            batched_X = batched_X.type(self.force_inference_dtype)\n",
                  "            batched_X = batched_X.type(self.force_inference_dtype)\n            self.model = self.model.type(self.force_inference_dtype)\n")
CLEAN = False
