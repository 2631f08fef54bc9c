"""X-R1 GRPO with vLLM generation: the tokenized prompts stay on the CPU while the completions are built on the GPU.

Source: https://github.com/dhcode-cpp/X-R1/issues/21
Training `src/x_r1/grpo.py` with `use_vllm: true` crashed in `XGRPOTrainer._prepare_inputs` at
`prompt_completion_ids = torch.cat([prompt_ids, completion_ids], dim=1)` with "RuntimeError: Expected
all tensors to be on the same device, but found at least two devices, cpu and cuda:0! (when checking
argument for argument tensors in method wrapper_CUDA_cat)". In the vLLM branch the prompts from the
tokenizer were never moved (only the regular-generation branch did `prompt_ids.to(device)`), while
`completion_ids` are built with `device=device`. The maintainer's fix (commit ae880e8, "fix
x_grpo_traininer different device bug") adds `prompt_ids = prompt_ids.to(device)` and
`prompt_mask = prompt_mask.to(device)` before the concatenation.
Stand-ins: the tokenizer, accelerate's Accelerator/gather helpers, the vLLM `LLM` and trl's `pad`,
with X-R1's `_prepare_inputs` reduced to the vLLM path up to the attention mask.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from types import SimpleNamespace
import torch
from torch.nn.utils.rnn import pad_sequence

class Tokenizer:
    """Stand-in for the HF tokenizer: left-padded CPU tensors, as `return_tensors="pt"` gives."""
    pad_token_id = 0
    eos_token_id = 2

    def __call__(self, texts, return_tensors="pt", padding=True, padding_side="left", add_special_tokens=False):
        ids = [[3 + ord(c) % 90 for c in t] for t in texts]
        width = max(len(x) for x in ids)
        input_ids = torch.tensor([[self.pad_token_id] * (width - len(x)) + x for x in ids])
        attention_mask = torch.tensor([[0] * (width - len(x)) + [1] * len(x) for x in ids])
        return {"input_ids": input_ids, "attention_mask": attention_mask}

class Accelerator:
    """Stand-in for accelerate.Accelerator on one process."""
    device = torch.device("cuda:0")
    process_index = 0
    is_main_process = True

def gather_object(obj):
    return list(obj)

def broadcast_object_list(obj, from_process=0):
    return obj

def pad(tensors, padding_value=0):
    # trl.trainer.utils.pad, right padding
    return pad_sequence(tensors, batch_first=True, padding_value=padding_value)

class LLM:
    """Stand-in for vllm.LLM: returns token ids as Python lists."""
    def generate(self, prompts, sampling_params=None, use_tqdm=False):
        outs = []
        for i, p in enumerate(prompts):
            token_ids = [5 + (i + k) % 40 for k in range(6 + i % 3)] + [2]
            outs.append(SimpleNamespace(prompt=p, outputs=[SimpleNamespace(token_ids=token_ids)]))
        return outs

class XGRPOTrainer:
    def __init__(self, args, processing_class):
        self.args = args
        self.processing_class = processing_class
        self.accelerator = Accelerator()
        self.llm = LLM()
        self.sampling_params = None
        self.max_prompt_length = args.max_prompt_length

    def _prepare_inputs(self, inputs):
        device = self.accelerator.device
        prompts = [x["prompt"] for x in inputs]
        prompts_text = prompts
        prompt_inputs = self.processing_class(
            prompts_text, return_tensors="pt", padding=True, padding_side="left", add_special_tokens=False
        )
        prompt_ids, prompt_mask = prompt_inputs["input_ids"], prompt_inputs["attention_mask"]

        if self.max_prompt_length is not None:
            prompt_ids = prompt_ids[:, -self.max_prompt_length :]
            prompt_mask = prompt_mask[:, -self.max_prompt_length :]

        if self.args.use_vllm:
            all_prompts_text = gather_object(prompts_text)
            if self.accelerator.is_main_process:
                outputs = self.llm.generate(all_prompts_text, sampling_params=self.sampling_params, use_tqdm=False)
                completion_ids = [out.token_ids for completions in outputs for out in completions.outputs]
            else:
                completion_ids = [None] * len(all_prompts_text)
            completion_ids = broadcast_object_list(completion_ids, from_process=0)
            process_slice = slice(
                self.accelerator.process_index * len(prompts),
                (self.accelerator.process_index + 1) * len(prompts),
            )
            completion_ids = completion_ids[process_slice]

            # Pad the completions, and concatenate them with the prompts
            completion_ids = [torch.tensor(ids, device=device) for ids in completion_ids]
            completion_ids = pad(completion_ids, padding_value=self.processing_class.pad_token_id)
            prompt_completion_ids = torch.cat([prompt_ids, completion_ids], dim=1)
        else:
            raise NotImplementedError("stand-in: only the vLLM generation path is reproduced")

        completion_mask = completion_ids.ne(self.processing_class.pad_token_id).int()
        attention_mask = torch.cat([prompt_mask, completion_mask], dim=1)  # (B*G, P+C)
        return {
            "prompt_completion_ids": prompt_completion_ids,
            "attention_mask": attention_mask,
            "logits_to_keep": completion_ids.size(1),
        }

training_args = SimpleNamespace(use_vllm=True, max_prompt_length=256, num_generations=4)
trainer = XGRPOTrainer(training_args, processing_class=Tokenizer())
batch = [{"prompt": "What is 2 + 3?"}, {"prompt": "Compute 12 * 7."},
         {"prompt": "What is 2 + 3?"}, {"prompt": "Compute 12 * 7."}]
'''
CELL = '''
inputs = trainer._prepare_inputs(batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["trainer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "            prompt_completion_ids = torch.cat([prompt_ids, completion_ids], dim=1)\n",
    "            prompt_ids = prompt_ids.to(device)\n"
    "            prompt_mask = prompt_mask.to(device)\n"
    "            prompt_completion_ids = torch.cat([prompt_ids, completion_ids], dim=1)\n",
)
CLEAN = False
