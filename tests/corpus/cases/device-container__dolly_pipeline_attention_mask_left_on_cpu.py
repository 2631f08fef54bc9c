"""Dolly's instruction pipeline moves `input_ids` to the model's device but not the attention mask.

Source: https://github.com/databrickslabs/dolly/pull/180
`InstructionTextGenerationPipeline._forward` took `input_ids` and `attention_mask` out of the
tokenized `model_inputs` dict and called `self.model.generate(input_ids=input_ids.to(self.model.device),
attention_mask=attention_mask, ...)`: with the model moved to cuda the CPU mask raised a device
mismatch. The PR moves the mask to the model's device too. Stand-in: a tiny tokenizer, a
GPT-NeoX-like model whose `generate` runs one masked forward step; transformers is not used.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

class Tokenizer:
    pad_token_id = 0
    def __call__(self, text, return_tensors="pt"):
        ids = [3 + (ord(c) % 90) for c in text]
        return {"input_ids": torch.tensor([ids]), "attention_mask": torch.ones(1, len(ids), dtype=torch.long)}

class GPTNeoXForCausalLM(nn.Module):
    def __init__(self, vocab=96, dim=32):
        super().__init__()
        self.embed_in = nn.Embedding(vocab, dim)
        self.layer = nn.Linear(dim, dim)
        self.embed_out = nn.Linear(dim, vocab, bias=False)

    @property
    def device(self):
        return next(self.parameters()).device

    def generate(self, input_ids, attention_mask=None, pad_token_id=None, max_new_tokens=1):
        h = self.embed_in(input_ids)
        if attention_mask is not None:
            h = h * attention_mask.unsqueeze(-1)
        logits = self.embed_out(torch.tanh(self.layer(h)))
        return logits                        # next-token scores (decoding loop left out)

class InstructionTextGenerationPipeline:
    def __init__(self, model, tokenizer, max_new_tokens=256):
        self.model, self.tokenizer, self.max_new_tokens = model, tokenizer, max_new_tokens

    def preprocess(self, instruction_text):
        prompt_text = "### Instruction:\\n" + instruction_text + "\\n\\n### Response:\\n"
        inputs = self.tokenizer(prompt_text, return_tensors="pt")
        inputs["prompt_text"] = prompt_text
        inputs["instruction_text"] = instruction_text
        return inputs

    def _forward(self, model_inputs, **generate_kwargs):
        input_ids = model_inputs["input_ids"]
        attention_mask = model_inputs.get("attention_mask", None)
        generated_sequence = self.model.generate(
            input_ids=input_ids.to(self.model.device),
            attention_mask=attention_mask,
            pad_token_id=self.tokenizer.pad_token_id,
            **generate_kwargs,
        )
        return {"generated_sequence": generated_sequence, "input_ids": input_ids}

    def __call__(self, instruction_text, **generate_kwargs):
        return self._forward(self.preprocess(instruction_text), **generate_kwargs)

tokenizer = Tokenizer()
model = GPTNeoXForCausalLM().to("cuda:0")
generate_text = InstructionTextGenerationPipeline(model=model, tokenizer=tokenizer)
'''
CELL = '''
res = generate_text("Explain to me the difference between nuclear fission and fusion.")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["attention_mask"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            attention_mask=attention_mask,",
                  "            attention_mask=attention_mask.to(self.model.device) if attention_mask is not None else None,")
CLEAN = False
