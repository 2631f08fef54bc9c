"""dssm (pip package): `DSSM(..., device='cuda:1').encode(texts)` builds the input vectors on the CPU and feeds them to the GPU MLP.

Source: https://github.com/Chiang97912/dssm/issues/1
"[Bug] Test RuntimeError: Expected all tensors to be on the same device": running the README's test
loop, `model = DSSM('./dssm-model', device='cuda:1')` then `model.encode([text_left, text_right])`
failed inside `self.mlp_left(vectors)`. `build()` ends with `self.to(self.device)`, but `encode`
made `vectors = torch.FloatTensor(vectors)` from the vectorizer's numpy output with no device. The
author's fix (43a2f00): `torch.FloatTensor(vectors).to(self.device)`. Reduced: the saved
model/vocabulary loading by a direct `build()`, sklearn's char n-gram vectorizer by a tiny numpy
stand-in, smaller MLP; `encode` returns the tensor instead of `.tolist()` (fake tensors hold no data).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class Vectorizer:                                   # dssm.vectorizer (CountVectorizer, char_wb) stand-in
    def __init__(self, size=64):
        self.size = size
    def transform(self, texts):
        out = np.zeros((len(texts), self.size))
        for r, t in enumerate(texts):
            for ch in t.lower():
                out[r, ord(ch) % self.size] += 1
        return out

class DSSM(nn.Module):
    def __init__(self, model_name_or_path=None, gamma=None, device='cpu', mlp_num_layers=3,
                 mlp_num_units=32, mlp_num_fan_out=16, mlp_activation_func='tanh'):
        super(DSSM, self).__init__()
        self.model_name_or_path = model_name_or_path
        self.device = device
        self.mlp_num_layers = mlp_num_layers
        self.mlp_num_units = mlp_num_units
        self.mlp_num_fan_out = mlp_num_fan_out
        self.vectorizer = Vectorizer()
        self.in_features = self.vectorizer.size
        self.build()                                # load(): config, vocabulary, then build()

    def make_perceptron_layer(self, in_f, out_f, activation=None):
        perceptron = nn.Linear(in_f, out_f)
        nn.init.xavier_uniform_(perceptron.weight)
        sequential = [perceptron]
        if activation:
            sequential.append(activation)
        return nn.Sequential(*sequential)

    def make_mlp_layer(self, in_features, mlp_num_layers, mlp_num_units, mlp_num_fan_out):
        mlp_sizes = [in_features, *mlp_num_layers * [mlp_num_units], mlp_num_fan_out]
        mlp = [self.make_perceptron_layer(in_f, out_f, activation=nn.Tanh())
               for in_f, out_f in zip(mlp_sizes, mlp_sizes[1:])]
        return nn.Sequential(*mlp)

    def build(self):
        self.mlp_left = self.make_mlp_layer(self.in_features, self.mlp_num_layers,
                                            self.mlp_num_units, self.mlp_num_fan_out)
        self.mlp_right = self.make_mlp_layer(self.in_features, self.mlp_num_layers,
                                             self.mlp_num_units, self.mlp_num_fan_out)
        self.learn_gamma = self.make_perceptron_layer(1, 1)
        self.to(self.device)

    def encode(self, texts):
        input_was_string = False
        if isinstance(texts, str):
            texts = [texts]
            input_was_string = True
        self.eval()
        vectors = self.vectorizer.transform(texts)
        with torch.no_grad():
            vectors = torch.FloatTensor(vectors)
        vectors = self.mlp_left(vectors)
        if input_was_string:
            vectors = vectors[0]
        return vectors

queries_cut = ["how do i learn python", "what is a tensor"]
documents_cut = ["best way to learn python", "a tensor is a multidimensional array"]
'''
CELL = '''
for query in queries_cut:
    for doc in documents_cut:
        text_left = query
        text_right = doc
        model = DSSM('./dssm-model', device='cuda:1')
        vectors = model.encode([text_left, text_right])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("vectors = torch.FloatTensor(vectors)\n", "vectors = torch.FloatTensor(vectors).to(self.device)\n")
CLEAN = False
