"""Abstractive QA notebook: the BART generator is on the GPU, the tokenized query never leaves the CPU.

Source: https://github.com/pinecone-io/examples/issues/214
In the abstractive-question-answering notebook the generator is loaded with `.to(device)`, but the
notebook's `generate_answer(query)` helper tokenizes with `return_tensors="pt"` and passes
`inputs["input_ids"]` straight to `generator.generate(...)`; on a CUDA machine cell 18 fails with
"Expected all tensors to be on the same device". The tokenized inputs have to be moved inside the
helper. Stand-ins: the tokenizer returns a `BatchEncoding`-like dict with `.to()`, and the
generator is a tiny greedy seq2seq with the same `generate` call (beam search and decoding reduced).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class BatchEncoding(dict):
    def to(self, device):
        return BatchEncoding({k: v.to(device) for k, v in self.items()})

class BartTokenizer:
    # stand-in: hashes words to ids; return_tensors="pt" gives CPU tensors, as the real one does
    vocab_size = 512
    def __call__(self, texts, max_length=1024, return_tensors=None):
        ids = [[hash(w) % self.vocab_size for w in t.split()][:max_length] for t in texts]
        width = max(len(i) for i in ids)
        ids = [i + [1] * (width - len(i)) for i in ids]
        return BatchEncoding(input_ids=torch.tensor(ids),
                             attention_mask=torch.ones(len(ids), width, dtype=torch.long))
    def batch_decode(self, ids, skip_special_tokens=True, clean_up_tokenization_spaces=False):
        return [f"<answer of {ids.shape[-1]} tokens>"]

class BartGenerator(nn.Module):
    def __init__(self, vocab=512, dim=32):
        super().__init__()
        self.shared = nn.Embedding(vocab, dim)
        self.encoder = nn.Linear(dim, dim)
        self.lm_head = nn.Linear(dim, vocab)

    @torch.no_grad()
    def generate(self, input_ids, num_beams=2, min_length=20, max_length=40):
        memory = torch.tanh(self.encoder(self.shared(input_ids))).mean(dim=1, keepdim=True)
        out = torch.zeros(input_ids.shape[0], 1, dtype=torch.long, device=input_ids.device)
        for _ in range(min_length):
            h = self.shared(out.narrow(1, out.shape[1] - 1, 1)) + memory
            out = torch.cat([out, self.lm_head(h).argmax(-1)], dim=1)
        return out

device = "cuda:0"
tokenizer = BartTokenizer()
generator = BartGenerator().to(device)

def generate_answer(query):
    # tokenize the query to get input_ids
    inputs = tokenizer([query], max_length=1024, return_tensors="pt")
    # use generator to predict output ids
    ids = generator.generate(inputs["input_ids"], num_beams=2, min_length=20, max_length=40)
    # use tokenizer to decode the output ids
    answer = tokenizer.batch_decode(ids, skip_special_tokens=True, clean_up_tokenization_spaces=False)[0]
    return answer

query = "question: when was the first electric power system built? context: <P> Electric power ..."
'''
CELL = '''
answer = generate_answer(query)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["inputs"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    'inputs = tokenizer([query], max_length=1024, return_tensors="pt")',
    'inputs = tokenizer([query], max_length=1024, return_tensors="pt").to(device)',
)
CLEAN = False
