"""labml Switch Transformer with bfloat16 experts: `final_output` is allocated from the float32 input and refuses the bf16 expert outputs.

Source: https://github.com/labmlai/annotated_deep_learning_paper_implementations/issues/144
"bug in switch transformer when using torch.bfloat16": in `SwitchFeedForward.forward`,
`final_output = x.new_zeros(x.shape)` is float32 while `expert_output[i]` is bfloat16, so
`final_output[indexes_list[i], :] = expert_output[i]` fails. The maintainer (vpj) answered that the experts
were switched to bfloat16 while the rest of the transformer stays float32, and that the fix is to cast the
expert output back: `final_output[indexes_list[i], :] = expert_output[i].to(x.dtype)`.
Stand-in: labml's SwitchFeedForward (softmax switch, per-expert index lists, no token dropping) with
its FeedForward experts; the bf16 experts run under CPU bfloat16 autocast with the float32 layer-norm output
as input.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
from torch import nn

class FeedForward(nn.Module):
    def __init__(self, d_model=32, d_ff=64, dropout=0.1):
        super().__init__()
        self.layer1 = nn.Linear(d_model, d_ff)
        self.layer2 = nn.Linear(d_ff, d_model)
        self.dropout = nn.Dropout(dropout)
        self.activation = nn.ReLU()

    def forward(self, x):
        return self.layer2(self.dropout(self.activation(self.layer1(x))))

class SwitchFeedForward(nn.Module):
    def __init__(self, *, capacity_factor, drop_tokens, is_scale_prob, n_experts, expert, d_model):
        super().__init__()
        self.capacity_factor = capacity_factor
        self.is_scale_prob = is_scale_prob
        self.n_experts = n_experts
        self.drop_tokens = drop_tokens
        self.experts = nn.ModuleList([FeedForward(d_model, expert.layer1.out_features) for _ in range(n_experts)])
        self.switch = nn.Linear(d_model, n_experts)
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, x):
        seq_len, batch_size, d_model = x.shape
        x = x.view(-1, d_model)
        route_prob = self.softmax(self.switch(x))
        route_prob_max, routes = torch.max(route_prob, dim=-1)
        indexes_list = [torch.eq(routes, i).nonzero(as_tuple=True)[0] for i in range(self.n_experts)]
        final_output = x.new_zeros(x.shape)
        counts = x.new_tensor([len(indexes_list[i]) for i in range(self.n_experts)])
        expert_output = [self.experts[i](x[indexes_list[i], :]) for i in range(self.n_experts)]
        for i in range(self.n_experts):
            final_output[indexes_list[i], :] = expert_output[i]
        if self.is_scale_prob:
            final_output = final_output * route_prob_max.view(-1, 1)
        else:
            final_output = final_output * (route_prob_max / route_prob_max.detach()).view(-1, 1)
        final_output = final_output.view(seq_len, batch_size, d_model)
        return final_output, counts, route_prob.sum(0), 0, route_prob_max

d_model = 32
feed_forward = SwitchFeedForward(capacity_factor=1.0, drop_tokens=False, is_scale_prob=True,
                                 n_experts=4, expert=FeedForward(d_model, 64), d_model=d_model)
feed_forward.experts.to(torch.bfloat16)     # experts in bfloat16, the rest of the transformer in float32
feed_forward.eval()
norm_ff = nn.LayerNorm(d_model)
x = torch.randn(10, 2, d_model)             # [seq_len, batch_size, d_model]
z = norm_ff(x)
'''
CELL = '''
with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
    ff, counts, route_prob, n_dropped, route_prob_max = feed_forward(z)
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["feed_forward"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("final_output[indexes_list[i], :] = expert_output[i]",
                  "final_output[indexes_list[i], :] = expert_output[i].to(x.dtype)")
CLEAN = False
