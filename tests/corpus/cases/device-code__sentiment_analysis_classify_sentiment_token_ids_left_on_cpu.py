"""barissayil/SentimentAnalysis `analyze.py` with the device lines uncommented: the BERT classifier goes to cuda:0, `classify_sentiment` builds the token ids on the CPU.

Source: https://github.com/barissayil/SentimentAnalysis/issues/31
"when I uncommented the choosing device part and tried to execute the analize.py, I received runtime
error, it seems some of the tensors are still on cpu": `device = torch.device("cuda:0" ...)` and
`net = net.to(device)`, but `classify_sentiment` makes `seq = torch.tensor(tokens_ids).unsqueeze(0)`
and its attention mask without a device, so BERT's embedding lookup fails ("... cuda:0 and cpu! (when
checking argument for argument index in method wrapper__index_select)"). The maintainer fixed it in a
new release. Stand-in: SentimentClassifier with a tiny BERT (embedding + encoder layer), a toy
tokenizer; the function returns the probability instead of printing it (no values in the simulation).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class TinyBertTokenizer:
    def __init__(self, words):
        self.vocab = {w: i for i, w in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]"] + words)}

    def tokenize(self, sentence):
        return sentence.lower().split()

    def convert_tokens_to_ids(self, tokens):
        return [self.vocab.get(t, 1) for t in tokens]

class TinyBert(nn.Module):
    def __init__(self, vocab_size, hidden=32):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, hidden)
        self.layer = nn.Sequential(nn.Linear(hidden, hidden), nn.GELU(), nn.LayerNorm(hidden))

    def forward(self, seq, attention_mask):
        h = self.embeddings(seq) * attention_mask.unsqueeze(-1)
        return (self.layer(h),)

class SentimentClassifier(nn.Module):
    def __init__(self, vocab_size=64, freeze_bert=True):
        super().__init__()
        self.bert_layer = TinyBert(vocab_size)
        if freeze_bert:
            for p in self.bert_layer.parameters():
                p.requires_grad = False
        self.cls_layer = nn.Linear(32, 1)

    def forward(self, seq, attn_masks):
        cont_reps = self.bert_layer(seq, attention_mask=attn_masks)[0]
        cls_rep = cont_reps.narrow(1, 0, 1).squeeze(1)
        return self.cls_layer(cls_rep)

tokenizer = TinyBertTokenizer("this movie was great terrible acting plot i loved it".split())
net = SentimentClassifier(vocab_size=len(tokenizer.vocab), freeze_bert=False)
device = torch.device("cuda:0")          # torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
net = net.to(device)
net.eval()

def classify_sentiment(sentence):
    with torch.no_grad():
        tokens = tokenizer.tokenize(sentence)
        tokens = ["[CLS]"] + tokens + ["[SEP]"]
        tokens_ids = tokenizer.convert_tokens_to_ids(tokens)
        seq = torch.tensor(tokens_ids)
        seq = seq.unsqueeze(0)
        attn_mask = (seq != 0).long()
        logit = net(seq, attn_mask)
        prob = torch.sigmoid(logit.unsqueeze(-1))
        return prob
'''
CELL = '''
prob = classify_sentiment("This movie was great , I loved it")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["seq"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("seq = torch.tensor(tokens_ids)", "seq = torch.tensor(tokens_ids, device=device)")
CLEAN = False
