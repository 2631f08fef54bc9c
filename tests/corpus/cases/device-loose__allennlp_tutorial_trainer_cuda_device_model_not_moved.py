"""AllenNLP tutorial (LstmTagger) with `Trainer(..., cuda_device=0)`: the trainer moves every batch to the GPU but the model was never moved.

Source: https://github.com/allenai/allennlp/issues/2555
"Tutorial doesn't work on GPU": copying the tutorial and adding `cuda_device=0` to the Trainer gave
"Expected object of backend CPU but got backend CUDA for argument #3 'index'" in the embedding: the
trainer's `move_to_device` put the token ids on cuda:0 while the model stayed on the CPU. The fix
in the thread: `model = model.cuda(cuda_device)` before building the Trainer. Stand-in: the tutorial
model, the text field embedder as an Embedding, the LSTM encoder replaced by a per-token feedforward
(the fake-cuda simulation cannot move an LSTM), the trainer's batch loop without backward.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

def get_text_field_mask(text_field_tensors):
    return (text_field_tensors["tokens"] != 0).long()

def sequence_cross_entropy_with_logits(logits, targets, weights):
    log_probs = torch.log_softmax(logits, dim=-1)
    nll = -log_probs.gather(-1, targets.unsqueeze(-1)).squeeze(-1) * weights.float()
    return nll.sum() / (weights.sum().float() + 1e-13)

def move_to_device(obj, cuda_device):
    if cuda_device < 0:
        return obj
    if isinstance(obj, torch.Tensor):
        return obj.to(f"cuda:{cuda_device}")
    if isinstance(obj, dict):
        return {key: move_to_device(value, cuda_device) for key, value in obj.items()}
    return obj

class BasicTextFieldEmbedder(nn.Module):
    def __init__(self, token_embedders):
        super().__init__()
        self.token_embedder_tokens = token_embedders["tokens"]

    def forward(self, text_field_input):
        return self.token_embedder_tokens(text_field_input["tokens"])

class FeedForwardSeq2Seq(nn.Module):          # stand-in for PytorchSeq2SeqWrapper(nn.LSTM(...))
    def __init__(self, input_dim, hidden_dim):
        super().__init__()
        self.proj = nn.Linear(input_dim, hidden_dim)
        self.hidden_dim = hidden_dim

    def get_output_dim(self):
        return self.hidden_dim

    def forward(self, inputs, mask):
        return torch.tanh(self.proj(inputs)) * mask.unsqueeze(-1).float()

class LstmTagger(nn.Module):
    def __init__(self, word_embeddings, encoder, num_labels):
        super().__init__()
        self.word_embeddings = word_embeddings
        self.encoder = encoder
        self.hidden2tag = nn.Linear(encoder.get_output_dim(), num_labels)

    def forward(self, sentence, labels=None):
        mask = get_text_field_mask(sentence)
        embeddings = self.word_embeddings(sentence)
        encoder_out = self.encoder(embeddings, mask)
        tag_logits = self.hidden2tag(encoder_out)
        output = {"tag_logits": tag_logits}
        if labels is not None:
            output["loss"] = sequence_cross_entropy_with_logits(tag_logits, labels, mask)
        return output

class Trainer:
    def __init__(self, model, optimizer, iterator, train_dataset, patience=10, num_epochs=1000, cuda_device=-1):
        self.model, self.optimizer, self.iterator = model, optimizer, iterator
        self.train_data = train_dataset
        self._cuda_device = cuda_device
        self._num_epochs = 1                  # one epoch for the reproduction

    def train(self):
        self.model.train()
        for batch in self.iterator(self.train_data):
            batch = move_to_device(batch, self._cuda_device)
            self.optimizer.zero_grad()
            loss = self.model(**batch)["loss"]
        return {"loss": float("nan")}

EMBEDDING_DIM, HIDDEN_DIM, VOCAB, NUM_TAGS = 6, 6, 20, 3
token_embedding = nn.Embedding(VOCAB, EMBEDDING_DIM)
word_embeddings = BasicTextFieldEmbedder({"tokens": token_embedding})
lstm = FeedForwardSeq2Seq(EMBEDDING_DIM, HIDDEN_DIM)
model = LstmTagger(word_embeddings, lstm, NUM_TAGS)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
train_dataset = [{"sentence": {"tokens": torch.randint(1, VOCAB, (2, 5))},
                  "labels": torch.randint(0, NUM_TAGS, (2, 5))}]
iterator = lambda data: iter(data)           # BucketIterator(batch_size=2, ...) after index_with(vocab)
trainer = Trainer(model=model, optimizer=optimizer, iterator=iterator, train_dataset=train_dataset,
                  patience=10, num_epochs=1000, cuda_device=0)
'''
CELL = '''
trainer.train()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
