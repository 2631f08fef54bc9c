"""Look-alike: OpenRLHF's RewardModel normalizes rewards with `mean`/`std` non-persistent buffers; `.to(device)` moves them.

Source: https://github.com/OpenRLHF/OpenRLHF/blob/v0.5.7/openrlhf/models/model.py
`_get_reward_model(...).RewardModel.__init__` does `self.register_buffer("mean", torch.zeros(1),
persistent=False)` (and `std`), fills them from config.json (`self.mean[0] = config.mean`), and
`forward` ends with `reward = (reward - self.mean) / self.std` in eval mode with `normalize_reward`.
Non-persistent buffers are not in the checkpoint but are still module buffers, so moving the model
to the GPU moves them; the EOS index is computed on the mask's device and gathered there.
Stand-ins: the backbone (LlamaModel -> a tiny embedding + layer returning `last_hidden_state`) and
the config; the RewardModel class body follows the file (packing/ring-attention branch omitted).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from typing import Optional
import torch
import torch.nn as nn

class AutoConfig:
    def __init__(self, hidden_size=16, vocab_size=64, normalize_reward=True, mean=0.31, std=1.7):
        self.hidden_size = hidden_size
        self.vocab_size = vocab_size
        self.normalize_reward = normalize_reward
        self.mean = mean
        self.std = std

class LlamaPreTrainedModel(nn.Module):
    base_model_prefix = "model"
    def __init__(self, config):
        super().__init__()
        self.config = config

class LlamaModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size)
        self.layer = nn.Linear(config.hidden_size, config.hidden_size)
    def forward(self, input_ids, attention_mask=None, position_ids=None):
        h = torch.tanh(self.layer(self.embed_tokens(input_ids)))
        return {"last_hidden_state": h}

def _get_reward_model(base_pretrained_model, base_llm_model, value_head_prefix="score", packing_samples=False):
    class RewardModel(base_pretrained_model):
        supports_gradient_checkpointing = True

        def __init__(self, config: AutoConfig):
            super().__init__(config)
            setattr(self, self.base_model_prefix, base_llm_model(config))

            self.value_head_prefix = value_head_prefix
            setattr(self, value_head_prefix, nn.Linear(config.hidden_size, 1, bias=False))

            self.packing_samples = packing_samples

            # mean std
            self.normalize_reward = config.normalize_reward
            self.register_buffer("mean", torch.zeros(1), persistent=False)
            self.register_buffer("std", torch.ones(1), persistent=False)

            # load mean/std from config.json
            if hasattr(config, "mean"):
                self.mean[0] = config.mean
                self.std[0] = config.std

        def forward(
            self,
            input_ids: torch.LongTensor = None,
            attention_mask: Optional[torch.Tensor] = None,
            return_output=False,
        ) -> torch.Tensor:
            # https://github.com/OpenLLMAI/OpenRLHF/issues/217
            position_ids = attention_mask.long().cumsum(-1) - 1
            position_ids.masked_fill_(attention_mask == 0, 1)
            outputs = getattr(self, self.base_model_prefix)(
                input_ids, attention_mask=attention_mask, position_ids=position_ids
            )
            last_hidden_states = outputs["last_hidden_state"]
            values = getattr(self, self.value_head_prefix)(last_hidden_states).squeeze(-1)

            eos_indices = attention_mask.size(1) - 1 - attention_mask.long().fliplr().argmax(dim=1, keepdim=True)
            reward = values.gather(dim=1, index=eos_indices).squeeze(1)

            if not self.training and self.normalize_reward:
                reward = (reward - self.mean) / self.std

            return (reward, outputs) if return_output else reward

    return RewardModel

config = AutoConfig()
RewardModel = _get_reward_model(LlamaPreTrainedModel, LlamaModel)
reward_model = RewardModel(config).to(torch.bfloat16).to("cuda:0")
reward_model.eval()
sequences = torch.randint(1, 64, (4, 20), device="cuda:0")
attention_mask = torch.ones(4, 20, dtype=torch.long, device="cuda:0")
attention_mask[:, :3] = 0   # left padding of the prompts
'''
CELL = '''
with torch.no_grad():
    r = reward_model(sequences, attention_mask)
rewards = r.float()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
