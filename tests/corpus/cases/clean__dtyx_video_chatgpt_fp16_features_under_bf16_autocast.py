"""Look-alike: Video-ChatGPT trains a float32 model on float16 CLIP features, and the Trainer's bf16 autocast reconciles them.

Source: https://github.com/mbzuai-oryx/Video-ChatGPT/blob/main/video_chatgpt/train/train.py
The features written by scripts/save_spatio_temporal_clip_features.py are float16 arrays; the
collator wraps them with `torch.tensor`; the model is loaded without `torch_dtype` (float32) and
`mm_projector` is an `nn.Linear`. With the documented `--bf16 True` the Trainer runs the forward
under autocast, where the projector's matmul runs in bf16 and the float16 batch is a deliberate
storage format. Stand-in: the collator, a small LLaMA-like model with `embed_tokens` and
`mm_projector`, and a Trainer whose `training_step` enters autocast for `args.bf16`/`args.fp16`.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import contextlib
from dataclasses import dataclass
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
IGNORE_INDEX = -100

@dataclass
class TrainingArguments:
    output_dir: str = "./Video-ChatGPT_7B-1.1_Checkpoints"
    bf16: bool = False
    fp16: bool = False
    tf32: bool = False
    learning_rate: float = 2e-5
    device: torch.device = torch.device("cpu")

class VideoChatGPTLlamaForCausalLM(nn.Module):
    """Stand-in: token embeddings + mm_projector (1024 -> hidden) + a one-layer decoder and lm_head."""
    def __init__(self, vocab_size=320, hidden_size=64, mm_hidden_size=1024, vid_patch_token=319):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.mm_projector = nn.Linear(mm_hidden_size, hidden_size)
        self.layer = nn.Linear(hidden_size, hidden_size)
        self.lm_head = nn.Linear(hidden_size, vocab_size, bias=False)
        self.vid_patch_token = vid_patch_token

    def forward(self, input_ids, labels=None, attention_mask=None, video_spatio_temporal_features=None):
        inputs_embeds = self.embed_tokens(input_ids)
        if video_spatio_temporal_features is not None:
            video_features = self.mm_projector(video_spatio_temporal_features)
            new_input_embeds = []
            for cur_input_ids, cur_input_embeds, cur_video_features in zip(input_ids, inputs_embeds, video_features):
                is_patch = (cur_input_ids == self.vid_patch_token)
                n = int(is_patch.sum())
                cur_new = torch.cat([cur_video_features[:n].to(cur_input_embeds.dtype), cur_input_embeds[n:]], dim=0)
                new_input_embeds.append(cur_new)
            inputs_embeds = torch.stack(new_input_embeds, dim=0)
        hidden = torch.tanh(self.layer(inputs_embeds))
        logits = self.lm_head(hidden)
        loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)).float(), labels[:, 1:].reshape(-1),
                               ignore_index=IGNORE_INDEX)
        return {"loss": loss, "logits": logits}

@dataclass
class DataCollatorForSupervisedDataset(object):
    """Collate examples for supervised fine-tuning."""
    pad_token_id: int = 0

    def __call__(self, instances):
        input_ids, labels = tuple([instance[key] for instance in instances]
                                  for key in ("input_ids", "labels"))
        input_ids = torch.nn.utils.rnn.pad_sequence(input_ids, batch_first=True, padding_value=self.pad_token_id)
        labels = torch.nn.utils.rnn.pad_sequence(labels, batch_first=True, padding_value=IGNORE_INDEX)
        batch = dict(input_ids=input_ids, labels=labels, attention_mask=input_ids.ne(self.pad_token_id))

        if 'video' in instances[0]:
            features = [torch.tensor(instance['video']) for instance in instances]
            if all(x is not None and x.shape == features[0].shape for x in features):
                batch['video_spatio_temporal_features'] = torch.stack(features)
            else:
                batch['video_spatio_temporal_features'] = features

        return batch

class VideoChatGPTTrainer:
    """Stand-in for the transformers Trainer step used by train_mem.py."""
    def __init__(self, model, args, data_collator):
        self.model, self.args, self.data_collator = model, args, data_collator
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate)

    def autocast_smart_context_manager(self):
        if self.args.fp16 or self.args.bf16:
            dtype = torch.float16 if self.args.fp16 else torch.bfloat16
            return torch.autocast(device_type=self.args.device.type, dtype=dtype)
        return contextlib.nullcontext()

    def compute_loss(self, model, inputs):
        return model(**inputs)["loss"]

    def training_step(self, model, inputs):
        model.train()
        with self.autocast_smart_context_manager():
            loss = self.compute_loss(model, inputs)
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return loss.detach()

# two samples: 356 video patch tokens (100 temporal + 256 spatial) followed by text; features from the
# pickles written by save_spatio_temporal_clip_features.py (float16)
instances = []
for i in range(2):
    ids = torch.cat([torch.full((356,), 319), torch.randint(1, 300, (24 + i,))])
    instances.append({"input_ids": ids, "labels": ids.clone(),
                      "video": np.random.randn(356, 1024).astype("float16")})

training_args = TrainingArguments(bf16=True, tf32=True)   # docs/train_video_chatgpt.md: --bf16 True --tf32 True
model = VideoChatGPTLlamaForCausalLM()
data_collator = DataCollatorForSupervisedDataset()
trainer = VideoChatGPTTrainer(model=model, args=training_args, data_collator=data_collator)
batch = data_collator(instances)
'''
CELL = '''
loss = trainer.training_step(model, batch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
