"""Look-alike: lucidrains' TabTransformer registers `continuous_mean_std` as a buffer, so `.to(device)` moves the normalisation statistics.

Source: https://github.com/lucidrains/tab-transformer-pytorch/pull/2
The PR "Unindent continuous_mean_std buffer" makes `self.register_buffer('continuous_mean_std', ...)`
run for every model (None when not given); in forward the continuous features are normalised with
`(x_cont - mean) / std` taken from the buffer. A CPU-built statistics tensor passed to the
constructor, then the whole model moved to cuda:0: it follows the model, nothing to report.
Stand-in: TabTransformer with a one-layer transformer over the categorical embeddings.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

class TabTransformer(nn.Module):
    def __init__(self, *, categories, num_continuous, dim, depth, heads, dim_out=1,
                 mlp_hidden_mults=(4, 2), mlp_act=None, num_special_tokens=2,
                 continuous_mean_std=None, attn_dropout=0., ff_dropout=0.):
        super().__init__()
        self.num_categories = len(categories)
        self.num_unique_categories = sum(categories)
        self.num_special_tokens = num_special_tokens
        total_tokens = self.num_unique_categories + num_special_tokens
        categories_offset = F.pad(torch.tensor(list(categories)), (1, 0), value=num_special_tokens)
        categories_offset = categories_offset.cumsum(dim=-1)[:-1]
        self.register_buffer("categories_offset", categories_offset)
        self.num_continuous = num_continuous
        if continuous_mean_std is not None:
            assert continuous_mean_std.shape == (num_continuous, 2)
        self.register_buffer("continuous_mean_std", continuous_mean_std)
        self.norm = nn.LayerNorm(num_continuous)
        self.embeds = nn.Embedding(total_tokens, dim)
        self.transformer = nn.TransformerEncoderLayer(dim, heads, dim * 4, attn_dropout, batch_first=True)
        input_size = dim * self.num_categories + num_continuous
        l = input_size // 8
        hidden = [input_size, *map(lambda t: l * t, mlp_hidden_mults), dim_out]
        layers = []
        for i, (d_in, d_o) in enumerate(zip(hidden[:-1], hidden[1:])):
            layers.append(nn.Linear(d_in, d_o))
            if i < len(hidden) - 2:
                layers.append(mlp_act or nn.ReLU())
        self.mlp = nn.Sequential(*layers)

    def forward(self, x_categ, x_cont):
        x_categ = x_categ + self.categories_offset
        x = self.transformer(self.embeds(x_categ))
        flat_categ = x.flatten(1)
        if self.continuous_mean_std is not None:
            mean, std = self.continuous_mean_std.unbind(dim=-1)
            x_cont = (x_cont - mean) / std
        normed_cont = self.norm(x_cont)
        x = torch.cat((flat_categ, normed_cont), dim=-1)
        return self.mlp(x)

cont_mean_std = torch.randn(10, 2).abs() + 0.5          # statistics computed on the CPU from the training set
model = TabTransformer(categories=(10, 5, 6, 5, 8), num_continuous=10, dim=32, dim_out=1, depth=1,
                       heads=8, attn_dropout=0.1, ff_dropout=0.1, mlp_hidden_mults=(4, 2),
                       mlp_act=nn.ReLU(), continuous_mean_std=cont_mean_std)
device = torch.device("cuda:0")
model = model.to(device).eval()
x_categ = torch.randint(0, 5, (4, 5)).to(device)
x_cont = torch.randn(4, 10).to(device)
'''
CELL = '''
pred = model(x_categ, x_cont)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
