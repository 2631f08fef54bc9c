"""BERT-NER (kamalkraj) with `--fp16`: `Ner.forward` re-packs the BERT output into `torch.zeros(..., dtype=torch.float32)`, so the half classifier gets float32.

Source: https://github.com/kamalkraj/BERT-NER/issues/41
"FP16 not working!": `run_ner.py --fp16` halves the model, then `logits = self.classifier(
sequence_output)` fails with "Expected object of scalar type Float but got scalar type Half for
argument #2 'mat2'". `Ner.forward` copies the first-subword vectors into `valid_output =
torch.zeros(batch_size, max_len, feat_dim, dtype=torch.float32, device='cuda')`, hard-coding float32
(the maintainer fixed it on the dev branch). Stand-in: BertForTokenClassification reduced to an
embedding + encoder layer; simulated on the CPU (the hard-coded `device='cuda'` becomes `'cpu'`).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class TinyBert(nn.Module):
    def __init__(self, vocab_size=100, hidden_size=32):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, hidden_size)
        self.token_type_embeddings = nn.Embedding(2, hidden_size)
        self.layer = nn.Sequential(nn.Linear(hidden_size, hidden_size), nn.GELU(), nn.LayerNorm(hidden_size))

    def forward(self, input_ids, token_type_ids=None, attention_mask=None, head_mask=None):
        h = self.word_embeddings(input_ids) + self.token_type_embeddings(token_type_ids)
        return (self.layer(h),)

class Ner(nn.Module):
    def __init__(self, num_labels, hidden_size=32, hidden_dropout_prob=0.1):
        super().__init__()
        self.num_labels = num_labels
        self.bert = TinyBert(hidden_size=hidden_size)
        self.dropout = nn.Dropout(hidden_dropout_prob)
        self.classifier = nn.Linear(hidden_size, num_labels)

    def forward(self, input_ids, token_type_ids=None, attention_mask=None, labels=None,
                valid_ids=None, attention_mask_label=None):
        sequence_output = self.bert(input_ids, token_type_ids, attention_mask, head_mask=None)[0]
        batch_size, max_len, feat_dim = sequence_output.shape
        valid_output = torch.zeros(batch_size, max_len, feat_dim, dtype=torch.float32, device='cpu')
        for i in range(batch_size):
            jj = -1
            for j in range(max_len):
                if valid_ids[i][j].item() == 1:
                    jj += 1
                    valid_output[i][jj] = sequence_output[i][j]
        sequence_output = self.dropout(valid_output)
        logits = self.classifier(sequence_output)
        if labels is not None:
            loss_fct = nn.CrossEntropyLoss(ignore_index=0)
            if attention_mask_label is not None:
                active_loss = attention_mask_label.view(-1) == 1
                active_logits = logits.view(-1, self.num_labels)[active_loss]
                active_labels = labels.view(-1)[active_loss]
                return loss_fct(active_logits.float(), active_labels)
            return loss_fct(logits.view(-1, self.num_labels).float(), labels.view(-1))
        return logits

label_list = ["O", "B-MISC", "I-MISC", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC", "[CLS]", "[SEP]"]
num_labels = len(label_list) + 1
model = Ner(num_labels)
fp16 = True
if fp16:
    model.half()
model.eval()
batch, seq = 2, 12
input_ids = torch.randint(1, 100, (batch, seq))
segment_ids = torch.zeros(batch, seq, dtype=torch.long)
input_mask = torch.ones(batch, seq, dtype=torch.long)
label_ids = torch.randint(1, num_labels, (batch, seq))
valid_ids = torch.ones(batch, seq, dtype=torch.long)
l_mask = torch.ones(batch, seq, dtype=torch.long)
'''
CELL = '''
loss = model(input_ids, segment_ids, input_mask, label_ids, valid_ids, l_mask)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected scalar type", "Expected object of scalar type")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("valid_output = torch.zeros(batch_size, max_len, feat_dim, dtype=torch.float32, device='cpu')",
                  "valid_output = torch.zeros(batch_size, max_len, feat_dim, dtype=sequence_output.dtype, device='cpu')")
CLEAN = False
