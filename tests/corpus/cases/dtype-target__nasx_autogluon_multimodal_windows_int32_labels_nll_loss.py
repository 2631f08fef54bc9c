"""AutoGluon MultiModalPredictor on Windows: the label encoder yields int32 class ids and the cross-entropy loss rejects them.

Source: https://github.com/autogluon/autogluon/issues/2777
`MultiModalPredictor(label=...).fit(train_data)` on Windows 10 (autogluon.multimodal 0.6.2, one GPU)
failed in `LitModule._compute_loss` (`self.loss_func(input=per_output[LOGITS].squeeze(dim=1),
target=label)`) with "\"nll_loss_forward_reduce_cuda_kernel_2d_index\" not implemented for 'Int'".
`MultiModalFeaturePreprocessor.transform_label` returns `self._label_generator.transform(y_df)`:
sklearn's `LabelEncoder` maps string labels through a Python dict into `np.array(...)`, whose
default integer on Windows is int32, so the collated label tensor is an IntTensor. The label-type
fix that followed in AutoGluon (PR #2855, "[AutoMM] Fix label type", Feb 2023) casts the encoded
labels in `transform_label`: `.astype(np.int64)`.
Stand-ins: the predictor's fit path (preprocessor -> label processor/`StackCollator` -> model ->
`_compute_loss`) with a small MLP over two numeric columns; `train_data` is a dict of columns
instead of a DataFrame; the encoder's `np.intc` result is what numpy gives on Windows. CPU:
dtype bug only (this torch words it "expected target dtype to be Long or Byte, but got Int").
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch import nn

CATEGORICAL, NUMERICAL, LABEL, LOGITS = "categorical", "numerical", "label", "logits"

class LabelEncoder:
    """sklearn.preprocessing.LabelEncoder: string labels are mapped through a dict."""
    def fit(self, y):
        self.classes_ = np.array(sorted(set(y)), dtype=object)
        return self
    def transform(self, y):
        table = {val: i for i, val in enumerate(self.classes_)}
        return np.array([table[v] for v in y], dtype=np.intc)   # np.array of Python ints: int32 on Windows

class MultiModalFeaturePreprocessor:
    def __init__(self, column_types, label_column, label_generator=None):
        self.column_types = column_types
        self._label_column = label_column
        self._label_generator = LabelEncoder() if label_generator is None else label_generator
        self.label_type = CATEGORICAL
    def fit(self, df):
        self._label_generator.fit(df[self._label_column])
        self._fit_called = True
        return self
    def transform_numerical(self, df):
        cols = [c for c, t in self.column_types.items() if t == NUMERICAL]
        return np.stack([np.asarray(df[c], dtype=np.float32) for c in cols], axis=1)
    def transform_label(self, df):
        y_df = df[self._label_column]
        if self.label_type == CATEGORICAL:
            y = self._label_generator.transform(y_df)
        else:
            raise NotImplementedError
        return {self._label_column: y}, {self._label_column: self.label_type}

class StackCollator:
    def __call__(self, data):
        return torch.as_tensor(np.stack(data))

class NumericalMLP(nn.Module):
    def __init__(self, in_features, num_classes, hidden_features=32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(in_features, hidden_features), nn.GELU(),
                                 nn.Linear(hidden_features, num_classes))
        self.prefix = "numerical_mlp"
    def forward(self, batch):
        return {self.prefix: {LOGITS: self.mlp(batch["numerical"])}}

class LitModule:
    def __init__(self, model, loss_func):
        self.model, self.loss_func = model, loss_func
    def _compute_loss(self, output, label):
        loss = 0
        for _, per_output in output.items():
            loss += self.loss_func(input=per_output[LOGITS].squeeze(dim=1), target=label)
        return loss
    def training_step(self, batch, batch_idx):
        output = self.model(batch)
        return self._compute_loss(output, batch[LABEL])

class MultiModalPredictor:
    def __init__(self, label, path=None):
        self._label_column = label
        self._path = path
    def fit(self, train_data, time_limit=None):
        column_types = {c: NUMERICAL for c in train_data if c != self._label_column}
        self._df_preprocessor = MultiModalFeaturePreprocessor(column_types, self._label_column).fit(train_data)
        x = self._df_preprocessor.transform_numerical(train_data)
        labels, _ = self._df_preprocessor.transform_label(train_data)
        y = labels[self._label_column]
        num_classes = len(self._df_preprocessor._label_generator.classes_)
        self._model = NumericalMLP(x.shape[1], num_classes)
        task = LitModule(self._model, nn.CrossEntropyLoss())
        opt = torch.optim.AdamW(self._model.parameters(), lr=1e-3)
        collate = StackCollator()
        for batch_idx, start in enumerate(range(0, len(y), 16)):
            batch = {"numerical": collate(list(x[start:start + 16])),
                     LABEL: collate(list(y[start:start + 16]))}
            opt.zero_grad()
            loss = task.training_step(batch, batch_idx)
            loss.backward()
            opt.step()
        return self

rng = np.random.RandomState(0)
n = 64
train_data = {
    "sentence_length": rng.randint(5, 60, n).astype(float).tolist(),
    "num_exclamations": rng.randint(0, 4, n).astype(float).tolist(),
    "label": rng.choice(["negative", "positive"], n).tolist(),
}
predictor = MultiModalPredictor(label="label")
'''
CELL = '''
predictor.fit(train_data, time_limit=60)
'''
EXPECT_ERROR = ("expected target dtype to be Long", "not implemented for 'Int'", "expected scalar type Long")
CULPRITS = ["predictor._df_preprocessor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("y = self._label_generator.transform(y_df)",
                  "y = self._label_generator.transform(y_df).astype(np.int64)")
CLEAN = False
