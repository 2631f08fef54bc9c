"""Look-alike: LangChain's `HuggingFacePipeline` hands the prompt to a transformers text-generation pipeline that tokenizes on the CPU and moves the tensors in `Pipeline.forward`.

Source: https://github.com/huggingface/transformers/blob/main/src/transformers/pipelines/base.py
`HuggingFacePipeline.from_model_id(..., device=0)` builds `pipeline("text-generation", model=model,
tokenizer=tokenizer, device=0)`; `_call` runs `self.pipeline(prompt)`. In the pipeline, `preprocess`
returns CPU tensors, and `Pipeline.forward` does `model_inputs = self._ensure_tensor_on_device(
model_inputs, device=self.device)` before `_forward` calls `generate`, then moves the outputs back
to the CPU for `postprocess`. CPU tensors next to a GPU model, moved inside. Stand-ins: the
pipeline's preprocess/forward/postprocess reduced to their tensor handling, a fp16 causal LM on
cuda:0 with a one-step greedy `generate`, and a whitespace tokenizer.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class Tokenizer:
    def __call__(self, text, return_tensors="pt"):
        ids = [1] + [3 + (hash(w) % 120) for w in text.split()]
        return {"input_ids": torch.tensor([ids]), "attention_mask": torch.ones(1, len(ids), dtype=torch.long)}

class CausalLM(nn.Module):
    def __init__(self, vocab=128, hidden=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)
    @torch.no_grad()
    def generate(self, input_ids, attention_mask=None, max_new_tokens=1, **kwargs):
        next_token = self.lm_head(self.embed_tokens(input_ids))[:, -1].argmax(-1, keepdim=True)
        return torch.cat([input_ids, next_token], dim=-1)

class TextGenerationPipeline:
    def __init__(self, model, tokenizer, device=-1, **generate_kwargs):
        self.model, self.tokenizer = model, tokenizer
        self.device = torch.device("cpu") if device < 0 else torch.device(f"cuda:{device}")
        self.model.to(self.device)
        self.generate_kwargs = generate_kwargs

    def _ensure_tensor_on_device(self, inputs, device):
        if isinstance(inputs, dict):
            return {name: self._ensure_tensor_on_device(t, device) for name, t in inputs.items()}
        if isinstance(inputs, torch.Tensor):
            return inputs.to(device)
        return inputs

    def preprocess(self, prompt_text):
        inputs = self.tokenizer(prompt_text, return_tensors="pt")
        inputs["prompt_text"] = prompt_text
        return inputs

    def _forward(self, model_inputs):
        input_ids, attention_mask = model_inputs["input_ids"], model_inputs["attention_mask"]
        generated_sequence = self.model.generate(input_ids=input_ids, attention_mask=attention_mask, **self.generate_kwargs)
        return {"generated_sequence": generated_sequence, "input_ids": input_ids}

    def forward(self, model_inputs):
        with torch.no_grad():
            model_inputs = self._ensure_tensor_on_device(model_inputs, device=self.device)
            model_outputs = self._forward(model_inputs)
            model_outputs = self._ensure_tensor_on_device(model_outputs, device=torch.device("cpu"))
        return model_outputs

    def __call__(self, text_inputs):
        return self.forward(self.preprocess(text_inputs))

class HuggingFacePipeline:
    def __init__(self, pipeline):
        self.pipeline = pipeline
    def invoke(self, prompt):
        out = self.pipeline(prompt)
        return out["generated_sequence"][:, out["input_ids"].shape[1]:]

model = CausalLM().half()
pipe = TextGenerationPipeline(model=model, tokenizer=Tokenizer(), device=0, max_new_tokens=1)
hf = HuggingFacePipeline(pipeline=pipe)
'''
CELL = '''
new_tokens = hf.invoke("Question: What is electroencephalography? Answer: Let's think step by step.")
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
