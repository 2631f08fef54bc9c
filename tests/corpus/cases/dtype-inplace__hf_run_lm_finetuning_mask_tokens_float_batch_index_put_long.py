"""run_lm_finetuning.py `--line_by_line` (CamemBERT MLM): after hours of training, `mask_tokens` fails writing Long random words into a Float batch.

Source: https://github.com/huggingface/transformers/issues/2728
The reporter fine-tunes an Italian CamemBERT language model with run_lm_finetuning.py and `--line_by_line`; at a
random point in training the line `inputs[indices_random] = random_words[indices_random]` in `mask_tokens()`
raises "RuntimeError: expected dtype Float but got dtype Long" (today: "Index put requires the source and
destination dtypes match"). The batch reaching mask_tokens is a float tensor: LineByLineTextDataset returns
`torch.tensor(example)` and the collate `pad_sequence` takes the dtype of the batch's first tensor, so a batch
whose first example is empty (`torch.tensor([])` is float32) comes out float. The reporter's workaround, and the
maintainer's patch, cast the inputs to long. Stand-ins: the dataset/collate/mask_tokens of the script, a toy
tokenizer; the failing batch is built directly.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
from types import SimpleNamespace
import torch
from torch.nn.utils.rnn import pad_sequence

class CamembertTokenizer:
    mask_token, pad_token_id = "<mask>", 1
    def __len__(self):
        return 32005
    def convert_tokens_to_ids(self, token):
        return 32004
    def get_special_tokens_mask(self, ids, already_has_special_tokens=True):
        return [1 if i in (0, 2) else 0 for i in ids]

class LineByLineTextDataset:
    def __init__(self, examples):
        self.examples = examples
    def __len__(self):
        return len(self.examples)
    def __getitem__(self, i):
        return torch.tensor(self.examples[i])

def collate(examples):
    return pad_sequence(examples, batch_first=True, padding_value=tokenizer.pad_token_id)

def mask_tokens(inputs, tokenizer, args):
    labels = inputs.clone()
    probability_matrix = torch.full(labels.shape, args.mlm_probability)
    special_tokens_mask = [tokenizer.get_special_tokens_mask(val, already_has_special_tokens=True) for val in labels.tolist()]
    probability_matrix.masked_fill_(torch.tensor(special_tokens_mask, dtype=torch.bool), value=0.0)
    masked_indices = torch.bernoulli(probability_matrix).bool()
    labels[~masked_indices] = -100
    indices_replaced = torch.bernoulli(torch.full(labels.shape, 0.8)).bool() & masked_indices
    inputs[indices_replaced] = tokenizer.convert_tokens_to_ids(tokenizer.mask_token)
    # 10% of the time, we replace masked input tokens with random word
    indices_random = torch.bernoulli(torch.full(labels.shape, 0.5)).bool() & masked_indices & ~indices_replaced
    random_words = torch.randint(len(tokenizer), labels.shape, dtype=torch.long)
    inputs[indices_random] = random_words[indices_random]
    return inputs, labels

torch.manual_seed(0)
tokenizer = CamembertTokenizer()
args = SimpleNamespace(mlm_probability=0.9, line_by_line=True, block_size=512)
train_dataset = LineByLineTextDataset([[], [0, 1250, 34, 988, 4031, 2], [0, 77, 19, 540, 2], [0, 6021, 11, 2]])
batch = collate([train_dataset[i] for i in range(len(train_dataset))])   # one DataLoader batch
'''
CELL = '''
inputs, labels = mask_tokens(batch, tokenizer, args)
'''
EXPECT_ERROR = ("Index put requires the source and destination dtypes match", "expected dtype Float but got dtype Long")
CULPRITS = ["batch"]
FIX = "namespace"
REFERENCE_FIX = '''
batch = batch.long()
'''
REFERENCE_EDIT = None
CLEAN = False
