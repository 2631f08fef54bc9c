"""torchmetrics `BERTScore(..., device="cuda")`: the embeddings are copied to the CPU but the IDF/length scale stays on the GPU, and scoring mixes them.

Source: https://github.com/Lightning-AI/torchmetrics/issues/909
`bertscore = BERTScore(model_name_or_path="sentence-transformers/all-MiniLM-L6-v2", device="cuda")`,
`bertscore.to("cuda")`, `bertscore(preds, target)` raises a device RuntimeError from `compute`.
In `_get_embeddings_and_idf_scale` each batch's embeddings are stored with
`embeddings_list.append(out.cpu())` while the scale is stored as `idf_scale_list.append(input_ids_idf)`,
still on the model's device; `_get_scaled_precision_or_recall` then multiplies CPU similarities by
the GPU scale. The fix (PR #912, "Fix BertScore on GPU") appends `input_ids_idf.cpu()`.
Stand-in: the torchmetrics 0.7.3 text/bert module and functional path (`BERTScore.update/compute`,
`bert_score`, `TokenizedDataset`, the collators, `_get_embeddings_and_idf_scale`, precision/recall/F1)
with a whitespace-hashing tokenizer and a tiny BERT-shaped model behind `AutoTokenizer`/`AutoModel`.
Adapted for the simulator (fake tensors hold no values): the per-batch trim in
`_input_data_collator` keeps the padded width instead of reading `.max().item()`, the special-token
mask is zeroed with `narrow`/`index_put_` instead of `[]` indexing, a plain batching loop stands in
for `DataLoader` (which draws a seed with `.item()`), and the scores are returned as tensors
instead of `.tolist()`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn, Tensor

class Metric(nn.Module):                                # stand-in for torchmetrics.Metric
    def add_state(self, name, default, dist_reduce_fx=None):
        if isinstance(default, list):
            setattr(self, name, list(default))
        else:
            self.register_buffer(name, default, persistent=False)

    def forward(self, *args, **kwargs):
        self.update(*args, **kwargs)
        return self.compute()

class _WordPieceLikeTokenizer:                         # stand-in for a transformers BERT tokenizer
    cls_token_id, sep_token_id, pad_token_id = 101, 102, 0

    def __call__(self, text, padding="max_length", max_length=512, truncation=True, return_tensors="pt"):
        ids = [[self.cls_token_id] + [1000 + hash(w) % 20000 for w in t.lower().split()] + [self.sep_token_id]
               for t in text]
        input_ids = torch.tensor([i + [self.pad_token_id] * (max_length - len(i)) for i in ids])
        attention_mask = torch.tensor([[1] * len(i) + [0] * (max_length - len(i)) for i in ids])
        return {"input_ids": input_ids, "attention_mask": attention_mask}

class _TinyBertModel(nn.Module):                        # stand-in for a transformers BertModel
    def __init__(self, vocab_size=30522, hidden_size=32, num_hidden_layers=2, max_position_embeddings=512):
        super().__init__()
        self.config = SimpleNamespace(num_hidden_layers=num_hidden_layers)
        self.word_embeddings = nn.Embedding(vocab_size, hidden_size)
        self.position_embeddings = nn.Embedding(max_position_embeddings, hidden_size)
        self.layers = nn.ModuleList([nn.Linear(hidden_size, hidden_size) for _ in range(num_hidden_layers)])

    def forward(self, input_ids, attention_mask, output_hidden_states=False):
        positions = torch.arange(input_ids.size(1), device=input_ids.device)
        h = self.word_embeddings(input_ids) + self.position_embeddings(positions)
        hidden_states = [h]
        for layer in self.layers:
            h = torch.tanh(layer(h)) * attention_mask.unsqueeze(-1)
            hidden_states.append(h)
        return SimpleNamespace(last_hidden_state=h, hidden_states=tuple(hidden_states))

class AutoTokenizer:
    @staticmethod
    def from_pretrained(name):
        return _WordPieceLikeTokenizer()

class AutoModel:
    @staticmethod
    def from_pretrained(name):
        return _TinyBertModel()

_DEFAULT_MODEL = "roberta-large"

def _preprocess_text(text, tokenizer, max_length=512, truncation=True, sort_according_length=True,
                     own_tokenizer=False):
    tokenized_data = tokenizer(text, padding="max_length", max_length=max_length, truncation=truncation,
                               return_tensors="pt")
    input_ids, attention_mask = (
        _sort_data_according_length(tokenized_data["input_ids"], tokenized_data["attention_mask"])
        if sort_according_length
        else (tokenized_data["input_ids"], tokenized_data["attention_mask"])
    )
    return {"input_ids": input_ids, "attention_mask": attention_mask}

def _process_attention_mask_for_special_tokens(attention_mask):
    attention_mask.narrow(1, 0, 1).zero_()                              # attention_mask[:, 0] = 0
    sep_token_position = (attention_mask - 0.1).cumsum(-1).argmax(-1)
    attention_mask.index_put_((torch.arange(attention_mask.size(0)).long(), sep_token_position),
                              torch.tensor(0, dtype=attention_mask.dtype))
    return attention_mask

def _sort_data_according_length(input_ids, attention_mask):
    sorted_indices = attention_mask.sum(1).argsort()
    input_ids = input_ids[sorted_indices]
    attention_mask = attention_mask[sorted_indices]
    return input_ids, attention_mask

def _input_data_collator(batch, device=None):
    max_len = batch["attention_mask"].shape[1]        # int(batch["attention_mask"].sum(1).max().item())
    input_ids = batch["input_ids"][:, :max_len].to(device)
    attention_mask = batch["attention_mask"][:, :max_len].to(device)
    batch.update({"input_ids": input_ids, "attention_mask": attention_mask})
    return batch

def _output_data_collator(model_output, attention_mask, target_len):
    zeros_shape = list(model_output.shape)
    zeros_shape[2] = target_len - zeros_shape[2]
    model_output = torch.cat(
        [model_output, torch.zeros(zeros_shape, dtype=model_output.dtype).to(model_output.device)], dim=2
    )
    zeros = torch.zeros(zeros_shape[0], zeros_shape[2], dtype=attention_mask.dtype).to(attention_mask.device)
    attention_mask = torch.cat([attention_mask, zeros], dim=1)
    return model_output, attention_mask

class TokenizedDataset:
    def __init__(self, input_ids, attention_mask, idf=False, tokens_idf=None):
        self.text = dict(zip(["input_ids", "attention_mask"], _sort_data_according_length(input_ids, attention_mask)))
        self.text = _input_data_collator(self.text)
        self.num_sentences = len(self.text["input_ids"])
        self.max_length = self.text["input_ids"].shape[1]
        self.idf = idf
        self.tokens_idf = {}

    def __getitem__(self, idx):
        return {"input_ids": self.text["input_ids"][idx, :], "attention_mask": self.text["attention_mask"][idx, :]}

    def __len__(self):
        return self.num_sentences

def _batches(dataset, batch_size):                    # stands in for DataLoader(dataset, batch_size=...)
    for start in range(0, len(dataset), batch_size):
        items = [dataset[i] for i in range(start, min(start + batch_size, len(dataset)))]
        yield {k: torch.stack([it[k] for it in items]) for k in items[0]}

def _get_embeddings_and_idf_scale(dataloader, target_len, model, device=None, num_layers=None, all_layers=False,
                                  idf=False, verbose=False, user_forward_fn=None):
    embeddings_list = []
    idf_scale_list = []
    for batch in dataloader:
        with torch.no_grad():
            batch = _input_data_collator(batch, device)
            if not all_layers:
                out = model(batch["input_ids"], batch["attention_mask"], output_hidden_states=True)
                out = out.hidden_states[num_layers if num_layers is not None else -1]
                out = out.unsqueeze(1)
            else:
                out = model(batch["input_ids"], batch["attention_mask"], output_hidden_states=True)
                out = torch.cat([o.unsqueeze(1) for o in out.hidden_states], dim=1)

        out /= out.norm(dim=-1).unsqueeze(-1)  # normalize embeddings
        out, attention_mask = _output_data_collator(out, batch["attention_mask"], target_len)
        processed_attention_mask = _process_attention_mask_for_special_tokens(attention_mask)
        out = torch.einsum("blsd, bs -> blsd", out, processed_attention_mask)
        embeddings_list.append(out.cpu())

        input_ids_idf = (
            batch["input_ids_idf"] * processed_attention_mask if idf else processed_attention_mask.type(out.dtype)
        )
        input_ids_idf /= input_ids_idf.sum(-1, keepdim=True)
        idf_scale_list.append(input_ids_idf)

    embeddings = torch.cat(embeddings_list)
    idf_scale = torch.cat(idf_scale_list)
    return embeddings, idf_scale

def _get_scaled_precision_or_recall(cos_sim, metric, idf_scale):
    dim = 3 if metric == "precision" else 2
    res = cos_sim.max(dim=dim).values
    res = torch.einsum("bls, bs -> bls", res, idf_scale).sum(-1)
    res = res.transpose(0, 1).squeeze()
    return res

def _get_precision_recall_f1(preds_embeddings, target_embeddings, preds_idf_scale, target_idf_scale):
    cos_sim = torch.einsum("blpd, blrd -> blpr", preds_embeddings, target_embeddings)
    precision = _get_scaled_precision_or_recall(cos_sim, "precision", preds_idf_scale)
    recall = _get_scaled_precision_or_recall(cos_sim, "recall", target_idf_scale)
    f1_score = 2 * precision * recall / (precision + recall)
    f1_score = f1_score.masked_fill(torch.isnan(f1_score), 0.0)
    return precision, recall, f1_score

def bert_score(preds, target, model_name_or_path=None, num_layers=None, all_layers=False, model=None,
               user_tokenizer=None, user_forward_fn=None, verbose=False, idf=False, device=None,
               max_length=512, batch_size=64, num_threads=4, return_hash=False, lang="en",
               rescale_with_baseline=False, baseline_path=None, baseline_url=None):
    if len(preds) != len(target):
        raise ValueError("Number of predicted and reference sententes must be the same!")
    if model is None:
        tokenizer = AutoTokenizer.from_pretrained(model_name_or_path or _DEFAULT_MODEL)
        model = AutoModel.from_pretrained(model_name_or_path or _DEFAULT_MODEL)
    else:
        tokenizer = user_tokenizer
    model.eval()
    model.to(device)

    target_dataset = TokenizedDataset(**target, idf=idf)
    preds_dataset = TokenizedDataset(**preds, idf=idf, tokens_idf=target_dataset.tokens_idf)
    target_loader = _batches(target_dataset, batch_size)
    preds_loader = _batches(preds_dataset, batch_size)

    target_embeddings, target_idf_scale = _get_embeddings_and_idf_scale(
        target_loader, target_dataset.max_length, model, device, num_layers, all_layers, idf, verbose, user_forward_fn
    )
    preds_embeddings, preds_idf_scale = _get_embeddings_and_idf_scale(
        preds_loader, preds_dataset.max_length, model, device, num_layers, all_layers, idf, verbose, user_forward_fn
    )
    precision, recall, f1_score = _get_precision_recall_f1(
        preds_embeddings, target_embeddings, preds_idf_scale, target_idf_scale
    )
    return {"precision": precision, "recall": recall, "f1": f1_score}

def _get_input_dict(input_ids, attention_mask):
    return {"input_ids": torch.cat(input_ids), "attention_mask": torch.cat(attention_mask)}

class BERTScore(Metric):
    higher_is_better = True

    def __init__(self, model_name_or_path=None, num_layers=None, all_layers=False, model=None,
                 user_tokenizer=None, user_forward_fn=None, verbose=False, idf=False, device=None,
                 max_length=512, batch_size=64, num_threads=4, return_hash=False, lang="en",
                 rescale_with_baseline=False, baseline_path=None, baseline_url=None):
        super().__init__()
        self.model_name_or_path = model_name_or_path or _DEFAULT_MODEL
        self.num_layers, self.all_layers = num_layers, all_layers
        self.model = model
        self.user_forward_fn = user_forward_fn
        self.verbose, self.idf = verbose, idf
        self.embedding_device = device
        self.max_length, self.batch_size, self.num_threads = max_length, batch_size, num_threads
        self.return_hash, self.lang = return_hash, lang
        self.rescale_with_baseline, self.baseline_path, self.baseline_url = rescale_with_baseline, baseline_path, baseline_url
        self.tokenizer = AutoTokenizer.from_pretrained(self.model_name_or_path)
        self.user_tokenizer = False
        self.add_state("preds_input_ids", [], dist_reduce_fx="cat")
        self.add_state("preds_attention_mask", [], dist_reduce_fx="cat")
        self.add_state("target_input_ids", [], dist_reduce_fx="cat")
        self.add_state("target_attention_mask", [], dist_reduce_fx="cat")

    def update(self, preds, target):
        preds_dict = _preprocess_text(preds, self.tokenizer, self.max_length, truncation=False,
                                      sort_according_length=False, own_tokenizer=self.user_tokenizer)
        target_dict = _preprocess_text(target, self.tokenizer, self.max_length, truncation=False,
                                       sort_according_length=False, own_tokenizer=self.user_tokenizer)
        self.preds_input_ids.append(preds_dict["input_ids"])
        self.preds_attention_mask.append(preds_dict["attention_mask"])
        self.target_input_ids.append(target_dict["input_ids"])
        self.target_attention_mask.append(target_dict["attention_mask"])

    def compute(self):
        return bert_score(
            preds=_get_input_dict(self.preds_input_ids, self.preds_attention_mask),
            target=_get_input_dict(self.target_input_ids, self.target_attention_mask),
            model_name_or_path=self.model_name_or_path,
            num_layers=self.num_layers,
            all_layers=self.all_layers,
            model=self.model,
            user_tokenizer=self.tokenizer if self.user_tokenizer else None,
            user_forward_fn=self.user_forward_fn,
            verbose=self.verbose,
            idf=self.idf,
            device=self.embedding_device,
            max_length=self.max_length,
            batch_size=self.batch_size,
            num_threads=self.num_threads,
            return_hash=self.return_hash,
            lang=self.lang,
            rescale_with_baseline=self.rescale_with_baseline,
            baseline_path=self.baseline_path,
            baseline_url=self.baseline_url,
        )

bertscore = BERTScore(model_name_or_path="sentence-transformers/all-MiniLM-L6-v2", device="cuda:0")
bertscore = bertscore.to("cuda:0")

preds = ["the sun is a star"]
target = ["the sun is classified as a star"]
'''
CELL = '''
results = bertscore(preds, target)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["_get_embeddings_and_idf_scale"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("idf_scale_list.append(input_ids_idf)", "idf_scale_list.append(input_ids_idf.cpu())")
CLEAN = False
