"""interpret-flair on a GPU: `interpret_sentence` feeds the tokenizer's CPU `input_ids` to the Flair transformer on cuda.

Source: https://github.com/robinvanschaik/interpret-flair/issues/5
With the pretrained Flair `TextClassifier.load('sentiment')` wrapped in `ModelWrapper`, calling `interpret_sentence`
raised "Input, output and indices must be on the current device" (today's torch: "Expected all tensors to be on
the same device") in the embedding. The reporter found that `input_ids` from `flair_model_wrapper.tokenizer.encode
(..., return_tensors="pt")` is on the CPU and added `input_ids = input_ids.to(device)` after the encode; the author
confirmed on a GPU notebook and adopted `input_ids = input_ids.to(flair_model_wrapper.device)`.
Stand-ins: a tiny transformer-like document model returning hidden states, a Flair-like classifier (decoder +
label dictionary), a whitespace tokenizer returning "pt" tensors, `ModelWrapper` (`[0][idx]` on the hidden state
written with `.select`) and `interpret_sentence` up to the model's prediction (the Layer-IG attribution and the
`.item()` read-outs are left out).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class TinyTransformer(nn.Module):
    def __init__(self, vocab=200, dim=32, n_layers=2):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList([nn.Linear(dim, dim) for _ in range(n_layers)])
    def forward(self, input_ids):
        h = self.embeddings(input_ids)
        hidden_states = [h]
        for layer in self.layers:
            h = torch.tanh(layer(h))
            hidden_states.append(h)
        return h, tuple(hidden_states)

class LabelDictionary:
    def __init__(self, items):
        self.items = list(items)
    def get_idx_for_item(self, item):
        return self.items.index(item)
    def __len__(self):
        return len(self.items)

class DocumentEmbeddings:
    def __init__(self):
        self.model = TinyTransformer()
        self.embedding_length = 32
        self.initial_cls_token = True

class TextClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.document_embeddings = DocumentEmbeddings()
        self.doc_model = self.document_embeddings.model
        self.decoder = nn.Linear(32, 2)
        self.label_dictionary = LabelDictionary(["NEGATIVE", "POSITIVE"])

class Tokenizer:
    model_max_length = 512
    def encode(self, text, add_special_tokens=False, max_length=None, truncation=True, return_tensors=None):
        ids = [5 + (sum(map(ord, w)) % 190) for w in text.split()]
        return torch.tensor([ids]) if return_tensors == "pt" else ids

class ModelWrapper(nn.Module):
    def __init__(self, flair_model, layers="-1"):
        super().__init__()
        self.flair_model = flair_model
        self.model = flair_model.document_embeddings.model
        self.device = torch.device("cuda:0")     # torch.cuda.is_available()
        self.model.eval()
        self.tokenizer = Tokenizer()
        self.label_dictionary = self.flair_model.label_dictionary
        self.num_classes = len(self.flair_model.label_dictionary)
        self.initial_cls_token = flair_model.document_embeddings.initial_cls_token
        self.layer_indexes = [int(x) for x in layers.split(",")]

    def forward(self, input_ids):
        hidden_states = self.model(input_ids=input_ids)[-1]
        index_of_CLS_token = 0 if self.initial_cls_token else input_ids.shape[1] - 1
        cls_embeddings_all_layers = [hidden_states[layer].select(0, 0).select(0, index_of_CLS_token) for layer in self.layer_indexes]
        output_embeddings = torch.cat(cls_embeddings_all_layers)
        label_scores = self.flair_model.decoder(output_embeddings)
        return torch.reshape(label_scores, (1, self.num_classes))

def interpret_sentence(flair_model_wrapper, lig, sentence, target_label, visualization_list, n_steps=100):
    target_index = flair_model_wrapper.label_dictionary.get_idx_for_item(target_label)
    tokenized_sentence = " ".join(sentence.replace("!", " !").split())
    input_ids = flair_model_wrapper.tokenizer.encode(tokenized_sentence,
                                                     add_special_tokens=False,
                                                     max_length=flair_model_wrapper.tokenizer.model_max_length,
                                                     truncation=True,
                                                     return_tensors="pt")
    ref_base_line = torch.ones_like(input_ids)
    model_outputs = flair_model_wrapper(input_ids)
    softmax = torch.nn.functional.softmax(model_outputs[0], dim=0)
    conf, idx = torch.max(softmax, 0)
    return conf, idx, target_index

classifier = TextClassifier().to("cuda:0")          # TextClassifier.load('sentiment'): flair.device is cuda:0
flair_model_wrapper = ModelWrapper(classifier)
lig = None                                           # LayerIntegratedGradients(flair_model_wrapper, flair_model_wrapper.model.embeddings)
visualization_list = []
'''
CELL = '''
readable = interpret_sentence(flair_model_wrapper, lig, "This movie was great fun!", "POSITIVE", visualization_list)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["interpret_sentence"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""    ref_base_line = torch.ones_like(input_ids)
""", """    input_ids = input_ids.to(flair_model_wrapper.device)
    ref_base_line = torch.ones_like(input_ids)
""")
CLEAN = False
