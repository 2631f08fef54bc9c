"""anomalib WinCLIP: `setup()` called after the model was moved to CUDA tokenizes the prompts on the CPU.

Source: https://github.com/open-edge-platform/anomalib/pull/1985
"WinCLIP improvements": "Set device dynamically when collecting text embeddings before inference. This
is needed so that `setup` can be called after the model has been moved to cuda." Before the fix,
`WinClipModel._collect_text_embeddings` tokenized the normal/anomalous prompt ensemble and passed the
CPU token tensor straight to `self.clip.encode_text`, so `model.to("cuda"); model.setup("transistor")`
fails in the CLIP token embedding. The PR adds `device = next(self.parameters()).device` and moves the
tokens there. Stand-ins: a tiny CLIP text tower, a toy tokenizer and the prompt ensemble.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def create_prompt_ensemble(class_name):
    states_n = ["flawless {}", "perfect {}", "{} without defect"]
    states_a = ["damaged {}", "broken {}", "{} with defect"]
    return [s.format(class_name) for s in states_n], [s.format(class_name) for s in states_a]

def tokenize(texts, context_length=8):
    out = torch.zeros(len(texts), context_length, dtype=torch.long)
    for i, t in enumerate(texts):
        ids = [sum(map(ord, w)) % 97 + 1 for w in t.split()][:context_length]
        out[i, :len(ids)] = torch.tensor(ids)
    return out

class TinyCLIP(nn.Module):
    def __init__(self, vocab=100, width=32, ctx=8):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab, width)
        self.positional_embedding = nn.Parameter(torch.zeros(ctx, width))
        self.text_projection = nn.Linear(width, 16, bias=False)

    def encode_text(self, text):
        x = self.token_embedding(text) + self.positional_embedding
        return self.text_projection(x.mean(dim=1))

class WinClipModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.clip = TinyCLIP()
        self.register_buffer("_text_embeddings", torch.empty(0))

    def setup(self, class_name=None, reference_images=None):
        self.class_name = class_name
        self._collect_text_embeddings(class_name)

    def _collect_text_embeddings(self, class_name):
        normal_prompts, anomalous_prompts = create_prompt_ensemble(class_name)
        normal_tokens = tokenize(normal_prompts)
        anomalous_tokens = tokenize(anomalous_prompts)
        normal_embeddings = self.clip.encode_text(normal_tokens)
        anomalous_embeddings = self.clip.encode_text(anomalous_tokens)
        normal_embeddings = torch.mean(normal_embeddings, dim=0, keepdim=True)
        anomalous_embeddings = torch.mean(anomalous_embeddings, dim=0, keepdim=True)
        self._text_embeddings = torch.cat((normal_embeddings, anomalous_embeddings))

model = WinClipModel().to("cuda:0")
'''
CELL = '''
model.setup("transistor")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        normal_tokens = tokenize(normal_prompts)
        anomalous_tokens = tokenize(anomalous_prompts)""",
                  """        device = next(self.parameters()).device
        normal_tokens = tokenize(normal_prompts).to(device)
        anomalous_tokens = tokenize(anomalous_prompts).to(device)""")
CLEAN = False
