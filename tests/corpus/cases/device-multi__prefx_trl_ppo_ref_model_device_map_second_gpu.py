"""TRL PPOTrainer: the reference model loaded with `device_map={"": 1}` gets the policy's cuda:0 inputs.

Source: https://github.com/huggingface/trl/issues/532
To save memory the user loaded the active model with `device_map={"": 0}` and the reference model
(passed to PPOTrainer) with `device_map={"": 1}`. `PPOTrainer.step` builds the padded model inputs
once on the trainer's device (`self.current_device`, the policy's GPU) and runs both the model and
`self.ref_model` on them, so computing `ref_logprobs` fails with cuda:1 vs cuda:0: the trainer
assumes all of its models sit on one device. Keeping the ref model on the policy's GPU runs.
Stand-ins: AutoModelForCausalLMWithValueHead (tiny), PPOTrainer.step reduced to the two forward passes.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class AutoModelForCausalLMWithValueHead(nn.Module):
    def __init__(self, vocab_size=64, hidden=16):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden)
        self.body = nn.Linear(hidden, hidden)
        self.lm_head = nn.Linear(hidden, vocab_size, bias=False)
        self.v_head = nn.Linear(hidden, 1)

    @classmethod
    def from_pretrained(cls, name, torch_dtype=torch.float32, device_map=None, use_cache=False):
        model = cls().to(torch_dtype)
        if device_map is not None:
            model = model.to(f"cuda:{device_map['']}")
            model.hf_device_map = dict(device_map)
        return model

    def forward(self, input_ids, attention_mask=None):
        h = torch.tanh(self.body(self.embed_tokens(input_ids)))
        return self.lm_head(h), None, self.v_head(h).squeeze(-1)

def logprobs_from_logits(logits, labels):
    logp = F.log_softmax(logits, dim=2)
    return torch.gather(logp, 2, labels.unsqueeze(2)).squeeze(-1)

class PPOConfig:
    def __init__(self, model_name, batch_size=4, mini_batch_size=4):
        self.model_name = model_name
        self.batch_size = batch_size
        self.mini_batch_size = mini_batch_size

class PPOTrainer:
    def __init__(self, config, model, ref_model, tokenizer=None):
        self.config = config
        self.model = model
        self.ref_model = ref_model
        self.current_device = torch.device("cuda:0")
        self.pad_token_id = 0

    def prepare_model_inputs(self, queries, responses):
        input_ids = [torch.cat([q, r]) for q, r in zip(queries, responses)]
        max_len = max(len(x) for x in input_ids)
        batch = torch.full((len(input_ids), max_len), self.pad_token_id, dtype=torch.long)
        mask = torch.zeros((len(input_ids), max_len), dtype=torch.long)
        for i, x in enumerate(input_ids):
            batch[i, : len(x)] = x
            mask[i, : len(x)] = 1
        return {"input_ids": batch.to(self.current_device), "attention_mask": mask.to(self.current_device)}

    def batched_forward_pass(self, model, queries, responses, model_inputs):
        logits, _, values = model(**model_inputs)
        logprobs = logprobs_from_logits(logits[:, :-1, :], model_inputs["input_ids"][:, 1:])
        return logprobs, values

    def step(self, queries, responses, scores):
        model_inputs = self.prepare_model_inputs(queries, responses)
        with torch.no_grad():
            all_logprobs, values = self.batched_forward_pass(self.model, queries, responses, model_inputs)
            ref_logprobs, _ = self.batched_forward_pass(self.ref_model, queries, responses, model_inputs)
        kl = all_logprobs - ref_logprobs
        return {"objective/kl": kl.sum(-1).mean(), "ppo/mean_scores": torch.stack(scores).mean()}

config = PPOConfig(model_name="lvwerra/gpt2-imdb")
# load active model
model = AutoModelForCausalLMWithValueHead.from_pretrained(config.model_name, device_map={"": 0}, use_cache=False)
# load ref model (passed to PPOTrainer)
ref_model = AutoModelForCausalLMWithValueHead.from_pretrained(config.model_name, device_map={"": 1}, use_cache=False)
ppo_trainer = PPOTrainer(config, model, ref_model)
query_tensors = [torch.randint(1, 64, (6,), device="cuda:0") for _ in range(4)]
response_tensors = [torch.randint(1, 64, (8,), device="cuda:0") for _ in range(4)]
rewards = [torch.tensor(0.5, device="cuda:0") for _ in range(4)]
'''
CELL = '''
stats = ppo_trainer.step(query_tensors, response_tensors, rewards)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["ref_model"]
FIX = "namespace"
REFERENCE_FIX = '''
ref_model.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
