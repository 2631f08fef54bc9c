"""Captum IntegratedGradients on a fine-tuned BertForSequenceClassification: the interpolated `input_ids` are floats.

Source: https://github.com/meta-pytorch/captum/issues/357
The user wraps a trained multi-class `BertForSequenceClassification` in `IntegratedGradients(saved_model)` and
calls `ig.attribute(b_input_ids, ...)`: "Expected tensor for argument #1 'indices' to have scalar type Long; but
got torch.cuda.FloatTensor instead (while checking arguments for embedding)". IntegratedGradients scales the
inputs along the path `baseline + alpha * (input - baseline)`, so token ids become float tensors before BERT's
word embedding; the maintainers point to LayerIntegratedGradients on the embedding layer, which interpolates the
embeddings instead. Stand-ins: a tiny BERT classifier and the two attribution classes' interpolation step (plain
CPU; the report ran on cuda).
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch
from torch import nn

class BertEmbeddings(nn.Module):
    def __init__(self, vocab_size=30522, hidden=32):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, hidden)
    def forward(self, input_ids):
        return self.word_embeddings(input_ids)

class BertForSequenceClassification(nn.Module):
    def __init__(self, num_labels=5, hidden=32):
        super().__init__()
        self.embeddings = BertEmbeddings(hidden=hidden)
        self.encoder = nn.Linear(hidden, hidden)
        self.classifier = nn.Linear(hidden, num_labels)
    def forward(self, input_ids, token_type_ids=None, attention_mask=None):
        h = torch.tanh(self.encoder(self.embeddings(input_ids)))
        return (self.classifier(h[:, 0]),)

class IntegratedGradients:
    def __init__(self, forward_func):
        self.forward_func = forward_func
    def attribute(self, inputs, baselines=None, target=None, additional_forward_args=(), n_steps=4):
        baselines = torch.zeros_like(inputs) if baselines is None else baselines
        alphas = torch.linspace(0, 1, n_steps)
        scaled = torch.cat([baselines + a * (inputs - baselines) for a in alphas])
        scaled.requires_grad_()
        out = self.forward_func(scaled, *[x.repeat(n_steps, 1) for x in additional_forward_args])
        grads = torch.autograd.grad(out[:, target].sum(), scaled)[0]
        return (inputs - baselines) * grads.view(n_steps, *inputs.shape).mean(0)

class LayerIntegratedGradients:
    def __init__(self, forward_func, layer):
        self.forward_func, self.layer = forward_func, layer
    def attribute(self, inputs, baselines=None, target=None, additional_forward_args=(), n_steps=4):
        baselines = torch.zeros_like(inputs) if baselines is None else baselines
        emb_in, emb_base = self.layer(inputs), self.layer(baselines)
        alphas = torch.linspace(0, 1, n_steps)
        scaled = torch.cat([emb_base + a * (emb_in - emb_base) for a in alphas]).detach().requires_grad_()
        handle = self.layer.register_forward_hook(lambda m, i, o: scaled)
        try:
            out = self.forward_func(inputs.repeat(n_steps, 1), *[x.repeat(n_steps, 1) for x in additional_forward_args])
        finally:
            handle.remove()
        grads = torch.autograd.grad(out[:, target].sum(), scaled)[0]
        return ((emb_in - emb_base) * grads.view(n_steps, *emb_in.shape).mean(0)).sum(-1)

saved_model = BertForSequenceClassification(num_labels=5)
saved_model.eval()

def forward_func(input_ids, attention_mask):
    return saved_model(input_ids, token_type_ids=None, attention_mask=attention_mask)[0]

ig = IntegratedGradients(forward_func)
b_input_ids = torch.randint(1, 30522, (1, 16))
b_input_mask = torch.ones(1, 16, dtype=torch.long)
'''
CELL = '''
attributions = ig.attribute(b_input_ids, target=2, additional_forward_args=(b_input_mask,))
'''
EXPECT_ERROR = "to have one of the following scalar types: Long, Int"
CULPRITS = ["ig"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("ig = IntegratedGradients(forward_func)",
                  "ig = LayerIntegratedGradients(forward_func, saved_model.embeddings)")
CLEAN = False
