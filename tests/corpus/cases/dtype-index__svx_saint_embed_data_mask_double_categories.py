"""SAINT on a user's regression table: `x_categ` / `cat_mask` arrive as float64, `nn.Embedding` rejects DoubleTensor indices.

Source: https://github.com/somepago/saint/issues/3
Training SAINT on the user's own tabular regression data failed inside `embed_data_mask` with
"Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int;
but got torch.DoubleTensor instead (while checking arguments for embedding)". The user's fix was to
cast `x_categ` and the categorical mask to int before they reach `model.embeds` /
`model.mask_embeds_cat`.
Stand-in: SAINT's `embed_data_mask` (augmentations.py) and the embedding part of `SAINT.__init__`
(models/model.py) with the transformer omitted; the batch comes from the user's float64 frame.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

class simple_MLP(nn.Module):
    def __init__(self, dims):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(dims[0], dims[1]), nn.ReLU(), nn.Linear(dims[1], dims[2]))

    def forward(self, x):
        if len(x.shape) == 1:
            x = x.view(x.size(0), -1)
        return self.layers(x)

class SAINT(nn.Module):
    """Stand-in: the embedding tables and offsets of SAINT (models/model.py)."""
    def __init__(self, categories, num_continuous, dim=32, num_special_tokens=0,
                 cont_embeddings="MLP"):
        super().__init__()
        self.num_categories = len(categories)
        self.num_unique_categories = sum(categories)
        self.num_special_tokens = num_special_tokens
        self.total_tokens = self.num_unique_categories + num_special_tokens
        categories_offset = F.pad(torch.tensor(list(categories)), (1, 0), value=num_special_tokens)
        categories_offset = categories_offset.cumsum(dim=-1)[:-1]
        self.register_buffer("categories_offset", categories_offset)
        self.num_continuous = num_continuous
        self.dim = dim
        self.cont_embeddings = cont_embeddings
        self.simple_MLP = nn.ModuleList([simple_MLP([1, 100, self.dim]) for _ in range(self.num_continuous)])
        self.embeds = nn.Embedding(self.total_tokens, self.dim)
        cat_mask_offset = F.pad(torch.Tensor(self.num_categories).fill_(2).type(torch.int8), (1, 0), value=0)
        cat_mask_offset = cat_mask_offset.cumsum(dim=-1)[:-1]
        con_mask_offset = F.pad(torch.Tensor(self.num_continuous).fill_(2).type(torch.int8), (1, 0), value=0)
        con_mask_offset = con_mask_offset.cumsum(dim=-1)[:-1]
        self.register_buffer("cat_mask_offset", cat_mask_offset)
        self.register_buffer("con_mask_offset", con_mask_offset)
        self.mask_embeds_cat = nn.Embedding(self.num_categories * 2, self.dim)
        self.mask_embeds_cont = nn.Embedding(self.num_continuous * 2, self.dim)

def embed_data_mask(x_categ, x_cont, cat_mask, con_mask, model, vision_dset=False):
    device = x_cont.device
    x_categ = x_categ + model.categories_offset.type_as(x_categ)
    x_categ_enc = model.embeds(x_categ)
    n1, n2 = x_cont.shape
    _, n3 = x_categ.shape
    if model.cont_embeddings == "MLP":
        x_cont_enc = torch.empty(n1, n2, model.dim)
        for i in range(model.num_continuous):
            x_cont_enc[:, i, :] = model.simple_MLP[i](x_cont[:, i])
    else:
        raise Exception("This case should not work!")
    x_cont_enc = x_cont_enc.to(device)
    cat_mask_temp = cat_mask + model.cat_mask_offset.type_as(cat_mask)
    con_mask_temp = con_mask + model.con_mask_offset.type_as(con_mask)
    cat_mask_temp = model.mask_embeds_cat(cat_mask_temp)
    con_mask_temp = model.mask_embeds_cont(con_mask_temp)
    x_categ_enc[cat_mask == 0] = cat_mask_temp[cat_mask == 0]
    x_cont_enc[con_mask == 0] = con_mask_temp[con_mask == 0]
    return x_categ, x_categ_enc, x_cont_enc

# the user's table: 10 categorical and 12 continuous columns, everything read as float64
rng = np.random.default_rng(0)
cat_dims = [1] + [5] * 10                      # leading CLS token column
data = rng.integers(0, 5, size=(64, 10)).astype(np.float64)
x_categ = torch.from_numpy(np.concatenate([np.zeros((64, 1)), data], axis=1))
x_cont = torch.from_numpy(rng.standard_normal((64, 12)).astype(np.float32))
cat_mask = torch.from_numpy(np.ones((64, 11)))
con_mask = torch.ones(64, 12, dtype=torch.long)
model = SAINT(categories=tuple(cat_dims), num_continuous=12)
'''
CELL = '''
with torch.no_grad():
    _, x_categ_enc, x_cont_enc = embed_data_mask(x_categ, x_cont, cat_mask, con_mask, model)
'''
EXPECT_ERROR = "'indices' to have one of the following scalar types: Long, Int"
CULPRITS = ["x_categ", "cat_mask"]
FIX = "namespace"
REFERENCE_FIX = '''
x_categ = x_categ.int()
cat_mask = cat_mask.int()
'''
REFERENCE_EDIT = None
CLEAN = False
