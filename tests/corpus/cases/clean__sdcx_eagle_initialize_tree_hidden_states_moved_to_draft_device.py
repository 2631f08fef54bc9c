"""EAGLE-3 on a base model split over two GPUs: the low/mid/high hidden states come from layers on cuda:0 and cuda:1 and are moved to the draft layer's device before `torch.cat`.

Source: https://github.com/SafeAILab/EAGLE/blob/main/eagle/model/utils.py
`initialize_tree` runs the base model (loaded with `device_map="auto"`), takes the first token from
`orig[:, -1]` (the lm_head's device) and appends it with `token.to(input_ids.device)`; for EAGLE-3 it
then does `ea_device = model.ea_layer.lm_head.weight.device` and, when the captured hidden states are
elsewhere, `outputs["hidden_states"] = [x.to(ea_device) for x in outputs["hidden_states"]]` before
`torch.cat(outputs["hidden_states"], dim=-1)` feeds the draft layer (`EaModel.__init__` puts the draft
layer on the device of the base model's last decoder layer). Look-alike: hidden states on two GPUs and
a cuda:1 token next to cuda:0 `input_ids`, all moved on purpose; it runs.
Stand-ins: a four-layer base model dispatched over cuda:0/cuda:1, an EAGLE-3 draft layer (`fc` over
the three concatenated hidden states, own lm_head) with a one-level `topK_genrate`, greedy first token.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class DecoderLayer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.mlp = nn.Linear(d, d)
    def forward(self, x):
        return x + self.mlp(self.norm(x))

class KVLlamaForCausalLM(nn.Module):
    """Base model as loaded with device_map="auto" (layers 0-1 on cuda:0, 2-3 and lm_head on cuda:1)."""
    def __init__(self, vocab=64, d=16, n_layers=4):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([DecoderLayer(d) for _ in range(n_layers)])
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def dispatch(self):
        self.embed_tokens.to("cuda:0")
        for i, layer in enumerate(self.layers):
            layer.to("cuda:0" if i < 2 else "cuda:1")
        self.lm_head.to("cuda:1")
        return self

    def forward(self, input_ids):
        x = self.embed_tokens(input_ids)
        hidden_states = []
        for layer in self.layers:
            x = layer(x.to(layer.mlp.weight.device))
            hidden_states.append(x)
        # EAGLE-3 taps a low, a middle and a high layer
        return {"hidden_states": [hidden_states[0], hidden_states[1], hidden_states[3]]}, self.lm_head(x)

class EagleDraft(nn.Module):
    def __init__(self, vocab=64, d=16, top_k=4):
        super().__init__()
        self.fc = nn.Linear(3 * d, d, bias=False)
        self.midlayer = DecoderLayer(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.top_k = top_k

    def topK_genrate(self, hidden_states, input_ids, head, logits_processor):
        input_ids = input_ids.to(hidden_states.device)
        out_hidden = self.midlayer(self.fc(hidden_states))
        last_headout = self.lm_head(out_hidden[:, -1])
        last_p = torch.log_softmax(last_headout, dim=-1)
        top = torch.topk(last_p, self.top_k, dim=-1)
        return top.indices, top.values

class EaModel(nn.Module):
    def __init__(self, base_model):
        super().__init__()
        self.base_model = base_model
        self.use_eagle3 = True
        device = base_model.layers[-1].mlp.weight.device
        self.ea_layer = EagleDraft().to(device)

    def forward(self, input_ids, past_key_values=None, output_orig=True):
        outputs, orig = self.base_model(input_ids)
        return outputs, orig, None

def initialize_tree(input_ids, model, past_key_values, logits_processor):
    outputs, orig, hidden_states = model(input_ids, past_key_values=past_key_values, output_orig=True)
    token = torch.argmax(orig[:, -1], dim=-1)
    token = token[:, None]
    input_ids = torch.cat((input_ids, token.to(input_ids.device)), dim=1)
    if model.use_eagle3:
        ea_device = model.ea_layer.lm_head.weight.device
        if outputs["hidden_states"][0].device != ea_device:
            outputs["hidden_states"] = [x.to(ea_device) for x in outputs["hidden_states"]]
        hidden_states = torch.cat(outputs["hidden_states"], dim=-1)
    draft_tokens, draft_scores = model.ea_layer.topK_genrate(hidden_states, input_ids,
                                                             model.base_model.lm_head, logits_processor)
    return draft_tokens, draft_scores, orig, hidden_states, token

model = EaModel(KVLlamaForCausalLM().dispatch())   # EaModel.from_pretrained(..., device_map="auto")
model.eval()
input_ids = torch.randint(0, 64, (1, 9)).to("cuda:0")   # tokenizer([prompt]).input_ids, .cuda()
'''
CELL = '''
with torch.no_grad():
    draft_tokens, draft_scores, orig, hidden_states, token = initialize_tree(input_ids, model, None, None)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
