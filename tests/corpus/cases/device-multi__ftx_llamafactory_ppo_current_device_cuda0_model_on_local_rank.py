"""LLaMA-Factory PPO under DeepSpeed: trl's PPOTrainer pins `current_device` to cuda:0 while the rank-1 model sits on cuda:1.

Source: https://github.com/hiyouga/LlamaFactory/pull/2746
"fix deepspeed ppo RuntimeError: Expected all tensors to be on the same device": LLaMA-Factory loads
the policy with `device_map={"": get_current_device()}` (cuda:LOCAL_RANK); trl's PPOTrainer sees an
`hf_device_map`, treats the model as sequentially parallel and sets `self.current_device =
torch.device("cuda:0")`, so on every rank but 0 the queries are moved to cuda:0 before
`generate`. hiyouga's fix keeps the device map and patches the trainer:
`self.current_device = get_current_device()`. Stand-ins: a tiny value-head causal LM, the
loader, and the two trainer methods that matter (the trainer's `__init__` and `get_inputs`).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import os
import torch
from torch import nn

os.environ["LOCAL_RANK"] = "1"          # this notebook replays rank 1 of `deepspeed --num_gpus 2`

def get_current_device():
    return torch.device("cuda:{}".format(os.environ.get("LOCAL_RANK", "0")))

class AutoModelForCausalLMWithValueHead(nn.Module):
    def __init__(self, vocab_size=100, hidden=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden)
        self.lm_head = nn.Linear(hidden, vocab_size, bias=False)
        self.v_head = nn.Linear(hidden, 1)

    def forward(self, input_ids):
        h = torch.tanh(self.embed_tokens(input_ids))
        return self.lm_head(h), None, self.v_head(h).squeeze(-1)

    @torch.no_grad()
    def generate(self, input_ids, max_new_tokens=4):
        for _ in range(max_new_tokens):
            logits, _, _ = self(input_ids)
            next_token = logits.mean(1).argmax(-1, keepdim=True)   # (greedy on the last position in trl)
            input_ids = torch.cat([input_ids, next_token], dim=-1)
        return input_ids

def load_model(model_args):
    model = AutoModelForCausalLMWithValueHead()
    device_map = {"": get_current_device()}
    model.hf_device_map = device_map
    return model.to(device_map[""])

class PPOTrainer:
    """trl.PPOTrainer (0.7.x): device selection in __init__."""
    def __init__(self, config, model, ref_model=None, tokenizer=None):
        self.config, self.model = config, model
        self.is_distributed = True
        if not getattr(self.model, "is_sequential_parallel", hasattr(model, "hf_device_map")):
            self.current_device = get_current_device()        # accelerator.device
        else:
            self.current_device = torch.device("cuda:0")

class CustomPPOTrainer(PPOTrainer):
    def get_inputs(self, batch):
        queries = batch["input_ids"].to(self.current_device)
        generate_output = self.model.generate(queries)
        return generate_output[:, queries.size(1):]

model = load_model({"model_name_or_path": "Baichuan2-13B-Chat"})
ppo_trainer = CustomPPOTrainer(config={"mini_batch_size": 2}, model=model)
batch = {"input_ids": torch.randint(0, 100, (2, 6))}
'''
CELL = '''
mini_batch_responses = ppo_trainer.get_inputs(batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["ppo_trainer"]
FIX = "namespace"
REFERENCE_FIX = '''
ppo_trainer.current_device = get_current_device()   # patch for deepspeed training
'''
REFERENCE_EDIT = None
CLEAN = False
