"""GLM-4 `AutoModelForSequenceClassification` in bfloat16: the classifier head is built with a hard-coded `dtype=torch.half`.

Source: https://github.com/zai-org/GLM-4/issues/197
Loading glm-4-9b-chat with `AutoModelForSequenceClassification.from_pretrained` and calling
`model.forward(**inputs)` failed with "mat1 and mat2 must have the same dtype, but got BFloat16 and
Half": `model.classifier_head` was float16 while the rest of the model loaded in bf16. The remote
modeling code created the head as `nn.Linear(config.hidden_size, config.num_labels, bias=True,
dtype=torch.half)`; the maintainers fixed the dtype in the hub code. Stand-in: a tiny GLM-style
encoder built under `torch_dtype=bfloat16` the way from_pretrained does it (default dtype set during
init), with the hard-coded half head; CPU only.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn
from types import SimpleNamespace

class ChatGLMModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.embedding = nn.Embedding(config.vocab_size, config.hidden_size)
        self.layers = nn.Sequential(nn.Linear(config.hidden_size, config.hidden_size), nn.GELU())
        self.final_layernorm = nn.LayerNorm(config.hidden_size)

    def forward(self, input_ids, attention_mask=None):
        return self.final_layernorm(self.layers(self.embedding(input_ids)))

class ChatGLMForSequenceClassification(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_labels = config.num_labels
        self.transformer = ChatGLMModel(config)
        self.classifier_head = nn.Linear(config.hidden_size, config.num_labels, bias=True, dtype=torch.half)
        self.dropout = nn.Dropout(0.1)

    def forward(self, input_ids, attention_mask=None):
        hidden_states = self.transformer(input_ids, attention_mask)
        pooled_hidden_states = hidden_states[:, -1]
        logits = self.classifier_head(self.dropout(pooled_hidden_states))
        return SimpleNamespace(logits=logits)

def from_pretrained(config, torch_dtype=torch.bfloat16):
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch_dtype)          # what from_pretrained(torch_dtype=...) does during init
    try:
        return ChatGLMForSequenceClassification(config)
    finally:
        torch.set_default_dtype(old)

config = SimpleNamespace(vocab_size=100, hidden_size=32, num_labels=2)
model = from_pretrained(config)                   # AutoModelForSequenceClassification.from_pretrained("THUDM/glm-4-9b-chat", ...)
model.eval()
inputs = {"input_ids": torch.randint(0, 100, (1, 9)), "attention_mask": torch.ones(1, 9, dtype=torch.long)}
'''
CELL = '''
output = model.forward(**inputs)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "same dtype", "expected scalar type")
CULPRITS = ["model.classifier_head"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("config.num_labels, bias=True, dtype=torch.half)", "config.num_labels, bias=True)")
CLEAN = False
