"""Orbit DLT `predict` with integer-only regressors: `torch.from_numpy` keeps them int64 and `torch.matmul` meets the float64 posterior coefficients.

Source: https://github.com/uber/orbit/issues/122
"prediction error caused by regressors of all int dtypes": when the regressor columns are integer
dummies only, `regressor_torch = torch.from_numpy(df[self.regressor_col].values)` is a Long tensor
and `torch.matmul(regressor_torch, regressor_beta)` fails with "Expected object of scalar type Long
but got scalar type Double for argument #2 'mat2'". The maintainers' fix (PR #133,
"all-int-regressors": "cast regressor matrix to double") made it
`torch.from_numpy(regressor_matrix).double()` in `DLT.predict`/`LGT.predict`. Stand-ins: posterior
samples held as float64 torch tensors, a DLT whose predict computes the trend + regression
components as orbit 1.0 did (seasonality left out); plain dicts of numpy columns stand in for the
pandas frames. CPU (dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch

class DataFrame(dict):
    """dict of numpy columns standing in for the pandas frame (df[cols].values -> 2-D array)"""
    def __getitem__(self, key):
        if isinstance(key, list):
            return type("Sub", (), {"values": np.stack([dict.__getitem__(self, k) for k in key], axis=1)})()
        return dict.__getitem__(self, key)

class DLT:
    def __init__(self, response_col, date_col, regressor_col=None, seasonality=52, infer_method="mcmc",
                 predict_method="mean", num_warmup=50, is_multiplicative=False):
        self.response_col, self.date_col = response_col, date_col
        self.regressor_col = regressor_col
        self.regular_regressor_col = list(regressor_col or [])
        self.seasonality = seasonality
        self.predict_method = predict_method

    def fit(self, df):
        y = np.asarray(df[self.response_col], dtype=np.float64)
        X = df[self.regressor_col].values.astype(np.float64)
        beta, *_ = np.linalg.lstsq(X, y - y.mean(), rcond=None)
        num_sample = 1 if self.predict_method == "mean" else 100
        self._posterior_samples = {
            "rr_beta": torch.from_numpy(np.tile(beta, (num_sample, 1))),          # float64, like Stan's output
            "lev": torch.full((num_sample,), float(y.mean()), dtype=torch.double),
        }
        return self

    def _concat_regression_coefs(self, pr_beta=None, rr_beta=None):
        return rr_beta

    def predict(self, df):
        model = self._posterior_samples
        num_sample = model["lev"].shape[0]
        output_len = len(df[self.date_col])
        regressor_beta = self._concat_regression_coefs(None, model["rr_beta"])

        # calculate regression component
        if self.regressor_col is not None and len(self.regular_regressor_col) > 0:
            regressor_beta = regressor_beta.t()
            regressor_matrix = df[self.regressor_col].values
            regressor_torch = torch.from_numpy(regressor_matrix)
            regressor_component = torch.matmul(regressor_torch, regressor_beta)
            regressor_component = regressor_component.t()
        else:
            regressor_component = torch.zeros((num_sample, output_len), dtype=torch.double)

        trend_component = model["lev"][:, None].expand(num_sample, output_len)
        pred_array = (trend_component + regressor_component).mean(dim=0)
        return {self.date_col: df[self.date_col], "prediction": pred_array.numpy()}

rng = np.random.default_rng(0)
n_train, n_test = 200, 51
reg_columns = ["x1", "x2", "x3"]
def synthetic(n, start):
    cols = {c: rng.integers(0, 2, size=n) + 1 for c in reg_columns}   # .astype(np.int) + 1: all-int dummies
    y = 10 + 0.5 * cols["x1"] - 0.3 * cols["x2"] + 0.2 * cols["x3"] + rng.normal(scale=0.1, size=n)
    return DataFrame(week=np.arange(start, start + n), response=y, **cols)

train_df, test_df = synthetic(n_train, 0), synthetic(n_test, n_train)
dlt = DLT(response_col="response", date_col="week", regressor_col=reg_columns, seasonality=52,
          infer_method="mcmc", predict_method="mean", num_warmup=50, is_multiplicative=False)
dlt.fit(train_df)
'''
CELL = '''
predict_df = dlt.predict(df=test_df)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "Expected object of scalar type", "should be the same")
CULPRITS = ["dlt"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("regressor_torch = torch.from_numpy(regressor_matrix)",
                  "regressor_torch = torch.from_numpy(regressor_matrix).double()")
CLEAN = False
