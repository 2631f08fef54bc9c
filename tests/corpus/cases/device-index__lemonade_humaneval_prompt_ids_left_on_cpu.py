"""lemonade `accuracy-humaneval --device cuda`: each prompt is tokenized on the CPU and handed to the GPU model's generate.

Source: https://github.com/onnx/turnkeyml/pull/270
"Fix input_ids always on cpu issue": with `lemonade -i microsoft/Phi-3.5-mini-instruct
huggingface-load --device cuda accuracy-mmlu ...` both the MMLU and HumanEval tools failed with
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
(when checking argument for argument index in method wrapper_CUDA__index_select)": in
`_evaluate_model` the line `input_ids = tokenizer(prompt, return_tensors="pt").input_ids` never
moved the ids to the model's device. Stand-in: a character tokenizer and a tiny causal LM.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
from torch import nn

class Encoding:
    def __init__(self, input_ids):
        self.input_ids = input_ids

class CharTokenizer:
    def __call__(self, text, return_tensors="pt"):
        return Encoding(torch.tensor([[ord(c) % 96 for c in text]]))

class CausalLM(nn.Module):
    def __init__(self, vocab_size=96, hidden=16):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden)
        self.layer = nn.Linear(hidden, hidden)
        self.lm_head = nn.Linear(hidden, vocab_size)

    def forward(self, input_ids):
        return self.lm_head(torch.tanh(self.layer(self.embed_tokens(input_ids))))

    @torch.no_grad()
    def generate(self, input_ids, max_new_tokens=8):
        for _ in range(max_new_tokens):
            next_token = self(input_ids).select(1, -1).argmax(-1, keepdim=True)
            input_ids = torch.cat([input_ids, next_token], dim=1)
        return input_ids

def _evaluate_model(model, tokenizer, dataset, max_new_tokens=8):
    completions = {}
    for task_id, task in dataset.items():
        prompt = task["prompt"]
        # Generate completion
        input_ids = tokenizer(prompt, return_tensors="pt").input_ids
        completions[task_id] = model.generate(input_ids, max_new_tokens=max_new_tokens)
    return completions

model = CausalLM().to("cuda:0")          # huggingface-load --device cuda
tokenizer = CharTokenizer()
dataset = {"HumanEval/0": {"prompt": "def has_close_elements(numbers, threshold):"},
           "HumanEval/1": {"prompt": "def separate_paren_groups(paren_string):"}}
'''
CELL = '''
completions = _evaluate_model(model, tokenizer, dataset)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["input_ids"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    'input_ids = tokenizer(prompt, return_tensors="pt").input_ids',
    'input_ids = tokenizer(prompt, return_tensors="pt").input_ids.to(next(model.parameters()).device)',
)
CLEAN = False
