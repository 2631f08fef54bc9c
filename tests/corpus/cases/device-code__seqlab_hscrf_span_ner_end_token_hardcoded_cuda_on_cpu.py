"""Span-level NER (HSCRF + soft dictionary) trained on a CPU: `forward` hard-codes `.cuda(get_device_of(spans))`.

Source: https://github.com/lyutyuh/gazetteer-NER-acl19/issues/5
"issue while training": training the HSCRF_SoftDict model on the CPU failed in `forward` at
`] += self.end_token_embedding.cuda(util.get_device_of(spans))` with "RuntimeError: Device index
must not be negative" - allennlp's `get_device_of` returns -1 for a CPU tensor. The author: "using
self.end_token_embedding.cpu() instead of self.end_token_embedding.cuda(util.get_device_of(spans))
will be fine for cpu"; the reporter: "I made the change and it is able to train now." Stand-ins:
allennlp's `util.get_device_of` / `move_to_device` / `get_text_field_mask` and the start of
HSCRF_SoftDict.forward (the end-token step where the error arose); the whole run is on the CPU.
"""

SIM = "cpu"
FAMILY = "device-code"
SETUP = '''
import types
import torch
import torch.nn as nn

def get_device_of(tensor):
    """allennlp.nn.util.get_device_of"""
    if not tensor.is_cuda:
        return -1
    return tensor.get_device()

def move_to_device(obj, cuda_device):
    """allennlp.nn.util.move_to_device (tensors only)"""
    if cuda_device < 0 or not isinstance(obj, torch.Tensor):
        return obj
    return obj.cuda(cuda_device)

def get_text_field_mask(tokens):
    return (tokens["tokens"] != 0).long()

util = types.SimpleNamespace(get_device_of=get_device_of, move_to_device=move_to_device,
                             get_text_field_mask=get_text_field_mask)

class HSCRF_SoftDict(nn.Module):
    """The span-level HSCRF NER model, reduced to the start of forward."""
    def __init__(self, vocab_size=100, emb=16, feature_size=16):
        super().__init__()
        self.text_field_embedder = nn.Embedding(vocab_size, emb, padding_idx=0)
        self.end_token_embedding = nn.Parameter(torch.zeros(emb))
        self.encoder = nn.LSTM(emb, feature_size // 2, batch_first=True, bidirectional=True)

    def forward(self, tokens, spans, gold_spans):
        batch_size = spans.size(0)
        mask = util.get_text_field_mask(tokens)
        token_mask = torch.cat([mask, mask.new_zeros(batch_size, 1)], dim=1)

        embedded_text_input = self.text_field_embedder(tokens["tokens"])
        embedded_text_input = torch.cat([embedded_text_input,
                                         embedded_text_input.new_zeros(batch_size, 1, embedded_text_input.size(2))],
                                        dim=1)

        span_mask = (spans[:, :, 0] >= 0).squeeze(-1).float()
        gold_span_mask = (gold_spans[:, :, 0] >= 0).squeeze(-1).float()
        last_span_indices = gold_span_mask.sum(-1, keepdim=True).long()

        batch_indices = torch.arange(batch_size).unsqueeze(-1)
        batch_indices = util.move_to_device(batch_indices, util.get_device_of(embedded_text_input))
        last_span_indices = torch.cat([batch_indices, last_span_indices], dim=-1)
        embedded_text_input[last_span_indices[:, 0], last_span_indices[:, 1]] += self.end_token_embedding.cuda(util.get_device_of(spans))

        token_mask[last_span_indices[:, 0], last_span_indices[:, 1]] += 1
        encoded, _ = self.encoder(embedded_text_input)
        return {"encoded": encoded, "token_mask": token_mask, "span_mask": span_mask}

model = HSCRF_SoftDict()
tokens = {"tokens": torch.tensor([[5, 17, 23, 8, 0], [9, 4, 31, 2, 11]])}
# candidate spans and gold segmentation (start, end), -1 padding
spans = torch.tensor([[[0, 0], [1, 2], [3, 3], [-1, -1]], [[0, 1], [2, 2], [3, 4], [4, 4]]])
gold_spans = torch.tensor([[[0, 0], [1, 2], [3, 3], [-1, -1]], [[0, 1], [2, 2], [3, 3], [4, 4]]])
'''
CELL = '''
output = model(tokens, spans, gold_spans)
'''
EXPECT_ERROR = "Device index must not be negative"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "self.end_token_embedding.cuda(util.get_device_of(spans))",
    "self.end_token_embedding.cpu()",
)
CLEAN = False
