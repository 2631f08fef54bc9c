"""Captum `IntegratedGradients` on a RoBERTa classifier's token ids: the interpolated ids reach the embedding as floats.

Source: https://github.com/meta-pytorch/captum/issues/405
The user wrapped `RobertaModel` + a linear head and called `IntegratedGradients(model).attribute(...)` on
`input_ids`; it failed with "Expected tensor for argument #1 'indices' to have scalar type Long; but got
torch.FloatTensor instead (while checking arguments for embedding)". IG scales its inputs between the baseline and the
input (`baseline + alpha * (input - baseline)`), which turns integer ids into floats; the maintainer pointed the user
to the IMDB example (Captum FAQ: use `LayerIntegratedGradients` on the embedding layer, or an InterpretableEmbedding),
and the user switched to attributing to the embeddings.
Stand-ins: a tiny RoBERTa-like encoder, and Captum's IntegratedGradients / LayerIntegratedGradients reduced to their
riemann-middle path (interpolate inputs, or the hooked layer's output, then gradients).
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch
import torch.nn as nn

class RobertaModel(nn.Module):
    def __init__(self, vocab=300, dim=24):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, dim, padding_idx=1)
        self.encoder = nn.Linear(dim, dim)
    def forward(self, input_ids, token_type_ids=None, attention_mask=None):
        h = torch.tanh(self.encoder(self.embeddings(input_ids)))
        return (h * attention_mask.unsqueeze(-1),)

class SampleModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.transformer_model = RobertaModel()
        self.linear = nn.Linear(24, 4)
    def forward(self, input_ids, attention_masks):
        out = self.transformer_model(input_ids, token_type_ids=None, attention_mask=attention_masks)
        out = out[0].mean(1)
        return self.linear(out)

def _expand(args, n_steps):
    return tuple(a.repeat((n_steps,) + (1,) * (a.dim() - 1)) for a in args)

class IntegratedGradients:
    def __init__(self, forward_func):
        self.forward_func = forward_func
    def attribute(self, inputs, baselines=None, target=None, additional_forward_args=(), n_steps=8):
        if baselines is None:
            baselines = torch.zeros_like(inputs)
        alphas = [(i + 0.5) / n_steps for i in range(n_steps)]
        scaled_features = torch.cat([baselines + alpha * (inputs - baselines) for alpha in alphas], dim=0).requires_grad_()
        out = self.forward_func(scaled_features, *_expand(additional_forward_args, n_steps))
        grads = torch.autograd.grad(out[:, target].sum(), scaled_features)[0]
        return (inputs - baselines) * grads.reshape((n_steps,) + tuple(inputs.shape)).mean(0)

class LayerIntegratedGradients:
    def __init__(self, forward_func, layer):
        self.forward_func = forward_func
        self.layer = layer
    def _layer_eval(self, inputs, additional_forward_args):
        saved = []
        handle = self.layer.register_forward_hook(lambda m, i, o: saved.append(o.detach()))
        try:
            with torch.no_grad():
                self.forward_func(inputs, *additional_forward_args)
        finally:
            handle.remove()
        return saved[0]
    def attribute(self, inputs, baselines=None, target=None, additional_forward_args=(), n_steps=8):
        if baselines is None:
            baselines = torch.zeros_like(inputs)
        inp_emb = self._layer_eval(inputs, additional_forward_args)
        base_emb = self._layer_eval(baselines, additional_forward_args)
        alphas = [(i + 0.5) / n_steps for i in range(n_steps)]
        scaled = torch.cat([base_emb + alpha * (inp_emb - base_emb) for alpha in alphas], dim=0).requires_grad_()
        handle = self.layer.register_forward_hook(lambda m, i, o: scaled)
        try:
            out = self.forward_func(*_expand((inputs,), n_steps), *_expand(additional_forward_args, n_steps))
        finally:
            handle.remove()
        grads = torch.autograd.grad(out[:, target].sum(), scaled)[0]
        return (inp_emb - base_emb) * grads.reshape((n_steps,) + tuple(inp_emb.shape)).mean(0)

device = torch.device("cpu")
model = SampleModel()
model.to(device)
model.eval()
input_ids = torch.tensor([[0, 713, 16, 10, 1296, 2]]) % 300        # tokenizer.encode_plus(...)["input_ids"]
attention_mask = torch.ones_like(input_ids)
ref_input_ids = torch.tensor([[0, 1, 1, 1, 1, 2]])                 # <s> <pad>... </s>
ig = IntegratedGradients(model)
'''
CELL = '''
attributions = ig.attribute(input_ids, baselines=ref_input_ids, target=1,
                            additional_forward_args=(attention_mask,))
'''
EXPECT_ERROR = "Expected tensor for argument #1 'indices'"
CULPRITS = ["ig"]
FIX = "namespace"
REFERENCE_FIX = '''
ig = LayerIntegratedGradients(model, model.transformer_model.embeddings)
'''
REFERENCE_EDIT = None
CLEAN = False
