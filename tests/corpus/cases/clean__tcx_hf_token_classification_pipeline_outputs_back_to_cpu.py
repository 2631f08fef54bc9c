"""Look-alike: a transformers NER (token-classification) pipeline on cuda:0 moves the model outputs back to the CPU on purpose and post-processes them there with the CPU special-tokens mask.

Source: https://github.com/huggingface/transformers/blob/main/src/transformers/pipelines/token_classification.py
(with `Pipeline.forward` in src/transformers/pipelines/base.py). `preprocess` tokenizes on the CPU with
`return_special_tokens_mask=True`; `forward` sends the model inputs to `self.device`, `_forward` pops
`special_tokens_mask`/`offset_mapping`/`sentence` before calling the model, and `forward` then moves every output
back with `_ensure_tensor_on_device(model_outputs, device=torch.device("cpu"))`, so `postprocess` works on CPU
logits next to the CPU mask. Stand-ins: a tiny token classifier, tokenizer and the pipeline reduced to those
steps (postprocess keeps tensors instead of numpy).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class TinyTokenClassifier(nn.Module):
    def __init__(self, vocab_size=30522, hidden=32, num_labels=9):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, hidden)
        self.encoder = nn.Linear(hidden, hidden)
        self.classifier = nn.Linear(hidden, num_labels)

    def forward(self, input_ids, attention_mask=None):
        h = torch.tanh(self.encoder(self.embeddings(input_ids)))
        return {"logits": self.classifier(h)}

class Tokenizer:
    def __call__(self, sentence, return_tensors="pt", return_special_tokens_mask=False):
        ids = [101] + [(sum(map(ord, w)) % 30000) + 200 for w in sentence.split()] + [102]
        out = {"input_ids": torch.tensor([ids]), "attention_mask": torch.ones(1, len(ids), dtype=torch.long)}
        if return_special_tokens_mask:
            out["special_tokens_mask"] = torch.tensor([[1] + [0] * (len(ids) - 2) + [1]])
        return out

class TokenClassificationPipeline:
    """Stand-in for transformers.TokenClassificationPipeline (preprocess / forward / postprocess)."""
    def __init__(self, model, tokenizer, device):
        self.model, self.tokenizer = model, tokenizer
        self.device = torch.device(device)
        self.model.to(self.device)

    def _ensure_tensor_on_device(self, inputs, device):
        return {k: (v.to(device) if isinstance(v, torch.Tensor) else v) for k, v in inputs.items()}

    def preprocess(self, sentence):
        model_inputs = self.tokenizer(sentence, return_tensors="pt", return_special_tokens_mask=True)
        model_inputs["sentence"] = sentence
        return model_inputs

    def _forward(self, model_inputs):
        special_tokens_mask = model_inputs.pop("special_tokens_mask")
        sentence = model_inputs.pop("sentence")
        output = self.model(**model_inputs)
        logits = output["logits"] if isinstance(output, dict) else output[0]
        return {"logits": logits, "special_tokens_mask": special_tokens_mask, "sentence": sentence, **model_inputs}

    def forward(self, model_inputs):
        with torch.inference_mode():
            model_inputs = self._ensure_tensor_on_device(model_inputs, device=self.device)
            model_outputs = self._forward(model_inputs)
            model_outputs = self._ensure_tensor_on_device(model_outputs, device=torch.device("cpu"))
        return model_outputs

    def postprocess(self, model_outputs, ignore_labels=(0,)):
        logits = model_outputs["logits"].select(0, 0)
        maxes = logits.max(dim=-1, keepdim=True).values
        shifted_exp = torch.exp(logits - maxes)
        scores = shifted_exp / shifted_exp.sum(dim=-1, keepdim=True)
        entity_ids = scores.argmax(dim=-1)
        keep = model_outputs["special_tokens_mask"].select(0, 0).eq(0)
        return entity_ids, scores, keep

    def __call__(self, sentence):
        return self.postprocess(self.forward(self.preprocess(sentence)))

ner = TokenClassificationPipeline(model=TinyTokenClassifier(), tokenizer=Tokenizer(), device="cuda:0")
'''
CELL = '''
entity_ids, scores, keep = ner("Hugging Face is based in New York City")
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
